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
