package kep

import (
	"context"
	"strings"
	"testing"
)

// TestLogLines: the diagnostics are zerolog's console lines on the log
// writer, one per event (level, message, then the input line as a field),
// and standard output carries protocol lines only.
func TestLogLines(t *testing.T) {
	var out, logw strings.Builder
	in := strings.NewReader("frob\nkep extra\nstop\nisready\n")
	if err := Run(context.Background(), in, &out, &logw, Config{}); err != nil {
		t.Fatal(err)
	}
	want := `WRN unknown command "frob": ignored line=1
WRN kep: unknown words ["extra"] ignored line=2
WRN stop with no search running: ignored line=3
`
	if logw.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", logw.String(), want)
	}
	if !strings.HasSuffix(out.String(), "kepok\nreadyok\n") || strings.Contains(out.String(), "WRN") {
		t.Errorf("standard output %q", out.String())
	}
}
