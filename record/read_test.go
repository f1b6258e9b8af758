package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

const gameLine = `{"type":"game","game":3,"white":"kriegbot","black":"x","us":"white","base_min":2,"inc_s":12,"seed":17437761000903900699,"player":"mcts:approach=c","start":"2026-11-23T18:54:08.48Z"}`

func TestReadRecordTable(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want string // "" for success; else a part of the error, after "f:"
	}{
		{"game only", gameLine + "\n", ""},
		{"no newline at end", gameLine, ""},
		{"blank lines", "\n" + gameLine + "\n\n", ""},
		{"empty", "", "f: no game line"},
		{"not json", "hello\n", "f:1: not a JSON object"},
		{"broken json", `{"type":"game"` + "\n", "f:1: not valid JSON"},
		{"no type", `{"a":1}`, "f:1: no type"},
		{"first not game", `{"type":"clock","ours_ms":1,"theirs_ms":2}`, `f:1: the first line must be of type "game"`},
		{"two games", gameLine + "\n" + gameLine, "f:2: a second game line"},
		{"bad colour", strings.Replace(gameLine, `"white","base`, `"red","base`, 1), "f:1: us:"},
		{"seed as string", strings.Replace(gameLine, `17437761000903900699`, `"17437761000903900699"`, 1), ""},
		{"seed too big", strings.Replace(gameLine, `17437761000903900699`, `27437761000903900699`, 1), "f:1: seed:"},
		{"seed negative", strings.Replace(gameLine, `17437761000903900699`, `-1`, 1), "f:1: seed:"},
		{"seed fraction", strings.Replace(gameLine, `17437761000903900699`, `1.5`, 1), "f:1: seed:"},
		{"no seed", strings.Replace(gameLine, `"seed":17437761000903900699,`, ``, 1), "f:1: no seed"},
		{"no spec", strings.Replace(gameLine, `"mcts:approach=c"`, `""`, 1), "f:1: no player spec"},
		{"bad time", strings.Replace(gameLine, `"2026-11-23T18:54:08.48Z"`, `"yesterday"`, 1), "f:1: start:"},
		{"wrong field type", strings.Replace(gameLine, `"base_min":2`, `"base_min":"2"`, 1), "f:1: field base_min"},
		{"counts elsewhere", strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,"opponent_counts":"../../etc/x.kbm","opponent_counts_sha256":"`+strings.Repeat("0", 64)+`"`, 1), "f:1: opponent_counts"},
		{"counts no sum", strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,"opponent_counts":"x.kbm"`, 1), "f:1: opponent_counts"},
		{"counts beside", strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,"opponent_counts":"x.kbm","opponent_counts_sha256":"`+strings.Repeat("a", 64)+`"`, 1), ""},
		{"bad rules", strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,"rules":"fide"`, 1), `f:1: rules: umpire: unknown rules "fide"`},
		{"negative cap", strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,"rules":"icc","max_plies":-1`, 1), "f:1: max_plies -1"},
		{"unknown type", gameLine + "\n" + `{"type":"gossip"}`, `f:2: unknown line type "gossip"`},
		{"unknown field kept quiet", gameLine + "\n" + `{"type":"clock","ours_ms":1,"theirs_ms":2,"new":true}`, ""},
		{"clock missing", gameLine + "\n" + `{"type":"clock","ours_ms":1}`, "f:2: clock:"},
		{"bad t", gameLine + "\n" + `{"type":"clock","ours_ms":1,"theirs_ms":1,"t":"noon"}`, "f:2: t:"},
		{"attempt", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"nodes":9,"value":0.5,"top":[{"move":"e2e4","visits":5}]}}`, ""},
		{"attempt bad move", gameLine + "\n" + `{"type":"attempt","move":"e9e4"}`, `f:2: move "e9e4" is not a UCI move`},
		{"attempt null move", gameLine + "\n" + `{"type":"attempt","move":"0000"}`, `f:2: move "0000"`},
		{"attempt negative", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":-5}}`, "f:2: search: -5 iterations not in 0..1099511627776"},
		{"attempt iterations beyond any clock", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":1099511627777}}`, "f:2: search: 1099511627777 iterations not in"},
		{"attempt trees overflow their sum", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":2,"trees":[4611686018427387904,4611686018427387904,-9223372036854775808,2]}}`, "f:2: search: tree 1: 4611686018427387904 iterations not in"},
		{"attempt trees do not sum", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"trees":[2,2]}}`, "f:2: search: the trees' iterations sum to 4, not 5"},
		{"ponder negative tree", gameLine + "\n" + `{"type":"ponder","iterations":5,"trees":[6,-1]}`, "f:2: ponder: tree 2: -1 iterations not in"},
		{"attempt boards", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"boards":4096}}`, ""},
		{"attempt negative boards", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"boards":-1}}`, "f:2: search: -1 boards not in 0..4096"},
		{"attempt too many boards", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"boards":4097}}`, "f:2: search: 4097 boards not in 0..4096"},
		{"candidate chances", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"top":[{"move":"e2e4","p_mate":0.25,"p_mated":1,"p_repeat":0.5}]}}`, ""},
		{"candidate chance above 1", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"top":[{"move":"e2e4","p_repeat":1.5}]}}`, "f:2: search: candidate 1: p_repeat 1.5 is not a chance"},
		{"candidate chance negative", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"top":[{"move":"e2e4","p_illegal":-0.1}]}}`, "f:2: search: candidate 1: p_illegal -0.1 is not a chance"},
		{"candidate bad", gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"top":[{"move":"x"}]}}`, "f:2: search: candidate 1:"},
		{"answer illegal", gameLine + "\n" + `{"type":"answer","own":true,"move":"e2e5","legal":false,"referee":["Illegal move"]}`, ""},
		{"answer illegal words", gameLine + "\n" + `{"type":"answer","own":true,"move":"e2e5","legal":false,"referee":["0 pawn tries"]}`, `f:2: answer: an illegal attempt`},
		{"answer no own", gameLine + "\n" + `{"type":"answer","referee":["0 pawn tries"]}`, "f:2: answer: no own field"},
		{"answer no legal", gameLine + "\n" + `{"type":"answer","own":true,"move":"e2e4"}`, "f:2: answer: own answer without legal"},
		{"their move named", gameLine + "\n" + `{"type":"answer","own":false,"move":"e7e5"}`, "f:2: answer: the opponent's move is never known"},
		{"answer full", gameLine + "\n" + `{"type":"answer","own":false,"referee":["Pawn at e4 captured","Rank check","Knight check","2 pawn tries"]}`, ""},
		{"answer order", gameLine + "\n" + `{"type":"answer","own":false,"referee":["2 pawn tries","Rank check"]}`, "f:2: answer: referee words"},
		{"answer chatter", gameLine + "\n" + `{"type":"answer","own":false,"referee":["I gave him a rank check"]}`, "is not one referee announcement"},
		{"answer two items in one", gameLine + "\n" + `{"type":"answer","own":false,"referee":["Rank check, 2 pawn tries"]}`, "is not one referee announcement"},
		{"answer game prefix", gameLine + "\n" + `{"type":"answer","own":false,"referee":["Game 4: Rank check"]}`, "is not one referee announcement"},
		{"answer two tries", gameLine + "\n" + `{"type":"answer","own":false,"referee":["1 pawn try","2 pawn tries"]}`, "f:2: answer: two pawn-tries"},
		{"answer too many", gameLine + "\n" + `{"type":"answer","own":false,"referee":["a","a","a","a","a","a","a","a","a"]}`, "more than 8"},
		{"moves", gameLine + "\n" + `{"type":"moves","san":["e4","e5","Qh5"]}`, ""},
		{"moves illegal", gameLine + "\n" + `{"type":"moves","san":["e4","e4"]}`, `f:2: moves: ply 2: "e4"`},
		{"after moves", gameLine + "\n" + `{"type":"moves","san":[]}` + "\n" + `{"type":"clock","ours_ms":1,"theirs_ms":1}`, "f:3: line of type \"clock\" after the moves line"},
		{"two results", gameLine + "\n" + `{"type":"result","result":"1-0"}` + "\n" + `{"type":"result","result":"1-0"}`, "f:3: a second result line"},
		{"long line", gameLine + "\n" + `{"type":"clock","x":"` + strings.Repeat("a", MaxLine) + `"}`, "f:2: line longer than"},
	} {
		rec, err := Read(strings.NewReader(c.in), "f")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		case c.want != "" && !strings.HasPrefix(err.Error(), "f:"):
			t.Errorf("%s: error %q does not start with the file name", c.name, err)
		case c.want == "" && rec.Game.Seed != 17437761000903900699:
			t.Errorf("%s: seed %d", c.name, rec.Game.Seed)
		}
	}
}

