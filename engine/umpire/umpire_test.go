package umpire

import (
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
)

func move(t testing.TB, s string) chess.Move {
	t.Helper()
	m, err := chess.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fromFEN(t testing.TB, fen string, r Rules) *Umpire {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	u := New(r)
	u.Reset(p)
	return u
}

// TestAnswers walks hand-made positions through one attempt each and checks
// every field of the answer, including both sides' views.
func TestAnswers(t *testing.T) {
	cases := []struct {
		name, fen, move string
		legal           bool
		capture         Capture
		checks          [2]chess.CheckKind
		tries           int
		ending          Ending
		result          string
	}{
		{"quiet", chess.StartFEN, "e2e4", true, Capture{}, [2]chess.CheckKind{}, 0, NotOver, ""},
		{"blocked push", "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", false, Capture{}, [2]chess.CheckKind{}, -1, NotOver, ""},
		{"nonsense", chess.StartFEN, "e2e5", false, Capture{}, [2]chess.CheckKind{}, -1, NotOver, ""},
		{"pawn diagonal to empty", chess.StartFEN, "e2d3", false, Capture{}, [2]chess.CheckKind{}, -1, NotOver, ""},
		{"en passant names the pawn's square", "8/2k5/8/3pP3/8/8/8/K7 w - d6 0 1", "e5d6", true,
			Capture{chess.NewSquare(3, 4), PawnCaptured}, [2]chess.CheckKind{chess.CheckLongDiagonal}, 0, NotOver, ""},
		{"promoted man is a piece", "4k3/8/8/8/8/8/1p6/R3K3 w - - 0 1", "a1a2", true,
			Capture{}, [2]chess.CheckKind{}, 0, NotOver, ""},
		{"capture a piece, tries for the defender", "4k3/8/8/8/3n4/2p1P3/8/4K3 w - - 0 1", "e3d4", true,
			Capture{chess.NewSquare(3, 3), PieceCaptured}, [2]chess.CheckKind{}, 0, NotOver, ""},
		{"tries announced", "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "e2e4", true,
			Capture{}, [2]chess.CheckKind{}, 1, NotOver, ""},
		{"double check", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6", true,
			Capture{}, [2]chess.CheckKind{chess.CheckFile, chess.CheckKnight}, 0, NotOver, ""},
		{"checkmate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", true,
			Capture{}, [2]chess.CheckKind{chess.CheckRank}, -1, Checkmate, "1-0"},
		{"stalemate by a king move", "k7/8/1Q6/8/8/8/8/6K1 w - - 0 1", "g1g2", true, Capture{}, [2]chess.CheckKind{}, -1, Stalemate, "1/2-1/2"},
		{"stalemate delivered", "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "b5b6", true, Capture{}, [2]chess.CheckKind{}, -1, Stalemate, "1/2-1/2"},
		{"insufficient by a capture that checks", "4k3/8/8/8/8/6b1/5R2/4K3 b - - 0 1", "g3f2", true,
			Capture{chess.NewSquare(5, 1), PieceCaptured}, [2]chess.CheckKind{chess.CheckShortDiagonal}, -1, InsufficientMaterial, "1/2-1/2"},
		{"bare kings", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "e1f2", true, Capture{chess.NewSquare(5, 1), PieceCaptured}, [2]chess.CheckKind{}, -1, InsufficientMaterial, "1/2-1/2"},
		{"king into check", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "e1e2", false, Capture{}, [2]chess.CheckKind{}, -1, NotOver, ""},
		{"underpromotion to a lone knight", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", true, Capture{}, [2]chess.CheckKind{}, -1, InsufficientMaterial, "1/2-1/2"},
		{"castle through check", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", false, Capture{}, [2]chess.CheckKind{}, -1, NotOver, ""},
		{"castle", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true, Capture{}, [2]chess.CheckKind{}, 0, NotOver, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := fromFEN(t, tc.fen, ICC())
			mover := u.Side()
			a, err := u.Attempt(move(t, tc.move))
			if err != nil {
				t.Fatal(err)
			}
			if a.Legal != tc.legal || a.Capture != tc.capture || a.Ending != tc.ending || a.Result != tc.result {
				t.Fatalf("answer %s (%+v)", a.String(), a)
			}
			if a.Legal && a.Ending == NotOver && a.PawnTries != tc.tries {
				t.Errorf("tries %d, want %d", a.PawnTries, tc.tries)
			}
			if a.Legal && a.Checks != tc.checks && [2]chess.CheckKind{a.Checks[1], a.Checks[0]} != tc.checks {
				t.Errorf("checks %v, want %v", a.Checks, tc.checks)
			}
			own, opp := a.For(mover), a.For(mover.Other())
			if !own.Heard || !own.Own || own.Illegal == a.Legal {
				t.Errorf("mover's view %+v", own)
			}
			if a.Legal {
				if !opp.Heard || opp.Move != chess.NullMove || opp.Capture != a.Capture || opp.Checks != a.Checks || own.Move != a.Attempt {
					t.Errorf("opponent's view %+v", opp)
				}
			} else if opp.Heard {
				t.Errorf("the opponent heard an illegal attempt: %+v", opp)
			}
			if !a.Legal && (u.Plies() != 0 || len(u.Refused()) != 1) {
				t.Errorf("after an illegal attempt: plies %d, refused %v", u.Plies(), u.Refused())
			}
		})
	}
}

func TestGameOverRefusesAttempts(t *testing.T) {
	u := fromFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", ICC())
	if _, err := u.Attempt(move(t, "a1a8")); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Attempt(move(t, "g8h8")); err != ErrGameOver {
		t.Fatalf("attempt after mate: %v, want ErrGameOver", err)
	}
}

// TestRuleSets shuffles knights until the olympiad rules draw by repetition,
// while the ICC rules play on; then checks the 50-move rule and the ply cap.
func TestRuleSets(t *testing.T) {
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}
	icc, oly := New(ICC()), New(Olympiad())
	for i, s := range shuffle {
		a, _ := icc.Attempt(move(t, s))
		b, _ := oly.Attempt(move(t, s))
		if a.Ending != NotOver {
			t.Fatalf("icc ended the game at move %d: %v", i, a.Ending)
		}
		want := NotOver
		if i == len(shuffle)-1 {
			want = Repetition // the start position, third time
		}
		if b.Ending != want {
			t.Fatalf("olympiad after %d moves: %v, want %v", i+1, b.Ending, want)
		}
	}
	u := fromFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", Olympiad())
	if a, _ := u.Attempt(move(t, "a1a2")); a.Ending != FiftyMoves || a.Result != "1/2-1/2" {
		t.Errorf("50-move rule: %v", a.Ending)
	}
	u = fromFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ICC())
	if a, _ := u.Attempt(move(t, "a1a2")); a.Ending != NotOver {
		t.Errorf("icc applied the 50-move rule: %v", a.Ending)
	}
	capped := ICC()
	capped.MaxPlies = 2
	u = New(capped)
	u.Attempt(move(t, "e2e4"))
	if a, _ := u.Attempt(move(t, "e7e5")); a.Ending != PlyLimit || a.Result != "*" {
		t.Errorf("ply cap: %v %q", a.Ending, a.Result)
	}
	if _, err := ParseRules("fide"); err == nil {
		t.Error("ParseRules accepted an unknown name")
	}
	for _, name := range RuleNames() {
		if r, err := ParseRules(name); err != nil || r.Name != name {
			t.Errorf("ParseRules(%q): %+v, %v", name, r, err)
		}
	}
	// kriegspiel.org's rules: no repetition draw, a draw at 2,000
	// reversible half-moves (a shuffle of knights from the start).
	ksu := New(KS())
	knights := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	var last Answer
	for i := 0; i < 2000; i++ {
		last, _ = ksu.Attempt(move(t, knights[i%4]))
		if i < 1999 && last.Ending != NotOver {
			t.Fatalf("ks: the game ended at half-move %d: %v", i+1, last.Ending)
		}
	}
	if last.Result != "1/2-1/2" {
		t.Errorf("ks: after 2,000 reversible half-moves: %v %q, want a draw", last.Ending, last.Result)
	}
}

func TestAskable(t *testing.T) {
	cases := []struct {
		fen   string
		tries int
		want  int
	}{
		{chess.StartFEN, 0, 20},
		// Fixture game public-0 ply 6: 44 askable, no pawn try in force; with one
		// try the 12 forward-diagonal steps join (d6 by exd6 e.p. was not askable
		// before: no white pawn on the fifth rank).
		{"rnbqkbnr/ppp2p1p/4p1p1/3p4/2Q5/4P3/PPPP1PPP/RNB1KBNR w KQkq d6 0 4", 0, 44},
		{"rnbqkbnr/ppp2p1p/4p1p1/3p4/2Q5/4P3/PPPP1PPP/RNB1KBNR w KQkq d6 0 4", 1, 56},
		// En passant is askable from the fifth rank even with no try in force.
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 0, 7},
		// Castling is askable with no own man between, whatever the enemy does.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0, 26},
	}
	for _, tc := range cases {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var l chess.MoveList
		Askable(&p, tc.tries, nil, &l)
		if l.N != tc.want {
			t.Errorf("%s: %d askable %v, want %d", tc.fen, l.N, l.Slice(), tc.want)
		}
		if l.N > 0 {
			Askable(&p, tc.tries, l.Moves[:1], &l)
			if l.N != tc.want-1 {
				t.Errorf("%s: refusing one attempt left %d, want %d", tc.fen, l.N, tc.want-1)
			}
		}
	}
}

