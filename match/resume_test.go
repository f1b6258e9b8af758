package match

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if _, err := ReadShard(part, bytes.NewReader(got)); err != nil {
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

func TestResumeEnd(t *testing.T) {
	game := `{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":12,"p1_score":1}`
	attempt := `{"type":"attempt","game":1,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3}`
	tests := []struct {
		name  string
		in    string
		end   int
		games int
		err   string
	}{
		{"empty", "", 0, 0, "no match line"},
		{"header cut", header[:20], 0, 0, "no match line"},
		{"header", header + "\n", len(header) + 1, 0, ""},
		{"one game", header + "\n" + game + "\n", len(header) + len(game) + 2, 1, ""},
		{"game cut", header + "\n" + game, len(header) + 1, 0, ""},
		{"attempts after", header + "\n" + game + "\n" + attempt + "\n" + attempt[:9], len(header) + len(game) + 2, 1, ""},
		{"bad kept line", header + "\n" + "nonsense\n" + game + "\n", 0, 0, "f.jsonl:2: not a JSON object"},
		{"long dropped line", header + "\n" + strings.Repeat("x", 3*maxLine), len(header) + 1, 0, ""},
	}
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	for _, tc := range tests {
		g, end, err := readResume("f.jsonl", strings.NewReader(tc.in), h)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
			}
		case err != nil || end != int64(tc.end) || len(g) != tc.games:
			t.Errorf("%s: %d games up to byte %d, %v; want %d up to %d", tc.name, len(g), end, err, tc.games, tc.end)
		}
	}
}

func FuzzReadResume(f *testing.F) {
	f.Add(header + "\n")
	f.Add(header + "\n" + `{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":12,"p1_score":1}` + "\n{\"type\":\"att")
	f.Add("{\"type\":\"game\"\n\x00")
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	f.Fuzz(func(t *testing.T, in string) {
		g, end, err := readResume("fuzz", strings.NewReader(in), h)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if end <= 0 || end > int64(len(in)) || in[end-1] != '\n' {
			t.Fatalf("end %d of %d bytes is not past a line", end, len(in))
		}
		if _, err := ReadShard("fuzz", strings.NewReader(in[:end])); err != nil || len(g) > strings.Count(in, "\n") {
			t.Fatalf("kept part does not read back: %v", err)
		}
	})
}

// TestSameMatch: players' own budgets are compared by value (two shards
// read from two files hold two pointers to equal budgets).
func TestSameMatch(t *testing.T) {
	a := MatchLine{Type: "match", P1: "mcts", P2: "mcts", Games: 4, P1Budget: &Budget{TimeControl: "-", Nodes: 8000}}
	b := a
	b.P1Budget = &Budget{TimeControl: "-", Nodes: 8000}
	if d := matchDiff(a, b); d != "" {
		t.Fatalf("equal budgets behind two pointers: not the same match (%s)", d)
	}
	b.P1Budget = &Budget{TimeControl: "-", Nodes: 2000}
	c := a
	c.P1Budget = nil
	d := a
	d.Seed = 9
	for i, x := range []MatchLine{b, c, d} {
		want := []string{`p1_budget {"tc":"-","nodes":8000} against {"tc":"-","nodes":2000}`,
			`p1_budget {"tc":"-","nodes":8000} against none`, `seed "0" against "9"`}[i]
		if got := matchDiff(a, x); got != want {
			t.Errorf("case %d: difference %q, want %q", i, got, want)
		}
	}
}
