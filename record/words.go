package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// maxWords is the most referee announcements in one version 1 answer.
const maxWords = 8

// wordsStep finishes a version 1 answer: the view rebuilt from the recorded
// referee words (ICC's English), which must be exactly what
// umpire.View.Words would say of it, so they are read by matching the
// umpire's own renderings (no wire parser). s and
// v hold what answerStep read of the line's other fields.
func wordsStep(s Step, v umpire.View, raw *AnswerLine) (Step, error) {
	if len(raw.Referee) > maxWords {
		return Step{}, fmt.Errorf("answer: more than %d referee announcements", maxWords)
	}
	s.Words = raw.Referee
	if v.Illegal {
		if len(raw.Referee) != 1 || raw.Referee[0] != "Illegal move" {
			return Step{}, fmt.Errorf("answer: an illegal attempt must say [\"Illegal move\"], not %q", raw.Referee)
		}
		s.View = v
		return s, nil
	}
	for _, w := range raw.Referee {
		switch a, ok := parseWord(w); {
		case !ok:
			return Step{}, fmt.Errorf("answer: %q is not one referee announcement", w)
		case a.capture.Kind != umpire.NoCapture:
			if v.Capture.Kind != umpire.NoCapture {
				return Step{}, errors.New("answer: two captures")
			}
			v.Capture = a.capture
		case a.check != chess.NoCheck:
			switch {
			case v.Checks[0] == chess.NoCheck:
				v.Checks[0] = a.check
			case v.Checks[1] == chess.NoCheck:
				v.Checks[1] = a.check
			default:
				return Step{}, errors.New("answer: more than two checks")
			}
		default:
			if v.PawnTries >= 0 {
				return Step{}, errors.New("answer: two pawn-tries counts")
			}
			v.PawnTries = a.tries
		}
	}
	// The words must be the canonical rendering, in order: then the view is
	// exactly the one the daemon handed its player.
	if got := v.Words(); strings.Join(got, "|") != strings.Join(raw.Referee, "|") {
		return Step{}, fmt.Errorf("answer: referee words %q are not in ICC's order and wording (%q)", raw.Referee, got)
	}
	s.View = v
	return s, nil
}

// word is one announcement of a legal move: a capture, a check or the
// pawn tries.
type word struct {
	capture umpire.Capture
	check   chess.CheckKind
	tries   int
}

// maxTries bounds a pawn-tries count (16 pawns, each with at most two
// captures, is far above any position's).
const maxTries = 32

// parseWord reads one announcement in exactly the wording umpire.View.Words
// gives it (ICC's): anything else is not ok.
func parseWord(w string) (word, bool) {
	for _, k := range [...]umpire.CaptureKind{umpire.PawnCaptured, umpire.PieceCaptured} {
		prefix := "Pawn at "
		if k == umpire.PieceCaptured {
			prefix = "Piece at "
		}
		if sq, ok := strings.CutPrefix(w, prefix); ok {
			sq, ok = strings.CutSuffix(sq, " captured")
			s, valid := chess.ParseSquare(sq)
			if !ok || !valid || s.String() != sq {
				return word{}, false
			}
			return word{capture: umpire.Capture{Square: s, Kind: k}}, true
		}
	}
	for _, k := range [...]chess.CheckKind{chess.CheckRank, chess.CheckFile, chess.CheckLongDiagonal, chess.CheckShortDiagonal, chess.CheckKnight} {
		if w == umpire.CheckWords(k) {
			return word{check: k}, true
		}
	}
	n, _, ok := strings.Cut(w, " ")
	tries, err := strconv.Atoi(n)
	if !ok || err != nil || tries < 0 || tries > maxTries || umpire.TriesWords(tries) != w {
		return word{}, false
	}
	return word{tries: tries}, true
}
