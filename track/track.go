package track

import (
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
)

// Game is one game's tracker as the game loop drives it.
type Game interface {
	// Us is our colour.
	Us() chess.Color
	// Plies is the number of moves played (heard).
	Plies() int
	// Illegal is the number of our attempts refused so far.
	Illegal() int
	// Over reports the end: the result ("1-0", "0-1", "1/2-1/2", "*"),
	// the server's result code, its words, and whether the game is over.
	Over() (result, code, reason string, over bool)
	// OurTurn reports our turn as last heard.
	OurTurn() bool
	// Due reports that an attempt of ours is due now.
	Due() bool
	// TurnStart is when our turn began.
	TurnStart() time.Time
	// Lag is the smoothed time from sending an attempt to its answer.
	Lag() time.Duration
	// Clock returns side's clock at now.
	Clock(side chess.Color, now time.Time) time.Duration
	// TakeEvents returns what the player is to hear, in order, and
	// forgets it.
	TakeEvents() []players.Event
	// TakeDesync returns why our view disagrees with the server's, once
	// ("" when it agrees).
	TakeDesync() string
	// Sent notes our attempt m as sent at now.
	Sent(m chess.Move, now time.Time)
	// Resigned notes our resignation sent.
	Resigned()
}
