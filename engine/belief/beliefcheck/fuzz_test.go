package beliefcheck

import (
	"bytes"
	"testing"
)

// FuzzRun feeds the fixture replay arbitrary bytes: malformed lines,
// schema-valid games whose moves the umpire refuses or whose answers differ,
// games from other start positions. It must report them, never panic.
func FuzzRun(f *testing.F) {
	f.Add([]byte(`{"id":"g","seed":1,"policy":"uniform","result":"*","termination":"ply_limit","start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","attempts":[{"ply":0,"fen":null,"color":"w","move":"e2e4","legal":true,"capture":null,"checks":[],"pawn_tries":0,"possible":20,"game_over":null}]}` + "\n"))
	f.Add([]byte(`{"id":"g","seed":1,"policy":"uniform","result":"*","termination":"ply_limit","start_fen":"8/8/8/8/8/8/8/K6k w - - 0 1","attempts":[]}` + "\n"))
	f.Add([]byte(`{"id":"g","seed":1,"policy":"uniform","result":"*","termination":"ply_limit","start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","attempts":[{"ply":0,"fen":null,"color":"w","move":"e2e5","legal":true,"capture":null,"checks":[],"pawn_tries":0,"possible":20,"game_over":null}]}` + "\n"))
	f.Add([]byte("\x1f\x8b\x08garbage"))
	f.Add([]byte("{\n}\n[1,2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep Report
		_ = Run(bytes.NewReader(data), Options{Keep: 3}, &rep)
		if rep.Violations != 0 {
			t.Errorf("%d violations on %q", rep.Violations, data)
		}
	})
}

// FuzzRunVariants feeds the variant fixture replay arbitrary bytes: it must
// report bad lines, never panic, and never find a belief unsound on games
// the umpire accepts.
func FuzzRunVariants(f *testing.F) {
	const start = `"start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"`
	f.Add([]byte(`{"id":"berkeley_any-0","variant":"berkeley_any","termination":"ply_limit",` + start + `,"attempts":[{"ply":0,"color":"w","move":"e2e4","answer":"REGULAR_MOVE","heard":true,"possible":20,"any":true},{"ply":1,"color":"b","move":"any","answer":"NO_ANY","heard":true,"possible":20,"any":true}]}` + "\n"))
	f.Add([]byte(`{"id":"crazykrieg-0","variant":"crazykrieg","termination":"ply_limit","start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1","attempts":[{"ply":0,"color":"w","move":"P@e4","answer":"NONSENSE","heard":false,"possible":20,"any":true}]}` + "\n"))
	f.Add([]byte(`{"id":"x","variant":"nope","termination":"ply_limit",` + start + `,"attempts":[]}` + "\n"))
	f.Add([]byte("\x1f\x8b\x08garbage"))
	f.Add([]byte("{\n}\n[1,2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep Report
		_ = RunVariants(bytes.NewReader(data), Options{Keep: 3}, &rep)
		if rep.Violations != 0 {
			t.Errorf("%d violations on %q", rep.Violations, data)
		}
	})
}
