package bot

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/turntext"
)

// What the console shows of the games: the verbose move lines and the
// terminal's status line (console.go prints them).

// showAnswers prints our attempts' answers and the opponent's moves as the
// player hears them (verbose console).
func (d *Daemon) showAnswers(g *gameRun, ev []players.Event) {
	c := d.opt.Console
	if c == nil || !c.verbose {
		return
	}
	for _, e := range ev {
		if e.Kind != players.Answer || !e.View.Heard {
			continue
		}
		v := e.View
		words := saidText(v)
		move := (g.t.Plies() + 1) / 2
		if !v.Own {
			c.say(lineMove, "  g%d %d%s (hidden): %s", g.t.Number(), (g.t.Plies()+1)/2, dots(g.t.Us().Other()), words)
			continue
		}
		if v.Illegal {
			move = g.t.Plies()/2 + 1
		}
		a := g.lastAttempt
		info := fmt.Sprintf("%.2f s", a.Elapsed.Seconds())
		if a.Iterations > 0 {
			info += fmt.Sprintf(", %d iterations", a.Iterations)
		}
		if a.HasValue {
			info = fmt.Sprintf("value %+.2f, ", a.Value) + info
		}
		c.say(lineMove, "  g%d %d%s %s: %s  (%s)", g.t.Number(), move, dots(g.t.Us()), v.Move, words, info)
	}
}

// saidText is what the referee said of an answer, for people: the
// announcements joined, or "nothing said".
func saidText(v umpire.View) string {
	if w, ok := turntext.Words(v); ok { // "asked Any?: ...", "an attempt refused"
		return w
	}
	if w := v.Words(); len(w) > 0 {
		return strings.Join(w, ", ")
	}
	return "nothing said"
}

// dots is "." after White's move number and "..." after Black's.
func dots(c chess.Color) string {
	if c == chess.White {
		return "."
	}
	return "..."
}

// showStatus rewrites the terminal's status line: the game in progress,
// its clocks and the last value, or what the bot waits for.
func (d *Daemon) showStatus(now time.Time) {
	c := d.opt.Console
	if c == nil || !c.tty {
		return
	}
	for _, g := range d.games {
		us := g.t.Us()
		state := "their turn"
		if g.drv.Thinking() {
			state = "thinking"
		} else if g.t.OurTurn() {
			state = "our turn"
		}
		line := statusLine(statusView{number: g.t.Number(), opponent: g.t.Opponent(), plies: g.t.Plies(),
			clockUs: g.t.Clock(us, now), clockThem: g.t.Clock(us.Other(), now),
			value: g.lastAttempt.Value, hasValue: g.lastAttempt.HasValue, state: state})
		c.setStatus(line, now)
		return
	}
}

// statusWidth is the status line's most columns: one less than an 80-column
// terminal, whose last column would wrap the line on some terminals.
const statusWidth = 79

// statusView is what the status line shows of a game.
type statusView struct {
	number, plies      int
	opponent, state    string
	clockUs, clockThem time.Duration
	value              float64
	hasValue           bool
}

// statusLine is the status line of a game, at most statusWidth columns: the
// opponent's handle is shortened (ending in "~") rather than the state or
// the clocks cut.
func statusLine(v statusView) string {
	value := ""
	if v.hasValue {
		value = fmt.Sprintf(" | value %+.2f", v.value)
	}
	rest := fmt.Sprintf(" | ply %d | us %s them %s%s | %s", v.plies, fmtClock(v.clockUs), fmtClock(v.clockThem), value, v.state)
	head := fmt.Sprintf("game %d vs ", v.number)
	opp := []rune(v.opponent)
	if room := statusWidth - utf8.RuneCountInString(head+rest); len(opp) > room {
		opp = append(opp[:max(room-1, 1)], '~')
	}
	return head + string(opp) + rest
}
