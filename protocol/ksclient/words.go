package ksclient

import (
	"strconv"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Referee words: the scoresheet's human texts (API.md §4) and the move
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
// on rank", "2 pawn tries", ...), case-insensitively, with ICC's spellings
// too ("Pawn at e5 captured", "Rank check").
func ParseTexts(texts []string) Heard {
	h := Heard{Tries: -1}
	for _, raw := range texts {
		if len(raw) > 200 {
			h.Unknown = append(h.Unknown, raw[:200])
			continue
		}
		t := strings.ToLower(strings.TrimSpace(raw))
		t = strings.TrimRight(t, ".!")
		t = strings.ReplaceAll(t, "-", " ")
		t = strings.Join(strings.Fields(t), " ")
		if !h.text(t) {
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

// text applies one normalised text; false if not understood.
func (h *Heard) text(t string) bool {
	switch t {
	case "":
		return true
	case "illegal move":
		h.Illegal = true
		return true
	case "move complete", "promotion", "move done", "regular move":
		return true
	case "no pawn captures", "no pawn capture", "0 pawn tries", "no pawn tries":
		h.Tries = 0
		return true
	case "has pawn captures", "has pawn capture":
		return true // cincinnati; no count
	case "double check":
		h.Double = true
		return true
	case "1 pawn try":
		h.Tries = 1
		return true
	}
	if k, ok := checkText(t); ok {
		h.addCheck(k)
		return true
	}
	if n, ok := strings.CutSuffix(t, " pawn tries"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= 64 {
			h.Tries = v
			return true
		}
		return false
	}
	if rest, ok := strings.CutPrefix(t, "pawn tries from "); ok {
		h.Tries = len(strings.Split(rest, ","))
		return true
	}
	for _, c := range []struct {
		prefix string
		kind   umpire.CaptureKind
		typed  bool
		ep     bool
	}{
		{"pawn captured at ", umpire.PawnCaptured, true, false},
		{"piece captured at ", umpire.PieceCaptured, true, false},
		{"capture done at ", umpire.PieceCaptured, false, false},
		{"en passant capture at ", umpire.PawnCaptured, true, true},
	} {
		if rest, ok := strings.CutPrefix(t, c.prefix); ok {
			sq, ok := chess.ParseSquare(rest)
			if !ok {
				return false
			}
			if c.ep { // the site names the target square; we name the pawn's
				switch sq.Rank() {
				case 5:
					sq = chess.NewSquare(sq.File(), 4)
				case 2:
					sq = chess.NewSquare(sq.File(), 3)
				}
			}
			h.setCapture(sq, c.kind, c.typed)
			return true
		}
	}
	// ICC's "Pawn at e5 captured".
	for _, c := range []struct {
		prefix string
		kind   umpire.CaptureKind
	}{{"pawn at ", umpire.PawnCaptured}, {"piece at ", umpire.PieceCaptured}} {
		if rest, ok := strings.CutPrefix(t, c.prefix); ok {
			if s, ok := strings.CutSuffix(rest, " captured"); ok {
				if sq, ok := chess.ParseSquare(s); ok {
					h.setCapture(sq, c.kind, true)
					return true
				}
			}
		}
	}
	if rest, ok := strings.CutPrefix(t, "checkmate"); ok {
		h.Ending = umpire.Checkmate
		h.Winner = winnerIn(rest)
		return true
	}
	if rest, ok := strings.CutPrefix(t, "stalemate"); ok {
		h.Ending = umpire.Stalemate
		h.Winner = winnerIn(rest)
		return true
	}
	switch t {
	case "draw by stalemate":
		h.Ending = umpire.Stalemate
		return true
	case "draw by insufficient material":
		h.Ending = umpire.InsufficientMaterial
		return true
	case "draw by too many reversible moves":
		h.Ending = umpire.TooManyReversible
		return true
	}
	return false
}

func (h *Heard) setCapture(sq chess.Square, k umpire.CaptureKind, typed bool) {
	if h.captureTyped && !typed && h.Capture.Square == sq {
		return // "Capture done at E5" beside "Pawn captured at E5"
	}
	h.Capture = umpire.Capture{Square: sq, Kind: k}
	h.captureTyped = typed
}

func winnerIn(s string) string {
	switch {
	case strings.Contains(s, "white wins"):
		return "white"
	case strings.Contains(s, "black wins"):
		return "black"
	}
	return ""
}

// checkText reads "check on rank", "rank check", "check by knight".
func checkText(t string) (chess.CheckKind, bool) {
	switch t {
	case "check on rank", "rank check":
		return chess.CheckRank, true
	case "check on file", "file check":
		return chess.CheckFile, true
	case "check on long diagonal", "long diagonal check":
		return chess.CheckLongDiagonal, true
	case "check on short diagonal", "short diagonal check":
		return chess.CheckShortDiagonal, true
	case "check by knight", "knight check":
		return chess.CheckKnight, true
	}
	return chess.NoCheck, false
}

// checkCode reads a move reply's check name: "CHECK_RANK", "RANK",
// "check_long_diagonal", "Check on file".
func checkCode(s string) (chess.CheckKind, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	u = strings.TrimPrefix(u, "CHECK_")
	u = strings.NewReplacer("-", "_", " ", "_").Replace(u)
	switch u {
	case "RANK":
		return chess.CheckRank, true
	case "FILE":
		return chess.CheckFile, true
	case "LONG_DIAGONAL", "LONGDIAGONAL":
		return chess.CheckLongDiagonal, true
	case "SHORT_DIAGONAL", "SHORTDIAGONAL":
		return chess.CheckShortDiagonal, true
	case "KNIGHT":
		return chess.CheckKnight, true
	}
	return checkText(strings.ToLower(strings.TrimSpace(s)))
}

// specialCode reads a special_announcement: a check, or an ending with its
// winner. known is false for a word we do not know.
func specialCode(s string, h *Heard) (known bool) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "":
		return true
	case "CHECK_DOUBLE":
		h.Double = true
	case "CHECKMATE_WHITE_WINS":
		h.Ending, h.Winner = umpire.Checkmate, "white"
	case "CHECKMATE_BLACK_WINS":
		h.Ending, h.Winner = umpire.Checkmate, "black"
	case "STALEMATE_WHITE_WINS":
		h.Ending, h.Winner = umpire.Stalemate, "white"
	case "STALEMATE_BLACK_WINS":
		h.Ending, h.Winner = umpire.Stalemate, "black"
	case "DRAW_STALEMATE":
		h.Ending = umpire.Stalemate
	case "DRAW_INSUFFICIENT":
		h.Ending = umpire.InsufficientMaterial
	case "DRAW_TOOMANYREVERSIBLEMOVES":
		h.Ending = umpire.TooManyReversible
	default:
		k, ok := checkCode(s)
		if !ok {
			return false
		}
		h.addCheck(k)
	}
	return true
}

// ReadMoveResult reads our move reply into what we heard. refused says the
// attempt was not played (move_done false).
func ReadMoveResult(r MoveResult) (h Heard, refused bool) {
	h = Heard{Tries: -1}
	switch strings.ToUpper(r.Announcement) {
	case "REGULAR_MOVE", "CAPTURE_DONE":
	case "ILLEGAL_MOVE", "IMPOSSIBLE_TO_ASK", "NONSENSE", "INVALID_UCI":
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
			if r.CapturedPiece != nil && strings.EqualFold(*r.CapturedPiece, "PAWN") {
				kind = umpire.PawnCaptured
			} else if r.CapturedPiece == nil || *r.CapturedPiece == "" {
				h.Unknown = append(h.Unknown, "capture without its kind (PAWN or PIECE): taken as a piece")
			}
			h.setCapture(sq, kind, true)
		}
	}
	for _, c := range r.Checks {
		if k, ok := checkCode(c); ok {
			h.addCheck(k)
		} else {
			h.Unknown = append(h.Unknown, "check "+c)
		}
	}
	if r.SpecialAnnouncement != nil && !specialCode(*r.SpecialAnnouncement, &h) {
		h.Unknown = append(h.Unknown, "special_announcement "+*r.SpecialAnnouncement)
	}
	if r.NextTurnPawnTries != nil {
		h.Tries = *r.NextTurnPawnTries
	}
	h.noteDouble()
	return h, false
}
