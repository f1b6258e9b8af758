package bot

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Console is what a person running the bot sees on standard output. On a
// terminal it talks: connected, logged in, waiting, each game's start, a
// line per attempt when verbose, each result, and a status line that is
// rewritten in place. Piped, it prints only the results (and the attempt
// lines when verbose), so a script reads one line per game.
type Console struct {
	mu      sync.Mutex
	w       io.Writer
	notes   io.Writer // where the start-up lines go when w is piped (stderr)
	tty     bool
	verbose bool
	status  string // the status line on screen (tty), "" for none
	last    time.Time
}

// NewConsole writes to w; tty says w is a terminal (status line, progress
// lines); verbose adds a line per attempt and per answer. notes, when w is
// piped, gets the few start-up lines (what runs, how long it takes), so
// that a person still sees them while a script reads only results.
func NewConsole(w io.Writer, tty, verbose bool, notes io.Writer) *Console {
	return &Console{w: w, tty: tty, verbose: verbose, notes: notes}
}

// line kinds.
type lineKind uint8

const (
	lineNote     lineKind = iota // start-up: stdout on a terminal, else notes
	lineProgress                 // connection, waiting, game start: terminal only
	lineMove                     // attempts and answers: when verbose
	lineResult                   // results and summaries: always
)

// Note prints a start-up line: on a terminal to w, else to notes (what
// runs, how long it takes), so that a script reading w sees only results.
func (c *Console) Note(format string, args ...any) { c.say(lineNote, format, args...) }

// say prints one line of kind k (nil Console: nothing).
func (c *Console) say(k lineKind, format string, args ...any) {
	if c == nil {
		return
	}
	switch {
	case k == lineProgress && !c.tty, k == lineMove && !c.verbose:
		return
	case k == lineNote && !c.tty:
		if c.notes != nil {
			fmt.Fprintf(c.notes, format+"\n", args...)
		}
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearStatus()
	fmt.Fprintf(c.w, format+"\n", args...)
	c.drawStatus()
}

// setStatus replaces the status line (terminal only), at most twice a second.
func (c *Console) setStatus(s string, now time.Time) {
	if c == nil || !c.tty {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == c.status || (s != "" && now.Sub(c.last) < 500*time.Millisecond) {
		return
	}
	c.last = now
	c.clearStatus()
	c.status = s
	c.drawStatus()
}

func (c *Console) clearStatus() {
	if c.tty && c.status != "" {
		fmt.Fprintf(c.w, "\r%s\r", strings.Repeat(" ", len(c.status)))
	}
}

func (c *Console) drawStatus() {
	if c.tty && c.status != "" {
		io.WriteString(c.w, c.status)
	}
}

// Close removes the status line.
func (c *Console) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearStatus()
	c.status = ""
}
