package modelcmd

import (
	"bytes"
	"fmt"
	"kriegbot/engine/oppmodel"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodGame = `[Event "ICC w16 1 0"]
[White "a"]
[Black "b"]
[Result "0-1"]

1. g4 Nh6 2. g5 g6 3. gxh6 Bxh6 4. Nc3 Bg7 5. f3 Bxc3 6. dxc3 e5 7. e4 Qh4#
{White checkmated}
0-1

`

// malformed holds one broken game of each kind between good ones.
func malformedPGN() string {
	var sb strings.Builder
	sb.WriteString(goodGame)
	sb.WriteString("[Event \"illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n")
	sb.WriteString(goodGame)
	sb.WriteString("[Event \"garbage\"]\n[Result \"*\"]\n\n1. zz9 \x00\xff?? *\n\n")
	sb.WriteString("[Event \"huge\"]\n[Result \"*\"]\n\n1. e4 {" + strings.Repeat("y", 300<<10) + "} *\n\n")
	sb.WriteString("[Event \"setup\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[Result \"*\"]\n\n1. Rh2 *\n\n")
	sb.WriteString(goodGame)
	sb.WriteString("[Event \"cut off\"]\n[Result \"*\"]\n\n1. e4 e5 2. N")
	return sb.String()
}

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Command(args, &o, &e)
	return code, o.String(), e.String()
}

func TestBuildWithMalformedGames(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "mixed.pgn")
	if err := os.WriteFile(in, []byte(malformedPGN()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.kbm")
	code, stdout, stderr := run("build", "-o", out, "-source", "test games", in)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "model build: 3 games used, 5 skipped, 42 plies") {
		t.Errorf("summary:\n%s", stdout)
	}
	for _, want := range []string{"skipped: 3 PGN the library refused", "skipped: 1 game too long (bytes)", "skipped: 1 starts from a set-up position (FEN tag)", "phases: opening", "param recapture"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	// Each skip is named with file and line on stderr; no progress when piped.
	for _, want := range []string{"mixed.pgn:10: game skipped", "mixed.pgn:24: game skipped", "mixed.pgn:49: game skipped", "game text longer than"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Error("progress written to a non-terminal")
	}
	c, err := oppmodel.LoadCounts(out)
	if err != nil {
		t.Fatalf("the written model does not load: %v", err)
	}
	if c.Games != [2]uint64{3, 3} || c.Meta.Source != "test games" || c.Meta.Builder != Builder {
		t.Errorf("loaded: games %v meta %+v", c.Games, c.Meta)
	}
	// The skip list is bounded.
	_, _, stderr = run("build", "-o", out, "-show-skips", "1", in)
	if n := strings.Count(stderr, "game skipped"); n != 1 {
		t.Errorf("-show-skips 1 listed %d skips", n)
	}
}

func TestBuildDeterministic(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.pgn")
	os.WriteFile(in, []byte(goodGame+goodGame), 0o644)
	a, b := filepath.Join(dir, "a.kbm"), filepath.Join(dir, "b.kbm")
	if code, _, e := run("build", "-o", a, in); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := run("build", "-o", b, in); code != 0 {
		t.Fatal(e)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Error("the same input built different files")
	}
	c, _ := oppmodel.LoadCounts(a)
	if c.Meta.Source != "PGN: g.pgn" {
		t.Errorf("default source %q", c.Meta.Source)
	}
}

func TestBuildFailures(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.pgn")
	os.WriteFile(broken, []byte("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "missing subcommand"},
		{[]string{"frob"}, 2, "unknown subcommand"},
		{[]string{"build", broken}, 2, "-o FILE is required"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm")}, 2, "no games given"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm"), "-horizon", "0", broken}, 2, "-horizon 0"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm"), "-source", "a\tb", broken}, 2, "unprintable"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm"), broken}, 1, "no usable games (1 skipped)"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm"), filepath.Join(dir, "missing.pgn")}, 1, "missing.pgn"},
		{[]string{"build", "-o", filepath.Join(dir, "no", "such", "dir.kbm"), "-"}, 1, ""},
		{[]string{"show", broken}, 1, "broken.pgn: offset 0: not a kriegbot opponent model"},
		{[]string{"show", "a", "b"}, 2, "one FILE at most"},
		{[]string{"build", "-o", filepath.Join(dir, "x.kbm"), "-games", dir, "-variant", "chess"}, 2, `-variant "chess"`},
		{[]string{"fetch", "-since", "2026/1/1"}, 2, "-since"},
		{[]string{"fetch", "-pause", "1ms"}, 2, "-pause 1ms: at least 100ms"},
		{[]string{"fetch", "-max", "-1"}, 2, "-max -1"},
		{[]string{"fetch", "-user", "../x"}, 2, "username"},
		{[]string{"fetch", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"fetch", "-config", filepath.Join(dir, "missing.toml")}, 2, "missing.toml"},
	}
	for _, tc := range tests {
		code, _, stderr := run(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d stderr %q, want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.kbm")); err == nil {
		t.Error("a failed build wrote its output")
	}
}