func TestStreamDeterministic(t *testing.T) {
	a, b := RandomStream(7, 3, 100), RandomStream(7, 3, 100)
	if a.Attempts() != b.Attempts() || a.Attempts() == 0 {
		t.Fatalf("streams differ: %d vs %d attempts", a.Attempts(), b.Attempts())
	}
	for i := range a.Games {
		for j := range a.Games[i] {
			if a.Games[i][j] != b.Games[i][j] {
				t.Fatalf("game %d attempt %d differs", i, j)
			}
		}
	}
	n, legal := a.Replay(New(ICC()))
	if n != a.Attempts() || legal == 0 || legal == n {
		t.Errorf("replay judged %d of %d attempts, %d legal", n, a.Attempts(), legal)
	}
}

func BenchmarkUmpire(b *testing.B) {
	s := RandomStream(1, 50, 300)
	u := New(ICC())
	b.ReportAllocs()
	b.ResetTimer()
	var total int
	for b.Loop() {
		n, _ := s.Replay(u)
		total += n
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "attempts/s")
}

func TestViewWords(t *testing.T) {
	d5, _ := chess.ParseSquare("d5")
	for _, c := range []struct {
		v    View
		want string
	}{
		{View{}, ""},
		{View{Heard: true, Own: true, Illegal: true, PawnTries: -1}, "Illegal move"},
		{View{Heard: true, PawnTries: 0}, "0 pawn tries"},
		{View{Heard: true, Capture: Capture{d5, PawnCaptured}, Checks: [2]chess.CheckKind{chess.CheckFile, chess.CheckKnight}, PawnTries: 1},
			"Pawn at d5 captured|File check|Knight check|1 pawn try"},
		{View{Heard: true, Capture: Capture{d5, PieceCaptured}, Checks: [2]chess.CheckKind{chess.CheckRank}, PawnTries: -1, Ending: Checkmate},
			"Piece at d5 captured"},
	} {
		if got := strings.Join(c.v.Words(), "|"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}

// TestDeadMaterial: with the rule on, K+N against K+B is drawn at once;
// K+R against K+N, or K+B+N against K, play on; without the rule K+N
// against K+N plays on (it is not insufficient material).
func TestDeadMaterial(t *testing.T) {
	on := ICC()
	on.DeadMaterial = true
	for _, tc := range []struct {
		fen   string
		rules Rules
		want  Ending
	}{
		{"8/8/3k4/8/2n5/8/3KB3/8 w - - 0 1", on, DeadMaterial},
		{"8/8/3k4/8/2n5/8/3KN3/8 w - - 0 1", ICC(), NotOver},
		{"8/8/3k4/8/2n5/8/3KR3/8 w - - 0 1", on, NotOver},
		{"8/8/3k4/8/8/8/2NKB3/8 w - - 0 1", on, NotOver},
		{"8/8/3k4/8/8/8/2NKN3/8 w - - 0 1", on, DeadMaterial},
	} {
		pos, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		u := New(tc.rules)
		u.Reset(pos)
		// One quiet king move, so the rule set is consulted.
		var list chess.MoveList
		u.Askable(&list)
		for _, m := range list.Slice() {
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if a.Legal {
				break
			}
		}
		if got := u.Ending(); got != tc.want {
			t.Errorf("%s: ending %v, want %v", tc.fen, got, tc.want)
		}
		if tc.want == DeadMaterial && u.Result() != "1/2-1/2" {
			t.Errorf("%s: result %q, want a draw", tc.fen, u.Result())
		}
	}
}

// TestLegalGames: each game's moves are its legal attempts, in order: they
// replay without a refusal and are fewer than the attempts when some were
// refused.
func TestLegalGames(t *testing.T) {
	s := RandomStream(7, 20, 80)
	games := s.LegalGames()
	if len(games) != len(s.Games) {
		t.Fatalf("%d games, want %d", len(games), len(s.Games))
	}
	refused := 0
	u := New(ICC())
	for i, g := range games {
		u.Reset(s.Start)
		for j, m := range g {
			a, err := u.Attempt(m)
			if err != nil || !a.Legal {
				t.Fatalf("game %d move %d %v: refused (%v)", i, j, m, err)
			}
		}
		refused += len(s.Games[i]) - len(g)
	}
	if refused == 0 {
		t.Error("no attempt refused in 20 random games: the moves are not the legal ones")
	}
}

// TestBounded: our servers' rules add dead material and the ply cap to any
// rule set, keeping a cap already set.
func TestBounded(t *testing.T) {
	b := Olympiad().Bounded()
	if !b.DeadMaterial || b.MaxPlies != BoundedMaxPlies || !b.FiftyMoves || !b.Repetition || b.Name != "olympiad" {
		t.Errorf("olympiad bounded: %+v", b)
	}
	capped := ICC()
	capped.MaxPlies = 40
	if b := capped.Bounded(); b.MaxPlies != 40 || !b.DeadMaterial {
		t.Errorf("a cap already set: %+v", b)
	}
	if got := Olympiad().Bounded().LongestGame(time.Minute, time.Second); got != 12*time.Minute {
		t.Errorf("longest bounded game at 1+1: %v, want 12m (2 x 1 min + 600 x 1 s)", got)
	}
	if got := Olympiad().LongestGame(time.Minute, time.Second); got != 0 {
		t.Errorf("longest game without a cap: %v, want 0 (no bound)", got)
	}
	u := fromFEN(t, "4k3/8/8/3n4/8/8/3N4/4K3 w - - 0 1", ICC().Bounded())
	if a, _ := u.Attempt(move(t, "d2f3")); a.Ending != DeadMaterial || a.Result != "1/2-1/2" {
		t.Errorf("K+N against K+N: %v %q", a.Ending, a.Result)
	}
}
