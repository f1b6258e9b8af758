package sampled

import (
	"context"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

func startBelief() (belief.State, []chess.Move) {
	p := chess.StartPosition()
	var l chess.MoveList
	p.GenerateLegal(&l)
	return belief.FromPosition(chess.White, p, belief.UniformPrior{}), l.Slice()
}

// TestChoose: a choice scores the boards its plan asks for, picks one of
// the attempts, and repeats itself from the same seed, with either value of
// a refusal.
func TestChoose(t *testing.T) {
	for _, next := range []bool{true, false} {
		bel, moves := startBelief()
		cfg := DefaultConfig()
		cfg.NextBest = next
		s := New(cfg)
		s.NewGame(1)
		boards, _ := s.Plan(200000, len(moves))
		r := s.Choose(context.Background(), &bel, moves, 200000)
		if r.Best < 0 || r.Best >= len(moves) || r.Boards != boards || r.Nodes == 0 {
			t.Fatalf("next %v: result %+v, want an attempt and %d boards", next, r, boards)
		}
		s.NewGame(1)
		if again := s.Choose(context.Background(), &bel, moves, 200000); again != r {
			t.Errorf("next %v, same seed: %+v then %+v", next, r, again)
		}
	}
}

// TestChooseStopsWhenDone: a done context ends the choice after one board.
func TestChooseStopsWhenDone(t *testing.T) {
	bel, moves := startBelief()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := New(DefaultConfig())
	if r := s.Choose(ctx, &bel, moves, 1<<30); r.Boards != 1 || r.Best < 0 {
		t.Errorf("result %+v, want one board", r)
	}
}

// TestPlan: four times the work gives twice the boards and about twice the
// nodes a search; a small budget still draws MinBoards.
func TestPlan(t *testing.T) {
	s := New(DefaultConfig())
	b1, n1 := s.Plan(1_000_000, 20)
	b4, n4 := s.Plan(4_000_000, 20)
	if b4 < 2*b1-1 || b4 > 2*b1+1 || n4 < 3*n1/2 || n4 > 5*n1/2 {
		t.Errorf("1x: %d boards of %d nodes; 4x: %d boards of %d", b1, n1, b4, n4)
	}
	if b, n := s.Plan(10, 20); b != DefaultConfig().MinBoards || n != 1 {
		t.Errorf("tiny budget: %d boards of %d nodes", b, n)
	}
}

func BenchmarkChoose(b *testing.B) {
	bel, moves := startBelief()
	s := New(DefaultConfig())
	b.ReportAllocs()
	for b.Loop() {
		s.Choose(context.Background(), &bel, moves, 50000)
	}
}

// TestChooseNextBest: an attempt every board refuses (the queen through
// its own pawn) is worth the best attempt less the refusal's charge.
func TestChooseNextBest(t *testing.T) {
	bel, moves := startBelief()
	never, err := chess.ParseUCI("d1d4")
	if err != nil {
		t.Fatal(err)
	}
	moves = append([]chess.Move{never}, moves...)
	cfg := DefaultConfig()
	cfg.NextBest = true
	s := New(cfg)
	s.NewGame(1)
	r := s.Choose(context.Background(), &bel, moves, 100000)
	if r.Best < 0 || r.Boards == 0 {
		t.Fatalf("result %+v", r)
	}
	var scores []float64
	scores = s.Scores(scores, len(moves), r.Boards)
	for j, sc := range scores {
		if sc > r.Score {
			t.Errorf("attempt %d scores %g over the chosen %g", j, sc, r.Score)
		}
	}
	if r.Best == 0 || scores[0] > r.Score-float64(cfg.Refusal)+1e-9 || scores[0] < r.Score-200 {
		t.Errorf("the refused attempt scores %g, the chosen %d %g", scores[0], r.Best, r.Score)
	}
}

// TestChoosePolicyAndHanging: with the reply model's opponent and redraws
// of boards with hanging men, a choice still picks an attempt, repeats
// itself from the same seed and allocates nothing.
func TestChoosePolicyAndHanging(t *testing.T) {
	bel, moves := startBelief()
	cfg := DefaultConfig()
	cfg.Policy, cfg.Hanging, cfg.QuietMoves = true, 0.5, 2
	s := New(cfg)
	s.NewGame(1)
	r := s.Choose(context.Background(), &bel, moves, 100000)
	if r.Best < 0 || r.Boards == 0 || r.Nodes == 0 {
		t.Fatalf("result %+v", r)
	}
	s.NewGame(1)
	if again := s.Choose(context.Background(), &bel, moves, 100000); again != r {
		t.Errorf("same seed: %+v then %+v", r, again)
	}
	if a := testing.AllocsPerRun(3, func() { s.Choose(context.Background(), &bel, moves, 20000) }); a != 0 {
		t.Errorf("%v allocations per choice", a)
	}
}

// TestPolicyOpponentIsBlind: a queen put where a knight, which cannot see
// it, could take it is lost on the board for a paranoid opponent, and
// mostly kept for the reply model's.
func TestPolicyOpponentIsBlind(t *testing.T) {
	pos, err := chess.ParseFEN("4k3/pppp4/8/4n3/8/8/8/3QK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := chess.ParseUCI("d1d3") // Nxd3 takes it
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	value := func(policy bool) int32 {
		cfg := DefaultConfig()
		cfg.Policy = policy
		s := New(cfg)
		s.board = pos
		return s.attempt(m, 20000, &r)
	}
	paranoid, blind := value(false), value(true)
	if paranoid > -300 || blind < paranoid+300 {
		t.Errorf("Qd3 worth %d against a seeing opponent, %d against the model's", paranoid, blind)
	}
	cfg := DefaultConfig()
	cfg.Policy, cfg.QuietMoves = true, 3
	s := New(cfg)
	s.board = pos
	if v := s.attempt(m, 20000, &r); v < paranoid+300 {
		t.Errorf("Qd3 worth %d against the model's opponent playing quiet moves, %d against a seeing one", v, paranoid)
	}
}
