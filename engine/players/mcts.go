package players

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

func mctsKind() Kind {
	return Kind{
		Name:    "mcts",
		Summary: "Monte Carlo tree search over the belief (the paper's approach C; A and B for ablation)",
		Options: []string{
			"approach=a|b|c: the paper's approach (default c)",
			"threads=N: goroutines searching the trees in parallel, 1 to 64 (default 1)",
			"trees=N: independent trees, their visits summed for the choice, threads to 64; a thread takes its trees in turns, each with its share of the budget (default: one per thread)",
			"c=X: UCT exploration constant in pawns, 0 to 100 (default 0.3)",
			"k=N: approach B's simulation length in moves, 1 to 100 (default 1)",
			"mem=MB: memory cap per tree, 1 to 4096 (default 32)",
			"solver=0|1: back up proven wins and draws (default 1)",
			"samples=N: approach A's boards drawn per search, 1 to 4096 (default 64)",
			"playout=N: approach A's playout length in plies, 0 to 1000 (default 40)",
			"prior=default|uniform|FILE.kbm: the opponent model: the embedded one, none, or a file of kriegbot model build (default: the embedded one)",
			"movers=paper|model|pawns: which of the opponent's units the belief expects to move: each alike (the paper's rule), by the model's fitted shares of king, pawn and piece moves, or the pawns by the model and the rest alike (default paper: with a model of boardtree's own games, model scored 38.9 % over 104 games and pawns 52.5 % over 200 against it)",
			"mix=X: weight of the attempts' visit-weighted mean in a decision's value, 0 to 1 (default 0: the paper's max backup)",
			"tempo=X: what each of our turns below the root is charged, in pawns: a line's value stays level as it deepens, 0 to 10 (default 1; 0 is the paper's plain maximum)",
			"widen=X: each root attempt is searched widen·√N times before UCT picks (default 0)",
			"threat=X: approach C's chance that the opponent finds a mate in one it has, 0 to 1, counted at the root on sampled boards (default 0.5; 0 does not look)",
			"threatboards=N: boards drawn per search to count the mates on, 1 to 4096 (default 32; with boarditers the least)",
			"boarditers=N: count on one board for each N iterations the search's budget allows (its nodes, or its time at the recent rate), up to 4096 (default 32; 0: threatboards always)",
			"mates=0|1: approach C's root adds each attempt's chance of mating, counted on the same boards (default 1)",
			"shield=X: value of each pawn before our king on a wing (files a-c, f-h), in pawns, while the opponent has 4 or more units, 0 to 2 (default 0: 53 % over 600 games did not show it pays)",
			"critical=0|1: on a clock, think up to the plan's maximum (twice the soft budget) where the choice is critical: in check, mate chances that differ between attempts, a likely capture (default 0: a match did not show it pays)",
			"repeat=X: under rules that draw a thrice-repeated position, the chance that a root attempt placing our men as they stood twice before draws (each time more takes the same share of the doubt left); only a lead is pulled toward the draw, 0 to 1 (default 1; 0 does not look)",
			"checks=0|1: the tree's opponent may check our king, not only take our men (default 0: 48 % over 200 games did not show it pays)",
			"drops=0|1: crazykrieg: our turns below the root offer the root's best drops again while the man is in hand (default 1; 0: drops at the root only)",
			"any=X: where the variant has \"Any?\", ask it at a turn's start when the belief gives its pawn tries at least this chance that one is legal, 0 to 1 (default 0.1; 0 never asks)",
			"seed=N: mixed into each game's seed (default 0)",
		},
		Build: buildMCTS,
	}
}

