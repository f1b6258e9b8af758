package search

import (
	"context"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// ponderSetup searches a middlegame position, plays the chosen attempt
// silently and returns the searcher with the belief after our move.
func ponderSetup(t *testing.T, threads int, mem int) (*Searcher, chess.Move, umpire.View, Position) {
	t.Helper()
	ps := Middlegames(14, 2, 20, 40)
	p := ps[len(ps)/2]
	cfg := testConfig(ApproachC, threads)
	cfg.MemoryMB = mem
	s := newSearcher(t, cfg)
	r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: 2000})
	ours := umpire.View{Heard: true, Own: true, Move: r.Move}
	return s, r.Move, ours, p
}

// afterSilentReply tells s that our attempt m, answered ours, was followed
// by a reply we heard nothing of, and returns the belief then and our
// attempts from it.
func afterSilentReply(s *Searcher, p Position, m chess.Move, ours umpire.View) (belief.State, []chess.Move) {
	theirs := umpire.View{Heard: true}
	bel := p.Belief
	bel.Ours(m, ours)
	bel.Theirs(theirs)
	s.Played(m, ours, theirs, &bel)
	var mn men
	mn.fromBelief(&bel)
	var l chess.MoveList
	mn.attempts(nil, &l)
	return bel, l.Slice()
}

// TestPonderGrowsTheReplyRoot: a ponder after our silent move searches the
// replies we may hear; after the reply its decision node becomes the root
// with the ponder's visits in it, the root's other attempts are gone, and
// the next search reuses it.
func TestPonderGrowsTheReplyRoot(t *testing.T) {
	s, m, ours, p := ponderSetup(t, 1, 8)
	tr := s.trees[0]
	theirs := umpire.View{Heard: true}
	before := int32(0)
	if next := tr.follow(m, ours, theirs); next >= 0 {
		before = tr.nodes[next].visits
	}
	res := s.Ponder(context.Background(), m, ours, Limits{Nodes: 3000})
	if res.Iterations != 3000 || res.Trees != 1 {
		t.Fatalf("ponder: %+v, want 3000 iterations on 1 tree", res)
	}
	// Only the path to the answer heard keeps children below the root.
	r := &tr.nodes[0]
	for c := r.first; c < r.first+int32(r.nchild); c++ {
		if n := &tr.nodes[c]; n.move != m && n.first != noChild {
			t.Fatalf("root attempt %v kept its subtree", n.move)
		}
	}
	next := tr.follow(m, ours, theirs)
	if next < 0 {
		t.Fatal("no silent reply after the ponder")
	}
	// The silent reply is the likeliest: it got most of the ponder.
	if got := tr.nodes[next].visits - before; got < 1000 {
		t.Fatalf("the silent reply got %d of 3000 ponder iterations", got)
	}
	want := tr.nodes[next].visits
	bel, moves := afterSilentReply(s, p, m, ours)
	if !s.rooted || tr.nodes[0].visits != want {
		t.Fatalf("rooted %v, root visits %d, want %d", s.rooted, tr.nodes[0].visits, want)
	}
	r2 := s.Search(context.Background(), &bel, moves, Limits{Nodes: 200})
	if !contains(moves, r2.Move) {
		t.Fatalf("%v not among the attempts", r2.Move)
	}
	// The root's attempts are now the askable ones (no pawn captures after
	// "no pawn tries"), with the statistics of those the ponder had.
	if got := tr.nodes[0].visits - 200; got < 100 {
		t.Fatalf("the search kept %d of the pondered root's %d visits", got, want)
	}
}

// TestPonderRepeats: a ponder stopped by its context at an arbitrary moment
// (small pools, so that it prunes) is repeated exactly by its trees'
// counts, with one tree and two: the next search gives the same result.
func TestPonderRepeats(t *testing.T) {
	for _, threads := range []int{1, 2} {
		live, m, ours, p := ponderSetup(t, threads, 1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan PonderResult)
		go func() { done <- live.Ponder(ctx, m, ours, Limits{}) }()
		for live.Progress() < 4000 {
		}
		cancel()
		res := <-done
		trees := live.TreeIterations(nil)
		if res.Iterations < 4000 {
			t.Fatalf("threads %d: the ponder stopped after %d iterations", threads, res.Iterations)
		}
		again, m2, ours2, _ := ponderSetup(t, threads, 1)
		if m2 != m || ours2 != ours {
			t.Fatal("the setup is not deterministic")
		}
		res2 := again.Ponder(context.Background(), m, ours, Limits{Trees: trees})
		if res2 != res {
			t.Fatalf("threads %d: replayed ponder %+v, live %+v", threads, res2, res)
		}
		next := func(s *Searcher) Result {
			bel, moves := afterSilentReply(s, p, m, ours)
			return s.Search(context.Background(), &bel, moves, Limits{Nodes: 500})
		}
		if a, b := next(live), next(again); a != b {
			t.Fatalf("threads %d: after the ponder %+v, after its replay %+v", threads, a, b)
		}
	}
}

// TestPonderCancelled: a ponder whose context is already done runs nothing,
// and leaves the next search as it would have been without it.
func TestPonderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, m, ours, p := ponderSetup(t, 1, 8)
	if res := a.Ponder(ctx, m, ours, Limits{}); res.Iterations != 0 {
		t.Fatalf("a cancelled ponder ran %d iterations", res.Iterations)
	}
	b, _, _, _ := ponderSetup(t, 1, 8)
	next := func(s *Searcher) Result {
		bel, moves := afterSilentReply(s, p, m, ours)
		return s.Search(context.Background(), &bel, moves, Limits{Nodes: 500})
	}
	if x, y := next(a), next(b); x != y {
		t.Fatalf("after a cancelled ponder %+v, without one %+v", x, y)
	}
}

// TestPonderNoAllocs: ponder iterations allocate nothing (the call itself
// allocates a constant few things, whatever its length).
func TestPonderNoAllocs(t *testing.T) {
	s, m, ours, _ := ponderSetup(t, 1, 16)
	tr := s.trees[0]
	if !tr.ponderPath(m, ours) {
		t.Fatal("no answer node to ponder")
	}
	cfg := s.cfg
	allocs := testing.AllocsPerRun(500, func() {
		if !tr.iterate(&cfg) {
			t.Fatal("pool full")
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per ponder iteration", allocs)
	}
}
