package players

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search/boardtree"
	"kriegbot/engine/search/particles"
	"kriegbot/engine/umpire"
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
			"opp=0|1: the opponent chooses its replies in a tree of its own, by their values where its tree holds what it heard on the line, the policy as prior (default 1)",
			"oppc=X: the opponent's PUCT constant, in pawns, 0 to 100 (default 2)",
			"mem=MB: memory cap of each tree, 1 to 4096; the tree takes what it grows to, so the cap matters only to searches of seconds (default 256)",
			"reuse=0|1: each choice starts from the node of what was heard since the last, with the visits the tree gave it (default 1)",
			"threads=N: trees searched in parallel, each on its own goroutine and seed, their root visits summed for the choice, 1 to 64 (default 1)",
			"particles=N: draw the boards from a set of N carried through the game, each explaining what we heard, the opponent's replies drawn on it by the reply policy; 0 draws from the belief's marginals (default 0)",
			"develop=X: the particles' replies weighted by exp(X × what they gain on the piece-square tables, in pawns), 0 to 20 (default 0)",
			"shape=X: the particles' replies weighted by the belief's chance of their man's class on the square reached, to the power X, 0 to 4 (default 0)",
			"prior=default|uniform|FILE.kbm: the opponent model the belief uses: the embedded one, none, or a file of kriegbot model build (default: the embedded one)",
			"movers=paper|model|pawns: which of the opponent's units the belief expects to move: each alike (the paper's rule), by the model's fitted shares of king, pawn and piece moves, or the pawns by the model and the rest alike (default paper: with a model of boardtree's own games, model scored 38.9 % over 104 games and pawns 52.5 % over 200 against it)",
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
	threads := o.Int("threads", 1, 1, 64)
	cfg.Reuse = o.Int("reuse", 1, 0, 1) == 1
	cfg.Opponent = o.Int("opp", 1, 0, 1) == 1
	cfg.OpponentC = o.Float("oppc", cfg.OpponentC, 0, 100)
	seed := uint64(o.Int("seed", 0, 0, 1<<62))
	pcfg := particles.DefaultConfig()
	pcfg.N = o.Int("particles", 0, 0, 100_000)
	pcfg.Shape = o.Float("shape", 0, 0, 4)
	pcfg.Develop = o.Float("develop", 0, 0, 20)
	pcfg.Weights = cfg.Weights
	prior, movers, err := priorOption(o)
	if err != nil {
		return nil, err
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	bare, err := bareMCTS(o)
	if err != nil {
		return nil, err
	}
	return func() Player {
		p := &Sampled{prior: movers.wrap(prior), movers: movers, unit: 1, seed: seed, bare: bare().(*MCTS), startRate: defaultTreeRate}
		c := newTreeChooser(cfg, threads)
		if pcfg.N > 0 {
			c.filter = particles.New(pcfg, &p.bel)
		}
		p.scorer = c
		return p
	}, nil
}

// defaultTreeRate is a starting guess of boardtree's iterations a second on
// one core, replaced by what each timed choice measures.
const defaultTreeRate = 3e4

// treeChooser is boardtree's search as a boardChooser (work: iterations),
// one tree a thread: root parallelism, each tree on its own goroutine from
// its own seed, their root visits summed for the choice.
type treeChooser struct {
	trees   []*boardtree.Searcher
	spent   []int64 // each tree's iterations in the last choice
	results []boardtree.Result
	roots   []boardtree.Root
	visits  []int64
	values  []float64
	// filter, when set, is where the trees draw their boards while it
	// stands for the game.
	filter *particles.Filter
}

func newTreeChooser(cfg boardtree.Config, threads int) *treeChooser {
	c := &treeChooser{spent: make([]int64, threads), results: make([]boardtree.Result, threads)}
	for range threads {
		c.trees = append(c.trees, boardtree.New(cfg))
	}
	return c
}

