package search

import (
	"context"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Pondering: searching during the opponent's turn.
//
// Our attempt m was accepted and we heard its answer; the opponent's reply
// is unseen until the referee tells us what we may hear of it (nothing, or
// the capture of one of our men). The tree already holds exactly that
// future: below the root, attempt m, below it the answer heard, and below
// that a decision node per reply we may hear, each weighted by its chance
// (expandReplies). Pondering searches that answer node: each iteration
// follows root, m and the answer, draws a reply by its chance and goes on as
// a search does, so the work is spread over the predicted replies in
// proportion to their chances. When the reply is heard, Played makes its
// decision node the root, and the next search starts from what the ponder
// grew there; the siblings it grew for the replies that did not happen are
// dropped.
//
// Before the first iteration each tree cuts off what no reply can reach
// (the root's other attempts and m's other answers are collapsed), so that
// a long ponder that fills the pools keeps the answer's subtree: the prune
// walks the tree from the root and frees what is cut off, instead of
// collapsing the ponder's work to keep attempts already decided against.
// The cut is not compacted at once: a compaction walks the whole tree (41
// ms for 316,000 nodes on a loaded machine), and a ponder must stop at once.
// It is a function of the tree alone, and Played's rerooting leaves the
// same tree whether it ran or not (it keeps only the subtree below the
// reply), so a ponder cancelled before its first iteration is a no-op for
// what follows.
//
// Determinism: a ponder depends on the clock only through where each tree
// stopped, as a search does; a replay repeats it with each tree's count
// (Limits.Trees).

// PonderResult is what a ponder did.
type PonderResult struct {
	// Iterations is the number of iterations run over all trees.
	Iterations int64
	// Trees is how many trees had the answer heard to search below (the
	// others, whose search never reached it, did not ponder).
	Trees int
}

// Ponder searches, during the opponent's turn, our next decision under the
// replies we may hear after our attempt m was accepted with answer ours
// (see the comment above), within lim's Nodes or Trees (its Time is not
// used) and ctx: with neither it runs until ctx is done. It returns as soon as ctx is done
// (between two iterations). TreeIterations then gives each tree's count,
// which repeats the ponder exactly as Limits.Trees.
func (s *Searcher) Ponder(ctx context.Context, m chess.Move, ours umpire.View, lim Limits) PonderResult {
	for _, t := range s.trees {
		t.iters = 0
		t.prefix = t.prefix[:0]
	}
	if !s.rooted || s.cfg.Approach == ApproachA || len(s.trees) == 0 {
		return PonderResult{}
	}
	var res PonderResult
	for _, t := range s.trees {
		if t.ponderPath(m, ours) {
			res.Trees++
		}
	}
	if res.Trees == 0 {
		return res
	}
	s.live.Store(0)
	done := ctx.Done()
	stop := func(*tree) bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	// A context done before the first iteration is honoured at once (run
	// looks only every checkEvery iterations); its count, 0, repeats it.
	if stop(nil) {
		for _, t := range s.trees {
			t.prefix = t.prefix[:0]
		}
		return res
	}
	s.runTrees(func(i int) (int64, bool) {
		if len(s.trees[i].prefix) == 0 {
			return 0, true
		}
		return lim.share(i, len(s.trees))
	}, stop)
	for _, t := range s.trees {
		res.Iterations += t.iters
		t.prefix = t.prefix[:0]
	}
	s.live.Store(res.Iterations)
	return res
}

// ponderPath prepares tree t to ponder after root attempt m was accepted
// with answer ours: it finds m's answer node for what was heard (expanding
// m's answers if the search never did), cuts off what no reply can reach,
// and sets t.prefix to the path root, m, answer. It reports false, leaving
// the tree as it was, when the tree has no such answer (m refused for
// certain in its belief, or a check kind too unlikely to get a node).
func (t *tree) ponderPath(m chess.Move, ours umpire.View) bool {
	r := &t.nodes[0]
	if r.first < 0 || r.kind != decision {
		return false
	}
	a := t.rootAttempt(m)
	if a < 0 {
		return false
	}
	if t.nodes[a].first == noChild {
		if t.full() || !t.expandAnswers(0, a) {
			return false
		}
	}
	b := t.answerChild(a, ours)
	if b < 0 {
		return false
	}
	// Drop what no reply can reach: the root's other attempts and m's other
	// answers lose their subtrees (their nodes stay, so the root's and m's
	// child blocks keep their shape).
	r = &t.nodes[0]
	for c := r.first; c < r.first+int32(r.nchild); c++ {
		if c != a {
			t.nodes[c].collapse()
		}
	}
	an := &t.nodes[a]
	for c := an.first; c < an.first+int32(an.nchild); c++ {
		if c != b {
			t.nodes[c].collapse()
		}
	}
	t.prefix = append(t.prefix[:0], 0, a, b)
	return true
}

// answerChild is attempt a's legal answer node for what we heard, ours, or
// -1 (the same match as follow's).
func (t *tree) answerChild(a int32, ours umpire.View) int32 {
	n := &t.nodes[a]
	for c := n.first; n.first >= 0 && c < n.first+int32(n.nchild); c++ {
		ch := &t.nodes[c]
		if ch.kind == answer && ch.capture == ours.Capture.Kind && ch.check == ours.Checks[0] {
			return c
		}
	}
	return -1
}
