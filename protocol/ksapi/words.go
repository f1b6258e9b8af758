package ksapi

import (
	"strconv"
	"strings"
)

// The referee's words (docs/kriegspiel-org-api.md §4-§5): the codes of a move reply
// (announcement, special_announcement, checks, captured piece) and the
// human texts of the scoresheet. Each formatter writes the site's
// spelling; each parser reads it case-insensitively, with ICC's spellings
// too ("Rank check", "Pawn at e5 captured"), and reports false for words
// it does not know.

// A move reply's announcement.
const (
	RegularMove     = "REGULAR_MOVE"
	CaptureDone     = "CAPTURE_DONE"
	IllegalMove     = "ILLEGAL_MOVE"
	ImpossibleToAsk = "IMPOSSIBLE_TO_ASK"
	Nonsense        = "NONSENSE"
	InvalidUCI      = "INVALID_UCI"
	HasAny          = "HAS_ANY"
	NoAny           = "NO_ANY"
)

// ParseAnnouncement reads an announcement as its constant.
func ParseAnnouncement(s string) (string, bool) {
	switch u := strings.ToUpper(s); u {
	case RegularMove, CaptureDone, IllegalMove, ImpossibleToAsk, Nonsense, InvalidUCI, HasAny, NoAny:
		return u, true
	}
	return "", false
}

// A capture's captured_piece_announcement (wild16 says PAWN or PIECE;
// crazykrieg names the man, a promoted one as PAWN), and a drop's
// dropped_piece_announcement (a man's name).
const (
	CapturedPawn   = "PAWN"
	CapturedPiece  = "PIECE"
	CapturedKnight = "KNIGHT"
	CapturedBishop = "BISHOP"
	CapturedRook   = "ROOK"
	CapturedQueen  = "QUEEN"
)

// menNames are the men's names in the scoresheet's texts ("Knight
// captured at E5", "Knight dropped"), by their announcement.
var menNames = map[string]string{CapturedPawn: "Pawn", CapturedPiece: "Piece", CapturedKnight: "Knight",
	CapturedBishop: "Bishop", CapturedRook: "Rook", CapturedQueen: "Queen"}

// Check is a check's direction.
type Check uint8

// Checks.
const (
	NoCheck Check = iota
	CheckRank
	CheckFile
	CheckLongDiagonal
	CheckShortDiagonal
	CheckKnight
)

// Code is the check's name in a move reply ("CHECK_RANK"); "" for NoCheck.
func (c Check) Code() string {
	switch c {
	case CheckRank:
		return "CHECK_RANK"
	case CheckFile:
		return "CHECK_FILE"
	case CheckLongDiagonal:
		return "CHECK_LONG_DIAGONAL"
	case CheckShortDiagonal:
		return "CHECK_SHORT_DIAGONAL"
	case CheckKnight:
		return "CHECK_KNIGHT"
	}
	return ""
}

// Text is the check's human text ("Check on rank"); "" for NoCheck.
func (c Check) Text() string {
	switch c {
	case CheckRank:
		return "Check on rank"
	case CheckFile:
		return "Check on file"
	case CheckLongDiagonal:
		return "Check on long diagonal"
	case CheckShortDiagonal:
		return "Check on short diagonal"
	case CheckKnight:
		return "Check by knight"
	}
	return ""
}

// ParseCheckCode reads a check's name: "CHECK_RANK", "RANK",
// "check_long_diagonal", or a human text ("Check on file").
func ParseCheckCode(s string) (Check, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	u = strings.TrimPrefix(u, "CHECK_")
	u = strings.NewReplacer("-", "_", " ", "_").Replace(u)
	switch u {
	case "RANK":
		return CheckRank, true
	case "FILE":
		return CheckFile, true
	case "LONG_DIAGONAL", "LONGDIAGONAL":
		return CheckLongDiagonal, true
	case "SHORT_DIAGONAL", "SHORTDIAGONAL":
		return CheckShortDiagonal, true
	case "KNIGHT":
		return CheckKnight, true
	}
	return checkText(strings.ToLower(strings.TrimSpace(s)))
}

// checkText reads a lower-case check text: the site's "check on rank",
// ICC's "rank check".
func checkText(t string) (Check, bool) {
	switch t {
	case "check on rank", "rank check":
		return CheckRank, true
	case "check on file", "file check":
		return CheckFile, true
	case "check on long diagonal", "long diagonal check":
		return CheckLongDiagonal, true
	case "check on short diagonal", "short diagonal check":
		return CheckShortDiagonal, true
	case "check by knight", "knight check":
		return CheckKnight, true
	}
	return NoCheck, false
}

// Ending is how a move ended the game.
type Ending uint8

// Endings. Repetition is this project's server's, not the site's.
const (
	NotOver Ending = iota
	Checkmate
	Stalemate
	Insufficient
	TooManyReversible
	Repetition
)

// Winners as the site names them.
const (
	White = "white"
	Black = "black"
)

// Special is a special_announcement: a check, a double check (whose
// kinds are in "checks"), or an ending and its winner ("" for a draw).
type Special struct {
	Check  Check
	Double bool
	Ending Ending
	Winner string
}

