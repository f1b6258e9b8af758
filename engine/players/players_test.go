package players

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// playGame drives two players through the umpire and calls check before
// every attempt. It returns the umpire at the end.
func playGame(t *testing.T, white, black Player, seed uint64, maxPlies int, check func(u *umpire.Umpire, k *Knowledge)) *umpire.Umpire {
	t.Helper()
	rules := umpire.ICC()
	rules.MaxPlies = maxPlies
	return playRules(t, rules, white, black, seed, Budget{}, check, nil)
}

// playRules is playGame under rules (MaxPlies included), with each
// attempt's budget b, and hear, when not nil, called with every answer: a
// chess.NullMove attempt is the "Any?" question.
func playRules(t *testing.T, rules umpire.Rules, white, black Player, seed uint64, b Budget,
	check func(u *umpire.Umpire, k *Knowledge), hear func(a *umpire.Answer)) *umpire.Umpire {
	t.Helper()
	u := umpire.New(rules)
	ps := [2]Player{white, black}
	for c, p := range ps {
		if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	for attempts := 0; u.Ending() == umpire.NotOver; attempts++ {
		if attempts > 100000 {
			t.Fatal("game does not end")
		}
		side := u.Side()
		if check != nil {
			check(u, knowledgeOf(ps[side]))
		}
		m, err := ps[side].Attempt(context.Background(), b)
		if err != nil {
			t.Fatalf("ply %d: %v", u.Plies(), err)
		}
		for _, r := range u.Refused() {
			if r == m {
				t.Fatalf("ply %d: %v proposed again after its refusal", u.Plies(), m)
			}
		}
		var a umpire.Answer
		if m == chess.NullMove {
			a, err = u.AskAny()
		} else {
			a, err = u.Attempt(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		if hear != nil {
			hear(&a)
		}
		for c, p := range ps {
			p.Hear(AnswerEvent(&a, chess.Color(c)))
		}
	}
	for _, p := range ps {
		p.GameOver(Outcome{Result: u.Result(), Reason: u.Ending().String()})
	}
	return u
}

func knowledgeOf(p Player) *Knowledge {
	switch p := p.(type) {
	case *Random:
		return &p.know
	case *Heuristic:
		return &p.know
	case *MCTS:
		return &p.know
	}
	return nil
}

// TestKnowledgeMatchesUmpire checks, before every attempt of many games, that
// what a player knows of its own side gives the umpire's askable list (which
// reads the true position), apart from the en passant step the player cannot
// know about.
func TestKnowledgeMatchesUmpire(t *testing.T) {
	kinds := []string{"random", "heuristic"}
	for g := range 40 {
		w := mustNew(t, kinds[g%2])
		b := mustNew(t, kinds[(g/2)%2])
		var mine, theirs chess.MoveList
		checks := 0
		playGame(t, w, b, uint64(g), 300, func(u *umpire.Umpire, k *Knowledge) {
			checks++
			pos := u.Position()
			if k.Board.Men() != pos.ByColor(u.Side()) {
				t.Fatalf("game %d ply %d: player's men %x, true %x", g, u.Plies(), k.Board.Men(), pos.ByColor(u.Side()))
			}
			if k.Tries != u.PawnTries() {
				t.Fatalf("game %d ply %d: player heard %d tries, umpire says %d", g, u.Plies(), k.Tries, u.PawnTries())
			}
			k.Askable(&mine)
			u.Askable(&theirs)
			for _, m := range theirs.Slice() {
				if !mine.Contains(m) && !pos.IsEnPassant(m) && !(m.To() == pos.EnPassant() && pos.PieceAt(m.From()).Type() == chess.Pawn) {
					t.Fatalf("game %d ply %d (%s): umpire's askable %v missing from the player's", g, u.Plies(), pos.FEN(), m)
				}
			}
			if mine.N > theirs.N {
				t.Fatalf("game %d ply %d (%s): player lists %d attempts, umpire %d", g, u.Plies(), pos.FEN(), mine.N, theirs.N)
			}
		})
		if checks < 10 {
			t.Fatalf("game %d: only %d attempts checked", g, checks)
		}
	}
}

func mustNew(t testing.TB, spec string) Player {
	t.Helper()
	s, err := Parse(spec, Kinds())
	if err != nil {
		t.Fatal(err)
	}
	return s.New()
}

// TestDeterministic: the same seed gives the same game, another seed another.
func TestDeterministic(t *testing.T) {
	record := func(seed uint64) string {
		u := playGame(t, mustNew(t, "heuristic"), mustNew(t, "random"), seed, 200, nil)
		return fmt.Sprint(u.Moves())
	}
	a, b, c := record(7), record(7), record(8)
	if a != b {
		t.Fatal("same seed, different games")
	}
	if a == c {
		t.Fatal("different seeds, same game")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		spec, kind, err string
	}{
		{"random", "random", ""},
		{"heuristic", "heuristic", ""},
		{"heuristic:noise=0", "heuristic", ""},
		{"heuristic:noise=1000", "heuristic", ""},
		{"", "", `unknown kind ""`},
		{"mcts2", "", `unknown kind "mcts2"`},
		{"heuristic:", "", `option "" is not key=value`},
		{"heuristic:noise", "", `option "noise" is not key=value`},
		{"heuristic:noise=1,noise=2", "", `option "noise" given twice`},
		{"heuristic:noise=-1", "", `option noise: "-1" is not an integer from 0 to 1000`},
		{"heuristic:noise=x", "", `option noise: "x" is not an integer`},
		{"heuristic:nose=1", "", `heuristic has no option "nose"`},
		{"random:threads=1", "", `random has no option "threads"`},
		{"heuristic:=1", "", `option "=1" is not key=value`},
		{strings.Repeat("x", 2000), "", "longer than"},
	}
	for _, tc := range tests {
		s, err := Parse(tc.spec, Kinds())
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%.20q) error %v, want one containing %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || s.Kind() != tc.kind || s.String() != tc.spec {
			t.Errorf("Parse(%q) = %v (kind %s), %v", tc.spec, s, s.Kind(), err)
		}
	}
}

// TestOptionsTyped checks the typed accessors a new kind would use.
func TestOptionsTyped(t *testing.T) {
	var got struct {
		a string
		n int
		f float64
	}
	kinds := append(Kinds(), Kind{Name: "probe", Build: func(o *Options) (func() Player, error) {
		got.a = o.String("approach", "c")
		got.n = o.Int("threads", 1, 1, 64)
		got.f = o.Float("c", 0.5, 0, 10)
		return func() Player { return &Random{} }, nil
	}})
	if _, err := Parse("probe:approach=b,threads=4,c=0.25", kinds); err != nil {
		t.Fatal(err)
	}
	if got.a != "b" || got.n != 4 || got.f != 0.25 {
		t.Fatalf("options read as %+v", got)
	}
	for _, bad := range []string{"probe:c=NaN", "probe:c=11", "probe:threads=0", "probe:threads=1.5"} {
		if _, err := Parse(bad, kinds); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// TestParseWith: a harness's keys are taken out of the spec once, the
// player's options stay in order and are read typed, and no key may be
// given twice, the harness's or the player's.
func TestParseWith(t *testing.T) {
	sp, err := ParseWith("mcts:ponder=on,c=0.5,nodes=300,threads=2", Kinds(), "ponder", "nodes")
	if err != nil {
		t.Fatal(err)
	}
	if sp.String() != "mcts:c=0.5,threads=2" || sp.Kind() != "mcts" {
		t.Errorf("player spec %q (kind %s)", sp, sp.Kind())
	}
	if got := sp.Options(); len(got) != 2 || got[0] != (Option{"c", "0.5"}) || got[1] != (Option{"threads", "2"}) {
		t.Errorf("options %v", got)
	}
	if v, ok := sp.Option("threads"); v != "2" || !ok {
		t.Errorf("threads = %q, %v", v, ok)
	}
	if _, ok := sp.Option("ponder"); ok {
		t.Error("the harness's key ponder read as the player's option")
	}
	if v, ok := sp.Harness("nodes"); v != "300" || !ok {
		t.Errorf("harness nodes = %q, %v", v, ok)
	}
	if _, ok := sp.Harness("movetime"); ok {
		t.Error("a harness key not given is there")
	}
	only, err := ParseWith("random:ponder=off", Kinds(), "ponder")
	if err != nil || only.String() != "random" || len(only.Options()) != 0 {
		t.Errorf("only harness keys: %q %v, %v", only, only.Options(), err)
	}
	for _, tc := range []struct{ spec, err string }{
		{"mcts:ponder=on,ponder=off", `option "ponder" given twice`},
		{"mcts:ponder", `option "ponder" is not key=value`},
		{"random:ponder=on,threads=2", `random has no option "threads"`},
	} {
		if _, err := ParseWith(tc.spec, Kinds(), "ponder"); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.spec, err, tc.err)
		}
	}
	// Without the harness the same key is the player's, and unknown to it.
	if _, err := Parse("random:ponder=on", Kinds()); err == nil || !strings.Contains(err.Error(), `random has no option "ponder"`) {
		t.Errorf("ponder as a player's option: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "heuristic:noise=5", "heuristic:noise=", "a:b=c,d=e", ":", ",=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := Parse(s, Kinds())
		if err == nil && sp.String() != s {
			t.Fatalf("Parse(%q) = %q", s, sp.String())
		}
		// Taking a harness key out leaves a spec that reads back the same.
		hs, err := ParseWith(s, Kinds(), "seed")
		if err != nil {
			return
		}
		again, err := Parse(hs.String(), Kinds())
		if err != nil || again.String() != hs.String() || len(again.Options()) != len(hs.Options()) {
			t.Fatalf("ParseWith(%q) = %q, which reads back as %q, %v", s, hs, again, err)
		}
	})
}

func TestCheckLine(t *testing.T) {
	sq := func(s string) chess.Square {
		q, _ := chess.ParseSquare(s)
		return q
	}
	tests := []struct {
		king  string
		kind  chess.CheckKind
		has   []string
		hasnt []string
	}{
		{"e1", chess.CheckRank, []string{"a1", "h1"}, []string{"e2", "e1"}},
		{"e1", chess.CheckFile, []string{"e8", "e2"}, []string{"d1"}},
		// From e1 the a5-e1 diagonal has 5 squares, e1-h4 has 4.
		{"e1", chess.CheckLongDiagonal, []string{"d2", "a5"}, []string{"f2", "h4"}},
		{"e1", chess.CheckShortDiagonal, []string{"f2", "h4"}, []string{"d2"}},
		{"e1", chess.CheckKnight, []string{"d3", "f3", "c2", "g2"}, []string{"e3"}},
		// d4 lies on the a1-h8 diagonal (8 squares) and on a7-g1 (7 squares).
		{"d4", chess.CheckLongDiagonal, []string{"a1", "h8"}, []string{"a7", "g1"}},
		{"d4", chess.CheckShortDiagonal, []string{"a7", "g1"}, []string{"h8"}},
	}
	for _, tc := range tests {
		line := checkLine(sq(tc.king), [2]chess.CheckKind{tc.kind})
		for _, s := range tc.has {
			if !line.Has(sq(s)) {
				t.Errorf("king %s, %v check: line lacks %s", tc.king, tc.kind, s)
			}
		}
		for _, s := range tc.hasnt {
			if line.Has(sq(s)) {
				t.Errorf("king %s, %v check: line holds %s", tc.king, tc.kind, s)
			}
		}
	}
}

func BenchmarkHeuristicAttempt(b *testing.B) {
	h := mustNew(b, "heuristic")
	h.NewGame(Game{Color: chess.White, Seed: 1})
	b.ReportAllocs()
	for b.Loop() {
		h.Attempt(context.Background(), Budget{})
	}
}

// TestKEPStyleEvents drives a player the way a KEP engine front end does:
// our accepted move arrives without the move itself ("legal"), the
// opponent's as announcements only ("opponent capture e4 pawn").
func TestKEPStyleEvents(t *testing.T) {
	p := mustNew(t, "random").(*Random)
	if err := p.NewGame(Game{Color: chess.White, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	m, err := p.Attempt(context.Background(), Budget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Hear(Event{Kind: Answer, View: umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1}})
	if !p.know.Refused.Contains(m) {
		t.Fatal("refused attempt not remembered")
	}
	m2, _ := p.Attempt(context.Background(), Budget{})
	if m2 == m {
		t.Fatal("refused attempt asked again")
	}
	p.Hear(Event{Kind: Answer, View: umpire.View{Heard: true, Own: true}}) // "legal"
	if p.know.Board.At(m2.To()) == chess.NoPieceType || p.know.Refused.N != 0 {
		t.Fatalf("accepted %v not applied", m2)
	}
	// "opponent capture <our man's square> pawn|piece", "tries 1"
	sq := m2.To()
	p.Hear(Event{Kind: Answer, View: umpire.View{Heard: true, Capture: umpire.Capture{Square: sq, Kind: umpire.PieceCaptured}, PawnTries: 1}})
	if p.know.Board.At(sq) != chess.NoPieceType || p.know.Tries != 1 || p.know.TheirCapture != sq {
		t.Fatalf("opponent's capture on %v not applied: %+v", sq, p.know)
	}
	p.Hear(Event{Kind: ClockUpdate, Clock: Clocks{Ours: time.Second, Theirs: time.Second}})
	p.GameOver(Outcome{Result: "0-1", Reason: "checkmate"})
}