func TestShowDefault(t *testing.T) {
	code, stdout, stderr := run("show")
	if code != 0 || !strings.Contains(stdout, "model: embedded default") || !strings.Contains(stdout, "source: ") || !strings.Contains(stdout, "served horizon") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestEval(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.pgn")
	os.WriteFile(in, []byte(malformedPGN()), 0o644)
	model := filepath.Join(dir, "m.kbm")
	if code, _, e := run("build", "-o", model, in); code != 0 {
		t.Fatal(e)
	}
	// Three games are too few for the model to serve any move.
	code, stdout, stderr := run("eval", "-model", model, in)
	if code != 1 || !strings.Contains(stdout, "model eval: "+model+" on 3 games (5 skipped)") || !strings.Contains(stderr, "nothing scored") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = run("eval", in)
	if code != 0 || !strings.Contains(stdout, "embedded default") || !strings.Contains(stdout, "fewer bits than uniform") || strings.Contains(stdout, "NaN") {
		t.Fatalf("eval of the default: exit %d\n%s", code, stdout)
	}
	if code, _, _ := run("eval"); code != 2 {
		t.Errorf("eval without files: exit %d", code)
	}
	if code, _, _ := run("eval", "-model", filepath.Join(dir, "none.kbm"), in); code != 1 {
		t.Errorf("eval with a missing model: exit %d", code)
	}
}

func TestMergeEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	games := strings.Split(malformedPGN(), "[Event")
	half := len(games) / 2
	write := func(name string, parts []string) string {
		p := filepath.Join(dir, name)
		var sb strings.Builder
		for _, g := range parts {
			if g != "" {
				sb.WriteString("[Event" + g)
			}
		}
		os.WriteFile(p, []byte(sb.String()), 0o644)
		return p
	}
	a, b, all := write("a.pgn", games[:half]), write("b.pgn", games[half:]), write("all.pgn", games)
	for _, in := range []string{a, b, all} {
		if code, _, e := run("build", "-source", "s", "-o", in+".kbm", in); code != 0 {
			t.Fatal(e)
		}
	}
	out := filepath.Join(dir, "merged.kbm")
	code, stdout, stderr := run("merge", "-source", "s", "-o", out, a+".kbm", b+".kbm")
	if code != 0 || !strings.Contains(stdout, "games white 3, black 3") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	merged, _ := os.ReadFile(out)
	whole, _ := os.ReadFile(all + ".kbm")
	if !bytes.Equal(merged, whole) {
		t.Error("merging the halves differs from building from all games")
	}
	// The default source joins the parts'.
	if code, _, e := run("merge", "-o", out, a+".kbm", b+".kbm"); code != 0 {
		t.Fatal(e)
	}
	if c, _ := oppmodel.LoadCounts(out); c.Meta.Source != "s + s" {
		t.Errorf("merged source %q", c.Meta.Source)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"merge", a + ".kbm", b + ".kbm"}, 2},
		{[]string{"merge", "-o", out, a + ".kbm"}, 2},
		{[]string{"merge", "-o", out, a + ".kbm", a}, 1},
		{[]string{"merge", "-o", out, "-source", strings.Repeat("x", oppmodel.MaxMetaLen+1), a + ".kbm", b + ".kbm"}, 2},
	} {
		if code, _, _ := run(tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args[:2], code, tc.code)
		}
	}
}

// TestHeldOutSlices: -holdout N splits the stored games by id into the
// slice eval reads and the rest build reads: every game in exactly one,
// about one in N held out, whatever order they come in.
func TestHeldOutSlices(t *testing.T) {
	build, eval := heldOut{Every: 5}, heldOut{Every: 5, Only: true}
	held := 0
	for i := range 1000 {
		id := fmt.Sprintf("%024x", i*7919)
		if build.takes(id) == eval.takes(id) {
			t.Fatalf("game %s is in both slices or in neither", id)
		}
		if eval.takes(id) {
			held++
		}
		if !(heldOut{}).takes(id) {
			t.Fatal("no -holdout must take every game")
		}
	}
	if held < 150 || held > 250 {
		t.Errorf("%d of 1000 held out with -holdout 5", held)
	}
}
