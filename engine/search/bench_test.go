package search

import (
	"context"
	"testing"

	"kriegbot/engine/umpire"
)

// benchSearch times approach C's searches of 2000 iterations on middlegame
// beliefs, each position afresh, so that expansion, state computation and
// evaluation all count.
func benchSearch(b *testing.B, threads int) {
	ps := Middlegames(3, 8, 20, 60)
	cfg := DefaultConfig()
	cfg.Threads = threads
	cfg.MemoryMB = 16
	s, err := New(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	const per = 2000
	ctx := context.Background()
	s.Search(ctx, &ps[0].Belief, ps[0].Moves, Limits{Nodes: 10}) // allocate the pools
	b.ReportAllocs()
	var iters int64
	for i := 0; b.Loop(); i++ {
		p := &ps[i%len(ps)]
		s.NewGame(uint64(i), umpire.ICC())
		iters += s.Search(ctx, &p.Belief, p.Moves, Limits{Nodes: per}).Iterations
	}
	b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iters/s")
}

func BenchmarkSearchC(b *testing.B)  { benchSearch(b, 1) }
func BenchmarkSearchC2(b *testing.B) { benchSearch(b, 2) }

// BenchmarkIterate times one iteration of approach C in a growing tree (deep
// iterations included): it allocates nothing.
func BenchmarkIterate(b *testing.B) {
	ps := Middlegames(3, 4, 20, 60)
	cfg := DefaultConfig()
	t := newTree(64, 1)
	k := 0
	t.reset(&ps[0].Belief)
	t.addAttempts(0, ps[0].Moves)
	b.ReportAllocs()
	for b.Loop() {
		if t.full() || !t.iterate(&cfg) {
			b.StopTimer()
			k = (k + 1) % len(ps)
			t.reset(&ps[k].Belief)
			t.addAttempts(0, ps[k].Moves)
			b.StartTimer()
		}
	}
}
