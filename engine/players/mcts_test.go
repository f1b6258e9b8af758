package players

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// playBudget drives two players through the umpire with a node budget per
// attempt, calls each (if set) before every attempt, checks that no refused
// attempt is asked again, and returns the umpire at the end.
func playBudget(t *testing.T, white, black Player, seed uint64, maxPlies int, nodes int64, each func(u *umpire.Umpire)) *umpire.Umpire {
	t.Helper()
	rules := umpire.ICC()
	rules.MaxPlies = maxPlies
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
		if each != nil {
			each(u)
		}
		side := u.Side()
		m, err := ps[side].Attempt(context.Background(), Budget{Nodes: nodes})
		if err != nil {
			t.Fatalf("ply %d: %v", u.Plies(), err)
		}
		for _, r := range u.Refused() {
			if r == m {
				t.Fatalf("ply %d: %v proposed again after its refusal", u.Plies(), m)
			}
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
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

// TestMCTSBeatsRandom: a tiny match with a small node budget, which the
// search must win clearly; every game also checks that no refused attempt is
// asked again.
func TestMCTSBeatsRandom(t *testing.T) {
	wins, games := 0, 6
	for g := range games {
		m, r := mustNew(t, "mcts:mem=8"), mustNew(t, "random")
		white, black, us := m, r, chess.White
		if g%2 == 1 {
			white, black, us = r, m, chess.Black
		}
		u := playBudget(t, white, black, uint64(100+g), 400, 300, nil)
		if (u.Result() == "1-0") == (us == chess.White) && u.Result() != "1/2-1/2" && u.Result() != "*" {
			wins++
		}
	}
	if wins < 4 {
		t.Fatalf("mcts won %d of %d games against random", wins, games)
	}
}

// TestMCTSMatesBareKing: the heuristic plays White against random until
// Black is down to its bare king, the mcts player hearing every event as if
// it had asked those attempts itself; from there the mcts player plays on and
// must mate within 40 moves.
func TestMCTSMatesBareKing(t *testing.T) {
	reached := 0
	for g := range 16 {
		h, m, r := mustNew(t, "heuristic:noise=0").(*Heuristic), mustNew(t, "mcts:mem=8").(*MCTS), mustNew(t, "random")
		rules := umpire.ICC()
		u := umpire.New(rules)
		for c, p := range []Player{h, m, r} {
			p.NewGame(Game{Color: chess.Color(c / 2), Rules: rules, Seed: uint64(300 + g)})
		}
		bareAt := -1
		for attempts := 0; u.Ending() == umpire.NotOver && u.Plies() < 800 && attempts < 20000; attempts++ {
			pos := u.Position()
			var mv chess.Move
			var err error
			switch {
			case u.Side() == chess.Black:
				mv, err = r.Attempt(context.Background(), Budget{})
			case bareAt >= 0:
				mv, err = m.Attempt(context.Background(), Budget{Nodes: 400})
			default:
				if !pos.ByColor(chess.Black).More() && pos.Pieces(chess.White, chess.Queen)|pos.Pieces(chess.White, chess.Rook) != 0 {
					bareAt = u.Plies()
					mv, err = m.Attempt(context.Background(), Budget{Nodes: 400})
					break
				}
				mv, err = h.Attempt(context.Background(), Budget{})
				m.know.Asked(mv)
			}
			if err != nil {
				t.Fatal(err)
			}
			a, err := u.Attempt(mv)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []Player{h, m} {
				p.Hear(AnswerEvent(&a, chess.White))
			}
			r.Hear(AnswerEvent(&a, chess.Black))
		}
		if bareAt < 0 {
			continue
		}
		reached++
		if end := u.Position(); u.Ending() != umpire.Checkmate || u.Plies()-bareAt > 80 {
			t.Errorf("game %d: bare king at ply %d, then %v at ply %d (%s)", g, bareAt, u.Ending(), u.Plies(), end.FEN())
		}
	}
	t.Logf("%d of 16 games reached a bare king", reached)
	if reached < 5 {
		t.Fatalf("only %d of 16 games reached a bare king", reached)
	}
}

// TestMCTSDeterministic: the same seed and node budget give the same game,
// with one thread and with two.
func TestMCTSDeterministic(t *testing.T) {
	for _, spec := range []string{"mcts:mem=8", "mcts:mem=8,threads=2"} {
		record := func(seed uint64) string {
			u := playBudget(t, mustNew(t, spec), mustNew(t, "heuristic"), seed, 60, 200, nil)
			return fmt.Sprint(u.Moves())
		}
		if a, b := record(7), record(7); a != b {
			t.Fatalf("%s: same seed, different games", spec)
		}
	}
}

// TestMCTSAnswersAtOnce: with the context done the player still answers,
// from the askable attempts, and quickly.
func TestMCTSAnswersAtOnce(t *testing.T) {
	p := mustNew(t, "mcts:mem=8")
	if err := p.NewGame(Game{Color: chess.White, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := p.Attempt(ctx, Budget{Time: time.Hour})
	if err != nil || m == chess.NullMove {
		t.Fatalf("%v, %v", m, err)
	}
	// A done context stops the search at its first look at the clock (every
	// 16 iterations), not after an hour; counted, not timed, so a slow
	// machine cannot fail it.
	if it := p.(*MCTS).Last.Iterations; it > 16 {
		t.Fatalf("searched %d iterations with a done context", it)
	}
	var l chess.MoveList
	p.(*MCTS).know.Askable(&l)
	if !l.Contains(m) {
		t.Fatalf("%v is not askable", m)
	}
}

func TestMCTSSpec(t *testing.T) {
	good := []string{"mcts", "mcts:approach=a,samples=8,playout=10", "mcts:approach=b,k=3", "mcts:approach=c,threads=2,c=0.5,mem=4,solver=0,prior=uniform,seed=9"}
	for _, s := range good {
		if _, err := Parse(s, Kinds()); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	bad := []string{"mcts:approach=d", "mcts:threads=0", "mcts:c=-1", "mcts:k=0", "mcts:prior=x", "mcts:mem=0", "mcts:depth=3"}
	for _, s := range bad {
		if _, err := Parse(s, Kinds()); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
}

// TestOverride: after a driver sends another attempt than the proposal,
// every player applies the referee's refusal to the attempt sent.
func TestOverride(t *testing.T) {
	for _, spec := range []string{"mcts:mem=8", "boardtree:mem=8", "heuristic", "random"} {
		p := mustNew(t, spec)
		if err := p.NewGame(Game{Color: chess.White, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		var know *Knowledge
		switch x := p.(type) {
		case *MCTS:
			know = &x.know
		case *Heuristic:
			know = &x.know
		case *Random:
			know = &x.know
		case *Sampled:
			know = &x.know
		}
		u := umpire.New(umpire.ICC())
		send := func(uci string) {
			t.Helper()
			m, _ := chess.ParseUCI(uci)
			if u.Side() == chess.White {
				if _, err := p.Attempt(context.Background(), Budget{Nodes: 50}); err != nil {
					t.Fatal(err)
				}
				p.(Overrider).Override(m)
			}
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if v := a.For(chess.White); v.Heard {
				p.Hear(Event{Kind: Answer, View: v})
			}
		}
		send("e2e4")
		send("e7e5")
		send("e4e5") // refused: the black pawn stands there
		want, _ := chess.ParseUCI("e4e5")
		if know.Refused.N != 1 || !know.Refused.Contains(want) {
			t.Fatalf("%s: refused %v, want only e4e5", spec, know.Refused.Moves[:know.Refused.N])
		}
	}
}

// TestMCTSReportLine: the report carries the principal line from the
// attempt chosen, and Progress ends at the search's iterations.
func TestMCTSReportLine(t *testing.T) {
	p := mustNew(t, "mcts:mem=8")
	if got := p.(Inspector).LastSearch().PV; got != nil {
		t.Fatalf("line before any search: %v", got)
	}
	if err := p.NewGame(Game{Color: chess.White, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	m, err := p.Attempt(context.Background(), Budget{Nodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	rep := p.(Inspector).LastSearch()
	if len(rep.PV) == 0 || rep.PV[0] != m || len(rep.PV) > MaxPV {
		t.Fatalf("line %v for attempt %v", rep.PV, m)
	}
	if got := p.(*MCTS).Progress(); got != rep.Iterations {
		t.Fatalf("Progress %d, iterations %d", got, rep.Iterations)
	}
}

// TestCannotWin: K+N against K+B (set up, both sides known) cannot be won;
// K+R against K+B can, and so can K+N against K with a pawn.
func TestCannotWin(t *testing.T) {
	for _, spec := range []string{"mcts:mem=8", "boardtree:mem=8"} {
		t.Run(spec, func(t *testing.T) { testCannotWin(t, spec) })
	}
}

func testCannotWin(t *testing.T, spec string) {
	sp, err := Parse(spec, Kinds())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen  string
		want bool
	}{
		{"8/8/3k4/8/2b5/8/3KN3/8 w - - 0 1", true},
		{"8/8/3k4/8/2b5/8/3KR3/8 w - - 0 1", false},
		{"8/8/3k4/8/2b5/8/2NKN3/8 w - - 0 1", true},
		{"8/8/3k4/8/2p5/8/3KN3/8 w - - 0 1", false},
		{"8/8/3k4/8/2bn4/8/3KN3/8 w - - 0 1", false},
	} {
		pos, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		p := sp.New()
		if err := p.NewGame(Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1, Start: &pos}); err != nil {
			t.Fatal(err)
		}
		if got := p.(DrawSeeker).CannotWin(); got != c.want {
			t.Errorf("%s: CannotWin %v, want %v", c.fen, got, c.want)
		}
	}
}

// TestScore: the user's unit runs from -1 to +1, even at 0, and keeps the
// order of values in pawns.
func TestScore(t *testing.T) {
	if Score(0) != 0 || Score(100) < 0.99 || Score(-100) > -0.99 || Score(-3) != -Score(3) {
		t.Fatalf("Score: 0 %v, 100 %v, -100 %v", Score(0), Score(100), Score(-100))
	}
	if s := Score(1); s < 0.15 || s > 0.2 {
		t.Fatalf("a pawn up scores %v", s)
	}
	for v := -20.0; v < 20; v += 0.5 {
		if Score(v) >= Score(v+0.5) {
			t.Fatalf("Score(%v) >= Score(%v)", v, v+0.5)
		}
	}
}

// TestMCTSAsksAny: where the variant has "Any?", mcts asks it at a turn's
// start when the belief makes a pawn capture likely, never with the option
// at 0, without a likely one or against a few men, and after "has pawn
// captures" makes the capture.
func TestMCTSAsksAny(t *testing.T) {
	v, err := umpire.ParseVariant("berkeley_any")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec, fen string
		asks      bool
	}{
		{"mcts:mem=8", "rnb1k3/ppp5/8/3p4/4P3/8/8/4K3 w - - 0 1", true},
		{"mcts:mem=8,any=0", "rnb1k3/ppp5/8/3p4/4P3/8/8/4K3 w - - 0 1", false},
		{"mcts:mem=8", "rnb1k3/ppp5/8/8/4P3/8/8/4K3 w - - 0 1", false},
		// Against a few men the search keeps its choice.
		{"mcts:mem=8", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false},
	} {
		pos, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		p := mustNew(t, c.spec)
		if err := p.NewGame(Game{Color: chess.White, Rules: umpire.Site(v), Seed: 1, Start: &pos}); err != nil {
			t.Fatal(err)
		}
		m, err := p.Attempt(t.Context(), Budget{Nodes: 100})
		if err != nil {
			t.Fatal(err)
		}
		if (m == chess.NullMove) != c.asks {
			t.Fatalf("%s from %s: attempt %v, want asking %v", c.spec, c.fen, m, c.asks)
		}
		if !c.asks {
			continue
		}
		p.Hear(Event{Kind: Answer, View: umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1}})
		take := chess.NewMove(chess.NewSquare(4, 3), chess.NewSquare(3, 4), chess.NoPieceType)
		if m, err := p.Attempt(t.Context(), Budget{Nodes: 100}); err != nil || m != take {
			t.Fatalf("after has pawn captures: %v, %v; want %v", m, err, take)
		}
	}
}

// TestPriorOptions: a model file given by its path is the belief's prior,
// a bad path or mover rule is refused, and the mover rule wraps the models
// the daemon sets later as it wraps the option's.
func TestPriorOptions(t *testing.T) {
	c, err := oppmodel.DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.kbm")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"mcts:prior=" + path, "boardtree:prior=" + path + ",movers=model", "sampled:movers=paper,prior=uniform"} {
		if _, err := Parse(s, Kinds()); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"mcts:prior=" + path + "x", "boardtree:prior=/no/such/file.kbm", "mcts:movers=x", "boardtree:movers="} {
		if _, err := Parse(s, Kinds()); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	m, err := oppmodel.Default()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"paper": "belief.PaperMovers", "model": "*oppmodel.Model", "pawns": "belief.PawnMovers"}
	for _, spec := range []string{"mcts", "mcts:movers=model", "mcts:movers=pawns", "boardtree:movers=paper", "boardtree:movers=model", "sampled:movers=pawns"} {
		want := kinds["paper"]
		if _, rule, ok := strings.Cut(spec, "movers="); ok {
			want = kinds[rule]
		}
		p := mustNew(t, spec)
		p.(PriorSetter).SetPrior(m)
		got := map[string]belief.Prior{}
		switch q := p.(type) {
		case *MCTS:
			got["its own"] = q.prior
		case *Sampled:
			got["its own"] = q.prior
			got["its bare-king search's"] = q.bare.prior
		}
		for whose, pr := range got {
			if g := fmt.Sprintf("%T", pr); g != want {
				t.Errorf("%s: %s prior set is %s, want %s", spec, whose, g, want)
			}
		}
	}
}
