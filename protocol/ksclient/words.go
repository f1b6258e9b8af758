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

	// The other variants' words (umpire.Variant), read beside wild 16's;
	// View gives them their meaning in a variant.

	// Verdict is a refusal's word (ILLEGAL_MOVE, IMPOSSIBLE_TO_ASK,
	// NONSENSE) or the answer to "Any?" (HAS_ANY, NO_ANY).
	Verdict umpire.Verdict
	// Piece is what a capture said of the man: "" (the square only),
	// ksapi.CapturedPawn, CapturedPiece, CapturedKnight, ...
	Piece string
	// EnPassant: an en passant capture was announced, on the capturing
	// pawn's destination, EnPassantTo.
	EnPassant   bool
	EnPassantTo chess.Square
	// Promotion: a pawn promoted (rand); Drop: the man dropped (crazykrieg).
	Promotion bool
	Drop      chess.PieceType
	// HasPawn: "has a pawn capture" (cincinnati); TrySquares: the squares
	// the next mover's pawn tries start from (rand).
	HasPawn    bool
	TrySquares chess.Bitboard
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
	case ksapi.TextEmpty, ksapi.TextMoveComplete:
	case ksapi.TextPromotion:
		h.Promotion = true
	case ksapi.TextHasPawnCapture: // cincinnati's has no count
		h.HasPawn = true
	case ksapi.TextDropped:
		pt, ok := manOf(t.Piece)
		if !ok || pt == chess.King {
			return false
		}
		h.Drop = pt
	case ksapi.TextIllegal:
		h.Illegal = true
	case ksapi.TextTries:
		h.Tries = t.Tries
	case ksapi.TextTriesFrom:
		h.Tries = len(t.From)
		for _, f := range t.From {
			sq, ok := chess.ParseSquare(strings.ToLower(f))
			if !ok {
				return false
			}
			h.TrySquares |= sq.Bit()
		}
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
		if t.Piece != "" || h.Piece == "" {
			h.Piece = t.Piece
		}
		if t.Kind == ksapi.TextEnPassant { // the site names the target square; we name the pawn's
			h.EnPassant, h.EnPassantTo = true, sq
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

// ParseAttempt reads an attempt as the site spells it (move_uci,
// allowed_moves, a transcript's uci): UCI in any case ("e7e8q"), or a
// drop ("N@e4", crazykrieg), as umpire.ParseMoveText reads it.
func ParseAttempt(s string) (chess.Move, error) {
	if len(s) == 4 && s[1] == '@' {
		return umpire.ParseMoveText(strings.ToUpper(s[:1]) + strings.ToLower(s[1:]))
	}
	return chess.ParseUCI(strings.ToLower(s))
}

// AttemptText is an attempt as the site takes it: UCI, or "N@e4" for a
// drop.
func AttemptText(m chess.Move) string { return umpire.MoveText(m) }

// manOf is the man a capture or drop names (CapturedPawn ... CapturedQueen).
func manOf(piece string) (chess.PieceType, bool) {
	switch strings.ToUpper(piece) {
	case ksapi.CapturedPawn:
		return chess.Pawn, true
	case ksapi.CapturedKnight:
		return chess.Knight, true
	case ksapi.CapturedBishop:
		return chess.Bishop, true
	case ksapi.CapturedRook:
		return chess.Rook, true
	case ksapi.CapturedQueen:
		return chess.Queen, true
	}
	return chess.NoPieceType, false
}

// CaptureIn is the capture as variant v announces it (umpire.Answer's
// Capture and EnPassant): untyped, typed or exact, and in the variant
// that calls en passant so (english) on the capturing pawn's destination.
// Wild 16's is Capture, read as it always was.
func (h Heard) CaptureIn(v umpire.Variant) (c umpire.Capture, enPassant bool) {
	if v.IsWild16() || h.Capture.Kind == umpire.NoCapture {
		return h.Capture, false
	}
	c.Square = h.Capture.Square
	if h.EnPassant && v.AnnounceEnPassant {
		c.Square, enPassant = h.EnPassantTo, true
	}
	pt, exact := manOf(h.Piece)
	switch v.Captures {
	case umpire.CaptureUntyped:
		c.Kind = umpire.ManCaptured
	case umpire.CaptureExact:
		c.Kind = umpire.PawnCaptured
		for k := umpire.PawnCaptured; k <= umpire.QueenCaptured; k++ {
			if kt, ok := k.Exact(); ok && exact && kt == pt {
				c.Kind = k
			}
		}
	default:
		c.Kind = umpire.PieceCaptured
		if h.Piece == ksapi.CapturedPawn || h.EnPassant {
			c.Kind = umpire.PawnCaptured
		}
	}
	return c, enPassant
}

// ReadMoveResult reads our move reply in wild 16 (ReadReply).
func ReadMoveResult(r MoveResult) (h Heard, refused bool) { return ReadReply(r, umpire.Wild16()) }

// verdicts are the refusals' and "Any?"'s words.
var verdicts = map[string]umpire.Verdict{ksapi.IllegalMove: umpire.IllegalMove, ksapi.ImpossibleToAsk: umpire.ImpossibleToAsk,
	ksapi.Nonsense: umpire.NonsenseMove, ksapi.InvalidUCI: umpire.NonsenseMove, ksapi.HasAny: umpire.HasAny, ksapi.NoAny: umpire.NoAny}

// ReadReply reads the reply to our attempt, or to our "Any?", in variant
// v into what we heard. refused says no move was played (move_done
// false): Verdict then holds the refusal's word, or "Any?"'s answer.
func ReadReply(r MoveResult, v umpire.Variant) (h Heard, refused bool) {
	h = Heard{Tries: -1}
	a, _ := ksapi.ParseAnnouncement(r.Announcement)
	switch a {
	case ksapi.RegularMove, ksapi.CaptureDone:
	case ksapi.IllegalMove, ksapi.ImpossibleToAsk, ksapi.Nonsense, ksapi.InvalidUCI:
		h.Verdict = verdicts[a]
	case ksapi.HasAny, ksapi.NoAny:
		if !v.IsWild16() {
			h.Verdict = verdicts[a]
			break
		}
		fallthrough
	default:
		h.Unknown = append(h.Unknown, "announcement "+r.Announcement)
	}
	if r.HasAny != nil && !v.IsWild16() {
		h.Verdict = umpire.NoAny
		if *r.HasAny {
			h.Verdict = umpire.HasAny
		}
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
			} else if (r.CapturedPiece == nil || *r.CapturedPiece == "") && v.Captures != umpire.CaptureUntyped {
				h.Unknown = append(h.Unknown, "capture without its kind (PAWN or PIECE): taken as a piece")
			}
			if r.CapturedPiece != nil {
				h.Piece = strings.ToUpper(*r.CapturedPiece)
			}
			h.setCapture(sq, kind, true)
			if r.EnPassant != nil && *r.EnPassant {
				h.EnPassant, h.EnPassantTo = true, sq
			}
		}
	}
	if r.DroppedPiece != nil {
		if pt, ok := manOf(*r.DroppedPiece); ok {
			h.Drop = pt
		} else {
			h.Unknown = append(h.Unknown, "dropped_piece_announcement "+*r.DroppedPiece)
		}
	}
	h.Promotion = r.Promotion != nil && *r.Promotion
	if r.NextTurnHasPawnCapture != nil {
		h.HasPawn = *r.NextTurnHasPawnCapture
	}
	for _, s := range r.NextTurnPawnTrySquares {
		if sq, ok := chess.ParseSquare(strings.ToLower(s)); ok {
			h.TrySquares |= sq.Bit()
		} else {
			h.Unknown = append(h.Unknown, "next_turn_pawn_try_squares "+s)
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
