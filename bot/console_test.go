package bot

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestConsoleKinds: piped, only results (and moves with -v) reach stdout and
// the start-up notes go to the notes writer; on a terminal everything is
// shown, and the status line is cleared before each line and redrawn after.
func TestConsoleKinds(t *testing.T) {
	var out, notes bytes.Buffer
	c := NewConsole(&out, false, false, &notes)
	c.say(lineNote, "starting")
	c.say(lineProgress, "logged in")
	c.say(lineMove, "e2e4")
	c.say(lineResult, "game 1: 1-0")
	c.setStatus("status", time.Now())
	if got := out.String(); got != "game 1: 1-0\n" {
		t.Fatalf("piped stdout %q, want the result alone", got)
	}
	if got := notes.String(); got != "starting\n" {
		t.Fatalf("piped notes %q", got)
	}

	out.Reset()
	v := NewConsole(&out, false, true, nil)
	v.say(lineMove, "e2e4")
	if out.String() != "e2e4\n" {
		t.Fatalf("-v piped: %q, want the move line", out.String())
	}

	out.Reset()
	tty := NewConsole(&out, true, false, nil)
	tty.say(lineNote, "starting")
	tty.setStatus("game 1 | ply 3", time.Now())
	tty.say(lineProgress, "logged in")
	tty.Close()
	got := out.String()
	for _, want := range []string{"starting\n", "game 1 | ply 3", "\r              \r", "logged in\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal output %q lacks %q", got, want)
		}
	}
	if !strings.HasSuffix(got, "\r              \r") {
		t.Errorf("terminal output %q does not end with the status line cleared", got)
	}
	var nilConsole *Console
	nilConsole.say(lineResult, "ignored") // a daemon without a console
	nilConsole.Close()
}
