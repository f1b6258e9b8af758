package players

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search/sampled"
	"kriegbot/engine/umpire"
)

func sampledKind() Kind {
	return Kind{
		Name:    "sampled",
		Summary: "boards sampled from the belief, each attempt scored on each by alpha-beta, mean and worst case combined (issue 42's design 2, a prototype)",
		Options: []string{
			"worst=X: weight of an attempt's worst board against its mean, 0 to 1 (default 0.3)",
			"growth=N: nodes per search for each board drawn: the budget's split between depth and boards, 1 to 1e6 (default 64)",
			"refused=next|board: an attempt a board refuses is worth the attempt we would try next there, or the board's own value (default next: weaker at 300 nodes, 21 % against mcts where board scores 39 %, but at 4,800 it scores 59 % against mcts at 300 where board scores 35 %)",
			"refusal=N: cost of an attempt a board refuses, in centipawns, 0 to 1000 (default 10)",
			"hanging=X: chance that a board drawn with one of the opponent's men hanging is drawn again, 0 to 1 (default 0; 0.5 matches the true boards' share of hanging men)",
			"reply=board|policy: the opponent's first reply on each board: the board's best (as if it saw our men), or the reply model's policy over what it could know, its quiet moves as a pass (default board)",
			"quiet=N: under reply=policy, the opponent's quiet moves as N of them drawn at random, 0 (a pass) to 16 (default 0)",
			"tt=N: the alpha-beta searches' transposition table, 2^N entries kept for the game, 0 (none) to 24 (default 0)",
			"unit=N: alpha-beta nodes per node of the budget (-nodes), 1 to 1000 (default 48: about the time of one of mcts's iterations)",
			"prior=default|uniform|FILE.kbm: the opponent model the belief uses: the embedded one, none, or a file of kriegbot model build (default: the embedded one)",
			"movers=paper|model|pawns: which of the opponent's units the belief expects to move: each alike (the paper's rule), by the model's fitted shares of king, pawn and piece moves, or the pawns by the model and the rest alike (default paper: with a model of boardtree's own games, model scored 38.9 % over 104 games and pawns 52.5 % over 200 against it)",
			"seed=N: mixed into each game's seed (default 0)",
		},
		Build: buildSampled,
	}
}

func buildSampled(o *Options) (func() Player, error) {
	cfg := sampled.DefaultConfig()
	cfg.Worst = o.Float("worst", cfg.Worst, 0, 1)
	cfg.Growth = int64(o.Int("growth", int(cfg.Growth), 1, 1_000_000))
	cfg.Refusal = int32(o.Int("refusal", int(cfg.Refusal), 0, 1000))
	switch r := o.String("refused", "next"); r {
	case "next", "board":
		cfg.NextBest = r == "next"
	default:
		return nil, fmt.Errorf("option refused: %q is not next or board", r)
	}
	cfg.Hanging = o.Float("hanging", cfg.Hanging, 0, 1)
	cfg.TableBits = o.Int("tt", cfg.TableBits, 0, 24)
	cfg.QuietMoves = o.Int("quiet", cfg.QuietMoves, 0, 16)
	switch r := o.String("reply", "board"); r {
	case "board", "policy":
		cfg.Policy = r == "policy"
	default:
		return nil, fmt.Errorf("option reply: %q is not board or policy", r)
	}
	unit := int64(o.Int("unit", 48, 1, 1000))
	seed := uint64(o.Int("seed", 0, 0, 1<<62))
	prior, movers, err := priorOption(o)
	if err != nil {
		return nil, err
	}
	bare, err := bareMCTS(o)
	if err != nil {
		return nil, err
	}
	return func() Player {
		return &Sampled{scorer: &scorerChooser{Scorer: sampled.New(cfg)}, prior: movers.wrap(prior), movers: movers, unit: unit, seed: seed, bare: bare().(*MCTS), startRate: defaultRate}
	}, nil
}

