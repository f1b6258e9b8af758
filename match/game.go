package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/think"
	"kriegbot/engine/umpire"
)

// Limits is how much each attempt may cost. Any combination may be set; with
// none, players answer with what is cheap (random, heuristic).
type Limits struct {
	// MoveTime is the thinking time of every attempt.
	MoveTime time.Duration
	// Nodes is the search budget of every attempt (reproducible).
	Nodes int64
	// Control is a real-time clock per side: flag fall loses.
	Control clock.Control
	// Overhead is the time manager's move overhead under Control.
	Overhead time.Duration
	// Ponder lets the player think during the opponent's turns (a
	// players.Ponderer): until the opponent's move, or with Nodes for
	// Nodes iterations (the match waits for them, so it replays exactly).
	Ponder bool
}

// Termination names, as the summary counts them.
const (
	TermCheckmate  = "checkmate"
	TermStalemate  = "stalemate"
	TermMaterial   = "material"
	TermFifty      = "50-move"
	TermRepetition = "repetition"
	TermReversible = "reversible"
	TermPlyCap     = "ply cap"
	TermTime       = "time"
	TermError      = "error"
)

// Terminations lists the termination names in summary order.
func Terminations() []string {
	return []string{TermCheckmate, TermStalemate, TermMaterial, TermFifty, TermRepetition, TermReversible, TermPlyCap, TermTime, TermError}
}

func terminationOf(e umpire.Ending) string {
	switch e {
	case umpire.Checkmate:
		return TermCheckmate
	case umpire.Stalemate:
		return TermStalemate
	case umpire.InsufficientMaterial:
		return TermMaterial
	case umpire.FiftyMoves:
		return TermFifty
	case umpire.Repetition:
		return TermRepetition
	case umpire.TooManyReversible:
		return TermReversible
	}
	return TermPlyCap
}

// Attempt is one attempt of a game with the referee's answer.
type Attempt struct {
	Ply    int // legal moves played before it
	Answer umpire.Answer
	// SAN is the move in the true position when legal.
	SAN string
	// Elapsed is the time the player took.
	Elapsed time.Duration
	// Clock is the mover's clock after the attempt, when Timed (the mover
	// plays on a clock).
	Clock time.Duration
	Timed bool
	// Searched says Iterations and Trees hold the search behind the
	// attempt (a player that reports its searches, in a match not held to
	// -nodes): each tree's iterations when there were several.
	Searched   bool
	Iterations int64
	Trees      []int64
	TreeNodes  int64
	Boards     int
	Critical   bool
	// Ponder is, on a legal attempt of a pondering player, what it pondered
	// during the opponent's turn that followed (nil: it did not).
	Ponder *players.PonderReport
}

// Record is one finished game.
type Record struct {
	Game         int // index in the match, from 0
	Seed         uint64
	White, Black string // specs
	P1White      bool
	Control      clock.Control
	Attempts     []Attempt
	Plies        int
	Result       string // "1-0", "0-1", "1/2-1/2", "*"
	Termination  string
	Error        string // a player's fault, for TermError
	// Start is the start position, or nil for the standard start.
	Start *chess.Position
	// HiddenKing: the players did not know where the opponent's king stood
	// in Start.
	HiddenKing bool
}

// startPosition returns the game's start position.
func (r *Record) startPosition() chess.Position {
	if r.Start == nil {
		return chess.StartPosition()
	}
	return *r.Start
}

// startPly is the ply number of the start position's side to move, counted
// from the standard start (0 for White's first move), for move numbers.
func (r *Record) startPly() int {
	if r.Start == nil {
		return 0
	}
	return 2*(r.Start.FullmoveNumber()-1) + int(r.Start.Side())
}

// P1Score returns the first player's score: 1, ½ or 0 (an unfinished game,
// "*", counts as a draw).
func (r *Record) P1Score() float64 {
	var white float64
	switch r.Result {
	case "1-0":
		white = 1
	case "0-1":
		white = 0
	default:
		return 0.5
	}
	if r.P1White {
		return white
	}
	return 1 - white
}

// maxTurnAttempts bounds the attempts of one turn: more than the askable
// attempts means a player repeats itself.
const maxTurnAttempts = 2 * chess.MaxMoves

// errAborted marks a game cut short by the match (SPRT stop, interrupt).
var errAborted = errors.New("match: game aborted")

