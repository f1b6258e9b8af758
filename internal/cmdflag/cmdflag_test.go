package cmdflag

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	newSet := func() *flag.FlagSet {
		fs := flag.NewFlagSet("demo", flag.ContinueOnError)
		fs.Int("n", 1, "a number")
		fs.Usage = func() { fs.Output().Write([]byte("usage: demo\n")) }
		return fs
	}
	var errOut bytes.Buffer
	if code, done := Parse(newSet(), []string{"-n", "3", "x"}, &errOut); done || code != OK || errOut.Len() != 0 {
		t.Errorf("good args: code %d done %v output %q", code, done, errOut.String())
	}
	if code, done := Parse(newSet(), []string{"-h"}, &errOut); !done || code != OK || errOut.String() != "usage: demo\n" {
		t.Errorf("-h: code %d done %v output %q", code, done, errOut.String())
	}
	errOut.Reset()
	code, done := Parse(newSet(), []string{"-n", "x"}, &errOut)
	if !done || code != Usage || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "kriegbot demo:") {
		t.Errorf("bad flag: code %d done %v output %q, want one line", code, done, errOut.String())
	}
}

func TestParseExplainsValues(t *testing.T) {
	newSet := func() *flag.FlagSet {
		fs := flag.NewFlagSet("demo", flag.ContinueOnError)
		fs.Duration("movetime", 0, "time per attempt")
		fs.Int("games", 200, "games")
		fs.Int64("nodes", 0, "nodes")
		fs.Int("limit", -1, "a limit; -1 for none")
		fs.Uint64("seed", 1, "seed")
		fs.Float64("alpha", 0.05, "alpha")
		fs.Bool("check", false, "check")
		fs.String("name", "", "a string")
		return fs
	}
	const help = " (kriegbot demo -h for help)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-movetime", "50"}, "kriegbot demo: -movetime 50: a duration needs a unit, e.g. 50ms or 2s" + help},
		{[]string{"-movetime=1.5"}, "kriegbot demo: -movetime 1.5: a duration needs a unit, e.g. 1.5ms or 2s" + help},
		{[]string{"-movetime", "2 sec"}, `kriegbot demo: -movetime "2 sec": not a duration: write a number with a unit, e.g. 300ms, 2s or 1m30s (units: ns, us, ms, s, m, h)` + help},
		{[]string{"-movetime", ""}, `kriegbot demo: -movetime "": not a duration: write a number with a unit, e.g. 300ms, 2s or 1m30s (units: ns, us, ms, s, m, h)` + help},
		{[]string{"-games", "ten"}, "kriegbot demo: -games ten: not an integer, e.g. -games 200" + help},
		{[]string{"-nodes", "1e3"}, "kriegbot demo: -nodes 1e3: not an integer" + help},
		{[]string{"-limit", "none"}, "kriegbot demo: -limit none: not an integer" + help}, // -1 is no example
		{[]string{"-games", "99999999999999999999"}, "kriegbot demo: -games 99999999999999999999: integer out of range" + help},
		{[]string{"-seed", "-1"}, "kriegbot demo: -seed -1: not a whole number (0, 1, 2, ...), e.g. -seed 1" + help},
		{[]string{"-alpha", "5%"}, "kriegbot demo: -alpha 5%: not a number, e.g. -alpha 0.05" + help},
		{[]string{"-check=maybe"}, "kriegbot demo: -check=maybe: not a boolean: write -check, -check=true or -check=false" + help},
		{[]string{"-movetime"}, "kriegbot demo: flag needs an argument: -movetime" + help},
		{[]string{"-nope"}, "kriegbot demo: flag provided but not defined: -nope" + help},
	} {
		var errOut bytes.Buffer
		code, done := Parse(newSet(), tc.args, &errOut)
		if !done || code != Usage || errOut.String() != tc.want {
			t.Errorf("%q: code %d done %v\n got %q\nwant %q", tc.args, code, done, errOut.String(), tc.want)
		}
	}
	// Good values still parse, booleans without a value included, and the
	// flag set is left with its own values.
	fs := newSet()
	var errOut bytes.Buffer
	if code, done := Parse(fs, []string{"-movetime", "50ms", "-check", "-seed", "7", "-alpha", "0.1", "-name", "x"}, &errOut); done || code != OK {
		t.Fatalf("good flags: code %d done %v output %q", code, done, errOut.String())
	}
	if got := fs.Lookup("movetime").Value.(flag.Getter).Get(); got != 50*time.Millisecond {
		t.Errorf("-movetime = %v", got)
	}
	if got := fs.Lookup("check").Value.String(); got != "true" {
		t.Errorf("-check = %v", got)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(*explained); ok {
			t.Errorf("-%s still wrapped after Parse", f.Name)
		}
	})
}

func TestSetUsage(t *testing.T) {
	withFlags := flag.NewFlagSet("demo", flag.ContinueOnError)
	withFlags.Int("n", 1, "a number")
	SetUsage(withFlags, "demo [-n N]", "Does a demo.\n")
	bare := flag.NewFlagSet("bare", flag.ContinueOnError)
	SetUsage(bare, "bare", "Takes no flags.\n")
	for _, c := range []struct {
		fs   *flag.FlagSet
		want string
	}{
		{withFlags, "usage: kriegbot demo [-n N]\n\nDoes a demo.\n\nFlags:\n  -n int\n    \ta number (default 1)\n"},
		{bare, "usage: kriegbot bare\n\nTakes no flags.\n"},
	} {
		var out bytes.Buffer
		if code, done := Parse(c.fs, []string{"-h"}, &out); !done || code != OK {
			t.Errorf("%s -h: code %d done %v", c.fs.Name(), code, done)
		}
		if out.String() != c.want {
			t.Errorf("%s -h printed\n%q\nwant\n%q", c.fs.Name(), out.String(), c.want)
		}
	}
}

func TestIsSet(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("config", "config.toml", "")
	fs.Bool("v", false, "")
	if err := fs.Parse([]string{"-v"}); err != nil {
		t.Fatal(err)
	}
	if !IsSet(fs, "v") || IsSet(fs, "config") || IsSet(fs, "nosuch") {
		t.Errorf("IsSet: v %v, config %v", IsSet(fs, "v"), IsSet(fs, "config"))
	}
}
