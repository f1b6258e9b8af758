package search

import (
	"context"
	"math"
	"testing"

	"kriegbot/engine/chess"
)

// TestPruneRunsBudget: with a tiny memory cap and a node budget far above
// what fits, the search prunes and runs every iteration it was given, its
// pools never overflow, and the same seed and budget give the same attempt,
// report and candidates, with one thread and with two, for every approach.
func TestPruneRunsBudget(t *testing.T) {
	ps := Middlegames(16, 2, 20, 40)
	cases := []struct {
		ap      Approach
		threads int
		nodes   int64
	}{
		{ApproachC, 1, 16000},
		{ApproachC, 2, 30000},
		{ApproachB, 1, 3000},
		{ApproachA, 2, 3000},
	}
	for _, tc := range cases {
		run := func() (Result, []Candidate, *Searcher) {
			cfg := testConfig(tc.ap, tc.threads)
			cfg.MemoryMB, cfg.Seed = 1, 9
			s := newSearcher(t, cfg)
			p := &ps[0]
			r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: tc.nodes})
			return r, s.Candidates(nil), s
		}
		r, cands, s := run()
		if r.Iterations != tc.nodes {
			t.Fatalf("approach %v threads %d: %d iterations of %d", tc.ap, tc.threads, r.Iterations, tc.nodes)
		}
		if r.Prunes < 1 {
			t.Fatalf("approach %v threads %d: never pruned", tc.ap, tc.threads)
		}
		for i, tr := range s.trees {
			checkTree(t, tr)
			if tc.ap == ApproachC && tc.nodes/int64(tc.threads) <= int64(len(tr.nodes)) {
				t.Fatalf("tree %d: budget %d does not exceed the pool of %d nodes", i, tc.nodes, len(tr.nodes))
			}
		}
		r2, cands2, _ := run()
		if r != r2 {
			t.Fatalf("approach %v threads %d: %+v then %+v", tc.ap, tc.threads, r, r2)
		}
		if len(cands) != len(cands2) {
			t.Fatalf("%d candidates then %d", len(cands), len(cands2))
		}
		for i := range cands {
			if cands[i] != cands2[i] {
				t.Fatalf("candidate %d: %+v then %+v", i, cands[i], cands2[i])
			}
		}
	}
}

// TestPruneKeepsTree: pruning only cuts subtrees off. Walked from the root
// side by side, the pruned tree has the same nodes with the same values,
// visits and flags as before (collapsed nodes just lost their children and,
// for decision nodes, their belief), the root and attempts are never
// collapsed, and each pool ends at most half full.
func TestPruneKeepsTree(t *testing.T) {
	ps := Middlegames(17, 2, 20, 40)
	cfg := DefaultConfig()
	for k, p := range ps[:4] {
		tr := newTree(1, uint64(k))
		tr.reset(&p.Belief)
		tr.addAttempts(0, p.Moves)
		for !tr.full() {
			if !tr.iterate(&cfg) {
				t.Fatal("an iteration failed with room in the pools")
			}
		}
		before := append([]node(nil), tr.nodes[:tr.nn]...)
		statics := make([]float32, tr.ns)
		for s := range tr.ns {
			statics[s] = tr.states[s].static
		}
		if !tr.prune() {
			t.Fatalf("position %d: nothing could be freed", k)
		}
		checkTree(t, tr)
		if int(tr.nn) > len(tr.nodes)/2 || int(tr.ns) > len(tr.states)/2 {
			t.Fatalf("position %d: %d of %d nodes, %d of %d states after pruning", k, tr.nn, len(tr.nodes), tr.ns, len(tr.states))
		}
		collapsed := 0
		var walk func(old, cur int32)
		walk = func(old, cur int32) {
			o, n := &before[old], &tr.nodes[cur]
			if o.value != n.value || o.visits != n.visits || o.kind != n.kind || o.move != n.move ||
				o.prob != n.prob || o.flags != n.flags&^fCollapsed {
				t.Fatalf("position %d: node %d was %+v, is %+v", k, old, *o, *n)
			}
			if n.first < 0 {
				if o.first >= 0 {
					collapsed++
					if cur == 0 || n.kind == attempt {
						t.Fatalf("position %d: node %d (kind %d) collapsed", k, cur, n.kind)
					}
					if n.state >= 0 {
						t.Fatalf("position %d: collapsed node %d keeps a belief", k, cur)
					}
				}
				return
			}
			if n.nchild != o.nchild {
				t.Fatalf("position %d: node %d had %d children, has %d", k, old, o.nchild, n.nchild)
			}
			if n.kind == decision && (n.state < 0 || tr.states[n.state].static != statics[o.state]) {
				t.Fatalf("position %d: node %d lost its belief", k, cur)
			}
			for j := range int32(n.nchild) {
				walk(o.first+j, n.first+j)
			}
		}
		walk(0, 0)
		if collapsed == 0 {
			t.Fatalf("position %d: nothing collapsed", k)
		}
		// The tree grows again from the collapsed nodes without failing.
		for range 2000 {
			if tr.full() && !tr.prune() {
				t.Fatalf("position %d: full again and nothing to free", k)
			}
			if !tr.iterate(&cfg) {
				t.Fatalf("position %d: an iteration failed after pruning", k)
			}
		}
		checkTree(t, tr)
	}
}

