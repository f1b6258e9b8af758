package bot

import (
	"fmt"
	"path/filepath"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/internal/turntext"
	"kriegbot/live"
)

// What the operator's page (package live) is shown: the daemon copies it out
// of its games on its own goroutine, so the page never reads a player while
// it searches.

// liveState is the daemon's part of the page between two publications.
type liveState struct {
	published time.Time
	status    string
	finished  []live.Finished // the last maxFinished games, oldest first
}

// maxFinished bounds the finished games the page lists.
const maxFinished = 20

// liveGame is a game's part of the page, kept on its gameRun.
type liveGame struct {
	heat    [oppmodel.NumClasses][64]float32
	own     [chess.King + 1]uint64
	hasHeat bool
	heard   []string // the last referee answers, newest last
	// candidates are the last attempt's search, made in the position after
	// searchedAt plies: the page shows them only while the game is there.
	candidates []players.Candidate
	searchedAt int
	// turn follows a variant game's answers for the page's lines about
	// the turn (started with the first answer); pockets are crazykrieg's,
	// from the belief when the player has one.
	turn             turntext.Follower
	turnStarted      bool
	pockets          [2][chess.King]uint8
	hasBeliefPockets bool
}

// searched keeps the search behind an attempt about to be sent, made with
// plies played.
func (lg *liveGame) searched(acts []driver.Action, plies int) {
	for _, a := range acts {
		if a.Kind == driver.Attempt {
			lg.candidates, lg.searchedAt = a.Candidates, plies
		}
	}
}

// liveHeard notes what the player of a game just heard and, when it is
// not searching, copies its belief: called right after the driver heard
// ev, by either backend.
func (d *Daemon) liveHeard(lg *liveGame, drv *driver.Game, ev []players.Event) {
	if d.opt.Live == nil {
		return
	}
	if !lg.turnStarted {
		lg.turn.Start(drv.Game())
		lg.turnStarted = true
	}
	for _, e := range ev {
		if e.Kind != players.Answer || !e.View.Heard {
			continue
		}
		v := e.View
		lg.turn.Hear(v)
		who := "they"
		if v.Own {
			who = v.Move.String()
		}
		line := who + ": " + saidText(v)
		if said, ok := turntext.Answer(v); ok {
			line = said
		}
		lg.heard = append(lg.heard, line)
		if n := len(lg.heard); n > 6 {
			lg.heard = append(lg.heard[:0], lg.heard[n-6:]...)
		}
	}
	if drv.Thinking() {
		return
	}
	in, ok := drv.Player().(players.Inspector)
	if !ok {
		return
	}
	b := in.Belief()
	if b == nil {
		return
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		lg.own[pt] = uint64(b.Own(pt))
	}
	for c := range lg.heat {
		lg.heat[c] = *b.Matrix(oppmodel.Class(c))
	}
	lg.hasHeat = true
	lg.pockets, lg.hasBeliefPockets = [2][chess.King]uint8{b.OurPocket(), b.TheirPocket()}, true
}

// liveTurn fills a variant game's rules, turn and pockets into its part of
// the page (nothing for wild 16).
func liveTurn(out *live.Game, lg *liveGame) {
	v := lg.turn.Variant()
	if !lg.turnStarted || v.IsWild16() {
		return
	}
	out.Rules = turntext.Rules(v)
	out.Turn = lg.turn.Lines()
	if !v.Drops {
		return
	}
	if lg.hasBeliefPockets {
		out.Pockets = "our pocket: " + turntext.Pocket(lg.pockets[0]) + "; their pocket: " + turntext.Pocket(lg.pockets[1])
	} else {
		out.Pockets = "our pocket: " + turntext.Pocket(lg.turn.OurPocket())
	}
}

// liveFinished adds a finished game to the page's list.
func (d *Daemon) liveFinished(f live.Finished, drv *driver.Game) {
	if d.opt.Live == nil {
		return
	}
	if r := drv.Record(); r != nil && r.Path() != "" {
		f.Record = filepath.Base(r.Path())
	}
	d.liveSeen.finished = append(d.liveSeen.finished, f)
	if n := len(d.liveSeen.finished); n > maxFinished {
		d.liveSeen.finished = append(d.liveSeen.finished[:0], d.liveSeen.finished[n-maxFinished:]...)
	}
}

// liveView is what a backend knows of one game in progress, for the page.
type liveView struct {
	number      int
	opponent    string
	us          chess.Color
	control     clock.Control
	plies       int
	clockUs     time.Duration
	clockThem   time.Duration
	ourTurn     bool
	drv         *driver.Game
	lastAttempt driver.Action
	live        *liveGame
}

// liveGameOf is a game's part of a snapshot.
func liveGameOf(v liveView) live.Game {
	lg := live.Game{Number: v.number, Opponent: v.opponent, Us: v.us.String(),
		Control: fmt.Sprintf("%d+%d", int(v.control.Base/time.Minute), int(v.control.Increment/time.Second)), Ply: v.plies,
		ClockUs: v.clockUs.Milliseconds(), ClockThem: v.clockThem.Milliseconds(),
		State: "their turn", Value: v.lastAttempt.Value, HasValue: v.lastAttempt.HasValue,
		Own: v.live.own, Heat: v.live.heat, HasHeat: v.live.hasHeat,
		Heard: append([]string(nil), v.live.heard...)}
	liveTurn(&lg, v.live)
	switch {
	case v.drv.Thinking():
		lg.State = "thinking"
	case v.ourTurn:
		lg.State = "our turn"
	}
	if v.live.searchedAt != v.plies {
		return lg // the game moved on from the position searched
	}
	lg.CandidatesPly = v.plies
	for _, c := range v.live.candidates {
		lg.Candidates = append(lg.Candidates, live.Candidate{Move: c.Move.String(), Visits: c.Visits, Value: c.Value,
			PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck, PMate: c.PMate, PMated: c.PMated, PRepeat: c.PRepeat})
	}
	return lg
}

// livePublish sends the page a snapshot, at most twice a second: where we
// play (server) and the games in progress, which games gives only when a
// snapshot is due.
func (d *Daemon) livePublish(now time.Time, server string, games func() []live.Game) {
	if d.opt.Live == nil || now.Sub(d.liveSeen.published) < 500*time.Millisecond {
		return
	}
	d.liveSeen.published = now
	f, w, l, dr := d.Score()
	snap := live.Snapshot{Updated: now, Account: d.config().Account.Handle, Server: server, Status: d.liveSeen.status,
		Tourney:  d.tour.liveLine(),
		Score:    live.Score{Finished: f, Wins: w, Losses: l, Draws: dr},
		Finished: append([]live.Finished(nil), d.liveSeen.finished...), Games: games()}
	d.opt.Live.Publish(snap)
}

// liveICCGames are the ICC backend's games for the page.
func (d *Daemon) liveICCGames(now time.Time) []live.Game { return liveGames(d.games, now) }
