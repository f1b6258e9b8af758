package umpire

import (
	"fmt"
	"strings"
	"time"
)

// Rules selects the automatic game endings beyond checkmate, stalemate and
// insufficient material, which always apply, and the Kriegspiel variant:
// what the referee announces and refuses (the zero Variant is wild 16).
type Rules struct {
	Name string
	// Variant is the rule variant as data (docs/rulesets.md).
	Variant Variant
	// FiftyMoves draws the game automatically once 100 half-moves pass without a
	// capture or a pawn move (the 2006 Computer Olympiad rules).
	FiftyMoves bool
	// Repetition draws the game automatically when a position occurs for the
	// third time with the same side to move, castling rights and en passant chance.
	Repetition bool
	// MaxPlies ends the game, unfinished, after that many legal moves (0: no cap).
	MaxPlies int
	// MaxReversible ends the game as a draw after that many half-moves without a
	// capture or pawn move (ks-game uses 2000; 0: no limit).
	MaxReversible int
	// DeadMaterial draws the game once neither side can force mate: no pawn,
	// rook or queen on the board, and each side has at most one minor piece
	// or two knights (a server's adjudication, beyond insufficient material,
	// which always applies: K+N against K+N can be mated only by a blunder).
	DeadMaterial bool
}

// ICC returns the rules of ICC wild 16: no automatic draw by the 50-move rule or
// repetition.
func ICC() Rules { return Rules{Name: "icc"} }

// Olympiad returns the 2006 Computer Olympiad rules: ICC's, plus automatic draws
// by the 50-move rule and threefold repetition.
func Olympiad() Rules { return Rules{Name: "olympiad", FiftyMoves: true, Repetition: true} }

// KS returns the rules of kriegspiel.org's referee (ks-game): no automatic
// 50-move or repetition draw, but a draw after 2,000 half-moves without a
// capture or pawn move, so that no game runs for ever.
func KS() Rules { return Rules{Name: "ks", MaxReversible: 2000} }

// RuleNames lists the names ParseRules accepts.
func RuleNames() []string { return []string{"icc", "olympiad", "ks"} }

// ParseRules returns the named rule set.
func ParseRules(name string) (Rules, error) {
	switch strings.ToLower(name) {
	case "icc":
		return ICC(), nil
	case "olympiad":
		return Olympiad(), nil
	case "ks":
		return KS(), nil
	}
	return Rules{}, fmt.Errorf("umpire: unknown rules %q (want %s)", name, strings.Join(RuleNames(), ", "))
}

// BoundedMaxPlies is the move limit Bounded sets: 300 moves each.
const BoundedMaxPlies = 600

// Bounded returns r as our own servers apply it (the demo's embedded
// server, kriegbot tourney), so that no game runs for ever: dead material
// is a draw (K+N against K+N never ends under ICC's rules), and a game
// still on after MaxPlies legal moves (BoundedMaxPlies unless r has a
// limit) ends.
func (r Rules) Bounded() Rules {
	r.DeadMaterial = true
	if r.MaxPlies == 0 {
		r.MaxPlies = BoundedMaxPlies
	}
	return r
}

// LongestGame is how long a game under r can last at a Fischer time control
// of base and inc: both clocks spent over a game that reaches MaxPlies; 0
// when r has no ply cap (no bound).
func (r Rules) LongestGame(base, inc time.Duration) time.Duration {
	if r.MaxPlies <= 0 {
		return 0
	}
	return 2*base + time.Duration(r.MaxPlies)*inc
}