// TestRecordRules: the rules a daemon's game was played under come back
// from its record (absent, they are ICC's), so a replay gives the player
// the same rules.
func TestRecordRules(t *testing.T) {
	rec, err := Read(strings.NewReader(gameLine), "f")
	if err != nil || rec.Game.Rules != (umpire.Rules{}) {
		t.Fatalf("no rules: %+v, %v", rec.Game.Rules, err)
	}
	want := umpire.Olympiad()
	want.MaxPlies, want.DeadMaterial = 600, true
	var gl GameLine
	gl.SetRules(want)
	b, err := json.Marshal(gl)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.TrimSuffix(strings.TrimPrefix(string(b), `{"type":"","game":0,"white":"","black":"","us":"","base_min":0,"inc_s":0,"rated":false,"seed":0,"player":"","start":"",`), "}")
	if fields == string(b) {
		t.Fatalf("unexpected encoding %s", b)
	}
	rec, err = Read(strings.NewReader(strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,`+fields, 1)), "f")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Game.Rules != want {
		t.Errorf("rules %+v, want %+v", rec.Game.Rules, want)
	}
	// A variant: the site's rules with its announcements. Without one (the
	// records before variants), wild 16.
	v, err := umpire.ParseVariant("rand")
	if err != nil {
		t.Fatal(err)
	}
	want = umpire.Site(v)
	for _, l := range []string{`"rules":"ks","max_reversible":2000,"variant":"rand"`, `"variant":"crazykrieg","rules":"kriegspiel"`} {
		rec, err = Read(strings.NewReader(strings.Replace(gameLine, `"inc_s":12`, `"inc_s":12,`+l, 1)), "f")
		if l[1] == 'v' {
			if err == nil || !strings.Contains(err.Error(), "rules") {
				t.Errorf("%s: %v, want an error on the rules", l, err)
			}
			continue
		}
		if err != nil || rec.Game.Rules != want {
			t.Errorf("%s: rules %+v (%v), want %+v", l, rec.Game.Rules, err, want)
		}
	}
}

// TestReadRecordViews: in a version 1 record (no "v"), the views rebuilt
// from the referee's words are those the player heard.
func TestReadRecordViews(t *testing.T) {
	in := gameLine + "\n" +
		`{"type":"attempt","move":"e2e5"}` + "\n" +
		`{"type":"answer","own":true,"move":"0000","legal":false,"referee":["Illegal move"]}` + "\n" +
		`{"type":"answer","own":true,"move":"e2e4","legal":true,"referee":["Piece at d5 captured","Long-diagonal check","1 pawn try"]}` + "\n" +
		`{"type":"answer","own":false,"referee":["Pawn at e4 captured","Rank check","Knight check","0 pawn tries"]}` + "\n" +
		`{"type":"answer","own":false}`
	rec, err := Read(strings.NewReader(in), "f")
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Steps
	if len(s) != 5 || s[1].Move.String() != "e2e5" || !s[1].View.Illegal || s[1].View.Move != chess.NullMove {
		t.Fatalf("illegal answer: %+v", s[1])
	}
	v := s[2].View
	if !v.Own || v.Illegal || v.Move.String() != "e2e4" || v.Capture.Kind != umpire.PieceCaptured || v.Capture.Square.String() != "d5" ||
		v.Checks[0] != chess.CheckLongDiagonal || v.Checks[1] != chess.NoCheck || v.PawnTries != 1 {
		t.Fatalf("own answer: %+v", v)
	}
	v = s[3].View
	if v.Own || v.Capture.Kind != umpire.PawnCaptured || v.Checks[0] != chess.CheckRank || v.Checks[1] != chess.CheckKnight || v.PawnTries != 0 {
		t.Fatalf("their answer: %+v", v)
	}
	if v := s[4].View; !v.Heard || v.PawnTries != -1 || len(v.Words()) != 0 {
		t.Fatalf("silent answer: %+v", v)
	}
}

func TestReadRecordTooManyLines(t *testing.T) {
	in := gameLine + "\n" + strings.Repeat(`{"type":"clock","ours_ms":1,"theirs_ms":1}`+"\n", MaxLines)
	_, err := Read(strings.NewReader(in), "f")
	var le *LineError
	if !errors.As(err, &le) || le.Line != MaxLines+1 {
		t.Fatalf("error %v", err)
	}
}

// TestReadRecordCut: a record whose last line has no newline and is not
// JSON was cut by a crash mid-write: the complete lines are read and Cut
// names the line it ends in. A bad line anywhere else, or a last line
// that is JSON but wrong, stays an error naming its line.
func TestReadRecordCut(t *testing.T) {
	const (
		attempt = `{"type":"attempt","move":"e2e4","search":{"iterations":5}}`
		clock   = `{"type":"clock","ours_ms":1,"theirs_ms":2}`
	)
	for _, c := range []struct {
		name  string
		in    string
		cut   int // the line Read says the record ends in
		steps int
		want  string // "" for success; else a part of the error
	}{
		{"whole", gameLine + "\n" + attempt + "\n" + clock + "\n", 0, 2, ""},
		{"whole without its last newline", gameLine + "\n" + attempt + "\n" + clock, 0, 2, ""},
		{"cut in a line", gameLine + "\n" + attempt + "\n" + clock[:17], 3, 1, ""},
		{"cut after one byte", gameLine + "\n" + attempt + "\n{", 3, 1, ""},
		{"cut before its last brace", gameLine + "\n" + attempt + "\n" + clock[:len(clock)-1], 3, 1, ""},
		{"cut after a blank line", gameLine + "\n" + attempt + "\n\n" + clock[:9], 4, 1, ""},
		{"cut, with zeros after it", gameLine + "\n" + attempt + "\n" + clock[:20] + "\x00\x00\x00", 3, 1, ""},
		{"cut in the game line", gameLine[:40], 0, 0, "f:1: the record ends mid-line before its game line is whole"},
		{"cut line not the last", gameLine + "\n" + clock[:17] + "\n" + attempt + "\n", 0, 0, "f:2: not valid JSON"},
		{"cut line with its newline", gameLine + "\n" + attempt + "\n" + clock[:17] + "\n", 0, 0, "f:3: not valid JSON"},
		{"last line JSON but wrong", gameLine + "\n" + attempt + "\n" + `{"type":"clock","ours_ms":1}`, 0, 0, "f:3: clock:"},
		{"last line of no type", gameLine + "\n" + `{"a":1}`, 0, 0, "f:2: no type"},
	} {
		rec, err := Read(strings.NewReader(c.in), "f")
		switch {
		case c.want != "":
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.want)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case rec.Cut != c.cut || len(rec.Steps) != c.steps:
			t.Errorf("%s: cut at line %d with %d steps, want line %d with %d", c.name, rec.Cut, len(rec.Steps), c.cut, c.steps)
		}
	}
}

// FuzzReadRecord: any bytes give a record or an error naming the file and
// (past the first line) the line; never a panic. A record read as cut
// ended without a newline, and its steps come before the cut.
func FuzzRead(f *testing.F) {
	f.Add([]byte(gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"top":[{"move":"e2e4","visits":5,"p_illegal":0.5}]}}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"boards":160,"top":[{"move":"e2e4","visits":5}]}}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"top":[{"move":"e2e4","visits":5,"p_mate":0.1,"p_mated":0.2,"p_repeat":1e308}]}}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"answer","own":false,"referee":["Pawn at e4 captured","Rank check","0 pawn tries"]}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"answer","own":true,"move":"e2e5","legal":false,"referee":["Illegal move"]}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"moves","san":["e4","e5","Qh5","Nc6","Bc4","Nf6","Qxf7#"]}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"result","result":"1-0","code":"Mat","reason":"x","plies":3,"illegal":0}`))
	f.Add([]byte(`{"type":"game","seed":"1","us":"black","player":"random"}` + "\n" + `{"type":"clock","ours_ms":-5,"theirs_ms":1e3}`))
	f.Add([]byte(gameLineV2 + "\n" + `{"type":"answer","own":false,"capture":"e4","captured":"pawn","checks":["rank"],"tries":0}`))
	f.Add([]byte(gameLineV2 + "\n" + `{"type":"answer","own":true,"move":"e2e5","legal":false}`))
	f.Add([]byte("{\n}\n\x00\xff"))
	// Two games in one record, the shape a server restart once left (a new
	// game appended to the dead one's file, issue 45): replay refuses it.
	f.Add([]byte(gameLineV2 + "\n" + `{"type":"attempt","move":"e2e4"}` + "\n" + `{"type":"answer","own":true,"move":"e2e4","legal":true,"tries":0}` + "\n" +
		gameLineV2 + "\n" + `{"type":"attempt","move":"e2e4"}` + "\n" + `{"type":"result","result":"1-0","code":"Mat","reason":"x","plies":1,"illegal":0}`))
	f.Add([]byte(gameLine + "\n" + `{"type":"attempt","move":"e2e4","search":{"iter`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(strings.NewReader(string(data)), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if rec.Game.Player == "" || len(rec.Steps) > MaxLines {
			t.Fatalf("accepted a record without a spec, or too long: %+v", rec.Game)
		}
		if rec.Cut != 0 && (bytes.HasSuffix(data, []byte{'\n'}) || rec.Cut != bytes.Count(data, []byte{'\n'})+1) {
			t.Fatalf("cut at line %d, but the data has %d newlines (ending in one: %v)", rec.Cut,
				bytes.Count(data, []byte{'\n'}), bytes.HasSuffix(data, []byte{'\n'}))
		}
		for _, s := range rec.Steps {
			if rec.Cut != 0 && s.Line >= rec.Cut {
				t.Fatalf("step at line %d, at or after the cut at %d", s.Line, rec.Cut)
			}
		}
		for _, s := range rec.Steps {
			if s.Kind == StepAnswer && !s.View.Illegal && strings.Join(s.View.Words(), "|") != strings.Join(s.Words, "|") {
				t.Fatalf("line %d: words %q rebuild as %q", s.Line, s.Words, s.View.Words())
			}
		}
	})
}

// TestReadRecordStopsAtResync: the daemon rebuilt its player at a resync, so
// the steps after it are not replayable and are left out.
func TestReadRecordStopsAtResync(t *testing.T) {
	in := gameLine + "\n" +
		`{"type":"clock","ours_ms":1,"theirs_ms":2}` + "\n" +
		`{"type":"resync","plies":4,"why":"no answer to our attempt"}` + "\n" +
		`{"type":"clock","ours_ms":3,"theirs_ms":4}` + "\n"
	rec, err := Read(strings.NewReader(in), "f")
	if err != nil {
		t.Fatal(err)
	}
	if rec.ResyncLine != 3 || rec.ResyncWhy != "no answer to our attempt" || len(rec.Steps) != 1 {
		t.Fatalf("resync line %d (%q), %d steps", rec.ResyncLine, rec.ResyncWhy, len(rec.Steps))
	}
}