// bareMCTS builds the MCTS that plays against a bare king for the board
// searches: approach C's exact mates beat sampled boards (a queen did not
// mate in 450 plies under the heuristic's rules); its tree is small: the
// ending needs few nodes. It believes with the player's opponent model and
// mover rule (o's prior and movers).
func bareMCTS(o *Options) (func() Player, error) {
	m := map[string]string{"mem": "8", "prior": o.String("prior", "default"), "movers": o.String("movers", "paper")}
	return buildMCTS(&Options{kind: "mcts", m: m, used: map[string]bool{}})
}

// boardChooser is a search that chooses an attempt on boards drawn from the
// belief: sampled's scorer or boardtree's search.
type boardChooser interface {
	NewGame(seed uint64)
	// Choose chooses among moves within lim.
	Choose(ctx context.Context, bel *belief.State, moves []chess.Move, lim workLimits) choice
	// Candidates appends the last choice's attempts as it saw them.
	Candidates(moves []chess.Move, out []Candidate) []Candidate
	// treeCounts is each tree's work in the last choice when it searched
	// several (nil for one).
	treeCounts() []int64
	// heard tells the search a wild 16 answer to us (m: our attempt, for
	// our own answers), so that it may keep what it grew below it.
	heard(v umpire.View, m chess.Move)
	// forget drops what was heard (an answer the search does not model).
	forget()
	// started tells the search the game's start (wild16: its answers are
	// wild 16's), after NewGame.
	started(g Game, wild16 bool, seed uint64)
	// principal is the last choice's principal line from its root attempt
	// first, at most max attempts (SearchReport.PV).
	principal(first chess.Move, max int) []chess.Move
	// progress is the work units of the choice in progress so far (the
	// last choice's between choices); safe from any goroutine.
	progress() int64
	// ponder grows the search during the opponent's turn (iterations
	// units, or until ctx is done when 0; trees, a replay's counts) and
	// says what it did.
	ponder(ctx context.Context, bel *belief.State, iterations int64, trees []int64) PonderReport
}

// workLimits bound a boardChooser's choice: work units, or on the clock
// time with the plan's maximum (then work is the units the time should
// buy at the rate measured so far, for a chooser that plans by work).
type workLimits struct {
	work          int64
	time, maxTime time.Duration
	// trees repeats a recorded choice of several trees: each's iterations.
	trees []int64
}

// choice is a boardChooser's answer.
type choice struct {
	best  int     // index in the moves given; -1: no board drawn
	spent int64   // work units spent
	value float64 // the chosen attempt's value, in pawns for us
	// reused is the root's visits kept from earlier choices and ponders.
	reused int64
}

// scorerChooser is sampled's scorer as a boardChooser (work: alpha-beta
// nodes).
type scorerChooser struct {
	*sampled.Scorer
	last   sampled.Result
	scores []float64
}

func (c *scorerChooser) Choose(ctx context.Context, bel *belief.State, moves []chess.Move, lim workLimits) choice {
	c.last = c.Scorer.Choose(ctx, bel, moves, lim.work)
	return choice{best: c.last.Best, spent: c.last.Nodes, value: c.last.Score / 100}
}

func (c *scorerChooser) treeCounts() []int64           { return nil }
func (c *scorerChooser) heard(umpire.View, chess.Move) {}
func (c *scorerChooser) forget()                       {}
func (c *scorerChooser) started(Game, bool, uint64)    {}

// principal is the attempt alone: the scorer looks one attempt deep.
func (c *scorerChooser) principal(first chess.Move, _ int) []chess.Move {
	return []chess.Move{first}
}

// progress is 0: the scorer does not count while it runs.
func (c *scorerChooser) progress() int64 { return 0 }
func (c *scorerChooser) ponder(context.Context, *belief.State, int64, []int64) PonderReport {
	return PonderReport{}
}