// table is what one worker reuses from game to game.
type table struct {
	ump *umpire.Umpire
	// policy is the one time policy (engine/clock), the daemon's.
	policy clock.Policy
	// records is the folder of each side's record (-records), "" for none.
	records string
}

// play plays one game between white and black. It returns errAborted when ctx
// ends first.
// lims are White's and Black's budgets (time odds: each side its own).
func (t *table) play(ctx context.Context, rec *Record, ps [2]players.Player, rules umpire.Rules, lims [2]Limits) error {
	u := t.ump
	u.Reset(rec.startPosition())
	for c, p := range ps {
		g := players.Game{Color: chess.Color(c), Rules: rules, Control: lims[c].Control, Seed: SideSeed(rec.Seed, chess.Color(c)), Start: rec.Start, HiddenKing: rec.HiddenKing}
		if err := p.NewGame(g); err != nil {
			return fmt.Errorf("match: %s: new game: %w", rec.specOf(chess.Color(c)), err)
		}
	}
	recs := openRecords(t.records, rec, rules, lims, time.Now())
	defer recs.close()
	timed := [2]bool{lims[0].Control.Timed(), lims[1].Control.Timed()}
	clocks := [2]time.Duration{lims[0].Control.Base, lims[1].Control.Base}
	turns := [2]*clock.Turn{clock.NewTurn(t.policy.Manager(0)), clock.NewTurn(t.policy.Manager(0))}
	var spent time.Duration // thinking time of the side to move this turn
	for c, p := range ps {
		if timed[c] {
			e := players.Event{Kind: players.ClockUpdate, Clock: players.Clocks{Ours: clocks[c], Theirs: clocks[1-c]}}
			recs.hear(chess.Color(c), e)
			p.Hear(e)
		}
	}
	turnAttempts := 0
	// A pondering side thinks on its own goroutine from its legal move to
	// the opponent's; it is stopped before it hears anything again.
	var pond [2]*pondering
	stopPonder := func(c chess.Color) {
		if pr := pond[c]; pr != nil {
			pond[c] = nil
			rep := pr.stop()
			rec.Attempts[pr.attempt].Ponder = rep
			recs.ponder(c, rep)
		}
	}
	defer func() {
		stopPonder(chess.White)
		stopPonder(chess.Black)
	}()
	end := func(result, term, fault string) {
		rec.Result, rec.Termination, rec.Error = result, term, fault
	}
	for u.Ending() == umpire.NotOver {
		if ctx.Err() != nil {
			return errAborted
		}
		side := u.Side()
		lim := &lims[side]
		ask := clock.Ask{MoveTime: lim.MoveTime} // a target, not a flag
		if timed[side] {
			// The match measures the thinking time spent this turn.
			ask = clock.Ask{Clock: true, Remaining: clocks[side], Increment: lim.Control.Increment,
				MoveNumber: u.Plies()/2 + 1, Spent: spent}
		}
		plan := t.policy.Plan(turns[side], ask)
		r := think.Run(ctx, ps[side], think.Budget(plan, lim.Nodes), plan.Hard)
		m, err, elapsed := r.Move, r.Err, r.Elapsed
		if ctx.Err() != nil {
			return errAborted
		}
		if err != nil {
			end(lossFor(side), TermError, fmt.Sprintf("%s: %v", rec.specOf(side), err))
			break
		}
		if timed[side] {
			clocks[side] -= elapsed
			if clocks[side] <= 0 {
				// The flag fell before the attempt reached the referee. A side
				// that cannot mate does not win on time.
				pos := u.Position()
				if pos.HasInsufficientMaterial(side.Other()) {
					end("1/2-1/2", TermTime, "")
				} else {
					end(lossFor(side), TermTime, "")
				}
				break
			}
		}
		for _, r := range u.Refused() {
			if r == m {
				err = fmt.Errorf("attempt %v again after its refusal", m)
			}
		}
		if turnAttempts++; turnAttempts > maxTurnAttempts {
			err = fmt.Errorf("more than %d attempts in one turn", maxTurnAttempts)
		}
		if err != nil {
			end(lossFor(side), TermError, fmt.Sprintf("%s: %v", rec.specOf(side), err))
			break
		}
		recs.attempt(side, m, ps[side])
		pos := u.Position()
		a, err := u.Attempt(m)
		if err != nil {
			return fmt.Errorf("match: umpire: %w", err)
		}
		at := Attempt{Ply: u.Plies() - btoi(a.Legal), Answer: a, Elapsed: elapsed, Clock: clocks[side], Timed: timed[side]}
		if in, ok := ps[side].(players.Inspector); ok && lim.Nodes == 0 {
			// On a clock the search's size is all a replay needs.
			rep := in.LastSearch()
			at.Searched, at.Iterations, at.Trees, at.TreeNodes = true, rep.Iterations, rep.Trees, rep.Nodes
			at.Critical, at.Boards = rep.Critical, rep.Boards
		}
		if a.Legal {
			at.SAN = pos.SAN(m)
			turnAttempts, spent = 0, 0
			turns[side].Moved()
			if timed[side] {
				clocks[side] += lim.Control.Increment
				at.Clock = clocks[side]
			}
		} else {
			turns[side].Refused()
			spent += elapsed
		}
		rec.Attempts = append(rec.Attempts, at)
		if a.Legal {
			stopPonder(side.Other()) // it is about to hear this move
		}
		for c, p := range ps {
			if v := a.For(chess.Color(c)); v.Heard {
				e := players.Event{Kind: players.Answer, View: v}
				recs.hear(chess.Color(c), e)
				p.Hear(e)
			}
		}
		if a.Legal {
			for c, p := range ps {
				if !timed[c] {
					continue
				}
				e := players.Event{Kind: players.ClockUpdate, Clock: players.Clocks{Ours: clocks[c], Theirs: clocks[1-c]}}
				recs.hear(chess.Color(c), e)
				p.Hear(e)
			}
		}
		if a.Ending != umpire.NotOver {
			end(a.Result, terminationOf(a.Ending), "")
		} else if pp, ok := ps[side].(players.Ponderer); ok && a.Legal && lim.Ponder {
			pond[side] = startPonder(ctx, pp, lim.Nodes, len(rec.Attempts)-1)
		}
	}
	stopPonder(chess.White)
	stopPonder(chess.Black)
	rec.Plies = u.Plies()
	for _, p := range ps {
		p.GameOver(players.Outcome{Result: rec.Result, Reason: rec.Termination})
	}
	if err := recs.finish(rec); err != nil {
		return fmt.Errorf("match: game %d: record: %w", rec.Game, err)
	}
	return nil
}

