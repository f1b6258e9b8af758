package replay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// session is the start of a real session of the daemon on our server: the
// login, the challenge, game 1 and its first moves.
func session(t testing.TB) string {
	data, err := os.ReadFile(filepath.Join("testdata", "session-start.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReadTranscriptTable(t *testing.T) {
	s := session(t)
	lines := strings.SplitAfter(s, "\n")
	for _, c := range []struct {
		name string
		in   string
		opt  TranscriptOptions
		want string // "" for success, else a part of the error
	}{
		{"session", s, TranscriptOptions{}, ""},
		{"by number", s, TranscriptOptions{Game: 1}, ""},
		{"no such game", s, TranscriptOptions{Game: 9}, "f: no game 9 of ours here (games: [1])"},
		{"empty", "", TranscriptOptions{}, "f: no game of ours in this transcript"},
		{"login only", strings.Join(lines[:8], ""), TranscriptOptions{}, "no game of ours"},
		{"not a transcript", "hello world\n", TranscriptOptions{}, "f: transcript line 1"},
		{"bad escape", lines[0] + "2026-11-23T19:10:42.9Z < \\xZZ\n", TranscriptOptions{}, "f: transcript line 2"},
	} {
		tg, err := ReadTranscript(strings.NewReader(c.in), "f", c.opt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		case c.want == "":
			g := tg.Record
			if g.Game.Number != 1 || g.Game.White != "kriegbot" || g.Game.BaseMin != 2 || g.Game.IncS != 12 || tg.Desync != "" {
				t.Errorf("%s: game %+v, desync %q", c.name, g.Game, tg.Desync)
			}
			attempts, answers := 0, 0
			for _, st := range g.Steps {
				switch st.Kind {
				case StepAttempt:
					attempts++
				case StepAnswer:
					answers++
					if len(st.Words) == 0 && st.View.PawnTries >= 0 {
						t.Errorf("%s: line %d: an answer without its words", c.name, st.Line)
					}
				}
			}
			if attempts < 5 || answers < attempts {
				t.Errorf("%s: %d attempts, %d answers", c.name, attempts, answers)
			}
		}
	}
}

// TestTranscriptNeedsItsRecord: without a record beside it, Load says what
// to give; with a player spec it loads, and warns that choices may differ.
func TestTranscriptNeedsItsRecord(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "t.txt")
	os.WriteFile(name, []byte(session(t)), 0o644)
	if _, _, err := loadFile(t, name, Source{}); err == nil || !strings.Contains(err.Error(), "give -record FILE") {
		t.Fatalf("no record: %v", err)
	}
	rec, notes, err := loadFile(t, name, Source{Player: "heuristic", Seed: 3, Nodes: 2000})
	if err != nil || len(notes) == 0 || !strings.Contains(notes[len(notes)-1], "choices may differ") {
		t.Fatalf("with a player: %v, notes %q", err, notes)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil || res.Attempts == 0 {
		t.Fatalf("replay with a player: %v", err)
	}
}

// FuzzReadTranscript: any bytes give a game or an error naming the file;
// never a panic or a hang.
func FuzzReadTranscript(f *testing.F) {
	// Slices of the session rather than all of it: the fuzzer minimises
	// every new input it keeps, and minimising 14 kB takes a minute.
	lines := strings.SplitAfter(session(f), "\n")
	f.Add(strings.Join(lines[:40], ""))
	f.Add(strings.Join(lines[30:90], ""))
	f.Add("2026-11-23T19:10:42.9Z < \\x19(15 1 kriegbot x 16 Wild 0 2 12 2 12 1 {} 1500 1500 1 C C 0 0 0 {} 0\\x19)\n")
	f.Add("2026-11-23T19:10:42.9Z > e2e4\\n\n2026-11-23T19:10:42.9Z # closed\n")
	f.Fuzz(func(t *testing.T, in string) {
		tg, err := ReadTranscript(strings.NewReader(in), "f", TranscriptOptions{})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, st := range tg.Record.Steps {
			if st.Kind == StepAnswer && !st.View.Illegal && strings.Join(st.View.Words(), "|") != strings.Join(st.Words, "|") {
				t.Fatalf("words %q for view %+v", st.Words, st.View)
			}
		}
	})
}
