package sitegames

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

func tm(uci string, done bool, main string) ksapi.TranscriptMove {
	m := ksapi.TranscriptMove{QuestionType: ksapi.QuestionCommon, MoveDone: done, Answer: &ksapi.TranscriptAnswer{Main: main}}
	if uci != "" {
		m.UCI = &uci
	}
	return m
}

// TestAttemptsAndPlayed: a transcript read back as its attempts (refusals,
// Any?, drops; INVALID_UCI left out) and as the moves played.
func TestAttemptsAndPlayed(t *testing.T) {
	any := ksapi.TranscriptMove{QuestionType: ksapi.QuestionAskAny, Answer: &ksapi.TranscriptAnswer{Main: "HAS_ANY"}}
	for _, tc := range []struct {
		name     string
		moves    []ksapi.TranscriptMove
		attempts string // the attempts' texts and whether played (+)
		played   string
		err      string // of Attempts, then Played
		playErr  string
	}{
		{name: "moves and refusals", moves: []ksapi.TranscriptMove{tm("e2e4", true, "REGULAR_MOVE"), tm("d7d5", true, "REGULAR_MOVE"), tm("e4e5", false, "ILLEGAL_MOVE"), tm("e4d5", true, "CAPTURE_DONE")},
			attempts: "e2e4+ d7d5+ e4e5 e4d5+", played: "e2e4 d7d5 e4d5"},
		{name: "any and invalid", moves: []ksapi.TranscriptMove{any, tm("zz", false, ksapi.InvalidUCI), tm("e2e4", true, "REGULAR_MOVE")},
			attempts: "any e2e4+", played: "e2e4"},
		{name: "drop", moves: []ksapi.TranscriptMove{tm("e2e4", true, "REGULAR_MOVE"), tm("N@e5", true, "REGULAR_MOVE")},
			attempts: "e2e4+ N@e5+", playErr: "a drop (N@e5)"},
		{name: "refused drop", moves: []ksapi.TranscriptMove{tm("N@e5", false, "ILLEGAL_MOVE"), tm("e2e4", true, "REGULAR_MOVE")},
			attempts: "N@e5 e2e4+", played: "e2e4"},
		{name: "no uci", moves: []ksapi.TranscriptMove{tm("", true, "REGULAR_MOVE")}, err: "without its UCI"},
		{name: "bad uci", moves: []ksapi.TranscriptMove{tm("e2e9", true, "REGULAR_MOVE")}, err: "ply 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Game{Moves: tc.moves}
			attempts, err := g.Attempts()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Attempts: error %v, want %q", err, tc.err)
				}
				if _, err := g.Played(); err == nil {
					t.Fatal("Played took what Attempts refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range attempts {
				s := a.Text
				if a.Move == chess.NullMove {
					s = "any"
				} else if umpire.MoveText(a.Move) != a.Text {
					t.Errorf("%s read as %s", a.Text, umpire.MoveText(a.Move))
				}
				if a.Done {
					s += "+"
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != tc.attempts {
				t.Errorf("attempts %q, want %q", strings.Join(got, " "), tc.attempts)
			}
			played, err := g.Played()
			if tc.playErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.playErr) {
					t.Fatalf("Played: error %v, want %q", err, tc.playErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var p []string
			for _, m := range played {
				p = append(p, umpire.MoveText(m))
			}
			if strings.Join(p, " ") != tc.played {
				t.Errorf("played %q, want %q", strings.Join(p, " "), tc.played)
			}
		})
	}
}
