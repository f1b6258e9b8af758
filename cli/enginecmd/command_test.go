package enginecmd

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Command([]string{"extra"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unexpected argument "extra"`) {
		t.Errorf("engine extra: exit %d, stderr %q; want 2 and the argument named", code, errOut.String())
	}
	errOut.Reset()
	if code := Command([]string{"-h"}, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "usage: kriegbot engine") {
		t.Errorf("engine -h: exit %d, stderr %q", code, errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("usage wrote to standard output: %q", out.String())
	}
}
