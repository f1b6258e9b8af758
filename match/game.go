package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/record"
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
	// Variant is the rules' variant by name ("" for wild 16).
	Variant string
	// End is the position the game ended in.
	End chess.Position
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
// attempts (board attempts, and crazykrieg's drops of five kinds of man on
// up to 64 squares) means a player repeats itself.
const maxTurnAttempts = 2*chess.MaxMoves + 5*64

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
// Each side is driven by the daemon's game driver (driver.Game, waiting for
// its searches): the same time policy, ponder and record as live play.
func (t *table) play(ctx context.Context, rec *Record, ps [2]players.Player, rules umpire.Rules, lims [2]Limits) error {
	u := t.ump
	u.Reset(rec.startPosition())
	var gs [2]*driver.Game
	for c, p := range ps {
		g := players.Game{Color: chess.Color(c), Rules: rules, Control: lims[c].Control, Seed: SideSeed(rec.Seed, chess.Color(c)), Start: rec.Start, HiddenKing: rec.HiddenKing}
		st := driver.Settings{Overhead: t.policy.Overhead, MinThink: t.policy.MinThink, Emergency: t.policy.Emergency,
			Ponder: lims[c].Ponder, Untimed: &clock.Ask{MoveTime: lims[c].MoveTime}, Nodes: lims[c].Nodes}
		var err error
		if gs[c], err = driver.New(driver.Setup{Player: p, Game: g, Settings: st}, nil); err != nil {
			return fmt.Errorf("match: %s: new game: %w", rec.specOf(chess.Color(c)), err)
		}
	}
	recs := openRecords(t.records, rec, rules, lims, time.Now())
	defer recs.close()
	for c, w := range recs {
		if w != nil {
			gs[c].SetRecord(w)
		}
	}
	defer func() {
		gs[chess.White].Stop()
		gs[chess.Black].Stop()
	}()
	timed := [2]bool{lims[0].Control.Timed(), lims[1].Control.Timed()}
	clocks := [2]time.Duration{lims[0].Control.Base, lims[1].Control.Base}
	clockEvent := func(c int) players.Event {
		return players.Event{Kind: players.ClockUpdate, Clock: players.Clocks{Ours: clocks[c], Theirs: clocks[1-c]}}
	}
	for c := range gs {
		if timed[c] {
			gs[c].Hear([]players.Event{clockEvent(c)}, time.Now())
		}
	}
	turnAttempts := 0
	// lastLegal is each side's last legal attempt, which its ponder (on
	// the driver's goroutine, until it hears the opponent's move) follows.
	lastLegal := [2]int{-1, -1}
	pondered := func(c chess.Color) {
		if rep := gs[c].Pondered(); rep != nil && lastLegal[c] >= 0 {
			rec.Attempts[lastLegal[c]].Ponder = rep
		}
	}
	end := func(result, term, fault string) {
		rec.Result, rec.Termination, rec.Error = result, term, fault
	}
	for u.Ending() == umpire.NotOver {
		if ctx.Err() != nil {
			return errAborted
		}
		side := u.Side()
		lim := &lims[side]
		// The driver's turn began at its first attempt: it spends wall time.
		now := time.Now()
		act := gs[side].Think(ctx, now, driver.Situation{Since: now, Clock: clocks[side], MoveNumber: u.Plies()/2 + 1})
		m, err, elapsed := act.Move, act.Err, act.Elapsed
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
			if r == m && m != chess.NullMove {
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
		pos := u.Position()
		a, err := attempt(u, m)
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
			at.SAN = record.SAN(&pos, m)
			turnAttempts = 0
			if timed[side] {
				clocks[side] += lim.Control.Increment
				at.Clock = clocks[side]
			}
		}
		rec.Attempts = append(rec.Attempts, at)
		// The opponent first: its ponder ends before it hears the move,
		// then the mover hears its answer (and starts its own ponder).
		now = time.Now()
		for _, c := range [2]chess.Color{side.Other(), side} {
			var ev []players.Event
			if v := a.For(c); v.Heard {
				ev = append(ev, players.Event{Kind: players.Answer, View: v})
			}
			if a.Legal && timed[c] {
				ev = append(ev, clockEvent(int(c)))
			}
			if len(ev) > 0 {
				gs[c].Hear(ev, now)
				pondered(c)
			}
		}
		if a.Legal {
			lastLegal[side] = len(rec.Attempts) - 1
		}
		if a.Ending != umpire.NotOver {
			end(a.Result, terminationOf(a.Ending), "")
		}
	}
	rec.Plies, rec.End = u.Plies(), u.Position()
	for c := range gs {
		gs[c].End(players.Outcome{Result: rec.Result, Reason: rec.Termination},
			record.ResultLine{Code: rec.Termination, Plies: rec.Plies}, time.Now())
		pondered(chess.Color(c))
	}
	if err := recs.finish(rec); err != nil {
		return fmt.Errorf("match: game %d: record: %w", rec.Game, err)
	}
	return nil
}

// attempt puts the mover's attempt m to the umpire: chess.NullMove is the
// "Any?" question (players' convention).
func attempt(u *umpire.Umpire, m chess.Move) (umpire.Answer, error) {
	if m == chess.NullMove {
		return u.AskAny()
	}
	return u.Attempt(m)
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
