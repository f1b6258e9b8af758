package replaycmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kriegbot/cli/matchcmd"
)

// playMatch plays a short node-limited match with kriegbot match and
// returns its JSON Lines file and its records folder.
func playMatch(t *testing.T) (jsonl, records string) {
	t.Helper()
	dir := t.TempDir()
	jsonl, records = filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "rec")
	args := []string{"-p1", "mcts:mem=8", "-p2", "heuristic", "-games", "2", "-nodes", "150", "-maxplies", "30",
		"-concurrency", "1", "-seed", "3", "-jsonl", jsonl, "-records", records}
	var out, errs bytes.Buffer
	if code := matchcmd.Command(args, &out, &errs); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs.String())
	}
	return jsonl, records
}

func run(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = Command(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestReplayMatchGame: kriegbot replay reads a game of a match file (p1's
// side by default) and a record the match wrote with -records, and both
// replay exactly; what cannot be replayed is refused.
func TestReplayMatchGame(t *testing.T) {
	jsonl, records := playMatch(t)
	for _, args := range [][]string{
		{"-plain", "-game", "1", jsonl},
		{"-plain", "-game", "0", "-side", "black", jsonl},
	} {
		code, out, errs := run(args...)
		if code != 0 || !strings.Contains(out, " 0 differing choices") {
			t.Fatalf("replay %q: exit %d, stderr %q, stdout ends %q", args, code, errs, out[max(0, len(out)-200):])
		}
	}
	recs, err := filepath.Glob(filepath.Join(records, "games", "*.jsonl"))
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records (%v), want 4", len(recs), err)
	}
	if code, out, errs := run("-plain", recs[0]); code != 0 || !strings.Contains(out, " 0 differing choices") {
		t.Fatalf("replay %s: exit %d, stderr %q", recs[0], code, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "5", jsonl}, "no game 5"},
		{[]string{"-side", "red", jsonl}, `-side "red"`},
	} {
		if code, _, errs := run(tc.args...); code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestReplayDiffers: a record whose first attempt the player would not
// choose replays with exit 1, naming the file and line of the first
// differing attempt.
func TestReplayDiffers(t *testing.T) {
	_, records := playMatch(t)
	recs, _ := filepath.Glob(filepath.Join(records, "games", "*-white-*.jsonl"))
	if len(recs) == 0 {
		t.Fatal("no record of a white side")
	}
	data, err := os.ReadFile(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`"type":"attempt","move":"([a-h][1-8][a-h][1-8])"`)
	m := first.FindSubmatchIndex(data)
	if m == nil {
		t.Fatalf("no attempt in %s", recs[0])
	}
	other := "a2a3"
	if string(data[m[2]:m[3]]) == other {
		other = "h2h3"
	}
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	edited := append(append(append([]byte(nil), data[:m[2]]...), other...), data[m[3]:]...)
	if err := os.WriteFile(changed, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("-plain", changed)
	if code != 1 || !strings.Contains(errs, "chose differently (first at "+changed+":") || !strings.Contains(out, "DIFFERS") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestCommandUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "want one FILE"},
		{[]string{"-from", "9", "-to", "3", "x"}, 2, "not a range"},
		{[]string{"-top", "0", "x"}, 2, "-top"},
		{[]string{"/nonexistent/x.jsonl"}, 1, "no such file"},
		{[]string{"-h"}, 0, "usage: kriegbot replay"},
	} {
		if code, _, errs := run(c.args...); code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q", c.args, code, errs)
		}
	}
}
