package umpire

import (
	"strconv"
	"strings"

	"kriegbot/engine/chess"
)

// CaptureKind says what the referee announces about a captured man.
type CaptureKind uint8

// Capture kinds. A promoted man is a piece.
const (
	NoCapture CaptureKind = iota
	PawnCaptured
	PieceCaptured
)

// String returns "pawn", "piece" or "none".
func (k CaptureKind) String() string {
	switch k {
	case PawnCaptured:
		return "pawn"
	case PieceCaptured:
		return "piece"
	}
	return "none"
}

// Capture is a capture announcement: where the captured man stood (for en
// passant, the captured pawn's square) and whether it was a pawn.
type Capture struct {
	Square chess.Square
	Kind   CaptureKind
}

// Ending is why a game ended, or NotOver.
type Ending uint8

// Endings. The first three are decided on the board; the others by the rule set.
const (
	NotOver Ending = iota
	Checkmate
	Stalemate
	InsufficientMaterial
	FiftyMoves
	Repetition
	TooManyReversible
	PlyLimit
	DeadMaterial
)

var endingNames = [...]string{"", "checkmate", "stalemate", "insufficient_material", "fifty_moves", "repetition", "too_many_reversible_moves", "ply_limit", "dead_material"}

// String returns the fixture spelling ("checkmate", "insufficient_material", ...),
// or "" for NotOver.
func (e Ending) String() string {
	if int(e) < len(endingNames) {
		return endingNames[e]
	}
	return "unknown"
}

// Answer is the referee's judgement of one attempt.
type Answer struct {
	Mover   chess.Color
	Attempt chess.Move
	Legal   bool
	// Capture is set when a legal move captured.
	Capture Capture
	// Checks holds the check kinds on the side now to move, NoCheck-padded; a
	// double check fills both (in ascending order of the checkers' squares). It is
	// filled on a game-ending move too, though ks-game announces only the ending.
	Checks [2]chess.CheckKind
	// PawnTries is the count announced for the side now to move after a legal
	// move, or -1 when nothing is announced (illegal attempt, game over).
	PawnTries int
	// Ending is set on the move that ends the game.
	Ending Ending
	// Result is "1-0", "0-1", "1/2-1/2" or "*" once Ending is set, else "".
	Result string
}

// NumChecks returns how many checks the answer announces (0, 1 or 2).
func (a *Answer) NumChecks() int {
	n := 0
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			n++
		}
	}
	return n
}

// View is what one side hears of an answer.
type View struct {
	// Heard is false when this side is told nothing (the opponent's illegal attempt).
	Heard bool
	// Own is true for the side that made the attempt.
	Own bool
	// Illegal is the "Illegal move" told to the mover only.
	Illegal bool
	// Move is the mover's own move; the opponent sees NullMove (a hidden move).
	Move      chess.Move
	Capture   Capture
	Checks    [2]chess.CheckKind
	PawnTries int
	Ending    Ending
	Result    string
}

// For returns what side c hears of the answer.
func (a *Answer) For(c chess.Color) View {
	own := c == a.Mover
	if !a.Legal {
		return View{Heard: own, Own: own, Illegal: own, PawnTries: -1}
	}
	v := View{Heard: true, Own: own, Capture: a.Capture, Checks: a.Checks, PawnTries: a.PawnTries, Ending: a.Ending, Result: a.Result}
	if own {
		v.Move = a.Attempt
	}
	return v
}

// Words returns what the referee said to this side, one announcement each,
// in ICC's wording: "Illegal move"; or, for a legal move, the capture ("Pawn
// at d5 captured"), the checks ("File check") and the pawn tries ("2 pawn
// tries", "0 pawn tries" included). On the move that ends the game only the
// capture is said, as ks-game does. Nothing heard gives nothing.
func (v *View) Words() []string {
	if !v.Heard {
		return nil
	}
	if v.Illegal {
		return []string{"Illegal move"}
	}
	var w []string
	switch v.Capture.Kind {
	case PawnCaptured:
		w = append(w, "Pawn at "+v.Capture.Square.String()+" captured")
	case PieceCaptured:
		w = append(w, "Piece at "+v.Capture.Square.String()+" captured")
	}
	if v.Ending != NotOver {
		return w
	}
	for _, k := range v.Checks {
		if k != chess.NoCheck {
			w = append(w, CheckWords(k))
		}
	}
	if v.PawnTries >= 0 {
		w = append(w, TriesWords(v.PawnTries))
	}
	return w
}

// String renders the answer in the referee's words, e.g.
// "e2e4: legal; Piece at d5 captured; File check; 2 pawn tries".
func (a *Answer) String() string {
	var sb strings.Builder
	sb.WriteString(a.Attempt.String())
	if !a.Legal {
		sb.WriteString(": Illegal move")
		return sb.String()
	}
	sb.WriteString(": legal")
	if a.Capture.Kind != NoCapture {
		sb.WriteString("; ")
		if a.Capture.Kind == PawnCaptured {
			sb.WriteString("Pawn at ")
		} else {
			sb.WriteString("Piece at ")
		}
		sb.WriteString(a.Capture.Square.String())
		sb.WriteString(" captured")
	}
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			sb.WriteString("; ")
			sb.WriteString(CheckWords(k))
		}
	}
	if a.Ending != NotOver {
		sb.WriteString("; game over: ")
		sb.WriteString(a.Ending.String())
		sb.WriteString(" ")
		sb.WriteString(a.Result)
	} else {
		sb.WriteString("; ")
		sb.WriteString(TriesWords(a.PawnTries))
	}
	return sb.String()
}

// CheckWords returns ICC's wording of a check kind ("Long-diagonal check").
func CheckWords(k chess.CheckKind) string {
	switch k {
	case chess.CheckRank:
		return "Rank check"
	case chess.CheckFile:
		return "File check"
	case chess.CheckLongDiagonal:
		return "Long-diagonal check"
	case chess.CheckShortDiagonal:
		return "Short-diagonal check"
	case chess.CheckKnight:
		return "Knight check"
	}
	return ""
}

// TriesWords returns the pawn-tries announcement ("1 pawn try", "3 pawn tries").
func TriesWords(n int) string {
	if n == 1 {
		return "1 pawn try"
	}
	return strconv.Itoa(n) + " pawn tries"
}