func buildMCTS(o *Options) (func() Player, error) {
	cfg := search.DefaultConfig()
	ap, err := search.ParseApproach(o.String("approach", "c"))
	if err != nil {
		return nil, err
	}
	cfg.Approach = ap
	cfg.Threads = o.Int("threads", 1, 1, 64)
	cfg.Trees = o.Int("trees", 0, 0, 64)
	cfg.Exploration = o.Float("c", cfg.Exploration, 0, 100)
	cfg.K = o.Int("k", 1, 1, 100)
	cfg.MemoryMB = o.Int("mem", cfg.MemoryMB, 1, 4096)
	cfg.Solver = o.Int("solver", 1, 0, 1) == 1
	cfg.Mix = o.Float("mix", cfg.Mix, 0, 1)
	cfg.Widen = o.Float("widen", cfg.Widen, 0, 100)
	cfg.Tempo = o.Float("tempo", cfg.Tempo, 0, 10)
	cfg.Shield = o.Float("shield", cfg.Shield, 0, 2)
	cfg.MateThreat = o.Float("threat", cfg.MateThreat, 0, 1)
	cfg.ThreatBoards = o.Int("threatboards", cfg.ThreatBoards, 1, search.MaxThreatBoards)
	cfg.ItersPerBoard = o.Int("boarditers", cfg.ItersPerBoard, 0, 1<<20)
	cfg.OwnMates = o.Int("mates", 1, 0, 1) == 1
	cfg.Critical = o.Int("critical", 0, 0, 1) == 1
	cfg.Repeat = o.Float("repeat", cfg.Repeat, 0, 1)
	cfg.ReplyChecks = o.Int("checks", 0, 0, 1) == 1
	cfg.DeepDrops = o.Int("drops", 1, 0, 1) == 1
	cfg.Samples = o.Int("samples", cfg.Samples, 1, 4096)
	cfg.Playout = o.Int("playout", cfg.Playout, 0, 1000)
	seed := uint64(o.Int("seed", 0, 0, 1<<62))
	askAny := o.Float("any", defaultAskAny, 0, 1)
	prior, movers, err := priorOption(o)
	if err != nil {
		return nil, err
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return func() Player {
		s, err := search.New(cfg, movers.wrap(prior))
		if err != nil {
			panic(err) // checked above
		}
		return &MCTS{search: s, prior: movers.wrap(prior), movers: movers, seed: seed, askAny: askAny}
	}, nil
}

// MCTS plays by engine/search. It keeps a belief of the opponent's men
// updated with exactly what the referee tells it: our refused attempts, our
// accepted moves with their capture, checks and the opponent's pawn tries,
// and the opponent's hidden moves with their announcements.
type MCTS struct {
	search *search.Searcher
	prior  belief.Prior
	movers moverRule // wraps the priors SetPrior is given
	seed   uint64
	// askAny is the least chance that a pawn try is legal for which we ask
	// "Any?" (0: never; see asksAny).
	askAny float64
	know   Knowledge
	bel    belief.State
	game   Game
	list   chess.MoveList
	// moves is the search's root: the board attempts of list and the
	// askable drops.
	moves []chess.Move
	// ourMove and ourView are our last accepted move and what we heard of
	// it, to walk the tree down once the opponent's reply is heard.
	ourMove chess.Move
	ourView umpire.View
	// waiting says the opponent is to move after our accepted ourMove: the
	// time to ponder (ponder.go).
	waiting bool
	// Last is the last search's result (for logs and tests).
	Last search.Result
	// trees is each tree's iterations in the last search.
	trees []int64
}

// NewGame starts a game.
func (p *MCTS) NewGame(g Game) error {
	p.game = g
	start := g.StartPosition()
	p.know.ResetFrom(g.Color, &start)
	p.know.setVariant(g.Rules.Variant)
	p.bel = belief.FromPosition(g.Color, start, p.prior)
	p.bel.SetVariant(g.Rules.Variant)
	if g.HiddenKing {
		p.bel.HideKing()
	}
	p.search.NewGame(g.Seed^p.seed, g.Rules)
	p.ourMove = chess.NullMove
	p.waiting = false
	return nil
}

// emergencyNodes is the search spent on an attempt when the clock is nearly
// out: enough to see every attempt once.
const emergencyNodes = 64

// Attempt searches the askable attempts and proposes the best.
func (p *MCTS) Attempt(ctx context.Context, b Budget) (chess.Move, error) {
	return p.attempt(ctx, b, nil)
}

// AttemptTrees repeats a search with each tree's recorded iterations and
// boards.
func (p *MCTS) AttemptTrees(ctx context.Context, trees []int64, boards int) (chess.Move, error) {
	return p.attempt(ctx, Budget{Boards: boards}, trees)
}

func (p *MCTS) attempt(ctx context.Context, b Budget, trees []int64) (chess.Move, error) {
	p.know.Askable(&p.list)
	if p.asksAny() {
		p.Last, p.trees = search.Result{Move: chess.NullMove}, p.trees[:0]
		p.know.Asked(chess.NullMove)
		return chess.NullMove, nil
	}
	p.moves = p.know.AskableDrops(append(p.moves[:0], p.list.Slice()...))
	if len(p.moves) == 0 {
		return chess.NullMove, ErrNoAttempt
	}
	lim := search.Limits{Nodes: b.Nodes, Time: b.Time, MaxTime: b.MaxTime, Boards: b.Boards}
	switch {
	case len(trees) > 0:
		// Nodes, their sum, serves should the trees not line up.
		lim = search.Limits{Trees: trees, Boards: b.Boards}
		for _, n := range trees {
			lim.Nodes += n
		}
	case b.Emergency:
		lim = search.Limits{Nodes: emergencyNodes}
	case b.Nodes == 0 && b.Time == 0:
		lim.Nodes = emergencyNodes // no budget: what is cheap
	}
	r := p.search.Search(ctx, &p.bel, p.moves, lim)
	p.trees = p.search.TreeIterations(p.trees[:0])
	p.Last = r
	m := r.Move
	if !slices.Contains(p.moves, m) { // cannot happen; never ask a refused attempt
		m = p.moves[0]
	}
	p.know.Asked(m)
	return m, nil
}

// defaultAskAny is the any option's default; askAnyUnits the opponent's
// unit count (its king aside) up to which mcts does not ask.
const (
	defaultAskAny = 0.1
	askAnyUnits   = 4
)

// asksAny reports whether to ask "Any?" now: it may be asked, it is the
// turn's first attempt, and the belief gives the pawn tries on the askable
// list (p.list) at least the chance askAny that one of them is legal. The
// answer is worth its cost then: "has pawn captures" names a capture to
// make (the obligation keeps only the pawn tries on the list), "no pawn
// captures" spares refusals the opponent would hear, and the belief learns
// from either. Against a few men it does not ask: the obligation takes the
// choice from the search, which weighs the stalemate a capture of the last
// mobile man may give (a forced pawn capture of a lone queen stalemated its
// king in 3 of 40 games against random).
func (p *MCTS) asksAny() bool {
	if p.askAny == 0 || !p.know.CanAskAny() || p.know.Refused.N > 0 || p.bel.Units() <= askAnyUnits {
		return false
	}
	none := 1.0
	for _, m := range p.list.Slice() {
		if p.know.IsPawnTry(m) {
			none *= 1 - p.bel.ProbLegal(m)
		}
	}
	return 1-none >= p.askAny
}

// Hear applies a referee answer to the knowledge, the belief and the tree.
// The belief hears every answer in the variant's own terms (untyped and
// exact captures, en passant, "Any?", public refusals, drops); the tree
// follows our moves and drops.
func (p *MCTS) Hear(e Event) {
	if e.Kind == ClockUpdate {
		return // the driver's budget accounts for the clock
	}
	v := e.View
	if !v.Heard {
		return
	}
	switch {
	case v.Own && v.Illegal:
		m := p.know.pending
		p.know.Hear(v)
		p.bel.Ours(m, v)
		p.search.Refused(m, &p.bel)
	case v.Own && Moved(v):
		m := v.Move
		if m == chess.NullMove {
			m = p.know.pending
		}
		v.Move = m
		p.know.Hear(e.View)
		p.bel.Ours(m, v)
		p.waiting = true
		p.ourMove, p.ourView = m, v
	case !Moved(v): // an answer to "Any?", or the opponent's public refusal
		p.know.Hear(v)
		if v.Own {
			p.bel.Ours(chess.NullMove, v)
		} else {
			p.bel.Theirs(v)
		}
	default:
		p.waiting = false
		p.know.Hear(v)
		p.bel.Theirs(v)
		if p.ourMove != chess.NullMove {
			p.search.Played(p.ourMove, p.ourView, v, &p.bel)
		}
	}
}

// GameOver ends the game.
func (p *MCTS) GameOver(Outcome) {}

// priorOption reads a belief player's "prior" option: the embedded default
// opponent model, "uniform", or a model file (kriegbot model build) by its
// path, for trying a model in a match before the daemon uses it; and its
// "movers" option, which wraps the model (moverRule.wrap) and the models the
// daemon sets later.
func priorOption(o *Options) (belief.Prior, moverRule, error) {
	rule := moverRule{name: o.String("movers", "paper")}
	if _, err := belief.WithMovers(rule.name, belief.UniformPrior{}); err != nil {
		return nil, rule, fmt.Errorf("option %w", err)
	}
	pr, err := modelOption(o)
	if err != nil {
		return nil, rule, err
	}
	return pr, rule, nil
}

// moverRule names the rule (belief.WithMovers) by which a belief expects
// which of the opponent's units moves.
type moverRule struct{ name string }

// wrap returns pr with the rule's mover chances.
func (r moverRule) wrap(pr belief.Prior) belief.Prior {
	w, err := belief.WithMovers(r.name, pr)
	if err != nil {
		panic(err) // checked by priorOption
	}
	return w
}

func modelOption(o *Options) (belief.Prior, error) {
	p := o.String("prior", "default")
	if p != "default" && p != "uniform" && !strings.HasSuffix(p, ".kbm") {
		return nil, fmt.Errorf("option prior: %q is not default, uniform or a model file (.kbm)", p)
	}
	pr, err := belief.LoadPrior(p)
	if err != nil {
		return nil, fmt.Errorf("option prior: %w", err)
	}
	return pr, nil
}
