package matchcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var lastLine = regexp.MustCompile(`^heuristic vs random: \+\d+ -\d+ =\d+, score \d+\.\d%, Elo ([+-]\d+\.\d ± \d+\.\d|[+-]\d+\.\d \(95 %: [<>] [+-]\d+\.\d\)|> [+-]\d+\.\d \(no losses\))$`)

func runCommand(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Command(args, &o, &e)
	return code, o.String(), e.String()
}

// TestCommandShardMerge runs the command as a user would: a match in two
// shards to files, then merge, against the same match unsharded.
func TestCommandShardMerge(t *testing.T) {
	dir := t.TempDir()
	base := []string{"-p1", "heuristic", "-p2", "random", "-games", "16", "-nodes", "100", "-seed", "9"}
	code, whole, errs := runCommand(append(base, "-pgn", filepath.Join(dir, "all.pgn"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(whole), "\n")
	if !lastLine.MatchString(lines[len(lines)-1]) {
		t.Fatalf("last line %q does not have the promised form", lines[len(lines)-1])
	}
	var files []string
	for _, s := range []string{"0/2", "1/2"} {
		f := filepath.Join(dir, strings.ReplaceAll(s, "/", "of")+".jsonl")
		files = append(files, f)
		if code, _, errs := runCommand(append(base, "-shard", s, "-jsonl", f)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", s, code, errs)
		}
	}
	code, merged, errs := runCommand(append([]string{"merge"}, files...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	mlines := strings.Split(strings.TrimSpace(merged), "\n")
	if mlines[len(mlines)-1] != lines[len(lines)-1] || mlines[1] != lines[1] {
		t.Fatalf("merged summary\n%s\ndiffers from unsharded\n%s", merged, whole)
	}
	if pgn, err := os.ReadFile(filepath.Join(dir, "all.pgn")); err != nil || bytes.Count(pgn, []byte("[Event ")) != 16 {
		t.Fatalf("PGN file: %d games, %v", bytes.Count(pgn, []byte("[Event ")), err)
	}
}

// TestCommandGameLines: off a terminal (a log file, a service) the command
// writes one line per finished game, in order, whose running tally ends as
// the summary's.
func TestCommandGameLines(t *testing.T) {
	code, out, errs := runCommand("-p1", "heuristic", "-p2", "random", "-games", "6", "-nodes", "100", "-seed", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	line := regexp.MustCompile(`^game (\d+): heuristic \((white|black)\) vs random (1-0|0-1|1/2-1/2) [a-z0-9 -]+, \d+ plies, \d+ attempts; \d+ of 6 in [0-9.hms]+, (\d+) to go; p1 (\+\d+ -\d+ =\d+), score \d+\.\d%$`)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines on stderr, want the header and one per game:\n%s", len(lines), errs)
	}
	if want := "kriegbot match: heuristic vs random, 6 games (seed 4), budget 100 nodes an attempt; icc rules, ply cap 600"; lines[0] != want {
		t.Fatalf("header %q, want %q", lines[0], want)
	}
	lines = lines[1:]
	var tally string
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(i+1) || m[4] != strconv.Itoa(5-i) {
			t.Fatalf("line %d %q is not game %d's", i, l, i+1)
		}
		if want := []string{"white", "black"}[i%2]; m[2] != want {
			t.Fatalf("line %d: p1 plays %s, want %s", i, m[2], want)
		}
		tally = m[5]
	}
	if !strings.Contains(out, "heuristic vs random: "+tally+",") {
		t.Fatalf("last game line's tally %q is not the summary's:\n%s", tally, out)
	}
}

// TestCommandBudget: a match without a budget searches DefaultNodes an
// attempt, not the players' emergency answer, and says so in its header and
// summary; -tc and a spec's tc= read 1+1 as a server does, a minute and a
// second (kriegbot tourney's meaning), kept in seconds in the match file.
func TestCommandBudget(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		args   []string
		budget string // p1's, the match's
		fileTC string
	}{
		{nil, "2000 nodes an attempt", "-"},
		{[]string{"-tc", "1+1"}, "tc 1m+1s a side", "60+1"},
		{[]string{"-tc", "10s+0.1"}, "tc 10s+100ms a side", "10+0.1"},
		{[]string{"-movetime", "5ms"}, "movetime 5ms an attempt", "-"},
	} {
		f := filepath.Join(dir, strconv.Itoa(i)+".jsonl")
		args := append([]string{"-p1", "random", "-p2", "random:tc=2+12", "-games", "1", "-jsonl", f}, tc.args...)
		code, out, errs := runCommand(args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		// p2's own tc=2+12 is 2 min + 12 s, as -tc reads it.
		both := "p1 " + tc.budget + ", p2 tc 2m+12s a side"
		header := "kriegbot match: random vs random, 1 games (seed 1), budget " + both
		if tc.args == nil {
			header += " (the default: -nodes, -movetime or -tc sets another)"
		}
		if !strings.HasPrefix(errs, header+"; icc rules, ply cap 600\n") {
			t.Errorf("%q: header %q, want %q", args, strings.SplitN(errs, "\n", 2)[0], header)
		}
		if !strings.Contains(out, "\nbudget: "+both+"\n") {
			t.Errorf("%q: summary %q lacks %q", args, out, "budget: "+both)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			TC    string `json:"tc"`
			Nodes int64  `json:"nodes"`
			P2    struct {
				TC string `json:"tc"`
			} `json:"p2_budget"`
		}
		if err := json.Unmarshal(data[:bytes.IndexByte(data, '\n')], &h); err != nil {
			t.Fatal(err)
		}
		if h.TC != tc.fileTC || h.P2.TC != "120+12" {
			t.Errorf("%q: match file tc %q and p2's %q, want %q and 120+12 (seconds)", args, h.TC, h.P2.TC, tc.fileTC)
		}
		if tc.args == nil && h.Nodes != 2000 {
			t.Errorf("no budget flag: the match file's nodes %d, want 2000", h.Nodes)
		}
	}
	// Both players on their own budgets: the match's default is not theirs.
	_, _, errs := runCommand("-p1", "random:nodes=7", "-p2", "random:movetime=1ms", "-games", "1")
	if !strings.Contains(errs, "budget p1 7 nodes an attempt, p2 movetime 1ms an attempt; icc") {
		t.Errorf("own budgets: header %q", errs)
	}
}

func TestCommandUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-h"}, 0, "usage: kriegbot match"},
		{[]string{"-p1", "heuristic"}, 2, "both -p1 and -p2 are required"},
		{[]string{"-p1", "heuristic", "-p2", "alphazero"}, 2, `unknown kind "alphazero"`},
		{[]string{"-p1", "heuristic:noise=x", "-p2", "random"}, 2, "-p1: players: spec"},
		{[]string{"-p1", "random", "-p2", "random", "-tc", "60+"}, 2, "-tc: clock"},
		{[]string{"-p1", "random", "-p2", "random", "-tc", "60", "-movetime", "1s"}, 2, "exclude each other"},
		{[]string{"-p1", "random", "-p2", "random", "-shard", "2/2"}, 2, `"2/2" is not I/N`},
		{[]string{"-p1", "random", "-p2", "random", "-sprt", "5,0"}, 2, "ELO0 < ELO1"},
		{[]string{"-p1", "random", "-p2", "random", "-rules", "fide"}, 2, `unknown rules "fide"`},
		{[]string{"-p1", "random", "-p2", "random", "-games", "0"}, 2, "at least 1"},
		{[]string{"-p1", "random", "-p2", "random", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-p1", "random", "-p2", "random", "-pgn", "/nonexistent/dir/x.pgn"}, 1, "no such file"},
		{[]string{"-p1", "random", "-p2", "random", "-movetime", "50"}, 2,
			"kriegbot match: -movetime 50: a duration needs a unit, e.g. 50ms or 2s (kriegbot match -h for help)\n"},
		{[]string{"-p1", "random", "-p2", "random", "-overhead", "10 ms"}, 2,
			`-overhead "10 ms": not a duration: write a number with a unit, e.g. 300ms, 2s or 1m30s (units: ns, us, ms, s, m, h)`},
		{[]string{"-p1", "random", "-p2", "random", "-movetime", "-1s"}, 2, "-movetime -1s: must not be negative"},
		{[]string{"-p1", "random", "-p2", "random", "-maxplies", "-5"}, 2, "-maxplies -5: must not be negative"},
		{[]string{"-p1", "random", "-p2", "random", "-games", "many"}, 2, "-games many: not an integer, e.g. -games 200"},
		{[]string{"merge"}, 2, "no files to merge"},
		{[]string{"merge", "/nonexistent.jsonl"}, 1, "no such file"},
	}
	for _, tc := range tests {
		code, _, errs := runCommand(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.err) {
			t.Errorf("match %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.err)
		}
	}
}

// TestStatsCommand runs kriegbot match stats as a user would, on the file
// of a match it played.
func TestStatsCommand(t *testing.T) {
	f := filepath.Join(t.TempDir(), "m.jsonl")
	if code, _, errs := runCommand("-p1", "heuristic", "-p2", "random", "-games", "2", "-nodes", "50", "-seed", "3", "-jsonl", f); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	code, out, errs := runCommand("stats", f)
	if code != 0 || !strings.HasPrefix(out, f+"\n  p1 heuristic: 2 games,") || !strings.Contains(out, "\n  p2 random: 2 games,") {
		t.Fatalf("exit %d, stdout\n%s\nstderr %s", code, out, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats"}, "no files"},
		{[]string{"stats", filepath.Join(t.TempDir(), "none.jsonl")}, "no such file"},
	} {
		if code, _, errs := runCommand(tc.args...); code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}
