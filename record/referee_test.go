package record

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// playAnswers plays uci moves from the start and returns the umpire's answers.
func playAnswers(t testing.TB, uci ...string) []umpire.Answer {
	u := umpire.New(umpire.ICC())
	u.Reset(chess.StartPosition())
	var as []umpire.Answer
	for _, s := range uci {
		m, err := chess.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	return as
}

func TestRefereeLineRoundTrip(t *testing.T) {
	// A capture with check, a refusal, and the mate that ends the game.
	as := playAnswers(t, "e2e4", "f7f5", "e4f5", "e8f7", "d1h5", "g7g6", "f5g6", "f7g6")
	as = append(as, playAnswers(t, "f2f3", "e7e5", "e1e3", "g2g4", "d8h4")...)
	for i, a := range as {
		l := NewRefereeLine(3, i, a)
		it := int64(100)
		l.Type, l.MatchSearch = TypeRefereeAttempt, &MatchSearch{ThinkUs: 5, Iterations: &it}
		text := AppendRefereeLine(nil, l)
		got, err := ReadRefereeLine(text[:len(text)-1])
		if err != nil {
			t.Fatalf("%d %s: %v", i, text, err)
		}
		if err := got.CheckAnswer(a); err != nil {
			t.Errorf("%d %s: %v", i, text, err)
		}
		if got.Attempt != a.Attempt.String() || got.Side != a.Mover.String() || got.Legal != a.Legal || *got.Iterations != 100 {
			t.Errorf("%d: read back %+v from %s", i, got, text)
		}
	}
	if l := NewRefereeLine(0, 0, as[len(as)-1]); l.Ending != "checkmate" || len(l.Checks) != 1 {
		t.Errorf("mate: %+v", l.Announced)
	}
	if l := NewRefereeLine(0, 0, as[4]); l.Capture != "" || l.Checks[0] != "short_diagonal" {
		t.Errorf("Qh5+: %+v", l.Announced)
	}
}

// TestRefereeLineOldMatchSpelling reads a match file's attempt line as
// written before the referee line was shared: pawn tries of 0 left out.
func TestRefereeLineOldMatchSpelling(t *testing.T) {
	a := playAnswers(t, "e2e4")[0] // 0 pawn tries for Black
	old := `{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":12}`
	l, err := ReadRefereeLine([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.CheckAnswer(a); err != nil {
		t.Error(err)
	}
	if l.ThinkUs != 12 || l.Tries != nil {
		t.Errorf("%+v", l)
	}
	// The same line with "tries":1 disagrees with the referee.
	l, err = ReadRefereeLine([]byte(strings.Replace(old, `"think_us"`, `"tries":1,"think_us"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.CheckAnswer(a); err == nil || !strings.Contains(err.Error(), `the line {"tries":1}`) {
		t.Errorf("tries 1 against 0: %v", err)
	}
}

func TestReadRefereeLineErrors(t *testing.T) {
	const head = `{"game":0,"ply":0,"side":"white","attempt":"e2e4","legal":true`
	tests := []struct{ name, in, err string }{
		{"not JSON", `nothing`, "invalid character"},
		{"unknown field", head + `,"referee":["0 pawn tries"]}`, `unknown field "referee"`},
		{"type", `{"type":"answer","game":0}`, `type "answer"`},
		{"trailing", head + `} {}`, "text after"},
		{"refusal announces", `{"side":"white","attempt":"e2e5","legal":false,"tries":0}`, "announces nothing"},
		{"capture alone", head + `,"capture":"e4"}`, "go together"},
		{"bad square", head + `,"capture":"z9","captured":"pawn"}`, "not a square"},
		{"bad captured", head + `,"capture":"e4","captured":"king"}`, "is not pawn, piece"},
		{"bad check", head + `,"checks":["diagonal"]}`, `check "diagonal"`},
		{"three checks", head + `,"checks":["rank","file","knight"]}`, "more than 2 checks"},
		{"bad tries", head + `,"tries":17}`, "tries 17"},
		{"bad ending", head + `,"ending":"resigned"}`, `ending "resigned"`},
		{"negative think", head + `,"think_us":-1}`, "think_us -1"},
		{"trees alone", head + `,"think_us":1,"trees":[1,2]}`, "without iterations"},
		{"trees sum", head + `,"think_us":1,"iterations":5,"trees":[1,2]}`, "search:"},
		{"ponder trees alone", head + `,"think_us":1,"ponder_trees":[1]}`, "ponder_trees without ponder"},
		{"bad clock", head + `,"at_ms":"soon"}`, "at_ms"},
	}
	for _, tc := range tests {
		_, err := ReadRefereeLine([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
		}
	}
}

func FuzzReadRefereeLine(f *testing.F) {
	f.Add(`{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"g2g4","legal":true,"san":"g4","tries":1,"think_us":12,"clock_ms":59990}`)
	f.Add(`{"game":1,"ply":2,"side":"white","attempt":"e1f2","legal":true,"san":"Kf2","tries":0,"at_ms":237,"white_ms":143762,"black_ms":131999,"fen_after":"8/8/8/8/8/8/8/8 w - - 0 1"}`)
	f.Add(`{"type":"attempt","game":0,"ply":3,"side":"black","attempt":"d8h4","legal":true,"checks":["short_diagonal"],"ending":"checkmate","think_us":1,"iterations":10,"trees":[4,6],"ponder":3}`)
	f.Add(`{"side":"white","attempt":"e2e5","legal":false}`)
	f.Add(`{"type":"attempt","side":"black","attempt":"any","legal":false,"has_any":true,"think_us":1}`)
	f.Add(`{"side":"white","attempt":"N@e4","legal":true,"san":"N@e4","drop":"knight","checks":["knight"]}`)
	f.Add(`{"side":"white","attempt":"e5d6","legal":true,"capture":"d6","captured":"man","en_passant":true,"try_from":"c7"}`)
	f.Add(`{"side":"white","attempt":"e2e5","legal":false,"refusal":"NONSENSE"}`)
	u := umpire.New(umpire.ICC())
	f.Fuzz(func(t *testing.T, in string) {
		l, err := ReadRefereeLine([]byte(in))
		if err != nil {
			return
		}
		// What reads must write again and read back the same, and check
		// against any answer without panicking.
		again, err := ReadRefereeLine(AppendRefereeLine(nil, *l))
		if err != nil {
			t.Fatalf("%s read, but its rewrite does not: %v", in, err)
		}
		if string(AppendRefereeLine(nil, *again)) != string(AppendRefereeLine(nil, *l)) {
			t.Fatalf("%s does not round-trip", in)
		}
		u.Reset(chess.StartPosition())
		if m, err := chess.ParseUCI(l.Attempt); err == nil {
			if a, err := u.Attempt(m); err == nil {
				_ = l.CheckAnswer(a)
			}
		}
	})
}
