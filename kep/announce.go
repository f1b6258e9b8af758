package kep

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Announcement is what the referee announces after a legal move, as KEP's
// legal and opponent lines carry it. Which fields a game may carry is its
// variant's (fits).
type Announcement struct {
	Capture umpire.Capture
	// EnPassant says the capture was en passant, Capture.Square being the
	// capturing pawn's destination (english).
	EnPassant bool
	// Promotion says a pawn promoted (rand).
	Promotion bool
	// Drop is the type of the man the move dropped (crazykrieg), else
	// chess.NoPieceType.
	Drop chess.PieceType
	// Checks holds the check kinds in the order given, NoCheck-padded.
	Checks [2]chess.CheckKind
	// Tries is the pawn-try count announced to the side now to move
	// (wild 16).
	Tries int
	// PawnCapture says the side now to move has a pawn capture
	// (cincinnati).
	PawnCapture bool
	// TrySquares are the squares of the pawns of the side now to move
	// that have a capture (rand).
	TrySquares chess.Bitboard
}

// The keywords of an announcement.
var announcementWords = []string{"capture", "check", "tries", "enpassant", "promotion", "drop", "pawncapture", "trysquares"}

// captureWords maps the words after a capture's square to the umpire's
// kinds: typed (pawn, piece), untyped (man) and exact (pawn ... queen).
var captureWords = map[string]umpire.CaptureKind{
	"pawn": umpire.PawnCaptured, "piece": umpire.PieceCaptured, "man": umpire.ManCaptured,
	"knight": umpire.KnightCaptured, "bishop": umpire.BishopCaptured, "rook": umpire.RookCaptured, "queen": umpire.QueenCaptured,
}

// dropWords maps a drop's word to the dropped man's type.
var dropWords = map[string]chess.PieceType{
	"pawn": chess.Pawn, "knight": chess.Knight, "bishop": chess.Bishop, "rook": chess.Rook, "queen": chess.Queen,
}

// parseAnnouncement reads "[capture <sq> <kind>] [enpassant] [promotion]
// [drop <type>] [check <kinds>] [tries <n>] [pawncapture] [trysquares
// <sq>,...]" in any order.
func parseAnnouncement(c *Line, words []string) error {
	a := &c.Heard
	var seen uint16 // one bit per keyword of announcementWords
	for i := 0; i < len(words); i++ {
		w := words[i]
		k := slices.Index(announcementWords, w)
		if k < 0 {
			c.Extra = append(c.Extra, w)
			continue
		}
		if seen&(1<<k) != 0 {
			return fmt.Errorf("%w: %s given twice", errWords, w)
		}
		seen |= 1 << k
		switch w {
		case "capture":
			if i+2 >= len(words) {
				return fmt.Errorf("%w: capture needs a square and pawn, piece, man, knight, bishop, rook or queen", errWords)
			}
			sq, ok := parseSquare(words[i+1])
			if !ok {
				return fmt.Errorf("%w: capture square %q is not a square", errWords, clip(words[i+1]))
			}
			a.Capture.Square = sq
			kind, ok := captureWords[words[i+2]]
			if !ok {
				return fmt.Errorf("%w: capture kind %q is not pawn, piece, man, knight, bishop, rook or queen", errWords, clip(words[i+2]))
			}
			a.Capture.Kind = kind
			i += 2
		case "enpassant":
			a.EnPassant = true
		case "promotion":
			a.Promotion = true
		case "pawncapture":
			a.PawnCapture = true
		case "drop":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: drop needs pawn, knight, bishop, rook or queen", errWords)
			}
			i++
			pt, ok := dropWords[words[i]]
			if !ok {
				return fmt.Errorf("%w: drop %q is not pawn, knight, bishop, rook or queen", errWords, clip(words[i]))
			}
			a.Drop = pt
		case "trysquares":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: trysquares needs squares", errWords)
			}
			i++
			for _, s := range strings.Split(words[i], ",") {
				sq, ok := parseSquare(s)
				if !ok {
					return fmt.Errorf("%w: trysquares %q is not a square", errWords, clip(s))
				}
				a.TrySquares |= sq.Bit()
			}
		case "check":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: check needs its kinds", errWords)
			}
			i++
			kinds := strings.Split(words[i], ",")
			if len(kinds) > 2 {
				return fmt.Errorf("%w: check %q names more than two kinds", errWords, clip(words[i]))
			}
			for j, k := range kinds {
				ck, ok := checkKinds[k]
				if !ok {
					return fmt.Errorf("%w: check kind %q is not rank, file, long, short or knight", errWords, clip(k))
				}
				a.Checks[j] = ck
			}
		case "tries":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: tries needs a number", errWords)
			}
			i++
			n, err := strconv.Atoi(words[i])
			if err != nil || n < 0 || n > maxTries {
				return fmt.Errorf("%w: tries %q is not a number from 0 to %d", errWords, clip(words[i]), maxTries)
			}
			a.Tries = n
		}
	}
	if a.EnPassant && a.Capture.Kind == umpire.NoCapture {
		return fmt.Errorf("%w: enpassant without a capture", errWords)
	}
	return nil
}

