package record

import (
	"errors"
	"fmt"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// The referee's answer in a version 2 record is data, not words: the
// fields of Announced below hold exactly the view the player was handed
// (umpire.View), and reading them back gives that view again. Version 1
// records held ICC's English words instead (words.go reads them).

// setView fills l's announcement fields from v (a heard answer): a move's
// announcements, the answer to "Any?" (has_any), and the word of a refusal
// off the referee's list (refusal; an "Illegal move" is legal: false alone).
func (l *Announced) setView(v umpire.View) {
	switch {
	case v.Illegal:
		return
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		has := v.Verdict == umpire.HasAny
		l.HasAny = &has
		return
	case v.Verdict != umpire.IllegalMove:
		l.Refusal = v.Verdict.String()
		return
	}
	if v.Capture.Kind != umpire.NoCapture {
		l.Capture, l.Captured = v.Capture.Square.String(), v.Capture.Kind.String()
	}
	l.EnPassant, l.Promotion = v.EnPassant, v.Promotion
	if v.Drop != chess.NoPieceType {
		l.Drop = v.Drop.String()
	}
	for _, k := range v.Checks {
		if k != chess.NoCheck {
			l.Checks = append(l.Checks, k.String())
		}
	}
	if v.PawnTries >= 0 {
		n := v.PawnTries
		l.Tries = &n
	}
	if v.Ending != umpire.NotOver {
		l.Ending = v.Ending.String()
		return
	}
	switch v.PawnNews {
	case umpire.PawnHas:
		has := v.HasPawnCapture
		l.HasPawnCapture = &has
	case umpire.PawnSquares:
		var sq []string
		for b := v.TrySquares; b != 0; {
			sq = append(sq, b.PopFirst().String())
		}
		from := strings.Join(sq, " ")
		l.TryFrom = &from
	}
}

// hasAnnouncements reports whether l holds any version 2 announcement of a
// legal move.
func (l *Announced) hasAnnouncements() bool {
	return l.Capture != "" || l.Captured != "" || len(l.Checks) > 0 || l.Tries != nil || l.Ending != "" ||
		l.EnPassant || l.Promotion || l.Drop != "" || l.HasPawnCapture != nil || l.TryFrom != nil
}

// notMove reports whether l is an answer that plays no move: to "Any?", or
// a refusal off the referee's list.
func (l *Announced) notMove() bool { return l.HasAny != nil || l.Refusal != "" }

// refused reads the answer of a line without a legal move into v: "Any?"'s
// answer, a refusal's word, or (neither) an "Illegal move".
func (l *Announced) refused(v *umpire.View) error {
	if l.hasAnnouncements() {
		return errors.New("answer: an attempt that played no move (legal: false) announces nothing")
	}
	switch {
	case l.HasAny != nil && l.Refusal != "":
		return errors.New("answer: has_any and refusal together")
	case l.HasAny != nil:
		v.Verdict = umpire.NoAny
		if *l.HasAny {
			v.Verdict = umpire.HasAny
		}
	case l.Refusal != "":
		switch l.Refusal {
		case umpire.ImpossibleToAsk.String():
			v.Verdict = umpire.ImpossibleToAsk
		case umpire.NonsenseMove.String():
			v.Verdict = umpire.NonsenseMove
		default:
			return fmt.Errorf("answer: refusal %q is not %s or %s", l.Refusal, umpire.ImpossibleToAsk, umpire.NonsenseMove)
		}
	default:
		v.Illegal = true
	}
	return nil
}

// announced reads l's announcement fields into v (a legal move's view);
// variant gives the pawn news the move brings where it announces no count.
func (l *Announced) announced(v *umpire.View, variant umpire.Variant) error {
	if l.notMove() {
		return errors.New("answer: has_any or refusal on a legal move")
	}
	if (l.Capture == "") != (l.Captured == "") {
		return errors.New("answer: capture and captured go together")
	}
	if l.Capture != "" {
		sq, ok := chess.ParseSquare(l.Capture)
		if !ok {
			return fmt.Errorf("answer: capture %q is not a square", l.Capture)
		}
		k, ok := captureKind(l.Captured)
		if !ok {
			return fmt.Errorf("answer: captured %q is not pawn, piece, man, knight, bishop, rook or queen", l.Captured)
		}
		v.Capture = umpire.Capture{Square: sq, Kind: k}
	}
	v.EnPassant, v.Promotion = l.EnPassant, l.Promotion
	if l.Drop != "" {
		pt, ok := pieceType(l.Drop)
		if !ok {
			return fmt.Errorf("answer: drop %q is not pawn, knight, bishop, rook or queen", l.Drop)
		}
		v.Drop = pt
	}
	if len(l.Checks) > len(v.Checks) {
		return fmt.Errorf("answer: more than %d checks", len(v.Checks))
	}
	for i, s := range l.Checks {
		k, ok := checkKind(s)
		if !ok {
			return fmt.Errorf("answer: check %q is not rank, file, long_diagonal, short_diagonal or knight", s)
		}
		v.Checks[i] = k
	}
	if l.Tries != nil {
		if *l.Tries < 0 || *l.Tries > 16 {
			return fmt.Errorf("answer: tries %d is not a number of pawn tries", *l.Tries)
		}
		v.PawnTries = *l.Tries
	}
	if l.Ending != "" {
		e, ok := ending(l.Ending)
		if !ok {
			return fmt.Errorf("answer: ending %q is not one the referee names", l.Ending)
		}
		v.Ending = e
		return nil
	}
	if !variant.IsWild16() {
		v.PawnNews = variant.PawnNews
	}
	if l.HasPawnCapture != nil {
		v.PawnNews, v.HasPawnCapture = umpire.PawnHas, *l.HasPawnCapture
	}
	if l.TryFrom != nil {
		v.PawnNews = umpire.PawnSquares
		for _, f := range strings.Fields(*l.TryFrom) {
			sq, ok := chess.ParseSquare(f)
			if !ok {
				return fmt.Errorf("answer: try_from %q is not squares", *l.TryFrom)
			}
			v.TrySquares |= sq.Bit()
		}
	}
	return nil
}

// captureKind reads a capture kind's spelling (umpire.CaptureKind.String).
func captureKind(s string) (umpire.CaptureKind, bool) {
	for k := umpire.PawnCaptured; k <= umpire.QueenCaptured; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return umpire.NoCapture, false
}

// pieceType reads a dropped man's spelling (chess.PieceType.String).
func pieceType(s string) (chess.PieceType, bool) {
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		if pt.String() == s {
			return pt, true
		}
	}
	return chess.NoPieceType, false
}

// checkKind reads a check kind's spelling (chess.CheckKind.String).
func checkKind(s string) (chess.CheckKind, bool) {
	for _, k := range [...]chess.CheckKind{chess.CheckRank, chess.CheckFile, chess.CheckLongDiagonal, chess.CheckShortDiagonal, chess.CheckKnight} {
		if k.String() == s {
			return k, true
		}
	}
	return chess.NoCheck, false
}

// maxEnding bounds the search for an ending's spelling (umpire.Ending is a
// small enumeration whose unknown values spell "unknown").
const maxEnding = 32

// ending reads an ending's spelling (umpire.Ending.String), not NotOver.
func ending(s string) (umpire.Ending, bool) {
	for e := umpire.Ending(1); e < maxEnding; e++ {
		if e.String() == s && s != "unknown" {
			return e, true
		}
	}
	return umpire.NotOver, false
}
