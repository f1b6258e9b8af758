package matchcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kriegbot/match"
)

// gameLines returns a match file's game lines, in order.
func gameLines(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, `{"type":"game"`) {
			out = append(out, l)
		}
	}
	return out
}

func gameLinesBytes(t *testing.T, b []byte) []byte {
	return []byte(strings.Join(gameLines(t, b), "\n"))
}

// TestCommandResume cuts a finished match's file as a kill would (in the
// middle of a game's attempts, a line half written) and goes on with
// -resume: the file ends with the very games of the uncut run and the
// summary is the uncut run's.
func TestCommandResume(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	// A player's own budget in its spec: its match line holds a pointer,
	// which the header check must compare by value.
	base := []string{"-p1", "heuristic:nodes=50", "-p2", "random", "-games", "12", "-nodes", "100", "-seed", "5", "-concurrency", "3"}
	code, out, errs := runCommand(append(base, "-jsonl", whole)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	full, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	games := gameLines(t, full)
	if len(games) != 12 {
		t.Fatalf("%d game lines, want 12", len(games))
	}
	// Keep five games, half of the sixth's attempts and a cut line.
	i := bytes.Index(full, []byte(games[4])) + len(games[4]) + 1
	j := bytes.Index(full, []byte(games[5]))
	cut := append(full[:i:i], full[i:i+(j-i)/2]...)
	cut = append(cut, `{"type":"attempt","ga`...)
	part := filepath.Join(dir, "part.jsonl")
	if err := os.WriteFile(part, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	code, rout, errs := runCommand(append(base, "-jsonl", part, "-resume")...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if g := gameLines(t, got); strings.Join(g, "\n") != strings.Join(games, "\n") {
		t.Fatalf("resumed file's games\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(games, "\n"))
	}
	if a, b := bytes.Count(got, []byte(`{"type":"attempt"`)), bytes.Count(full, []byte(`{"type":"attempt"`)); a != b {
		t.Fatalf("resumed file has %d attempt lines, the uncut one %d", a, b)
	}
	if _, err := match.ReadShard(part, bytes.NewReader(got)); err != nil {
		t.Fatalf("resumed file does not read back: %v", err)
	}
	last := func(s string) string { l := strings.Split(strings.TrimSpace(s), "\n"); return l[len(l)-1] }
	if last(rout) != last(out) || !strings.Contains(rout, "games: 12 of 12") || !strings.Contains(rout, "5 of them played before the resume") {
		t.Fatalf("resumed summary\n%s\nwant the uncut run's\n%s", rout, out)
	}
	// Cut in its first game: only the match line is kept.
	if err := os.WriteFile(part, full[:bytes.IndexByte(full, '\n')+40], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, again, errs := runCommand(append(base, "-jsonl", part, "-resume")...); code != 0 || last(again) != last(out) {
		t.Fatalf("resuming from the match line: exit %d: %s%s", code, again, errs)
	}
	if got, err := os.ReadFile(part); err != nil || !bytes.Equal(gameLinesBytes(t, got), gameLinesBytes(t, full)) || bytes.Count(got, []byte(`"type":"match"`)) != 1 {
		t.Fatalf("file resumed from its match line: %v\n%s", err, got)
	}
	// Resuming a finished match plays nothing and says the same.
	if code, again, errs := runCommand(append(base, "-jsonl", part, "-resume")...); code != 0 || last(again) != last(out) {
		t.Fatalf("resuming a finished match: exit %d: %s%s", code, again, errs)
	}
}

func TestCommandResumeRefused(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "m.jsonl")
	args := func(nodes, seed string, extra ...string) []string {
		return append([]string{"-p1", "heuristic", "-p2", "random", "-games", "4", "-nodes", nodes, "-seed", seed}, extra...)
	}
	if code, _, errs := runCommand(args("100", "5", "-jsonl", f)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"no file", args("100", "5", "-resume"), "-resume needs the -jsonl file"},
		{"pgn", args("100", "5", "-resume", "-jsonl", f, "-pgn", filepath.Join(dir, "m.pgn")), "-resume cannot go on with a PGN file"},
		{"missing", args("100", "5", "-resume", "-jsonl", filepath.Join(dir, "none.jsonl")), "no such file"},
		{"other seed", args("100", "6", "-resume", "-jsonl", f), "is from another match"},
		{"other budget", args("200", "5", "-resume", "-jsonl", f), "is from another match"},
	}
	for _, tc := range tests {
		code, _, errs := runCommand(tc.args...)
		if code == 0 || !strings.Contains(errs, tc.err) {
			t.Errorf("%s: exit %d, stderr %q, want an error containing %q", tc.name, code, errs, tc.err)
		}
	}
	// A refused resume leaves the file as it was.
	if b, err := os.ReadFile(f); err != nil || len(gameLines(t, b)) != 4 {
		t.Fatalf("file after refused resumes: %v", err)
	}
}