// fits reports the first word of a that variant v does not announce: a
// driver that sends it is mistaken about the game, and the line is not
// passed on.
func (a Announcement) fits(v umpire.Variant) error {
	if k := a.Capture.Kind; k != umpire.NoCapture {
		ok := false
		switch v.Captures {
		case umpire.CaptureTyped:
			ok = k == umpire.PawnCaptured || k == umpire.PieceCaptured
		case umpire.CaptureUntyped:
			ok = k == umpire.ManCaptured
		case umpire.CaptureExact:
			ok = k == umpire.PawnCaptured || k >= umpire.KnightCaptured
		}
		if !ok {
			return fmt.Errorf("capture %s: not a word of %s", k, variantName(v))
		}
	}
	switch {
	case a.EnPassant && !v.AnnounceEnPassant:
		return fmt.Errorf("enpassant: not a word of %s", variantName(v))
	case a.Promotion && !v.AnnouncePromotion:
		return fmt.Errorf("promotion: not a word of %s", variantName(v))
	case a.Drop != chess.NoPieceType && !v.Drops:
		return fmt.Errorf("drop: not a word of %s", variantName(v))
	case a.Drop != chess.NoPieceType && a.Capture.Kind != umpire.NoCapture:
		return fmt.Errorf("a drop that captures")
	case a.Tries > 0 && v.PawnNews != umpire.PawnCount:
		return fmt.Errorf("tries: not a word of %s", variantName(v))
	case a.PawnCapture && v.PawnNews != umpire.PawnHas:
		return fmt.Errorf("pawncapture: not a word of %s", variantName(v))
	case a.TrySquares != 0 && v.PawnNews != umpire.PawnSquares:
		return fmt.Errorf("trysquares: not a word of %s", variantName(v))
	}
	return nil
}

// variantName names a variant in the log ("wild16" for the unnamed one).
func variantName(v umpire.Variant) string {
	if v.Name == "" {
		return "wild16"
	}
	return v.Name
}

// AnnouncementOf returns what a referee's answer, as one side hears it,
// announced after a legal move. A game-ending answer announces no tries
// (View.PawnTries is -1): the count is zero.
func AnnouncementOf(v umpire.View) Announcement {
	return Announcement{Capture: v.Capture, EnPassant: v.EnPassant, Promotion: v.Promotion, Drop: v.Drop,
		Checks: v.Checks, Tries: max(v.PawnTries, 0), PawnCapture: v.HasPawnCapture, TrySquares: v.TrySquares}
}

// View returns the view a player hears for the announcement in variant
// vr: of its own accepted move m when own, else of the opponent's hidden
// move. The pawn news is the variant's: a count in wild 16, else the
// variant's kind of news with no count (PawnTries -1), as the umpire
// gives it.
func (a Announcement) View(vr umpire.Variant, own bool, m chess.Move) umpire.View {
	v := umpire.View{Heard: true, Own: own, Capture: a.Capture, EnPassant: a.EnPassant, Promotion: a.Promotion, Drop: a.Drop,
		Checks: a.Checks, PawnTries: a.Tries, PawnNews: vr.PawnNews, HasPawnCapture: a.PawnCapture, TrySquares: a.TrySquares}
	if vr.PawnNews != umpire.PawnCount {
		v.PawnTries = -1
	}
	if own {
		v.Move = m
	} else {
		v.Move = chess.NullMove
	}
	return v
}

// String returns the announcement's words as a legal or opponent line
// carries them: "capture e4 pawn check file,knight tries 1", or "" when the
// referee announced nothing.
func (a Announcement) String() string {
	var sb strings.Builder
	word := func(w string) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
	}
	if a.Capture.Kind != umpire.NoCapture {
		word("capture " + a.Capture.Square.String() + " " + a.Capture.Kind.String())
	}
	if a.EnPassant {
		word("enpassant")
	}
	if a.Promotion {
		word("promotion")
	}
	if a.Drop != chess.NoPieceType {
		word("drop " + a.Drop.String())
	}
	if a.Checks[0] != chess.NoCheck {
		w := "check " + checkWord(a.Checks[0])
		if a.Checks[1] != chess.NoCheck {
			w += "," + checkWord(a.Checks[1])
		}
		word(w)
	}
	if a.Tries > 0 {
		word("tries " + strconv.Itoa(a.Tries))
	}
	if a.PawnCapture {
		word("pawncapture")
	}
	if a.TrySquares != 0 {
		var sqs []string
		for b := a.TrySquares; b != 0; {
			sqs = append(sqs, b.PopFirst().String())
		}
		word("trysquares " + strings.Join(sqs, ","))
	}
	return sb.String()
}

// DriverLine is the line a driver sends to side c for the umpire's answer
// a, or "" when c hears nothing of it: to the mover legal (with the
// announcements), illegal [impossible|nonsense], or any yes|no for "Any?"
// (a.Attempt chess.NullMove); to the other side opponent (with the
// announcements), opponent illegal, or opponent any yes|no. On the move
// that ends the game the announcements are sent too (a driver may then skip
// the other side's line and send gameover).
func DriverLine(a *umpire.Answer, c chess.Color) string {
	v := a.For(c)
	if !v.Heard {
		return ""
	}
	word := "legal"
	if !v.Own {
		word = "opponent"
	}
	switch {
	case a.Legal:
		if s := AnnouncementOf(v).String(); s != "" {
			return word + " " + s
		}
		return word
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		answer := "any yes"
		if v.Verdict == umpire.NoAny {
			answer = "any no"
		}
		if v.Own {
			return answer
		}
		return "opponent " + answer
	case !v.Own:
		return "opponent illegal"
	case v.Verdict == umpire.IllegalMove:
		return "illegal"
	}
	return "illegal " + refusalWord(v.Verdict)
}
