package players

import (
	"context"
	"errors"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/umpire"
)

// Player plays Kriegspiel games, one at a time, against a referee it cannot
// see past. The package documentation states the contract in full.
type Player interface {
	// NewGame starts a game; it forgets everything about the previous one.
	NewGame(g Game) error
	// Attempt proposes the next attempt of our turn within the budget, ending
	// early when ctx is done.
	Attempt(ctx context.Context, b Budget) (chess.Move, error)
	// Hear tells the player one event from its own side's point of view.
	Hear(e Event)
	// GameOver ends the game.
	GameOver(o Outcome)
}

// Game describes a new game.
type Game struct {
	// Color is the side the player plays.
	Color chess.Color
	// Rules are the referee's rules (automatic draws, ply cap).
	Rules umpire.Rules
	// Control is the time control; the zero Control means untimed.
	Control clock.Control
	// Seed is the source of all of the player's randomness in this game.
	Seed uint64
	// Start is the position the game starts from, known to both sides (a
	// set-up position, as in an endgame drill); nil is the standard start.
	Start *chess.Position
	// HiddenKing says that the opponent's king square in Start is not known:
	// a drill from a position reached unseen (after a promotion the bare
	// king has long been out of sight). Players with a belief spread it
	// over every square the king may stand on; the others ignore it.
	HiddenKing bool
}

// StartPosition returns the game's starting position.
func (g *Game) StartPosition() chess.Position {
	if g.Start == nil {
		return chess.StartPosition()
	}
	return *g.Start
}

// Budget bounds one attempt. A zero field means no bound of that kind; a zero
// Budget means "answer with what is cheap".
type Budget struct {
	// Time is the thinking time to aim for (the context's deadline is the hard
	// limit).
	Time time.Duration
	// MaxTime marks a clock's plan (clock.Plan.Max): the search may stop
	// before Time once its choice is made, and go on past Time, to MaxTime,
	// while it is open. Zero is a fixed time, spent whole.
	MaxTime time.Duration
	// Nodes bounds the search work (iterations, positions), for matches that
	// must replay exactly.
	Nodes int64
	// Emergency asks for an instant answer: the clock is nearly out.
	Emergency bool
	// Boards, when not 0, repeats a recorded search's count of the root's
	// mate chances (SearchReport.Boards) instead of sizing it to the budget.
	Boards int
}

// EventKind says what an Event carries.
type EventKind uint8

// Event kinds.
const (
	// Answer is a referee answer, as this side hears it (Event.View).
	Answer EventKind = iota
	// ClockUpdate gives both clocks (Event.Clock).
	ClockUpdate
)

// Clocks is the time left on both sides' clocks.
type Clocks struct {
	Ours, Theirs time.Duration
}

// Event is one thing the player hears during a game.
type Event struct {
	Kind EventKind
	// View is the referee's answer from our side (Kind Answer). For our own
	// accepted move View.Move holds it, or NullMove when the driver does not
	// repeat it (KEP's "legal" line): the player knows what it asked. For the
	// opponent's move, NullMove.
	View umpire.View
	// Clock holds both clocks (Kind ClockUpdate).
	Clock Clocks
}

// AnswerEvent wraps what side c hears of a referee answer (the in-process
// drivers of tests use it; match builds its events the same way).
func AnswerEvent(a *umpire.Answer, c chess.Color) Event {
	return Event{Kind: Answer, View: a.For(c)}
}

// Outcome is how a game ended.
type Outcome struct {
	// Result is "1-0", "0-1", "1/2-1/2" or "*".
	Result string
	// Reason is the termination in the match's words: "checkmate", "time", ...
	Reason string
}

// ErrNoAttempt is returned by Attempt when every askable attempt has been
// refused this turn: the player's knowledge disagrees with the referee's.
var ErrNoAttempt = errors.New("players: every askable attempt was refused this turn")
