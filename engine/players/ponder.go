package players

import (
	"context"

	"kriegbot/engine/search"
)

// Ponderer is a player that can think during the opponent's turn. Between
// our accepted move and the opponent's reply, a driver may call Ponder on a
// goroutine of its own and must end it (cancel ctx and wait for the return)
// before it tells the player anything else or calls any other method: the
// player is not safe for concurrent use. The one exception is
// Inspector.Belief, which a ponder does not change (the daemon's live page
// reads it). Ponder returns within one iteration of the cancel.
type Ponderer interface {
	// Ponder thinks about our next decision until ctx is done, or for
	// nodes iterations when nodes > 0 (a match held to -nodes ponders a
	// fixed amount, so that it replays exactly). It does nothing when it
	// is not the opponent's turn after a move of ours.
	Ponder(ctx context.Context, nodes int64) PonderReport
	// PonderTrees repeats a recorded ponder: tree i runs exactly trees[i]
	// iterations (PonderReport.Trees, or the one count of a single tree).
	PonderTrees(trees []int64) PonderReport
}

// PonderReport is what a ponder did: a replay repeats it from these counts.
type PonderReport struct {
	// Iterations is the number of iterations run over all trees.
	Iterations int64
	// Trees is each tree's iterations when there are several (nil for one).
	Trees []int64
}

var _ Ponderer = (*MCTS)(nil)

// Ponder searches our next decision under the replies we may hear (see
// engine/search's Ponder); the next Attempt reuses what it grew below the
// reply actually heard.
func (p *MCTS) Ponder(ctx context.Context, nodes int64) PonderReport {
	return p.ponder(ctx, search.Limits{Nodes: nodes})
}

// PonderTrees repeats a ponder with each tree's recorded iterations.
func (p *MCTS) PonderTrees(trees []int64) PonderReport {
	lim := search.Limits{Trees: trees}
	for _, n := range trees {
		lim.Nodes += n
	}
	return p.ponder(context.Background(), lim)
}

func (p *MCTS) ponder(ctx context.Context, lim search.Limits) PonderReport {
	if !p.waiting {
		return PonderReport{}
	}
	r := p.search.Ponder(ctx, p.ourMove, p.ourView, lim)
	rep := PonderReport{Iterations: r.Iterations}
	if p.search.Config().TreeCount() > 1 {
		rep.Trees = p.search.TreeIterations(nil)
	}
	return rep
}
