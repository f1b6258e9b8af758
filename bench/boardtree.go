package bench

import (
	"context"
	"fmt"
	"time"

	"kriegbot/engine/search"
	"kriegbot/engine/search/boardtree"
)

// treeFigures are what boardtreeFigures measures.
type treeFigures struct {
	// perSecond is the iterations a second; nodesPerIteration the nodes
	// the tree makes an iteration, what sizes the pool a long search
	// needs (mem); capacity the nodes the default cap holds.
	perSecond, nodesPerIteration, capacity float64
}

// boardtreeFigures measures boardtree, at its default settings, on the
// middlegame beliefs search's figure uses, each searched afresh with
// perSearch iterations on one tree, for at least min.
func boardtreeFigures(perSearch int64, min time.Duration) (treeFigures, error) {
	ps := search.Middlegames(3, 8, 20, 60)
	if len(ps) == 0 {
		return treeFigures{}, fmt.Errorf("boardtree: no middlegame positions")
	}
	s := boardtree.New(boardtree.DefaultConfig())
	ctx := context.Background()
	s.Choose(ctx, &ps[0].Belief, ps[0].Moves, boardtree.Limits{Iterations: perSearch}) // grow the pools
	var iters, nodes int64
	start := time.Now()
	for i := 0; ; i++ {
		p := &ps[i%len(ps)]
		s.NewGame(uint64(i))
		r := s.Choose(ctx, &p.Belief, p.Moves, boardtree.Limits{Iterations: perSearch})
		iters, nodes = iters+r.Iterations, nodes+int64(r.Nodes)
		if el := time.Since(start); el >= min {
			if iters == 0 {
				return treeFigures{}, fmt.Errorf("boardtree: no board drawn")
			}
			return treeFigures{float64(iters) / el.Seconds(), float64(nodes) / float64(iters), float64(s.Capacity())}, nil
		}
	}
}
