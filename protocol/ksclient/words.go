package ksclient

import (
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// Referee words: the scoresheet's human texts (docs/kriegspiel-org-api.md §4) and the move
// reply's codes (§5), read into the parts of an umpire.View.

// Heard is what one scoresheet entry or move reply says.
type Heard struct {
	Illegal bool
	Capture umpire.Capture
	// captureTyped: the text said pawn or piece (not just "Capture done").
	captureTyped bool
	Checks       [2]chess.CheckKind
	// Double is a "Double check" whose kinds were not given.
	Double bool
	// Tries is the pawn-try count announced, -1 for none.
	Tries  int
	Ending umpire.Ending
	// Winner is the winner an ending names ("white", "black", "" for a draw).
	Winner string
	// Unknown are the texts not understood (tolerated; the caller logs them).
	Unknown []string
}

func (h *Heard) addCheck(k chess.CheckKind) {
	switch {
	case h.Checks[0] == chess.NoCheck:
		h.Checks[0] = k
	case h.Checks[1] == chess.NoCheck && h.Checks[0] != k:
		h.Checks[1] = k
	}
}

// ParseTexts reads the scoresheet's texts ("Pawn captured at E5", "Check
// on rank", "2 pawn tries", ...) with ksapi.ParseText.
func ParseTexts(texts []string) Heard {
	h := Heard{Tries: -1}
	for _, raw := range texts {
		if len(raw) > 200 {
			h.Unknown = append(h.Unknown, raw[:200])
			continue
		}
		if t, ok := ksapi.ParseText(raw); !ok || !h.text(t) {
			h.Unknown = append(h.Unknown, raw)
		}
	}
	h.noteDouble()
	return h
}

// noteDouble notes a double check whose two kinds were not said.
func (h *Heard) noteDouble() {
	if h.Double && h.Checks[1] == chess.NoCheck {
		h.Unknown = append(h.Unknown, "double check without its two kinds")
	}
}

// text applies one text; false if it says what we cannot use.
func (h *Heard) text(t ksapi.Text) bool {
	switch t.Kind {
	case ksapi.TextEmpty, ksapi.TextMoveComplete, ksapi.TextPromotion, ksapi.TextHasPawnCapture: // cincinnati's has no count
	case ksapi.TextIllegal:
		h.Illegal = true
	case ksapi.TextTries:
		h.Tries = t.Tries
	case ksapi.TextTriesFrom:
		h.Tries = len(t.From)
	case ksapi.TextDoubleCheck:
		h.Double = true
	case ksapi.TextCheck:
		h.addCheck(t.Check.Kind())
	case ksapi.TextCapture, ksapi.TextEnPassant:
		sq, ok := chess.ParseSquare(t.Square)
		if !ok {
			return false
		}
		kind := umpire.PieceCaptured
		if t.Piece == ksapi.CapturedPawn || t.Kind == ksapi.TextEnPassant {
			kind = umpire.PawnCaptured
		}
		if t.Kind == ksapi.TextEnPassant { // the site names the target square; we name the pawn's
			switch sq.Rank() {
			case 5:
				sq = chess.NewSquare(sq.File(), 4)
			case 2:
				sq = chess.NewSquare(sq.File(), 3)
			}
		}
		h.setCapture(sq, kind, t.Piece != "" || t.Kind == ksapi.TextEnPassant)
	case ksapi.TextEnd:
		e, ok := ending(t.Ending)
		if !ok {
			return false
		}
		h.Ending, h.Winner = e, t.Winner
	case ksapi.TextDraw:
		e, ok := ending(t.Ending)
		if !ok {
			return false
		}
		h.Ending = e
	default:
		return false
	}
	return true
}

// ending is the umpire's ending of the site's; a repetition, which only
// our own server announces, is not one we read.
func ending(e ksapi.Ending) (umpire.Ending, bool) {
	switch e {
	case ksapi.Checkmate:
		return umpire.Checkmate, true
	case ksapi.Stalemate:
		return umpire.Stalemate, true
	case ksapi.Insufficient:
		return umpire.InsufficientMaterial, true
	case ksapi.TooManyReversible:
		return umpire.TooManyReversible, true
	}
	return umpire.NotOver, false
}

func (h *Heard) setCapture(sq chess.Square, k umpire.CaptureKind, typed bool) {
	if h.captureTyped && !typed && h.Capture.Square == sq {
		return // "Capture done at E5" beside "Pawn captured at E5"
	}
	h.Capture = umpire.Capture{Square: sq, Kind: k}
	h.captureTyped = typed
}

// special applies a special_announcement; false for a word we do not know.
func (h *Heard) special(code string) bool {
	sp, ok := ksapi.ParseSpecial(code)
	if !ok {
		return false
	}
	switch {
	case sp.Double:
		h.Double = true
	case sp.Ending != ksapi.NotOver:
		e, ok := ending(sp.Ending)
		if !ok {
			return false
		}
		h.Ending, h.Winner = e, sp.Winner
	case sp.Check != ksapi.NoCheck:
		h.addCheck(sp.Check.Kind())
	}
	return true
}

// ReadMoveResult reads our move reply into what we heard. refused says the
// attempt was not played (move_done false).
func ReadMoveResult(r MoveResult) (h Heard, refused bool) {
	h = Heard{Tries: -1}
	switch a, _ := ksapi.ParseAnnouncement(r.Announcement); a {
	case ksapi.RegularMove, ksapi.CaptureDone:
	case ksapi.IllegalMove, ksapi.ImpossibleToAsk, ksapi.Nonsense, ksapi.InvalidUCI:
	default:
		h.Unknown = append(h.Unknown, "announcement "+r.Announcement)
	}
	if !r.MoveDone {
		h.Illegal = true
		return h, true
	}
	if r.CaptureSquare != nil && *r.CaptureSquare != "" {
		sq, ok := chess.ParseSquare(strings.ToLower(*r.CaptureSquare))
		if ok {
			kind := umpire.PieceCaptured
			if r.CapturedPiece != nil && strings.EqualFold(*r.CapturedPiece, ksapi.CapturedPawn) {
				kind = umpire.PawnCaptured
			} else if r.CapturedPiece == nil || *r.CapturedPiece == "" {
				h.Unknown = append(h.Unknown, "capture without its kind (PAWN or PIECE): taken as a piece")
			}
			h.setCapture(sq, kind, true)
		}
	}
	for _, c := range r.Checks {
		if k, ok := ksapi.ParseCheckCode(c); ok {
			h.addCheck(k.Kind())
		} else {
			h.Unknown = append(h.Unknown, "check "+c)
		}
	}
	if r.SpecialAnnouncement != nil && !h.special(*r.SpecialAnnouncement) {
		h.Unknown = append(h.Unknown, "special_announcement "+*r.SpecialAnnouncement)
	}
	if r.NextTurnPawnTries != nil {
		h.Tries = *r.NextTurnPawnTries
	}
	h.noteDouble()
	return h, false
}
