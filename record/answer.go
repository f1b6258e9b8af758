package record

import (
	"errors"
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// The referee's answer in a version 2 record is data, not words: the
// fields of Announced below hold exactly the view the player was handed
// (umpire.View), and reading them back gives that view again. Version 1
// records held ICC's English words instead (words.go reads them).

// setView fills l's announcement fields from v (a heard answer).
func (l *Announced) setView(v umpire.View) {
	if v.Illegal {
		return // "Illegal move" is legal: false
	}
	if v.Capture.Kind != umpire.NoCapture {
		l.Capture, l.Captured = v.Capture.Square.String(), v.Capture.Kind.String()
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
	}
}

// hasAnnouncements reports whether l holds any version 2 announcement.
func (l *Announced) hasAnnouncements() bool {
	return l.Capture != "" || l.Captured != "" || len(l.Checks) > 0 || l.Tries != nil || l.Ending != ""
}

// announced reads l's announcement fields into v (a legal move's view).
func (l *Announced) announced(v *umpire.View) error {
	if (l.Capture == "") != (l.Captured == "") {
		return errors.New("answer: capture and captured go together")
	}
	if l.Capture != "" {
		sq, ok := chess.ParseSquare(l.Capture)
		if !ok {
			return fmt.Errorf("answer: capture %q is not a square", l.Capture)
		}
		switch l.Captured {
		case umpire.PawnCaptured.String():
			v.Capture = umpire.Capture{Square: sq, Kind: umpire.PawnCaptured}
		case umpire.PieceCaptured.String():
			v.Capture = umpire.Capture{Square: sq, Kind: umpire.PieceCaptured}
		default:
			return fmt.Errorf("answer: captured %q is neither pawn nor piece", l.Captured)
		}
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
	}
	return nil
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