// pondering is one ponder in flight (engine/think).
type pondering struct {
	run *think.Ponder
	// attempt is the index of the legal attempt it follows.
	attempt int
	nodes   int64
}

// startPonder runs p's ponder on its own goroutine: until stop, or for
// nodes iterations when nodes > 0.
func startPonder(ctx context.Context, p players.Ponderer, nodes int64, attempt int) *pondering {
	return &pondering{run: think.StartPonder(ctx, p, nodes), attempt: attempt, nodes: nodes}
}

// stop ends the ponder (a ponder held to a node count runs it out: it does
// not depend on when the opponent answered) and returns what it did, or nil
// when it did nothing. A player that panicked while pondering panics the
// match, as it did on the ponder's own goroutine.
func (pr *pondering) stop() *players.PonderReport {
	end := pr.run.Stop
	if pr.nodes > 0 {
		end = pr.run.Finish
	}
	rep, err := end()
	if err != nil {
		panic(err)
	}
	if rep.Iterations == 0 {
		return nil
	}
	return &rep
}

func (r *Record) specOf(c chess.Color) string {
	if c == chess.White {
		return r.White
	}
	return r.Black
}

func lossFor(c chess.Color) string {
	if c == chess.White {
		return "0-1"
	}
	return "1-0"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitmix64 is a strong 64-bit mixer (Steele, Lea, Flood 2014).
func splitmix64(x uint64) uint64 { return chess.Mix64(x + 0x9e3779b97f4a7c15) }

// GameSeed derives game g's seed from the match seed, so that any shard
// plays game g exactly as an unsharded run does.
func GameSeed(matchSeed uint64, g int) uint64 {
	return splitmix64(matchSeed ^ splitmix64(uint64(g)))
}

// SideSeed gives each side of a game its own seed: the player of colour c
// in the game of seed gameSeed starts from it (a replay rebuilds it so).
func SideSeed(gameSeed uint64, c chess.Color) uint64 {
	return splitmix64(gameSeed + uint64(c) + 1)
}
