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
	fPruned                   // refused at the root, or sure to be refused: never selected again
	// fCollapsed: a decision node whose subtree was collapsed to free the
	// pools; it keeps its value until its attempts are all valued again.
	fCollapsed
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
	// captured (chess.NoSquare when nothing was heard) and its kind, or the
	// check given on our king; for a decision node reached by "Illegal
	// move", illegal is set.
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
	frames []markFrame
	path   []int32
	// prefix is the path every iteration starts with while pondering
	// (root, our accepted attempt, the answer heard; see ponder.go), empty
	// otherwise.
	prefix []int32
	// scratch belief and lists for one iteration
	tmp   belief.State
	risk  [64]float32
	moves chess.MoveList
	// threat[j] is root attempt j's chance of being mated at once, mates[j]
	// its chance of mating (see setMates); counts holds the tally they
	// come from (countMates). Empty when the search does not look.
	threat, mates []float32
	counts        []mateCount
	// repeat[j] is root attempt j's chance of a draw by repetition, the
	// Searcher's (repetition.go), read only; empty when the rules have none.
	repeat []float32
	// approach A, and approach C's mate threats
	boards []chess.Position
	board  chess.Position
	iters  int64
	// set is the Searcher's settings, shared by its trees and read only
	// while they search; eval the valuation's settings for the search
	// from the current root.
	set  *treeSettings
	eval evalParams
	// budget and running are this search's iterations for the tree (0: no
	// bound) and whether it still searches (Searcher.runTrees).
	budget  int64
	running bool
	prunes  int64 // collapses in the current search (see prune)
	// explore is this search's UCT constant (exploration for its root).
	explore float64
}

var (
	nodeSize  = int(unsafe.Sizeof(node{}))
	stateSize = int(unsafe.Sizeof(stateEntry{}))
)

// treeSettings are what a Searcher's trees read of its configuration and
// of the game: one copy, the Searcher's, so NewGame changes it for all.
type treeSettings struct {
	// shield is Config.Shield, the weight of our king's pawn shield.
	shield float32
	// replyChecks is Config.ReplyChecks: the opponent's replies include
	// checks on our king.
	replyChecks bool
	// drawRules says the referee draws repeated positions or 50 quiet
	// moves (Searcher.NewGame).
	drawRules bool
	// hand is what a man in a crazykrieg pocket is worth against the same
	// man on the board (handShare), 0 in the variants without drops.
	hand float32
	// stalemate is the value of stalemating the opponent: a draw, or a win
	// where the stalemated side loses (rand).
	stalemate float32
	// drops are the root's drops kept by the current search (keepDrops),
	// offered again below the root (addDeepDrops); empty without pockets.
	drops []chess.Move
}

// newTree allocates a tree's pools within memMB: half of the bytes for
// beliefs (one per decision node), the rest for nodes. A grown tree holds
// about 40 nodes (36 bytes each with their compaction scratch) per belief
// (1,696 bytes), so both pools fill at about the same time.
func newTree(memMB int, seed uint64) *tree {
	bytes := memMB << 20
	ns := max(bytes/2/stateSize, 16)
	nn := max((bytes-ns*stateSize)/(nodeSize+4), 256)
	src := rand.NewPCG(seed, seed^0x6a09e667f3bcc909)
	return &tree{
		src:    src,
		nodes:  make([]node, nn),
		states: make([]stateEntry, ns),
		fwd:    make([]int32, nn),
		fwdS:   make([]int32, ns),
		frames: make([]markFrame, 0, 1024),
		path:   make([]int32, 0, 256),
		prefix: make([]int32, 0, 4),
		threat: make([]float32, 0, maxChildren),
		mates:  make([]float32, 0, maxChildren),
		counts: make([]mateCount, 0, maxChildren),
		rng:    rand.New(src),
		set:    &treeSettings{},
	}
}

// reset empties the tree and makes a root decision node for bel, valued
// as a search from bel values.
func (t *tree) reset(bel *belief.State) {
	t.nn, t.ns = 0, 0
	t.eval = evalFor(bel, t.set)
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
	e.static = staticValue(&e.bel, &e.hang, t.eval)
	return true
}

// full reports whether the pools are nearly exhausted.
func (t *tree) full() bool {
	return int(t.nn)+2*maxChildren > len(t.nodes) || int(t.ns)+2 > len(t.states)
}

// maxChildren bounds a node's children (attempts, answers or replies).
const maxChildren = 255

// reroot makes node r the root and compacts both pools in place (see
// compact), dropping everything not below r.
func (t *tree) reroot(r int32) {
	t.mark(r, nil)
	t.compact(r, 0)
}
