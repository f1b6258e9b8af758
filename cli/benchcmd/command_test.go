package benchcmd

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func TestCommandLines(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Command([]string{"-only", "umpire", "-min", "1ms"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	fields := strings.Fields(out.String())
	if len(fields) != 3 || fields[0] != "umpire" || fields[2] != "attempts/s" {
		t.Fatalf("output %q, want one line: umpire <value> attempts/s", out.String())
	}
	if v, err := strconv.ParseFloat(fields[1], 64); err != nil || v <= 0 {
		t.Errorf("value %q", fields[1])
	}
	if code := Command([]string{"-only", "nosuch"}, &out, &errOut); code != 2 {
		t.Errorf("unknown figure: exit %d, want 2", code)
	}
	if code := Command([]string{"extra"}, &out, &errOut); code != 2 {
		t.Errorf("stray argument: exit %d, want 2", code)
	}
}
