package umpire

import (
	"strconv"
	"strings"

	"kriegbot/engine/chess"
)

// CaptureKind says what the referee announces about a captured man.
type CaptureKind uint8

// Capture kinds. PawnCaptured and PieceCaptured are typed announcements (a
// promoted man is a piece); ManCaptured is an untyped one (the square only);
// the last four are exact ones (crazykrieg).
const (
	NoCapture CaptureKind = iota
	PawnCaptured
	PieceCaptured
	ManCaptured
	KnightCaptured
	BishopCaptured
	RookCaptured
	QueenCaptured
)

var captureNames = [...]string{"none", "pawn", "piece", "man", "knight", "bishop", "rook", "queen"}

// String returns "pawn", "piece", "man" (untyped), "knight" ... "queen" or "none".
func (k CaptureKind) String() string {
	if int(k) < len(captureNames) {
		return captureNames[k]
	}
	return "none"
}

// Verdict is the referee's main answer to an attempt or a question.
type Verdict uint8

// Verdicts, in ks-game's words. The zero value is IllegalMove.
const (
	// IllegalMove refuses an attempt on the askable list that the true board
	// does not allow (and, in wild 16 and english, any attempt off the list).
	IllegalMove Verdict = iota
	// MoveDone plays the attempt (ks-game's REGULAR_MOVE or CAPTURE_DONE).
	MoveDone
	// ImpossibleToAsk refuses an attempt off the askable list (berkeley, and
	// every variant under the pawn-capture obligation). Nobody else hears it.
	ImpossibleToAsk
	// NonsenseMove refuses an attempt off the askable list (cincinnati, rand,
	// crazykrieg). The site does not tell the opponent.
	NonsenseMove
	// HasAny answers "Any?": the asker has a legal pawn capture and must try one.
	HasAny
	// NoAny answers "Any?": the asker has no legal pawn capture.
	NoAny
)

var verdictNames = [...]string{"ILLEGAL_MOVE", "MOVE_DONE", "IMPOSSIBLE_TO_ASK", "NONSENSE", "HAS_ANY", "NO_ANY"}

// String returns ks-game's word (MOVE_DONE for both of its move answers).
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "UNKNOWN"
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

// Answer is the referee's judgement of one attempt, or of the ask-any
// question (Attempt is then chess.NullMove and Verdict HasAny or NoAny).
type Answer struct {
	Mover   chess.Color
	Attempt chess.Move
	Legal   bool
	// Verdict is the main answer; MoveDone exactly when Legal.
	Verdict Verdict
	// Public is true when the opponent hears the answer too.
	Public bool
	// Capture is set when a legal move captured, as the variant announces it:
	// Square is where the captured man stood, except for an announced en
	// passant (EnPassant), which is given on the capturing pawn's destination.
	Capture Capture
	// EnPassant announces an en passant capture (english).
	EnPassant bool
	// Promotion announces that a pawn promoted (rand).
	Promotion bool
	// Drop is the type of the man a drop put on the board (crazykrieg), else
	// chess.NoPieceType. The square is not announced.
	Drop chess.PieceType
	// Checks holds the check kinds on the side now to move, NoCheck-padded; a
	// double check fills both (in ascending order of the checkers' squares). It is
	// filled on a game-ending move too, though ks-game announces only the ending.
	Checks [2]chess.CheckKind
	// PawnTries is the count announced for the side now to move after a legal
	// move, or -1 when nothing is announced (illegal attempt, game over, a
	// variant that announces no count).
	PawnTries int
	// PawnNews says which pawn news the move gives (the variant's); with
	// PawnHas and PawnSquares, HasPawnCapture and TrySquares hold it, after a
	// legal move that does not end the game.
	PawnNews       PawnNews
	HasPawnCapture bool
	TrySquares     chess.Bitboard
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
	// Heard is false when this side is told nothing (the opponent's illegal
	// attempt in wild 16, a refusal off the askable list).
	Heard bool
	// Own is true for the side that made the attempt.
	Own bool
	// Illegal is the "Illegal move": told to the mover, and in the variants
	// with public illegal attempts to the opponent too (Own false).
	Illegal bool
	// Verdict is set for the answers wild 16 does not have (ImpossibleToAsk,
	// NonsenseMove, HasAny, NoAny). It is zero (IllegalMove) for a move and
	// for "Illegal move", which Illegal tells apart, so that wild 16's views,
	// and those built from a wire, are what they always were.
	Verdict Verdict
	// Move is the mover's own move; the opponent sees NullMove (a hidden move).
	Move           chess.Move
	Capture        Capture
	EnPassant      bool
	Promotion      bool
	Drop           chess.PieceType
	Checks         [2]chess.CheckKind
	PawnTries      int
	PawnNews       PawnNews
	HasPawnCapture bool
	TrySquares     chess.Bitboard
	Ending         Ending
	Result         string
}

