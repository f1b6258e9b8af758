package search

import (
	"math/rand/v2"
	"unsafe"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// kind tells what a node stands for.
type kind uint8

const (
	// decision: our turn to attempt; children are attempts. The root, an
	// "Illegal move" answer and each heard reply of the opponent are decision
	// nodes.
	decision kind = iota
	// attempt: one attempt of ours; children are the referee's answers.
	attempt
	// answer: a legal answer to our attempt (silent, capture, check); its
	// children are what we may hear of the opponent's reply.
	answer
	// terminal: mate or stalemate; its value is exact.
	terminal
)

// node flags.
const (
	fSolved uint8 = 1 << iota // value is exact (a proven win or draw)
	fPruned                   // refused at the root: never selected again
)

// noChild marks a node not yet expanded.
const noChild = -1

// node is one tree node. Nodes live in a tree's array and refer to each other
// by index: a node's children are the block [first, first+nchild).
type node struct {
	value  float32 // backed-up value in pawns, from our side
	visits int32
	first  int32 // first child, or noChild
	state  int32 // decision nodes: index of its belief, or -1 until computed
	prob   float32
	move   chess.Move // attempt: the attempt
	nchild uint8
	kind   kind
	flags  uint8
	// What was heard on the way here: for an answer node the capture kind and
	// check, for a decision node reached by a reply the square of our man
	// captured (chess.NoSquare when nothing was heard) and its kind; for a
	// decision node reached by "Illegal move", illegal is set.
	capture umpire.CaptureKind
	check   chess.CheckKind
	square  chess.Square
	illegal bool
}

// stateEntry is a decision node's belief with the values derived from it.
type stateEntry struct {
	bel belief.State
	// static is the node's value before any of its attempts is evaluated:
	// material less the expected blind losses.
	static float32
	// hang[sq] is the expected loss of our man on sq to the opponent's reply.
	hang [64]float32
}

// tree is one independent search tree with its pools.
type tree struct {
	nodes  []node
	states []stateEntry
	nn     int32 // nodes in use
	ns     int32 // states in use
	src    *rand.PCG
	rng    *rand.Rand
	fwd    []int32 // compaction scratch, one per node
	fwdS   []int32 // compaction scratch, one per state
	stack  []int32
	path   []int32
	// scratch belief and lists for one iteration
	tmp   belief.State
	risk  [64]float32
	moves chess.MoveList
	// approach A
	boards []chess.Position
	board  chess.Position
	iters  int64
}

var (
	nodeSize  = int(unsafe.Sizeof(node{}))
	stateSize = int(unsafe.Sizeof(stateEntry{}))
)

// newTree allocates a tree's pools within memMB: a third of the bytes for
// beliefs (one per decision node, a decision node per few dozen attempts),
// the rest for nodes.
func newTree(memMB int, seed uint64) *tree {
	bytes := memMB << 20
	ns := max(bytes/3/stateSize, 16)
	nn := max((bytes-ns*stateSize)/(nodeSize+4), 256)
	src := rand.NewPCG(seed, seed^0x6a09e667f3bcc909)
	return &tree{
		src:    src,
		nodes:  make([]node, nn),
		states: make([]stateEntry, ns),
		fwd:    make([]int32, nn),
		fwdS:   make([]int32, ns),
		stack:  make([]int32, 0, 1<<14),
		path:   make([]int32, 0, 256),
		rng:    rand.New(src),
	}
}

// reset empties the tree and makes a root decision node for bel.
func (t *tree) reset(bel *belief.State) {
	t.nn, t.ns = 0, 0
	t.newNodes(1)
	r := &t.nodes[0]
	r.kind = decision
	t.setState(0, bel)
}

// newNodes takes n fresh nodes and returns the first, or -1 when the pool is
// full.
func (t *tree) newNodes(n int) int32 {
	if int(t.nn)+n > len(t.nodes) {
		return -1
	}
	i := t.nn
	t.nn += int32(n)
	for j := i; j < t.nn; j++ {
		t.nodes[j] = node{first: noChild, state: -1, square: chess.NoSquare}
	}
	return i
}

// setState gives decision node i the belief bel (copied), computing its static
// value; it reports false when the state pool is full.
func (t *tree) setState(i int32, bel *belief.State) bool {
	n := &t.nodes[i]
	si := n.state
	if si < 0 {
		if int(t.ns) == len(t.states) {
			return false
		}
		si = t.ns
		t.ns++
		n.state = si
	}
	e := &t.states[si]
	e.bel = *bel
	e.static = staticValue(&e.bel, &e.hang)
	return true
}

// full reports whether the pools are nearly exhausted.
func (t *tree) full() bool {
	return int(t.nn)+2*maxChildren > len(t.nodes) || int(t.ns)+2 > len(t.states)
}

// maxChildren bounds a node's children (attempts, answers or replies).
const maxChildren = 255

// reroot makes node r the root and compacts both pools in place. Children
// are always allocated after their parent and in contiguous blocks, so
// moving the live nodes down in index order keeps every block contiguous and
// puts r at index 0.
func (t *tree) reroot(r int32) {
	for i := range t.nn {
		t.fwd[i] = -1
	}
	for i := range t.ns {
		t.fwdS[i] = -1
	}
	t.stack = append(t.stack[:0], r)
	for len(t.stack) > 0 {
		i := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.fwd[i] = 0 // live
		n := &t.nodes[i]
		if n.first >= 0 {
			for c := n.first; c < n.first+int32(n.nchild); c++ {
				t.stack = append(t.stack, c)
			}
		}
	}
	var next, nextS int32
	for i := range t.nn {
		if t.fwd[i] < 0 {
			continue
		}
		if s := t.nodes[i].state; s >= 0 {
			t.fwdS[s] = 0 // live
		}
		t.fwd[i] = next
		t.nodes[next] = t.nodes[i]
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