// TestCollapsedHoldsValue: a collapsed decision node keeps the value it had
// while its rebuilt attempts are valued again (max backup over the first of
// them would let a one-ply guess stand for the node), and takes their maximum
// once all are, or at once when one is a proven win.
func TestCollapsedHoldsValue(t *testing.T) {
	cfg := DefaultConfig()
	tr := newTree(1, 1)
	// node 0: a collapsed decision node, rebuilt with attempts 1, 2 and 3.
	tr.nn = 4
	tr.nodes[0] = node{kind: decision, value: 3, visits: 10, first: 1, nchild: 3, state: -1, flags: fCollapsed}
	for i := int32(1); i < 4; i++ {
		tr.nodes[i] = node{kind: attempt, first: noChild, state: -1}
	}
	visit := func(c int32, v float32) {
		tr.nodes[c].value = v
		tr.path = append(tr.path[:0], 0, c)
		tr.backup(&cfg, v)
	}
	visit(1, 1)
	visit(2, 2)
	if n := tr.nodes[0]; n.value != 3 || n.flags&fCollapsed == 0 || n.visits != 12 {
		t.Fatalf("with an attempt not valued: %+v", n)
	}
	tr.nodes[3].flags |= fSolved // a solved attempt is never selected: it does not hold the node
	tr.nodes[3].value = -1
	visit(1, 1.5)
	if n := tr.nodes[0]; n.value != 2 || n.flags&fCollapsed != 0 {
		t.Fatalf("with every attempt valued: %+v", n)
	}
	// A proven win releases the node at once.
	tr.nodes[0].flags |= fCollapsed
	tr.nodes[2].visits, tr.nodes[3].visits = 0, 1
	tr.nodes[3].value = winValue
	visit(1, 1)
	if n := tr.nodes[0]; n.value != winValue || n.flags&fSolved == 0 || n.flags&fCollapsed != 0 {
		t.Fatalf("with a proven win: %+v", n)
	}
}

// TestPruneReuse: after a search that pruned, a refusal and a played move
// still reuse the tree, and the searches after them stay whole.
func TestPruneReuse(t *testing.T) {
	ps := Middlegames(19, 2, 20, 40)
	p := ps[len(ps)/2]
	cfg := testConfig(ApproachC, 1)
	cfg.MemoryMB = 1
	s := newSearcher(t, cfg)
	const budget = 12000
	r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: budget})
	if r.Prunes == 0 {
		t.Fatal("the first search did not prune")
	}
	tr := s.trees[0]
	bel, rest := refuse(s, &p, r.Move)
	before := tr.nodes[0].visits
	r2 := s.Search(context.Background(), &bel, rest, Limits{Nodes: budget})
	if r2.Move == r.Move || r2.Iterations != budget {
		t.Fatalf("after the refusal: %+v", r2)
	}
	if before == 0 || tr.nodes[0].visits <= budget || tr.nodes[0].visits > before+budget {
		t.Fatalf("root visits %d after reuse (had %d)", tr.nodes[0].visits, before)
	}
	checkTree(t, tr)
	// Follow the most visited answer and reply of the attempt chosen.
	at := tr.nodes[0].first
	for tr.nodes[at].move != r2.Move {
		at++
	}
	ans := mostVisited(tr, at, answer)
	if ans < 0 {
		t.Fatal("the attempt chosen has no answer expanded")
	}
	rep := mostVisited(tr, ans, decision)
	if rep < 0 {
		t.Fatal("the answer chosen has no reply expanded")
	}
	ours, theirs := ourView(r2.Move, &tr.nodes[ans]), theirView(&tr.nodes[rep])
	next := tr.follow(r2.Move, ours, theirs)
	if next != rep {
		t.Fatalf("follow found %d, want %d", next, rep)
	}
	want := tr.nodes[next].visits
	bel.Ours(r2.Move, ours)
	bel.Theirs(theirs)
	s.Played(r2.Move, ours, theirs, &bel)
	if !s.rooted || tr.nodes[0].visits != want {
		t.Fatalf("rooted %v, root visits %d, want %d", s.rooted, tr.nodes[0].visits, want)
	}
	checkTree(t, tr)
	var m men
	m.fromBelief(&bel)
	var l chess.MoveList
	m.attempts(nil, &l)
	r3 := s.Search(context.Background(), &bel, l.Slice(), Limits{Nodes: budget})
	if !contains(l.Slice(), r3.Move) || r3.Iterations != budget {
		t.Fatalf("after the move: %+v", r3)
	}
	checkTree(t, tr)
}

