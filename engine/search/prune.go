package search

import "math/bits"

// Pruning: when a tree's pools are nearly full in the middle of a search,
// the least visited subtrees are collapsed so that the search can go on until
// its budget is spent, instead of stopping with the clock still running.
//
// A collapsed node keeps its value and visit count but loses its children
// (and, for a decision node, its belief, recomputed when the node is visited
// again). Attempt nodes are never collapsed: their value is the expectation
// over their answers, which would fall back to a one-ply guess; their answers
// are collapsed instead, and an answer's replies are rebuilt with the
// answer's value. A collapsed decision node holds its value (fCollapsed) until
// its rebuilt attempts have all been valued again, so that its first new
// attempt does not stand for the whole node. The root is never collapsed, so
// the root attempts' statistics, which choose the move, survive whole. A
// solved node is never visited again; collapsing it keeps its exact value and
// flag, so the solver's proofs above it stay right.
//
// Which nodes to collapse: every collapsible node (a non-root decision or
// answer node) has a key, the bucket of its visit count (solved nodes key 0),
// and a threshold b collapses those keyed below b. A node is freed when a
// proper ancestor is collapsed, so one forward pass over the pool (children
// always come after their parent) counts, per bucket, the nodes and beliefs
// that a threshold just above the bucket would free; b is the least threshold
// that leaves each pool at most half full. It depends on the tree alone, so a
// search stays deterministic.

// nBuckets is the number of visit buckets; neverCollapse is the key of a node
// that is never collapsed, above every bucket.
const (
	nBuckets      = 120
	neverCollapse = nBuckets
)

// visitBucket maps a visit count to its bucket: each count below 8 its own,
// then four buckets per doubling, so that thresholds are fine enough to free
// about half of a pool.
func visitBucket(v int32) int32 {
	if v < 8 {
		return max(v, 0)
	}
	l := int32(bits.Len32(uint32(v))) // 4..31
	return 8 + (l-4)*4 + (v>>(l-3))&3
}

// collapseKey is node i's key: the bucket below which a threshold collapses it.
func (t *tree) collapseKey(i int32) int32 {
	n := &t.nodes[i]
	switch {
	case n.kind == attempt || n.kind == terminal:
		return neverCollapse
	case n.flags&fSolved != 0:
		return 0
	}
	return visitBucket(n.visits)
}

// pruneCounts is, per key, the nodes and beliefs that a threshold above the
// key frees; index neverCollapse holds those never freed.
type pruneCounts struct {
	nodes, states [nBuckets + 1]int32
}

// mark sets t.fwd[i], for every node i below r (r included), to the least key
// of i's proper ancestors up to r (neverCollapse for r): i survives a
// threshold b when t.fwd[i] >= b. Nodes not below r get -1. With c non-nil it
// also counts what each threshold frees. The walk is depth first (a child
// block may lie before its parent: the root's attempts are rebuilt at the
// end of the pool when the askable list changes).
func (t *tree) mark(r int32, c *pruneCounts) {
	for i := range t.nn {
		t.fwd[i] = -1
	}
	t.frames = t.frames[:0]
	t.fwd[r] = neverCollapse
	t.markNode(r, neverCollapse, c)
	for len(t.frames) > 0 {
		top := &t.frames[len(t.frames)-1]
		if top.next == top.end {
			t.frames = t.frames[:len(t.frames)-1]
			continue
		}
		i := top.next
		top.next++
		t.fwd[i] = top.key
		t.markNode(i, t.collapseKey(i), c)
	}
}

// markNode counts node i, whose own key is k, and pushes its children.
func (t *tree) markNode(i, k int32, c *pruneCounts) {
	n := &t.nodes[i]
	f := t.fwd[i]
	below := min(f, k) // the least key of i and its ancestors
	if c != nil {
		c.nodes[f]++
		if n.state >= 0 {
			c.states[below]++
		}
	}
	if n.first >= 0 && n.nchild > 0 {
		t.frames = append(t.frames, markFrame{next: n.first, end: n.first + int32(n.nchild), key: below})
	}
}

// markFrame is one level of mark's walk: the next child of a block to visit,
// the block's end, and the key the block's nodes inherit.
type markFrame struct{ next, end, key int32 }

// compact keeps the nodes marked at or above threshold b (see mark), with r
// as the root, collapses those keyed below b, and moves the survivors and
// their beliefs to the front of the pools in index order, which keeps every
// child block contiguous. r is the first survivor (the root, or a node whose
// subtree was allocated after it), so it moves to index 0.
func (t *tree) compact(r, b int32) {
	for s := range t.ns {
		t.fwdS[s] = -1
	}
	var next, nextS int32
	for i := r; i < t.nn; i++ {
		if t.fwd[i] < b {
			continue // dead, or below a collapsed node
		}
		n := &t.nodes[i]
		if i != r && t.collapseKey(i) < b {
			n.collapse()
		}
		if n.state >= 0 {
			t.fwdS[n.state] = 0 // live
		}
		t.fwd[i] = next
		t.nodes[next] = *n
		next++
	}
	// States were allocated in their own order: compact them in theirs.
	for s := range t.ns {
		if t.fwdS[s] < 0 {
			continue
		}
		t.fwdS[s] = nextS
		if nextS != s {
			t.states[nextS] = t.states[s]
		}
		nextS++
	}
	for i := range next {
		n := &t.nodes[i]
		if n.first >= 0 {
			n.first = t.fwd[n.first]
		}
		if n.state >= 0 {
			n.state = t.fwdS[n.state]
		}
	}
	t.nn, t.ns = next, nextS
}

// collapse drops n's children and, for a decision node, its belief; n keeps
// its value and visits. A visited decision node holds its value until its
// attempts are valued again (see backup).
func (n *node) collapse() {
	if n.first < 0 && n.state < 0 {
		return
	}
	if n.kind == decision {
		if n.visits > 0 && n.first >= 0 {
			n.flags |= fCollapsed
		}
		n.state = -1
	}
	n.first, n.nchild = noChild, 0
}

// prune collapses the least visited subtrees so that each pool is at most
// half full, and reports whether the tree has room to grow again (false when
// nothing more can be freed: the search must stop).
func (t *tree) prune() bool {
	var c pruneCounts
	t.mark(0, &c)
	var keptN, keptS int32
	for k := range c.nodes {
		keptN += c.nodes[k]
		keptS += c.states[k]
	}
	wantN, wantS := int32(len(t.nodes)/2), int32(len(t.states)/2)
	b := int32(0)
	for b < neverCollapse && (keptN > wantN || keptS > wantS) {
		keptN -= c.nodes[b]
		keptS -= c.states[b]
		b++
	}
	t.compact(0, b)
	for k, i := range t.prefix { // pondering: the path moved with its nodes
		t.prefix[k] = t.fwd[i]
	}
	t.prunes++
	return !t.full()
}