// Code is the special_announcement; "" for nothing special.
func (s Special) Code() string {
	switch s.Ending {
	case Checkmate, Stalemate:
		if s.Winner == White || s.Winner == Black {
			name := map[Ending]string{Checkmate: "CHECKMATE_", Stalemate: "STALEMATE_"}[s.Ending]
			return name + strings.ToUpper(s.Winner) + "_WINS"
		}
		if s.Ending == Stalemate {
			return "DRAW_STALEMATE"
		}
		return ""
	case Insufficient:
		return "DRAW_INSUFFICIENT"
	case TooManyReversible:
		return "DRAW_TOOMANYREVERSIBLEMOVES"
	case Repetition:
		return "DRAW_REPETITION"
	}
	if s.Double {
		return "CHECK_DOUBLE"
	}
	return s.Check.Code()
}

// ParseSpecial reads a special_announcement ("" is nothing special).
func ParseSpecial(code string) (Special, bool) {
	switch strings.ToUpper(strings.TrimSpace(code)) {
	case "":
		return Special{}, true
	case "CHECK_DOUBLE":
		return Special{Double: true}, true
	case "CHECKMATE_WHITE_WINS":
		return Special{Ending: Checkmate, Winner: White}, true
	case "CHECKMATE_BLACK_WINS":
		return Special{Ending: Checkmate, Winner: Black}, true
	case "STALEMATE_WHITE_WINS":
		return Special{Ending: Stalemate, Winner: White}, true
	case "STALEMATE_BLACK_WINS":
		return Special{Ending: Stalemate, Winner: Black}, true
	case "DRAW_STALEMATE":
		return Special{Ending: Stalemate}, true
	case "DRAW_INSUFFICIENT":
		return Special{Ending: Insufficient}, true
	case "DRAW_TOOMANYREVERSIBLEMOVES":
		return Special{Ending: TooManyReversible}, true
	case "DRAW_REPETITION":
		return Special{Ending: Repetition}, true
	}
	if c, ok := ParseCheckCode(code); ok {
		return Special{Check: c}, true
	}
	return Special{}, false
}

// TextKind is what a scoresheet text says.
type TextKind uint8

// Text kinds.
const (
	// TextEmpty says nothing.
	TextEmpty TextKind = iota
	TextIllegal
	TextMoveComplete
	TextPromotion
	// TextCapture: Square, and Piece (CapturedPawn, CapturedPiece, or ""
	// for the untyped "Capture done at").
	TextCapture
	// TextEnPassant: Square is where the capturing pawn lands.
	TextEnPassant
	TextCheck
	TextDoubleCheck
	// TextTries: Tries, the pawn tries the side to move has (wild16).
	TextTries
	// TextHasPawnCapture: the side to move has a pawn capture (cincinnati).
	TextHasPawnCapture
	// TextTriesFrom: the squares pawn tries start from (rand), in From.
	TextTriesFrom
	// TextEnd: "Checkmate — White wins", "Stalemate": Ending and Winner.
	TextEnd
	// TextDraw: "Draw by stalemate": Ending, no winner.
	TextDraw
	// TextHasAny: the answer to "Any?" that there are pawn captures
	// ("Has pawn captures"; ParseText reads it as TextHasPawnCapture).
	TextHasAny
	// TextDropped: a man was dropped (crazykrieg), its name in Piece
	// (CapturedKnight, ...): "Knight dropped".
	TextDropped
)

// Text is one scoresheet text, read.
type Text struct {
	Kind   TextKind
	Square string // lower case
	Piece  string
	Check  Check
	Tries  int
	From   []string // as written, upper case
	Ending Ending
	Winner string
}

// MaxTries bounds a pawn-try count.
const MaxTries = 64

// String is the text as the site writes it.
func (t Text) String() string {
	switch t.Kind {
	case TextIllegal:
		return "Illegal move"
	case TextMoveComplete:
		return "Move complete"
	case TextPromotion:
		return "Promotion"
	case TextCapture:
		sq := strings.ToUpper(t.Square)
		if name, ok := menNames[t.Piece]; ok {
			return name + " captured at " + sq
		}
		return "Capture done at " + sq
	case TextDropped:
		return menNames[t.Piece] + " dropped"
	case TextEnPassant:
		return "En passant capture at " + strings.ToUpper(t.Square)
	case TextCheck:
		return t.Check.Text()
	case TextDoubleCheck:
		return "Double check"
	case TextTries:
		switch t.Tries {
		case 0:
			return "No pawn captures"
		case 1:
			return "1 pawn try"
		}
		return strconv.Itoa(t.Tries) + " pawn tries"
	case TextHasPawnCapture:
		return "Has pawn capture"
	case TextHasAny:
		return "Has pawn captures"
	case TextTriesFrom:
		if len(t.From) == 1 {
			return "Pawn try from " + t.From[0]
		}
		return "Pawn tries from " + strings.Join(t.From, ", ")
	case TextEnd:
		name := map[Ending]string{Checkmate: "Checkmate", Stalemate: "Stalemate"}[t.Ending]
		switch t.Winner {
		case White:
			return name + " — White wins"
		case Black:
			return name + " — Black wins"
		}
		return name
	case TextDraw:
		return map[Ending]string{Stalemate: "Draw by stalemate", Insufficient: "Draw by insufficient material",
			TooManyReversible: "Draw by too many reversible moves", Repetition: "Draw by repetition"}[t.Ending]
	}
	return ""
}

