package bot

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/protocol"
	"kriegbot/record"
)

// Asking the server about games: the move list ("moves N") is the one
// question, and its answer serves three ends. During a game it resyncs the
// player (resync.go). After a game it completes the record with the revealed
// moves (the PGN). And after a reconnection it tells what became of a game
// the server did not give back: the server (ours, like FICS) ends a finished
// game's list with a "{why} result" line, which is the game's result as the
// server recorded it. A game is never written off as lost by us: only if the
// server says it knows no such game is it recorded with the result "*".
//
// An answer lost to the connection (a cut, a restart, garbage) is asked for
// again: at the next connection, and on a timer while the question stays
// open, a bounded number of times.

// pendingList is a finished game whose full move list has not come yet.
type pendingList struct {
	r     *record.Writer
	asked time.Time // the last question
	asks  int       // questions so far; maxAsks gives up
}

// maxAsks bounds the questions about one game's move list (its PGN) or one
// game the server did not give back; askAgain is the wait between two.
const (
	maxAsks  = 4
	askAgain = 5 * time.Second
)

// listing is the move list being received for a game the server did not
// give back: DG 25 came and agrees with what we heard; its header and result
// lines (text) follow.
type listing struct {
	game  int
	run   *gameRun
	sans  []string
	named bool // the header named our game's players
}

// askMoves asks for game n's move list and remembers the question, so that
// an answer naming no game ("No such game.") can be matched to it: the
// server answers one client's commands in order.
func (d *Daemon) askMoves(n int) {
	d.asked = append(d.asked, n)
	if len(d.asked) > 64 { // answers lost: the oldest questions are stale
		d.asked = d.asked[len(d.asked)-64:]
	}
	d.sess.Send(fmt.Sprintf("moves %d", n))
}

// answered takes the question a move list of game n answers (and those
// before it, whose answers were lost).
func (d *Daemon) answered(n int) {
	for i, q := range d.asked {
		if q == n {
			d.asked = d.asked[i+1:]
			return
		}
	}
}

// askAfterReconnect asks about every game in flight: those we were playing
// (did the server end them while we were away?) and those whose move list
// had not come.
func (d *Daemon) askAfterReconnect(now time.Time) {
	d.asked, d.list = nil, nil
	for num, g := range d.games {
		g.asked, g.asks = now, 1
		d.askMoves(num)
	}
	for _, p := range d.recent {
		if p.open() {
			p.asked, p.asks = now, p.asks+1
			d.askMoves(p.r.Number())
		}
	}
}

// open reports a finished game whose move list is still worth asking for.
func (p *pendingList) open() bool {
	done, _ := p.r.Done()
	return done && !p.r.Complete() && p.asks < maxAsks
}

// askAgainIfLost re-asks, on the timer, for move lists whose answer did not
// come.
func (d *Daemon) askAgainIfLost(now time.Time) {
	for _, p := range d.recent {
		if p.open() && now.Sub(p.asked) >= askAgain {
			p.asked, p.asks = now, p.asks+1
			if p.asks < maxAsks {
				d.askMoves(p.r.Number())
			}
		}
	}
}

// staleList handles DG 25 for a game we were playing that the server did not
// give back: a revealed list that agrees with what we heard means the game
// is over, and the text that follows says how.
func (d *Daemon) staleList(g *gameRun, v protocol.MoveListDG) {
	sans := revealed(v)
	if sans == nil {
		return // moves hidden: still in progress, and ours (DG 15 resumes it)
	}
	if r := g.drv.Record(); r != nil && !r.Agrees(sans) || len(sans) < g.t.Plies() {
		// Numbers are unique while a server runs: this one restarted, and
		// knows nothing of our game.
		d.opt.Log.Warn().Int("game", v.Game).Int("plies", len(sans)).Msg("the server's game of that number is another game (restarted?): our game's result is unknown")
		g.t.Ended("*", "", "unknown: the server did not resume the game and knows no result")
		g.drv.Stop()
		return
	}
	d.list = &listing{game: v.Game, run: g, sans: sans}
}

// listText reads the text lines of a move list answer; it reports whether
// line was one (not referee text).
func (d *Daemon) listText(line string, now time.Time) bool {
	line = strings.TrimSpace(strings.TrimPrefix(line, "aics%"))
	switch {
	case line == "No such game.":
		d.unknownGame(now)
		return true
	case strings.HasPrefix(line, "Kriegspiel games in progress cannot be observed"):
		// A game of that number is in progress and not ours on this
		// connection: ours, not given back yet, or another's after a restart.
		if len(d.asked) > 0 {
			d.asked = d.asked[1:]
		}
		return true
	}
	if h, ok := protocol.ParseMoveListHeader(line); ok {
		if l := d.list; l != nil {
			l.named = l.game == h.Game && d.playersOf(l.run, h.White, h.Black)
			if !l.named {
				d.list = nil
			}
		}
		return true
	}
	if why, result, ok := protocol.ParseMoveListResult(line); ok && d.list != nil && d.list.named {
		l := d.list
		d.list = nil
		if d.games[l.game] == l.run && !l.run.stale.IsZero() {
			d.endedAway(l.game, l.run, result, why, l.sans, now)
		}
		return true
	}
	return false
}

// playersOf reports whether white and black are g's players.
func (d *Daemon) playersOf(g *gameRun, white, black string) bool {
	names := [2]string{white, black}
	us := g.t.Us()
	return strings.EqualFold(names[us], d.sess.Handle()) && strings.EqualFold(names[1-us], g.t.Opponent())
}

// unknownGame handles "No such game.", the answer to the oldest open
// question: a game we were playing is recorded with an unknown result; a
// finished game's move list is not asked for again.
func (d *Daemon) unknownGame(now time.Time) {
	if len(d.asked) == 0 {
		return
	}
	n := d.asked[0]
	d.asked = d.asked[1:]
	if g := d.games[n]; g != nil && !g.stale.IsZero() {
		d.opt.Log.Warn().Int("game", n).Msg("the server knows no such game any more (restarted?): its result is unknown")
		g.t.Ended("*", "", "unknown: the server did not resume the game and knows no result")
		g.drv.Stop()
		return
	}
	if p := d.findPending(n); p != nil {
		p.asks = maxAsks
	}
}

// endedAway records the result the server gave for a game that ended while
// we were away, and its moves.
func (d *Daemon) endedAway(num int, g *gameRun, result, why string, sans []string, now time.Time) {
	d.opt.Log.Warn().Int("game", num).Str("result", result).Str("reason", why).Msg("the game ended while we were away: the server's result")
	g.t.Ended(result, "", why)
	d.finish(num, g, sans, now)
}

// staleTick asks again about a game the server did not give back, and
// records it as unknown once the questions are used up without an answer.
func (d *Daemon) staleTick(num int, g *gameRun, now time.Time) {
	if now.Sub(g.asked) < d.staleAfter() {
		return
	}
	if g.asks < maxAsks {
		g.asked, g.asks = now, g.asks+1
		d.askMoves(num)
		return
	}
	d.opt.Log.Warn().Int("game", num).Int("questions", g.asks).Msg("the server neither gave the game back nor said how it ended: its result is unknown")
	g.t.Ended("*", "", "unknown: the server did not resume the game and did not answer about it")
	g.drv.Stop()
}