// For returns what side c hears of the answer.
func (a *Answer) For(c chess.Color) View {
	own := c == a.Mover
	if !a.Legal {
		heard := own || a.Public
		return View{Heard: heard, Own: own, Illegal: heard && a.Verdict == IllegalMove, Verdict: a.Verdict, PawnTries: -1}
	}
	v := View{Heard: true, Own: own, Capture: a.Capture, EnPassant: a.EnPassant, Promotion: a.Promotion, Drop: a.Drop,
		Checks: a.Checks, PawnTries: a.PawnTries, PawnNews: a.PawnNews, HasPawnCapture: a.HasPawnCapture, TrySquares: a.TrySquares,
		Ending: a.Ending, Result: a.Result}
	if own {
		v.Move = a.Attempt
	}
	return v
}

// Words returns what the referee said to this side, one announcement each,
// in ICC's wording: "Illegal move"; or, for a legal move, the capture ("Pawn
// at d5 captured"), the checks ("File check") and the pawn tries ("2 pawn
// tries", "0 pawn tries" included). On the move that ends the game only the
// capture is said, as ks-game does. Nothing heard gives nothing. The other
// variants' answers have plain words of ours ("Has pawn captures", "Pawn
// tries from e4 g4"); the site's own words are protocol/ksapi's.
func (v *View) Words() []string {
	if !v.Heard {
		return nil
	}
	if v.Illegal {
		return []string{"Illegal move"}
	}
	switch v.Verdict {
	case ImpossibleToAsk, NonsenseMove, HasAny, NoAny:
		return []string{verdictWords(v.Verdict)}
	}
	var w []string
	if v.Capture.Kind != NoCapture {
		w = append(w, captureWords(v.Capture, v.EnPassant))
	}
	if v.Promotion {
		w = append(w, "Promotion")
	}
	if v.Drop != chess.NoPieceType {
		w = append(w, "Drop of a "+v.Drop.String())
	}
	if v.Ending != NotOver {
		return w
	}
	for _, k := range v.Checks {
		if k != chess.NoCheck {
			w = append(w, CheckWords(k))
		}
	}
	if n := pawnNewsWords(v.PawnNews, v.PawnTries, v.HasPawnCapture, v.TrySquares); n != "" {
		w = append(w, n)
	}
	return w
}

// pawnNewsWords words the next mover's pawn news: "2 pawn tries" (a count,
// when one is given), "Has pawn capture", "Pawn tries from d4 e4", "No pawn
// captures".
func pawnNewsWords(kind PawnNews, tries int, has bool, squares chess.Bitboard) string {
	switch kind {
	case PawnCount:
		if tries >= 0 {
			return TriesWords(tries)
		}
	case PawnHas:
		if has {
			return "Has pawn capture"
		}
		return "No pawn captures"
	case PawnSquares:
		if squares == 0 {
			return "No pawn captures"
		}
		w := "Pawn tries from"
		for b := squares; b != 0; {
			w += " " + b.PopFirst().String()
		}
		return w
	}
	return ""
}

// verdictWords words a refusal or an answer to "Any?".
func verdictWords(v Verdict) string {
	switch v {
	case ImpossibleToAsk:
		return "Impossible to ask"
	case NonsenseMove:
		return "Nonsense"
	case HasAny:
		return "Has pawn captures"
	case NoAny:
		return "No pawn captures"
	}
	return "Illegal move"
}

// captureWords words a capture: "Pawn at d5 captured", "Capture at d5" for
// an untyped one, "En passant capture at d6".
func captureWords(c Capture, enPassant bool) string {
	sq := c.Square.String()
	switch {
	case enPassant:
		return "En passant capture at " + sq
	case c.Kind == ManCaptured:
		return "Capture at " + sq
	}
	name := c.Kind.String()
	return strings.ToUpper(name[:1]) + name[1:] + " at " + sq + " captured"
}

// String renders the answer in the referee's words, e.g.
// "e2e4: legal; Piece at d5 captured; File check; 2 pawn tries".
func (a *Answer) String() string {
	var sb strings.Builder
	if a.Attempt == chess.NullMove && (a.Verdict == HasAny || a.Verdict == NoAny) {
		sb.WriteString("any")
	} else {
		sb.WriteString(MoveText(a.Attempt))
	}
	if !a.Legal {
		sb.WriteString(": ")
		sb.WriteString(verdictWords(a.Verdict))
		return sb.String()
	}
	sb.WriteString(": legal")
	if a.Capture.Kind != NoCapture {
		sb.WriteString("; ")
		sb.WriteString(captureWords(a.Capture, a.EnPassant))
	}
	if a.Promotion {
		sb.WriteString("; Promotion")
	}
	if a.Drop != chess.NoPieceType {
		sb.WriteString("; Drop of a ")
		sb.WriteString(a.Drop.String())
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
	} else if n := pawnNewsWords(a.PawnNews, a.PawnTries, a.HasPawnCapture, a.TrySquares); n != "" {
		sb.WriteString("; ")
		sb.WriteString(n)
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
