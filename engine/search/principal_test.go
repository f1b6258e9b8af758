package search

import (
	"context"
	"slices"
	"sync"
	"testing"

	"kriegbot/engine/chess"
)

// TestPrincipal: the principal line starts with the chosen attempt, goes
// deeper than it once the search has grown, is the same for the same seed,
// honours max, and costs no allocation once pv has room.
func TestPrincipal(t *testing.T) {
	ps := Middlegames(11, 3, 20, 40)
	for _, threads := range []int{1, 2} {
		lines := func() [][]chess.Move {
			cfg := testConfig(ApproachC, threads)
			cfg.Seed = 9
			s := newSearcher(t, cfg)
			if pv := s.Principal(ps[0].Moves[0], nil, 0); len(pv) != 0 {
				t.Fatalf("before any search: %v", pv)
			}
			var out [][]chess.Move
			deepest := 0
			for i := 0; i < len(ps); i += 7 {
				r := s.Search(context.Background(), &ps[i].Belief, ps[i].Moves, Limits{Nodes: 3000})
				pv := s.Principal(r.Move, nil, 0)
				if len(pv) == 0 || pv[0] != r.Move {
					t.Fatalf("threads %d position %d: line %v for attempt %v", threads, i, pv, r.Move)
				}
				deepest = max(deepest, len(pv))
				if got := s.Principal(r.Move, nil, 1); len(got) != 1 {
					t.Fatalf("max 1: %v", got)
				}
				if got := s.Progress(); got != r.Iterations {
					t.Fatalf("Progress after the search: %d, iterations %d", got, r.Iterations)
				}
				buf := make([]chess.Move, 0, 64)
				if a := testing.AllocsPerRun(10, func() { buf = s.Principal(r.Move, buf[:0], 64) }); a != 0 {
					t.Fatalf("Principal allocates %v times", a)
				}
				if s.Principal(chess.NullMove, nil, 0) != nil {
					t.Fatal("a line for an attempt not at the root")
				}
				out = append(out, pv)
			}
			if deepest < 2 {
				t.Fatalf("threads %d: no line deeper than one attempt after 3000 iterations", threads)
			}
			return out
		}
		a, b := lines(), lines()
		for i := range a {
			if !slices.Equal(a[i], b[i]) {
				t.Fatalf("threads %d: line %d differs for the same seed: %v, %v", threads, i, a[i], b[i])
			}
		}
	}
}

// TestProgressWhileSearching reads Progress from another goroutine during a
// two-tree search (run with -race to check it is safe) and sees it grow to
// the search's iterations.
func TestProgressWhileSearching(t *testing.T) {
	ps := Middlegames(11, 1, 20, 40)
	s := newSearcher(t, testConfig(ApproachC, 2))
	done := make(chan struct{})
	var wg sync.WaitGroup
	var seen []int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if len(seen) < 1000 {
				seen = append(seen, s.Progress())
			}
		}
	}()
	r := s.Search(context.Background(), &ps[0].Belief, ps[0].Moves, Limits{Nodes: 2000})
	close(done)
	wg.Wait()
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] || seen[i] > r.Iterations {
			t.Fatalf("Progress went %d then %d (search: %d iterations)", seen[i-1], seen[i], r.Iterations)
		}
	}
	if s.Progress() != r.Iterations {
		t.Fatalf("Progress %d after a search of %d iterations", s.Progress(), r.Iterations)
	}
}
