package record

import (
	"errors"
	"fmt"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// maxWords is the most referee announcements in one version 1 answer.
const maxWords = 8

// wordsStep finishes a version 1 answer: the view rebuilt from the recorded
// referee words (ICC's English, read by the wire's announcement parser);
// the words must be exactly what umpire.View.Words would say of it. s and
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
	var items []protocol.Announcement
	for _, w := range raw.Referee {
		var ok bool
		items, ok = parseWord(items[:0], w)
		if !ok || len(items) != 1 {
			return Step{}, fmt.Errorf("answer: %q is not one referee announcement", w)
		}
		a := items[0]
		switch a.Kind {
		case protocol.AnnCapture:
			if v.Capture.Kind != umpire.NoCapture {
				return Step{}, errors.New("answer: two captures")
			}
			v.Capture = a.Capture
		case protocol.AnnCheck:
			switch {
			case v.Checks[0] == chess.NoCheck:
				v.Checks[0] = a.Check
			case v.Checks[1] == chess.NoCheck:
				v.Checks[1] = a.Check
			default:
				return Step{}, errors.New("answer: more than two checks")
			}
		case protocol.AnnPawnTries:
			if v.PawnTries >= 0 {
				return Step{}, errors.New("answer: two pawn-tries counts")
			}
			v.PawnTries = a.Tries
		default:
			return Step{}, fmt.Errorf("answer: %q does not belong in an answer", w)
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

func parseWord(dst []protocol.Announcement, w string) ([]protocol.Announcement, bool) {
	if len(w) > 64 {
		return dst, false
	}
	items, _, unknown := protocol.ParseAnnouncements(dst, []byte(w))
	return items, !unknown && len(items) > 0 && items[0].Game == 0
}
