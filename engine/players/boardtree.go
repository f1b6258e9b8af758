package players

import (
	"context"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search/boardtree"
)

func boardtreeKind() Kind {
	return Kind{
		Name:    "boardtree",
		Summary: "tree search over what we hear, each iteration on a board drawn from the belief where the answers fall and the opponent replies by the fitted reply policy (issue 42's design 1, a prototype; wild 16's announcements)",
		Options: []string{
			"c=X: UCT exploration constant in pawns, 0 to 100 (default 0.5)",
			"leaf=N: alpha-beta nodes valuing a new node's board, 1 (static) to 100000 (default 16)",
			"refusal=X: cost of an attempt the board refuses, in pawns, 0 to 10 (default 0.02)",
			"turns=N: our turns in a line before its board is valued, 1 to 100 (default 8)",
			"mem=MB: memory cap of the tree, 1 to 4096 (default 32)",
			"unit=N: iterations per node of the budget (-nodes), 1 to 1000 (default 1)",
			"prior=default|uniform: the opponent model the belief uses (default: the embedded one)",
			"seed=N: mixed into each game's seed (default 0)",
		},
		Build: buildBoardtree,
	}
}

func buildBoardtree(o *Options) (func() Player, error) {
	cfg := boardtree.DefaultConfig()
	cfg.Exploration = o.Float("c", cfg.Exploration, 0, 100)
	cfg.Leaf = int64(o.Int("leaf", int(cfg.Leaf), 1, 100_000))
	cfg.Refusal = o.Float("refusal", cfg.Refusal, 0, 10)
	cfg.MaxTurns = o.Int("turns", cfg.MaxTurns, 1, 100)
	cfg.MemoryMB = o.Int("mem", cfg.MemoryMB, 1, 4096)
	unit := int64(o.Int("unit", 1, 1, 1000))
	seed := uint64(o.Int("seed", 0, 0, 1<<62))
	prior, err := priorOption(o)
	if err != nil {
		return nil, err
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	bare, err := bareMCTS()
	if err != nil {
		return nil, err
	}
	return func() Player {
		return &Sampled{scorer: treeChooser{boardtree.New(cfg)}, prior: prior, unit: unit, seed: seed,
			bare: bare().(*MCTS), startRate: defaultTreeRate}
	}, nil
}

// defaultTreeRate is a starting guess of boardtree's iterations a second on
// one core, replaced by what each timed choice measures.
const defaultTreeRate = 3e4

// treeChooser is boardtree's search as a boardChooser (work: iterations).
type treeChooser struct{ *boardtree.Searcher }

func (c treeChooser) Choose(ctx context.Context, bel *belief.State, moves []chess.Move, work int64) (int, int64) {
	r := c.Searcher.Choose(ctx, bel, moves, work)
	return r.Best, r.Iterations
}
