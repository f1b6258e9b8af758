package cmdflag

import (
	"bytes"
	"flag"
	"strings"
	"testing"
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