// Candidates lists each attempt's combined score (its Visits: the boards).
func (c *scorerChooser) Candidates(moves []chess.Move, out []Candidate) []Candidate {
	if c.last.Boards == 0 {
		return out
	}
	c.scores = c.Scorer.Scores(c.scores[:0], len(moves), c.last.Boards)
	for j, m := range moves {
		out = append(out, Candidate{Move: m, Visits: int64(c.last.Boards), Value: c.scores[j] / 100})
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return cmp.Compare(b.Value, a.Value) })
	return out
}

// Sampled plays by a search on boards drawn from a belief kept as MCTS
// keeps it: engine/search/sampled (every askable attempt scored by
// alpha-beta on each board) or engine/search/boardtree. Against a bare king
// it plays as today's MCTS, and should no board be drawn as Heuristic; it
// keeps both informed all game.
type Sampled struct {
	scorer boardChooser
	prior  belief.Prior
	movers moverRule // wraps the priors SetPrior is given
	unit   int64
	seed   uint64
	know   Knowledge
	bel    belief.State
	fall   Heuristic
	bare   *MCTS
	list   chess.MoveList
	// rate is the scorer's work units per second measured so far, to turn
	// a time budget into units; startRate its first guess.
	rate, startRate float64
	// last is the last Attempt's search, for records and replays.
	last SearchReport
	// wild16: the game's answers are wild 16's, the only ones the tree
	// search keeps its tree across (heard).
	wild16 bool
	// bareNow: the choice in progress is the bare-king search's (Progress).
	bareNow atomic.Bool
}

// defaultRate is a starting guess of alpha-beta nodes per second on one core,
// replaced by what each timed choice measures.
const defaultRate = 2e6

// NewGame starts a game.
func (p *Sampled) NewGame(g Game) error {
	start := g.StartPosition()
	p.know.ResetFrom(g.Color, &start)
	p.bel = belief.FromPosition(g.Color, start, p.prior)
	if g.HiddenKing {
		p.bel.HideKing()
	}
	p.scorer.NewGame(g.Seed ^ p.seed)
	p.wild16 = g.Rules.Variant.IsWild16()
	p.scorer.started(g, p.wild16, g.Seed^p.seed)
	p.rate = p.startRate
	p.fall.noise = 0
	if err := p.bare.NewGame(g); err != nil {
		return err
	}
	return p.fall.NewGame(g)
}

// Attempt scores the askable attempts and proposes the best.
func (p *Sampled) Attempt(ctx context.Context, b Budget) (chess.Move, error) {
	return p.attempt(ctx, b, nil)
}

// AttemptTrees repeats a recorded choice of several trees (boardtree's
// threads, or the bare-king search's), tree i exactly trees[i] iterations
// (TreeRepeater).
func (p *Sampled) AttemptTrees(ctx context.Context, trees []int64, boards int) (chess.Move, error) {
	return p.attempt(ctx, Budget{Boards: boards}, trees)
}

func (p *Sampled) attempt(ctx context.Context, b Budget, trees []int64) (chess.Move, error) {
	p.know.Askable(&p.list)
	if p.list.N == 0 {
		return chess.NullMove, ErrNoAttempt
	}
	var m chess.Move
	p.last = SearchReport{}
	byChooser := false
	bare := p.bel.Units() == 0
	p.bareNow.Store(bare)
	if bare {
		var err error
		if m, err = p.bare.attempt(ctx, b, trees); err != nil || !p.list.Contains(m) {
			m = chess.NullMove
		} else {
			p.last = p.bare.LastSearch()
		}
	} else {
		m = p.choose(ctx, b, trees)
		byChooser = m != chess.NullMove
	}
	if !byChooser {
		p.scorer.forget() // not the tree's choice: its root is not where the game is
	}
	if m == chess.NullMove {
		var err error
		p.last = SearchReport{}
		if m, err = p.fall.Attempt(ctx, b); err != nil || !p.list.Contains(m) {
			m = p.list.Moves[0] // the two lists agree; never ask a refused attempt
		}
	}
	p.last.Move = m
	p.know.Asked(m)
	p.fall.know.Asked(m)
	p.bare.know.Asked(m)
	return m, nil
}