// mostVisited is node i's most visited child of kind k, or -1.
func mostVisited(tr *tree, i int32, k kind) int32 {
	n := &tr.nodes[i]
	best := int32(-1)
	for c := n.first; n.first >= 0 && c < n.first+int32(n.nchild); c++ {
		if tr.nodes[c].kind == k && !tr.nodes[c].illegal && (best < 0 || tr.nodes[c].visits > tr.nodes[best].visits) {
			best = c
		}
	}
	return best
}

// TestPruneHonestStop: when nothing can be freed (every node is the root or
// one of its attempts, never collapsed) pruning says so and the search stops.
func TestPruneHonestStop(t *testing.T) {
	ps := Middlegames(20, 1, 20, 40)
	p := &ps[len(ps)-1]
	tr := newTree(1, 1)
	tr.reset(&p.Belief)
	tr.addAttempts(0, p.Moves)
	tr.nn = int32(len(tr.nodes)) // pretend every slot holds a root attempt
	for i := int32(1); i < tr.nn; i++ {
		tr.nodes[i] = node{kind: attempt, first: noChild, state: -1, visits: 1}
	}
	tr.nodes[0].first, tr.nodes[0].nchild = 1, maxChildren
	// Chain the rest below the attempts so that all of it is reachable and
	// none of it collapsible.
	for i := int32(1); i+2*maxChildren <= tr.nn; i += maxChildren {
		tr.nodes[i].first, tr.nodes[i].nchild = i+maxChildren, maxChildren
	}
	if tr.prune() {
		t.Fatal("prune reported room in a tree of attempts only")
	}
	cfg := DefaultConfig()
	cfg.MemoryMB = 1
	s := newSearcher(t, cfg)
	s.alloc()
	s.trees[0] = tr
	s.runTrees(func(int) (int64, bool) { return 1000, false }, func(*tree) bool { return false })
	if tr.iters != 0 {
		t.Fatalf("%d iterations in a full tree", tr.iters)
	}
}

func TestVisitBucket(t *testing.T) {
	prev := int32(-1)
	for v := int64(0); v < math.MaxInt32; v = max(v+1, v+v/7) {
		b := visitBucket(int32(v))
		if b < prev || b >= nBuckets {
			t.Fatalf("visits %d: bucket %d after %d", v, b, prev)
		}
		prev = b
	}
	if b := visitBucket(math.MaxInt32); b != nBuckets-1 {
		t.Fatalf("largest bucket %d, want %d", b, nBuckets-1)
	}
}

// checkTree fails t unless tr is whole: child blocks in range and never the
// root's or the node's own, each decision node's belief in range and its own, pools not
// overflowed.
func checkTree(t *testing.T, tr *tree) {
	t.Helper()
	if int(tr.nn) > len(tr.nodes) || int(tr.ns) > len(tr.states) {
		t.Fatalf("%d nodes of %d, %d states of %d", tr.nn, len(tr.nodes), tr.ns, len(tr.states))
	}
	owner := make([]int32, tr.ns)
	for i := range owner {
		owner[i] = -1
	}
	for i := range tr.nn {
		n := &tr.nodes[i]
		if n.first >= 0 && (n.first < 1 || n.first == i || n.first+int32(n.nchild) > tr.nn) {
			t.Fatalf("node %d: children %d+%d out of %d", i, n.first, n.nchild, tr.nn)
		}
		if n.state >= tr.ns {
			t.Fatalf("node %d: state %d of %d", i, n.state, tr.ns)
		}
		if n.state >= 0 {
			if owner[n.state] >= 0 {
				t.Fatalf("state %d held by nodes %d and %d", n.state, owner[n.state], i)
			}
			owner[n.state] = i
		}
	}
}

// TestPruneNoAllocs: iterations with pruning between them allocate nothing.
func TestPruneNoAllocs(t *testing.T) {
	ps := Middlegames(21, 2, 20, 40)
	cfg := DefaultConfig()
	tr := newTree(1, 1)
	tr.reset(&ps[0].Belief)
	tr.addAttempts(0, ps[0].Moves)
	allocs := testing.AllocsPerRun(3, func() {
		for range 1500 {
			if tr.full() && !tr.prune() || !tr.iterate(&cfg) {
				t.Fatal("the search stopped")
			}
		}
	})
	if allocs != 0 || tr.prunes == 0 {
		t.Fatalf("%.1f allocations per 1500 iterations, %d prunes", allocs, tr.prunes)
	}
}

// BenchmarkIteratePruned times approach C's iterations in a small tree that
// is pruned whenever it fills up (the pruning's cost included): it allocates
// nothing.
func BenchmarkIteratePruned(b *testing.B) {
	ps := Middlegames(3, 4, 20, 60)
	cfg := DefaultConfig()
	t := newTree(2, 1)
	t.reset(&ps[0].Belief)
	t.addAttempts(0, ps[0].Moves)
	b.ReportAllocs()
	for b.Loop() {
		if t.full() && !t.prune() || !t.iterate(&cfg) {
			b.Fatal("the search stopped")
		}
	}
	b.ReportMetric(float64(t.prunes)/float64(b.N), "prunes/op")
}
