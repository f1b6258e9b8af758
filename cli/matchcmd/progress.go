package matchcmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kriegbot/internal/cmdflag"
	"kriegbot/match"
)

// progress draws one status line on a terminal, at most ten times a second;
// elsewhere (a log file, nohup, a service) it writes a line per finished game,
// so that a long match shows how it goes before its summary.
type progress struct {
	w    io.Writer
	on   bool
	last time.Time
	drew bool
	// lastLine is when the last plain line was written; a held game's line
	// is written only after quiet without one (heldQuiet).
	lastLine time.Time
	quiet    time.Duration
}

// heldQuiet: a game held is told in a log only when nothing was written for
// this long; a quick match would print most of its games twice.
const heldQuiet = 30 * time.Second

func newProgress(stderr io.Writer) *progress {
	p := &progress{w: stderr, quiet: heldQuiet, lastLine: time.Now()}
	p.on = cmdflag.IsTerminal(stderr)
	return p
}

func (p *progress) update(s match.Summary, g match.GameLine) {
	if !p.on {
		p.gameLine(s, g)
		return
	}
	if time.Since(p.last) < 100*time.Millisecond && s.Tally.N() < s.Planned {
		return
	}
	p.last = time.Now()
	t := s.Tally
	rate := float64(t.N()-s.Resumed) / s.Elapsed.Seconds()
	const width = 20
	filled := width * t.N() / max(s.Planned, 1)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	fmt.Fprintf(p.w, "\r\x1b[K[%s] %d/%d games  +%d -%d =%d  score %.1f%%  %s  %.1f games/s",
		bar, t.N(), s.Planned, t.W, t.L, t.D, 100*t.Score(), t.EloText(), rate)
	if s.Held > 0 {
		fmt.Fprintf(p.w, "  (%d more finished)", s.Held)
	}
	p.drew = true
}

// gameLine writes the plain line of one finished game (its number is the
// match's, from 1, whichever shard plays it), for instance
//
//	game 7: mcts (black) vs heuristic 0-1 checkmate, 212 plies, 530 attempts; 7 of 20 in 1h21m5s, 13 to go; p1 +4 -1 =2, score 71.4%
func (p *progress) gameLine(s match.Summary, g match.GameLine) {
	p.lastLine = time.Now()
	t := s.Tally
	io.WriteString(p.w, gameHead(s, g))
	if g.Error != "" {
		fmt.Fprintf(p.w, " (%s)", g.Error)
	}
	took := s.Elapsed.Round(time.Second)
	if s.Elapsed < 10*time.Second {
		took = s.Elapsed.Round(time.Millisecond)
	}
	fmt.Fprintf(p.w, "; %d of %d in %v, %d to go; p1 +%d -%d =%d, score %.1f%%\n",
		t.N(), s.Planned, took, s.Planned-t.N(), t.W, t.L, t.D, 100*t.Score())
}

// held tells of a game that finished while an earlier one is still in play
// (kept in the held file until that one ends): on a terminal the status
// line, which counts the waiting games, is redrawn; in a log a line is
// written if none was for p.quiet, so that a long match held up by one
// long game still shows how it goes.
func (p *progress) held(s match.Summary, g match.GameLine, waitsFor int) {
	if p.on {
		p.last = time.Time{}
		p.update(s, g)
		return
	}
	if time.Since(p.lastLine) < p.quiet {
		return
	}
	p.lastLine = time.Now()
	fmt.Fprintf(p.w, "%s; finished, counted once game %d ends (%d waiting)\n", gameHead(s, g), waitsFor+1, s.Held)
}

// gameHead is the start of a finished game's line: "game 7: mcts (black)
// vs heuristic 0-1 checkmate, 212 plies, 530 attempts".
func gameHead(s match.Summary, g match.GameLine) string {
	return fmt.Sprintf("game %d: %s (%s) vs %s %s %s, %d plies, %d attempts",
		g.Game+1, s.P1, g.P1, s.P2, g.Result, g.Termination, g.Plies, g.Attempts)
}

func (p *progress) done() {
	if p.drew {
		fmt.Fprintln(p.w)
	}
}