// choose returns the scorer's choice within b (or each tree's recorded
// iterations), or NullMove if it drew no board.
func (p *Sampled) choose(ctx context.Context, b Budget, trees []int64) chess.Move {
	lim := workLimits{work: b.Nodes * p.unit}
	switch {
	case len(trees) > 0:
		lim = workLimits{trees: trees} // work, their sum, serves should the trees not line up
		for _, n := range trees {
			lim.work += n
		}
	case b.Emergency || b.Nodes == 0 && b.Time == 0:
		lim.work = emergencyNodes * p.unit
	case b.Nodes == 0:
		lim = workLimits{work: int64(b.Time.Seconds() * p.rate), time: b.Time, maxTime: b.MaxTime}
	}
	start := time.Now()
	moves := p.list.Slice()
	c := p.scorer.Choose(ctx, &p.bel, moves, lim)
	if el := time.Since(start); b.Nodes == 0 && c.spent > 0 && el > time.Millisecond {
		p.rate = 0.5*p.rate + 0.5*float64(c.spent)/el.Seconds()
	}
	if c.best < 0 {
		return chess.NullMove
	}
	// A replay asks for the recorded iterations as its budget's nodes: in
	// budget nodes, rounded up (exact at unit=1, boardtree's).
	p.last = SearchReport{Iterations: (c.spent + p.unit - 1) / p.unit, Nodes: c.spent, Value: c.value,
		Candidates: p.scorer.Candidates(moves, nil), Trees: p.scorer.treeCounts(), Reused: c.reused,
		PV: p.scorer.principal(moves[c.best], MaxPV)}
	return moves[c.best]
}

// LastSearch reports the last Attempt's search (Inspector).
func (p *Sampled) LastSearch() SearchReport { return p.last }

// Belief is the belief the boards are drawn from (Inspector).
func (p *Sampled) Belief() *belief.State { return &p.bel }

// Value is the last search's value as a score (Valuer).
func (p *Sampled) Value() (float64, bool) {
	if p.last.Iterations == 0 {
		return 0, false
	}
	return Score(p.last.Value), true
}

// Ponder thinks during the opponent's turn, after a move of ours, if the
// search can (boardtree's, which grows its tree below the move played).
func (p *Sampled) Ponder(ctx context.Context, nodes int64) PonderReport {
	return p.scorer.ponder(ctx, &p.bel, nodes, nil)
}

// PonderTrees repeats a recorded ponder from each tree's iterations.
func (p *Sampled) PonderTrees(trees []int64) PonderReport {
	return p.scorer.ponder(context.Background(), &p.bel, 0, trees)
}

var (
	_ Ponderer     = (*Sampled)(nil)
	_ Inspector    = (*Sampled)(nil)
	_ Valuer       = (*Sampled)(nil)
	_ TreeRepeater = (*Sampled)(nil)
)

// Hear applies a referee answer to the knowledge, the belief and the
// fallback.
func (p *Sampled) Hear(e Event) {
	p.fall.Hear(e)
	p.bare.Hear(e)
	v := e.View
	if e.Kind != Answer || !v.Heard {
		return
	}
	var m chess.Move
	switch {
	case v.Own && v.Illegal:
		m = p.know.pending
		p.know.Hear(v)
		p.bel.Ours(m, v)
	case v.Own:
		m = v.Move
		if m == chess.NullMove {
			m = p.know.pending
		}
		p.know.Hear(v)
		v.Move = m
		p.bel.Ours(m, v)
	default:
		p.know.Hear(v)
		p.bel.Theirs(v)
	}
	if p.wild16 && v.Ending == umpire.NotOver {
		p.scorer.heard(v, m)
	} else {
		p.scorer.forget()
	}
}

// GameOver ends the game.
func (p *Sampled) GameOver(o Outcome) {
	p.fall.GameOver(o)
	p.bare.GameOver(o)
}
