package beliefcmd

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// firstGames returns the first n lines of the public fixture file.
func firstGames(t testing.TB, n int) []byte {
	t.Helper()
	f, err := os.Open(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var out bytes.Buffer
	for i := 0; i < n && sc.Scan(); i++ {
		out.Write(sc.Bytes())
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// publicGames is the umpire's public fixture file.
const publicGames = "../../engine/umpire/testdata/wild16-games.jsonl.gz"

var lastLine = regexp.MustCompile(`^belief check: (\d+) games, (\d+) soundness violations, legal log-loss (\d+\.\d+) \(constant (\d+\.\d+)\)$`)

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "three.jsonl")
	if err := os.WriteFile(plain, firstGames(t, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.jsonl.gz")
	whole, err := os.ReadFile(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, whole[:len(whole)/50], 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, append(firstGames(t, 1), "{\"id\":\"x\"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		out  string // a line the output must hold
		err  string // text stderr must hold
	}{
		{"plain and gzip", []string{"check", plain, publicGames}, 0, "", ""},
		{"breakdown", []string{"check", "-v", plain}, 0, "legality by kind of attempt", ""},
		{"default model", []string{"check", "-model", "default", plain}, 0, "", ""},
		{"bad line", []string{"check", bad}, 1, "bad input: line 2", ""},
		{"missing file", []string{"check", filepath.Join(dir, "nope")}, 1, "", "no such file"},
		{"truncated gzip", []string{"check", truncated}, 1, "belief check: ", "unexpected EOF"},
		{"missing model", []string{"check", "-model", filepath.Join(dir, "nope"), plain}, 1, "", "nope"},
		{"no file", []string{"check"}, 2, "", "missing FILE"},
		{"bad flag", []string{"check", "-x", plain}, 2, "", "-x"},
		{"no subcommand", nil, 2, "", "usage"},
		{"unknown subcommand", []string{"verify"}, 2, "", "unknown subcommand"},
		{"help", []string{"check", "-h"}, 0, "", "usage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "plain and gzip" && testing.Short() {
				t.Skip("reads all 400 games")
			}
			var out, errOut bytes.Buffer
			code := Command(c.args, &out, &errOut)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, c.code, out.String(), errOut.String())
			}
			if c.out != "" && !strings.Contains(out.String(), c.out) {
				t.Errorf("stdout lacks %q:\n%s", c.out, out.String())
			}
			if c.err != "" && !strings.Contains(errOut.String(), c.err) {
				t.Errorf("stderr lacks %q:\n%s", c.err, errOut.String())
			}
			if c.code == 0 && len(c.args) > 1 && c.args[1] != "-h" {
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				m := lastLine.FindStringSubmatch(lines[len(lines)-1])
				if m == nil {
					t.Fatalf("last line %q", lines[len(lines)-1])
				}
				if c.name == "plain and gzip" && m[1] != "403" {
					t.Errorf("games %s, want 403", m[1])
				}
			}
		})
	}
}

// TestCommandVariantFiles checks that a variant fixture file is reported on
// its own, named by its variant, beside the wild 16 figures.
func TestCommandVariantFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open("../../engine/umpire/testdata/variants/crazykrieg.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var two bytes.Buffer
	for i := 0; i < 2 && sc.Scan(); i++ {
		two.Write(sc.Bytes())
		two.WriteByte('\n')
	}
	variant := filepath.Join(dir, "crazykrieg.jsonl")
	wild := filepath.Join(dir, "wild16.jsonl")
	if err := os.WriteFile(variant, two.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wild, firstGames(t, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Command([]string{"check", variant, wild}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !regexp.MustCompile(`(?m)^belief check: crazykrieg 2 games, 0 soundness violations, legal log-loss \d`).MatchString(out) {
		t.Errorf("no crazykrieg report line in:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if m := lastLine.FindStringSubmatch(lines[len(lines)-1]); m == nil || m[1] != "2" {
		t.Errorf("last line %q: want the wild 16 figures over 2 games", lines[len(lines)-1])
	}
}

func TestCommandRandom(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Command([]string{"check", "-random", "3", "-rules", "rand, crazykrieg", "-seed", "4"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	for _, v := range []string{"rand", "crazykrieg"} {
		if !regexp.MustCompile(`(?m)^belief check: ` + v + ` 3 games, 0 soundness violations`).MatchString(stdout.String()) {
			t.Errorf("no %s report in:\n%s", v, stdout.String())
		}
	}
	for _, args := range [][]string{{"check", "-random", "3", "-rules", "chess"}, {"check", "-random", "3", "x.jsonl"}} {
		stderr.Reset()
		if code := Command(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0, want a usage error", args)
		}
	}
}