// ParseText reads one scoresheet text ("Pawn captured at E5", "Check on
// rank", "2 pawn tries", "Checkmate — White wins"): case, surrounding
// space, a final "." or "!", hyphens and repeated spaces do not matter.
func ParseText(raw string) (Text, bool) {
	t := strings.ToLower(strings.TrimSpace(raw))
	t = strings.TrimRight(t, ".!")
	t = strings.ReplaceAll(t, "-", " ")
	t = strings.Join(strings.Fields(t), " ")
	switch t {
	case "":
		return Text{}, true
	case "illegal move":
		return Text{Kind: TextIllegal}, true
	case "move complete", "move done", "regular move":
		return Text{Kind: TextMoveComplete}, true
	case "promotion":
		return Text{Kind: TextPromotion}, true
	case "no pawn captures", "no pawn capture", "0 pawn tries", "no pawn tries":
		return Text{Kind: TextTries}, true
	case "has pawn captures", "has pawn capture":
		return Text{Kind: TextHasPawnCapture}, true
	case "double check":
		return Text{Kind: TextDoubleCheck}, true
	case "1 pawn try":
		return Text{Kind: TextTries, Tries: 1}, true
	}
	if c, ok := checkText(t); ok {
		return Text{Kind: TextCheck, Check: c}, true
	}
	if n, ok := strings.CutSuffix(t, " pawn tries"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= MaxTries {
			return Text{Kind: TextTries, Tries: v}, true
		}
		return Text{}, false
	}
	if rest, ok := strings.CutPrefix(t, "pawn try from "); ok {
		t = "pawn tries from " + rest
	}
	if rest, ok := strings.CutPrefix(t, "pawn tries from "); ok {
		from := strings.Split(strings.ToUpper(rest), ",")
		for i := range from {
			from[i] = strings.TrimSpace(from[i])
		}
		return Text{Kind: TextTriesFrom, From: from}, true
	}
	for _, c := range []struct {
		prefix string
		kind   TextKind
		piece  string
	}{
		{"pawn captured at ", TextCapture, CapturedPawn},
		{"piece captured at ", TextCapture, CapturedPiece},
		{"knight captured at ", TextCapture, CapturedKnight},
		{"bishop captured at ", TextCapture, CapturedBishop},
		{"rook captured at ", TextCapture, CapturedRook},
		{"queen captured at ", TextCapture, CapturedQueen},
		{"capture done at ", TextCapture, ""},
		{"en passant capture at ", TextEnPassant, ""},
	} {
		if rest, ok := strings.CutPrefix(t, c.prefix); ok {
			if !validSquare(rest) {
				return Text{}, false
			}
			return Text{Kind: c.kind, Square: rest, Piece: c.piece}, true
		}
	}
	// ICC's "Pawn at e5 captured".
	for _, c := range []struct{ prefix, piece string }{{"pawn at ", CapturedPawn}, {"piece at ", CapturedPiece}} {
		if rest, ok := strings.CutPrefix(t, c.prefix); ok {
			if sq, ok := strings.CutSuffix(rest, " captured"); ok && validSquare(sq) {
				return Text{Kind: TextCapture, Square: sq, Piece: c.piece}, true
			}
		}
	}
	if man, ok := strings.CutSuffix(t, " dropped"); ok {
		for code, name := range menNames {
			if code != CapturedPiece && strings.ToLower(name) == man {
				return Text{Kind: TextDropped, Piece: code}, true
			}
		}
		return Text{}, false
	}
	if rest, ok := strings.CutPrefix(t, "checkmate"); ok {
		return Text{Kind: TextEnd, Ending: Checkmate, Winner: winnerIn(rest)}, true
	}
	if rest, ok := strings.CutPrefix(t, "stalemate"); ok {
		return Text{Kind: TextEnd, Ending: Stalemate, Winner: winnerIn(rest)}, true
	}
	switch t {
	case "draw by stalemate":
		return Text{Kind: TextDraw, Ending: Stalemate}, true
	case "draw by insufficient material":
		return Text{Kind: TextDraw, Ending: Insufficient}, true
	case "draw by too many reversible moves":
		return Text{Kind: TextDraw, Ending: TooManyReversible}, true
	case "draw by repetition":
		return Text{Kind: TextDraw, Ending: Repetition}, true
	}
	return Text{}, false
}

func winnerIn(s string) string {
	switch {
	case strings.Contains(s, "white wins"):
		return White
	case strings.Contains(s, "black wins"):
		return Black
	}
	return ""
}

// validSquare reports a lower-case square name, "a1" to "h8".
func validSquare(s string) bool {
	return len(s) == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
}
