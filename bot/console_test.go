package bot

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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

// TestStatusLineFits: the terminal's status line fits an 80-column terminal
// with its state and clocks whole, in the worst case of each field; a long
// handle is shortened instead (the walkthrough saw "thinkin").
func TestStatusLineFits(t *testing.T) {
	for _, v := range []statusView{
		{number: 1, opponent: "sparring", plies: 23, clockUs: 57 * time.Second, clockThem: 58 * time.Second, value: 0.12, hasValue: true, state: "thinking"},
		{number: 1, opponent: "sparring", plies: 23, clockUs: 57 * time.Second, clockThem: 58 * time.Second, state: "their turn"},
		{number: 9999, opponent: "AVeryLongHandleOnTheSite_2026", plies: 999, clockUs: 999 * time.Minute, clockThem: 999 * time.Minute,
			value: -1, hasValue: true, state: "their turn"},
		{number: 12, opponent: "Guest0002", plies: 120, clockUs: 12*time.Minute + 34*time.Second, clockThem: time.Hour, value: 1, hasValue: true, state: "our turn"},
	} {
		line := statusLine(v)
		if n := utf8.RuneCountInString(line); n > 79 {
			t.Errorf("%q is %d columns, more than 79", line, n)
		}
		for _, want := range []string{" | " + v.state, fmtClock(v.clockUs) + " them " + fmtClock(v.clockThem), fmt.Sprintf("game %d vs %c", v.number, v.opponent[0])} {
			if !strings.Contains(line, want) {
				t.Errorf("%q lacks %q", line, want)
			}
		}
		if !strings.HasSuffix(line, v.state) {
			t.Errorf("%q does not end with the state %q", line, v.state)
		}
	}
}
