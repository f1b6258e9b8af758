package bot

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/protocol"
	"kriegbot/record"
	"kriegbot/track/iccgame"
)

// A game given back after a reconnection comes as a DG 15 with its number
// and then its move list (DG 25). After a server restart the numbers start
// again, so a DG 15 with the number of a game we still hold may be another
// game: it is taken for the same one only when it has the same players,
// colours and time control (sameGame) and its move list continues what we
// heard (continues). Otherwise the old game ends with "*" in its own record
// and the new one gets a record of its own.

// resumption is a game given back whose move list has not come yet: old is
// the game as we held it (its driver stopped), whose record the new run
// writes to meanwhile.
type resumption struct {
	old *gameRun
}

// sameGame reports whether a DG 15 can give back old: same players in the
// same colours and the same time control.
func sameGame(old *gameRun, v protocol.MyGameStartedDG, us chess.Color) bool {
	t := iccgame.New(v, us, time.Time{})
	return old.t.Us() == us && strings.EqualFold(old.t.Opponent(), t.Opponent()) && old.t.Control() == t.Control()
}

// openGame makes the run of the game v starts (its tracker, driver, player
// and record): in the record of the game it resumes, else in a new one.
func (d *Daemon) openGame(v protocol.MyGameStartedDG, us chess.Color, resumed *resumption, now time.Time) (*gameRun, uint64, error) {
	t := iccgame.New(v, us, now)
	g := &gameRun{d: d, t: t, resumed: resumed}
	var rec *record.Writer
	var spec players.Spec
	if resumed != nil {
		rec, spec = resumed.old.drv.Record(), resumed.old.drv.Spec()
		g.own = resumed.old.own
	}
	g.dg = v
	seed, err := d.startGame(gameStart{us: us, me: d.sess.Handle(), control: t.Control(), number: v.Game, opp: t.Opponent(), learn: true,
		line: record.GameLine{Game: v.Game, White: v.White, Black: v.Black, BaseMin: v.WhiteInitial, IncS: v.WhiteIncrement,
			Rated: v.Rated, Wild: v.Wild},
		resumed: rec, spec: spec}, &g.seat, now)
	return g, seed, err
}

// continues reports whether the server's move list can be the game we held:
// at least as many moves as we heard, and our accepted moves among our
// side's moves, in order (some may have been missed, never invented).
func continues(old *gameRun, v protocol.MoveListDG) bool {
	if len(v.Moves) < old.t.Plies() {
		return false
	}
	us, next := old.t.Us(), 0
	for i, mv := range v.Moves {
		if chess.Color(i%2) != us || mv.Hidden || next == len(old.own) {
			continue
		}
		if m, err := chess.ParseUCI(strings.ToLower(mv.Smith)); err == nil && m.String() == old.own[next].String() {
			next++
		}
	}
	return next == len(old.own)
}

// resumedList settles a resumption with the game's move list: the same game
// goes on in its record; another game (a restarted server's, under the same
// number) ends the old one with "*" and starts afresh in a record of its
// own. It returns the run the list is for.
func (d *Daemon) resumedList(g *gameRun, v protocol.MoveListDG) *gameRun {
	old := g.resumed.old
	g.resumed = nil
	if continues(old, v) {
		return g
	}
	now := d.opt.Now()
	num := g.t.Number()
	d.opt.Log.Warn().Int("game", num).Int("plies_heard", old.t.Plies()).Int("plies_listed", len(v.Moves)).
		Msg("the game given back is another game under the same number: the old one ends as unknown")
	g.drv.Stop()
	g.drv.SetRecord(nil) // the old game's record: closed by writeOff
	// The entrant was told of the new game already (gameStarted): the old
	// one's end is not its news.
	d.writeOff(old, "unknown: the server lost the game and started another under its number", now, false)
	fresh, _, err := d.openGame(g.dg, g.t.Us(), nil, now)
	if err != nil {
		delete(d.games, num)
		d.sess.Send(protocol.ResignLine)
		return nil
	}
	d.games[num] = fresh
	return fresh
}

// writeOff ends a game we held that the server no longer has, with result
// "*", and closes its record (the server cannot reveal its moves).
// tellTourney tells the entrant, when no newer game has its number yet.
func (d *Daemon) writeOff(old *gameRun, why string, now time.Time, tellTourney bool) {
	num := old.t.Number()
	d.opt.Log.Warn().Int("game", num).Str("opponent", old.t.Opponent()).Msg("a game the server lost: its result is unknown")
	old.drv.Stop()
	old.t.Ended("*", "", why)
	delete(d.games, num)
	result, _, reason := d.endGame(old, fmt.Sprint(num), now)
	if tellTourney {
		d.tourney(now, func(t *entrant) { t.gameOver(num, old.t.Opponent(), old.t.Us(), result, reason, now) })
	}
	if r := old.drv.Record(); r != nil {
		r.Close()
	}
}
