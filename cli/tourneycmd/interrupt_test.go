package tourneycmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is stdout shared between the command and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// eventually polls cond until it holds, failing after a minute.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(time.Minute)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s: not within a minute", what)
		}
	}
}

// records counts the game records of round round's games started so far
// (each side writes one), from the folders of the players.
func records(t *testing.T, dir string) int {
	t.Helper()
	recs, err := filepath.Glob(filepath.Join(dir, "*", "games", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

type runResult struct {
	end ending
	err error
}

// startRun runs the command's event (or resumes it) in the background.
func startRun(t *testing.T, args []string) (*lockedBuffer, chan os.Signal, chan runResult) {
	t.Helper()
	opt, code, done := parseFlags(args, &bytes.Buffer{})
	if done {
		t.Fatalf("%q: exit %d", args, code)
	}
	out := &lockedBuffer{}
	sig := make(chan os.Signal, 2)
	res := make(chan runResult, 1)
	go func() {
		end, err := run(context.Background(), opt, out, &bytes.Buffer{}, sig)
		res <- runResult{end, err}
	}()
	return out, sig, res
}

func awaitRun(t *testing.T, res chan runResult, out *lockedBuffer) runResult {
	t.Helper()
	select {
	case r := <-res:
		if r.err != nil {
			t.Fatalf("run: %v\n%s", r.err, out)
		}
		return r
	case <-time.After(2 * time.Minute):
		t.Fatalf("the command did not stop\n%s", out)
	}
	return runResult{}
}

// TestTourneyInterrupt: Ctrl-C says at once what it does, lets round 1's
// games finish, pairs no round 2 and leaves the event adjourned on disk;
// -resume goes on with round 2, where two Ctrl-Cs adjourn at once (exit 3)
// with the games in progress left to play again; a last -resume plays
// them and ends the event, every pairing played once.
func TestTourneyInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ev")
	out, sig, res := startRun(t, []string{"-players", "random,heuristic,random,heuristic", "-rounds", "2", "-tc", "0+1",
		"-out", dir, "-seed", "11", "-timeout", "3m"})
	eventually(t, "a game of round 1 in progress", func() bool { return records(t, dir) > 0 })
	sig <- os.Interrupt
	eventually(t, "the Ctrl-C told", func() bool {
		return strings.Contains(out.String(), "kriegbot tourney: finishing the games in progress, then adjourning the event")
	})
	if r := awaitRun(t, res, out); r.end != endAdjourned {
		t.Fatalf("ending %d after one Ctrl-C, want adjourned\n%s", r.end, out)
	}
	st, ok, err := readState(filepath.Join(dir, "tourney-1.json"))
	if !ok || err != nil || st.Status != "adjourned" || len(st.Event.Played) != 1 {
		t.Fatalf("after one Ctrl-C: state %q, %d rounds (%v, %v); want adjourned after round 1\n%s", st.Status, len(st.Event.Played), ok, err, out)
	}
	for _, b := range st.Boards {
		t.Logf("round 1 board %d not started before the Ctrl-C: played on -resume", b.Board)
	}
	text := out.String()
	if !strings.Contains(text, "event adjourned (round 1 of 2)") || !strings.Contains(text, "go on with: kriegbot tourney -resume "+dir) {
		t.Errorf("the end of an adjourned event does not say how to go on:\n%s", text)
	}
	if txt, err := os.ReadFile(filepath.Join(dir, "tourney-1.txt")); err != nil || !strings.Contains(string(txt), "adjourned") {
		t.Errorf("crosstable on disk %q, %v: want it adjourned", txt, err)
	}

	// -resume: round 2 starts; two Ctrl-Cs while its games go on.
	before := records(t, dir)
	out, sig, res = startRun(t, []string{"-resume", dir, "-timeout", "3m"})
	eventually(t, "a game of round 2 in progress", func() bool { return records(t, dir) > before })
	sig <- os.Interrupt
	sig <- os.Interrupt
	r := awaitRun(t, res, out)
	st, _, _ = readState(filepath.Join(dir, "tourney-1.json"))
	if r.end != endCut || st.Status != "adjourned" || len(st.Event.Played) != 2 || len(st.Boards) == 0 {
		t.Fatalf("after two Ctrl-Cs: ending %d, state %q, %d rounds, %d boards open; want cut, adjourned in round 2 with its games to play\n%s",
			r.end, st.Status, len(st.Event.Played), len(st.Boards), out)
	}
	if !strings.Contains(out.String(), "kriegbot tourney: adjourning now; the games in progress are played again on -resume") {
		t.Errorf("the second Ctrl-C was not told:\n%s", out)
	}

	// The last -resume plays round 2's games again and ends the event.
	var stdout, stderr bytes.Buffer
	if code := Command([]string{"-resume", dir, "-timeout", "3m"}, &stdout, &stderr); code != 0 {
		t.Fatalf("last -resume: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	st, _, _ = readState(filepath.Join(dir, "tourney-1.json"))
	if st.Status != "done" || len(st.Event.Played) != 2 {
		t.Fatalf("after the last -resume: %q, %d rounds", st.Status, len(st.Event.Played))
	}
	for _, rd := range st.Event.Played {
		for _, g := range rd.Games {
			if !g.Result.Played() {
				t.Errorf("round %d board %d: %v, not played", rd.Number, g.Board, g.Result)
			}
		}
	}
	if pgn, err := os.ReadFile(filepath.Join(dir, "tourney-1.pgn")); err != nil || strings.Count(string(pgn), "[Event ") != 4 {
		t.Errorf("PGN: %d games, want the 4 paired once each (%v)", strings.Count(string(pgn), "[Event "), err)
	}
	if code := Command([]string{"-resume", dir}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "the event is done") {
		t.Errorf("-resume of a finished event: exit %d, %q", code, stderr.String())
	}
}
