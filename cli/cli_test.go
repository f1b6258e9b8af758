package cli

import (
	"bytes"
	"strings"
	"testing"
)

func run(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, out, _ := run("-h")
	if code != 0 {
		t.Fatalf("kriegbot -h: exit %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help lacks %q:\n%s", c.name, out)
		}
		// Every command answers -h with exit 0.
		if code, _, errOut := run(c.name, "-h"); code != 0 || errOut == "" {
			t.Errorf("kriegbot %s -h: exit %d, usage %q", c.name, code, errOut)
		}
	}
}

func TestBadUsageExitsTwoWithOneLine(t *testing.T) {
	for _, args := range [][]string{{}, {"nosuch"}, {"bench", "-nosuchflag"}, {"umpire"}, {"umpire", "verify"}, {"umpire", "verify", "-rules", "fide", "x"}} {
		code, _, errOut := run(args...)
		if code != 2 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("kriegbot %v: exit %d, stderr %q; want exit 2 and one line", args, code, errOut)
		}
	}
}

// TestFlagUsageNamesTypes: every flag line of every command's -h reads
// "-name" or "-name TYPE". A backquoted word in a flag's usage becomes its
// argument name in Go's listing: serve -h used to print
// "-accounts kriegbot serve hash".
func TestFlagUsageNamesTypes(t *testing.T) {
	types := map[string]bool{"string": true, "int": true, "uint": true, "int64": true, "uint64": true,
		"float": true, "duration": true, "value": true}
	for _, c := range commands() {
		_, _, usage := run(c.name, "-h")
		for _, line := range strings.Split(usage, "\n") {
			if !strings.HasPrefix(line, "  -") {
				continue
			}
			head, _, _ := strings.Cut(line, "\t") // a one-letter flag's usage follows a tab
			f := strings.Fields(head)
			if len(f) > 2 || len(f) == 2 && !types[f[1]] {
				t.Errorf("kriegbot %s -h: flag line %q names no type", c.name, line)
			}
		}
	}
}

// TestVersion: the version command names the play hash, and its build id is
// the one game records carry.
func TestVersion(t *testing.T) {
	code, out, _ := run("version")
	if code != 0 || !strings.Contains(out, "play:") || !strings.Contains(out, "build id: play=") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, id, _ := run("version", "-id")
	if code != 0 || !strings.HasPrefix(id, "play=") || strings.Count(id, "\n") != 1 {
		t.Fatalf("exit %d: %q", code, id)
	}
	if code, _, _ := run("version", "x"); code != 2 {
		t.Fatalf("version x: exit %d", code)
	}
}
