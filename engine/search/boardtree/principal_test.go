package boardtree

import (
	"context"
	"testing"
	"time"

	"kriegbot/engine/chess"
)

// TestPrincipal: the line starts with the root attempt asked for, follows
// the most visited node at each step, stays within max, and is empty for
// an attempt that is not at the root.
func TestPrincipal(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	s.NewGame(3)
	if pv := s.Principal(moves[0], nil, 8); len(pv) != 0 {
		t.Fatalf("before any choice: %v", pv)
	}
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 3000})
	first := moves[r.Best]
	pv := s.Principal(first, nil, 0)
	if len(pv) < 2 || pv[0] != first {
		t.Fatalf("line %v after 3000 iterations, chose %v", pv, first)
	}
	// Each step is the most visited: walk it again by hand.
	a := s.attemptNodeOf(first)
	for i, m := range pv {
		if a < 0 || s.nodes[a].move != m {
			t.Fatalf("step %d: %v is not the node walked (%d)", i, m, a)
		}
		d := s.mostVisited(a)
		for c := s.nodes[a].child; c >= 0 && d >= 0; c = s.nodes[c].next {
			if s.nodes[c].visits > s.nodes[d].visits {
				t.Fatalf("step %d: answer %d has more visits than %d", i, c, d)
			}
		}
		if d < 0 || s.nodes[d].kind == end {
			a = -1
			break
		}
		a = s.mostVisited(d)
	}
	if a >= 0 && s.nodes[a].visits > 0 {
		t.Errorf("line %v stops before the tree's end (node %d, %d visits)", pv, a, s.nodes[a].visits)
	}
	if short := s.Principal(first, nil, 2); len(short) != 2 || short[0] != pv[0] || short[1] != pv[1] {
		t.Errorf("max 2: %v, whole line %v", short, pv)
	}
	if none := s.Principal(chess.NewMove(chess.NewSquare(0, 0), chess.NewSquare(0, 7), 0), nil, 8); len(none) != 0 {
		t.Errorf("not a root attempt: %v", none)
	}
	if got := s.RootVisits(first); got != s.rootVisitsOf(first) || got == 0 {
		t.Errorf("RootVisits %d", got)
	}
}

func (s *Searcher) rootVisitsOf(m chess.Move) int64 {
	return int64(s.nodes[s.attemptNodeOf(m)].visits)
}

// TestProgress: while a choice runs, Progress never goes down and stays
// within what the choice runs; after it, it is the choice's iterations.
func TestProgress(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	s.NewGame(5)
	done := make(chan Result)
	go func() { done <- s.Choose(context.Background(), &bel, moves, Limits{Iterations: 20000}) }()
	var last int64
	for {
		select {
		case r := <-done:
			if got := s.Progress(); got != r.Iterations {
				t.Errorf("after the choice: Progress %d, ran %d", got, r.Iterations)
			}
			return
		default:
		}
		n := s.Progress()
		if n < last || n > 20000 {
			t.Fatalf("Progress %d after %d", n, last)
		}
		last = n
		time.Sleep(50 * time.Microsecond)
	}
}
