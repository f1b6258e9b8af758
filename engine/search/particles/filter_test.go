package particles

import (
	"math"
	"math/rand/v2"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/replymodel"
	"kriegbot/engine/umpire"
)

// game plays one game through the umpire, white asking random askable
// attempts and black playing by the reply policy on the true board,
// telling white's answers to a belief and a filter, and calls check after
// each update with the true board.
func game(t *testing.T, cfg Config, seed uint64, plies int, check func(f *Filter, bel *belief.State, truth *chess.Position, v umpire.View)) *Filter {
	t.Helper()
	rules := umpire.ICC()
	u := umpire.New(rules)
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	f := New(cfg, &bel)
	f.Reset(&start, seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	var list chess.MoveList
	var moves []replymodel.Move
	w := DefaultConfig().Weights
	for ply := 0; u.Ending() == umpire.NotOver && ply < plies; {
		side := u.Side()
		var m chess.Move
		if side == chess.White {
			u.Askable(&list)
			if list.N == 0 {
				break
			}
			m = list.Moves[rng.IntN(list.N)]
		} else {
			truth := u.Position()
			moves = replymodel.Describe(&truth, chess.NoSquare, &list, moves[:0])
			m = list.Moves[policyPick(rng, &w, moves)]
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		if a.Ending != umpire.NotOver {
			break
		}
		v := a.For(chess.White)
		if a.Legal {
			ply++
		}
		if !v.Heard {
			continue
		}
		if side == chess.White {
			bel.Ours(m, v)
		} else {
			bel.Theirs(v)
		}
		f.Hear(m, v)
		truth := u.Position()
		check(f, &bel, &truth, v)
	}
	return f
}

// policyPick draws a move from the policy w over moves.
func policyPick(rng *rand.Rand, w *replymodel.Weights, moves []replymodel.Move) int {
	sum := 0.0
	for i := range moves {
		sum += math.Exp(w.Score(&moves[i]))
	}
	x := rng.Float64() * sum
	for i := range moves {
		if x -= math.Exp(w.Score(&moves[i])); x <= 0 {
			return i
		}
	}
	return len(moves) - 1
}

// TestBoardsExplainWhatWasHeard: every board of the set has our men where
// they stand and the side to move of the game, and the set never empties.
func TestBoardsExplainWhatWasHeard(t *testing.T) {
	updates := 0
	for seed := range uint64(6) {
		f := game(t, Config{N: 128, Weights: DefaultConfig().Weights, MinAlive: 8}, seed, 200,
			func(f *Filter, _ *belief.State, truth *chess.Position, v umpire.View) {
				updates++
				if f.Len() == 0 {
					t.Fatalf("seed %d: the set emptied after %+v", seed, v)
				}
				for i := range f.Len() {
					b := f.Board(i)
					if b.Side() != truth.Side() || b.ByColor(chess.White) != truth.ByColor(chess.White) {
						t.Fatalf("seed %d: board %d has white's men or the turn wrong", seed, i)
					}
					for pt := chess.Pawn; pt <= chess.King; pt++ {
						if b.Pieces(chess.White, pt) != truth.Pieces(chess.White, pt) {
							t.Fatalf("seed %d: board %d has white's %v wrong", seed, i, pt)
						}
					}
					if b.Pieces(chess.Black, chess.King) == 0 {
						t.Fatalf("seed %d: board %d has no black king", seed, i)
					}
				}
			})
		t.Logf("seed %d: %d refills", seed, f.Refills)
	}
	if updates < 500 {
		t.Fatalf("only %d updates", updates)
	}
}

// TestSetKnowsTheBoardBetter: where the opponent plays as the policy
// supposes, a set of 4,096 boards places its men nearer the truth than
// the belief's marginals (0.124 against 0.131 nats a square; a set of 512
// does not: 0.133, its refills after a surprise cost what it gains).
func TestSetKnowsTheBoardBetter(t *testing.T) {
	var set, marg float64
	n := 0
	for seed := range uint64(4) {
		game(t, Config{N: 4096, Weights: DefaultConfig().Weights, MinAlive: 16}, 100+seed, 120,
			func(f *Filter, bel *belief.State, truth *chess.Position, v umpire.View) {
				if v.Own {
					return
				}
				var occ [3][64]float64
				f.Occupancy(chess.Black, &occ)
				set += OccupancyLoss(func(c oppmodel.Class, sq chess.Square) float64 { return occ[c][sq] }, truth, chess.Black)
				marg += OccupancyLoss(bel.Prob, truth, chess.Black)
				n++
			})
	}
	set, marg = set/float64(n), marg/float64(n)
	t.Logf("%d replies: log-loss a square %.4f for the set, %.4f for the belief", n, set, marg)
	if n < 100 || set >= marg {
		t.Errorf("the set's loss %.4f is not below the belief's %.4f over %d replies", set, marg, n)
	}
}

// TestFilterRepeats: the same seed and answers give the same set.
func TestFilterRepeats(t *testing.T) {
	run := func() []uint64 {
		f := game(t, Config{N: 64, Weights: DefaultConfig().Weights, MinAlive: 8}, 3, 80, func(*Filter, *belief.State, *chess.Position, umpire.View) {})
		var h []uint64
		for i := range f.Len() {
			h = append(h, f.Board(i).Hash())
		}
		return h
	}
	a, b := run(), run()
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("sets of %d and %d boards", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("board %d differs", i)
		}
	}
}

// TestSampleFallsBackToTheBelief: a stopped filter draws from the belief.
func TestSampleFallsBackToTheBelief(t *testing.T) {
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	f := New(DefaultConfig(), &bel)
	f.Reset(&start, 1)
	f.Stop()
	var p chess.Position
	if f.Live() || f.Len() != 0 || !f.Sample(rand.New(rand.NewPCG(1, 1)), &p) {
		t.Fatalf("stopped filter: live %v, %d boards", f.Live(), f.Len())
	}
}

// TestUpdatesAllocateNothing: an opponent's reply heard costs no
// allocation once the filter is made.
func TestUpdatesAllocateNothing(t *testing.T) {
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	f := New(Config{N: 64, Weights: DefaultConfig().Weights, MinAlive: 8}, &bel)
	u := umpire.New(umpire.ICC())
	e4, _ := chess.ParseUCI("e2e4")
	e5, _ := chess.ParseUCI("e7e5")
	a, err := u.Attempt(e4)
	if err != nil {
		t.Fatal(err)
	}
	ours := a.For(chess.White)
	if a, err = u.Attempt(e5); err != nil {
		t.Fatal(err)
	}
	theirs := a.For(chess.White)
	allocs := testing.AllocsPerRun(20, func() {
		f.Reset(&start, 1)
		f.Ours(e4, ours)
		f.Theirs(theirs)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations an update", allocs)
	}
}