// NewGame seeds each tree's search for a game.
func (c *treeChooser) NewGame(seed uint64) {
	for i, t := range c.trees {
		t.NewGame(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	}
}

// started starts the filter's set from the game's start, when it is known
// and its answers are wild 16's (the only ones the filter models).
func (c *treeChooser) started(g Game, wild16 bool, seed uint64) {
	if c.filter == nil {
		return
	}
	if !wild16 || g.HiddenKing {
		c.filter.Stop()
		return
	}
	start := g.StartPosition()
	c.filter.Reset(&start, seed)
}

// boards is where the trees draw: the filter's set while it stands for the
// game, else the belief.
func (c *treeChooser) boards(bel *belief.State) boardtree.Boards {
	if c.filter != nil && c.filter.Live() {
		return c.filter
	}
	return bel
}

// Choose runs the trees: each its share of lim.work, or each on the clock
// (its own stop rule), or each exactly lim.trees[i] iterations (a replay).
func (c *treeChooser) Choose(ctx context.Context, state *belief.State, moves []chess.Move, lim workLimits) choice {
	bel := c.boards(state)
	n := len(c.trees)
	limit := func(i int) boardtree.Limits {
		switch {
		case len(lim.trees) == n:
			return boardtree.Limits{Iterations: lim.trees[i]}
		case lim.time > 0:
			return boardtree.Limits{Time: lim.time, MaxTime: lim.maxTime}
		}
		share := lim.work / int64(n)
		if int64(i) < lim.work%int64(n) {
			share++
		}
		return boardtree.Limits{Iterations: max(share, 1)}
	}
	if n == 1 {
		r := c.trees[0].Choose(ctx, bel, moves, limit(0))
		c.spent[0] = r.Iterations
		return choice{best: r.Best, spent: r.Iterations, value: r.Value, reused: r.Reused}
	}
	var wg sync.WaitGroup
	for i, t := range c.trees {
		wg.Go(func() { c.results[i] = t.Choose(ctx, bel, moves, limit(i)) })
	}
	wg.Wait()
	var reused int64
	for i, r := range c.results {
		c.spent[i] = r.Iterations
		reused += r.Reused
	}
	c.sum(len(moves))
	out := choice{best: -1}
	for j := range moves {
		if c.visits[j] == 0 {
			continue
		}
		if out.best < 0 || c.visits[j] > c.visits[out.best] || c.visits[j] == c.visits[out.best] && c.values[j] > out.value {
			out.best, out.value = j, c.values[j]
		}
	}
	for _, k := range c.spent {
		out.spent += k
	}
	out.reused = reused
	return out
}

// sum adds up the trees' root visits and visit-weighted values per attempt,
// in the order of the moves given.
func (c *treeChooser) sum(n int) {
	c.visits, c.values = append(c.visits[:0], make([]int64, n)...), append(c.values[:0], make([]float64, n)...)
	for _, t := range c.trees {
		c.roots = t.Roots(c.roots[:0])
		for j, r := range c.roots {
			c.visits[j] += r.Visits
			c.values[j] += r.Value * float64(r.Visits)
		}
	}
	for j := range n {
		if c.visits[j] > 0 {
			c.values[j] /= float64(c.visits[j])
		}
	}
}

// Candidates lists the root's attempts over the trees, most visited first.
func (c *treeChooser) Candidates(moves []chess.Move, out []Candidate) []Candidate {
	c.sum(len(moves))
	n := len(out)
	for j, m := range moves {
		if c.visits[j] > 0 {
			out = append(out, Candidate{Move: m, Visits: c.visits[j], Value: c.values[j]})
		}
	}
	slices.SortStableFunc(out[n:], func(a, b Candidate) int { return cmp.Compare(b.Visits, a.Visits) })
	return out
}

// heard tells each tree a wild 16 answer (see boardtree's Heard*).
func (c *treeChooser) heard(v umpire.View, m chess.Move) {
	sq := v.Capture.Square
	if v.Capture.Kind == umpire.NoCapture {
		sq = chess.NoSquare
	}
	pawn := v.Capture.Kind == umpire.PawnCaptured
	if c.filter != nil {
		c.filter.Hear(m, v)
	}
	for _, t := range c.trees {
		switch {
		case v.Own && v.Illegal:
			t.HeardRefused(m)
		case v.Verdict != umpire.IllegalMove:
			t.Forget() // not a wild 16 answer
		case v.Own:
			t.HeardOurs(m, sq, pawn, v.Checks)
		default:
			t.HeardTheirs(sq, pawn, v.Checks, v.PawnTries)
		}
	}
}

// ponder runs each tree's Ponder on its own goroutine: its share of
// iterations, or until ctx is done (0), or exactly trees[i] (a replay).
func (c *treeChooser) ponder(ctx context.Context, state *belief.State, iterations int64, trees []int64) PonderReport {
	bel := c.boards(state)
	n := len(c.trees)
	count := func(i int) int64 {
		switch {
		case len(trees) == n:
			return trees[i]
		case iterations == 0:
			return 0
		}
		return max(iterations/int64(n), 1)
	}
	if len(trees) > 0 && len(trees) != n {
		return PonderReport{}
	}
	// A replayed tree that pondered nothing ponders nothing (to its
	// Ponder, 0 would mean until ctx is done).
	run := func(i int) int64 {
		if len(trees) == n && trees[i] == 0 {
			return 0
		}
		return c.trees[i].Ponder(ctx, bel, count(i))
	}
	if n == 1 {
		return PonderReport{Iterations: run(0)}
	}
	var wg sync.WaitGroup
	for i := range c.trees {
		wg.Go(func() { c.spent[i] = run(i) })
	}
	wg.Wait()
	rep := PonderReport{Trees: append([]int64(nil), c.spent...)}
	for _, k := range c.spent {
		rep.Iterations += k
	}
	return rep
}

// principal follows the tree in which first has the most visits.
func (c *treeChooser) principal(first chess.Move, max int) []chess.Move {
	best := c.trees[0]
	for _, t := range c.trees[1:] {
		if t.RootVisits(first) > best.RootVisits(first) {
			best = t
		}
	}
	return best.Principal(first, nil, max)
}

// progress sums the trees' iterations so far.
func (c *treeChooser) progress() int64 {
	var n int64
	for _, t := range c.trees {
		n += t.Progress()
	}
	return n
}

// forget drops what each tree heard.
func (c *treeChooser) forget() {
	for _, t := range c.trees {
		t.Forget()
	}
}

// treeCounts returns each tree's iterations in the last choice, for a
// replay (nil for one tree: the sum says it).
func (c *treeChooser) treeCounts() []int64 {
	if len(c.trees) == 1 {
		return nil
	}
	return append([]int64(nil), c.spent...)
}
