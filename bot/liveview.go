package bot

import (
	"fmt"
	"path/filepath"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
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
}

// liveHeard notes what the player just heard and, when it is not
// searching, copies its belief: called right after the driver heard ev.
func (d *Daemon) liveHeard(g *gameRun, ev []players.Event) {
	if d.opt.Live == nil {
		return
	}
	for _, e := range ev {
		if e.Kind != players.Answer || !e.View.Heard {
			continue
		}
		v := e.View
		who := "they"
		if v.Own {
			who = v.Move.String()
		}
		words := saidText(v)
		g.live.heard = append(g.live.heard, who+": "+words)
		if n := len(g.live.heard); n > 6 {
			g.live.heard = append(g.live.heard[:0], g.live.heard[n-6:]...)
		}
	}
	if g.drv.Thinking() {
		return
	}
	in, ok := g.drv.Player().(players.Inspector)
	if !ok {
		return
	}
	b := in.Belief()
	if b == nil {
		return
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		g.live.own[pt] = uint64(b.Own(pt))
	}
	for c := range g.live.heat {
		g.live.heat[c] = *b.Matrix(oppmodel.Class(c))
	}
	g.live.hasHeat = true
}

// liveFinished adds a finished game to the page's list.
func (d *Daemon) liveFinished(g *gameRun, result, reason string) {
	if d.opt.Live == nil {
		return
	}
	f := live.Finished{Number: g.t.Number(), Opponent: g.t.Opponent(), Us: g.t.Us().String(),
		Result: result, Reason: reason, Plies: g.t.Plies()}
	if r := g.drv.Record(); r != nil && r.Path() != "" {
		f.Record = filepath.Base(r.Path())
	}
	d.liveSeen.finished = append(d.liveSeen.finished, f)
	if n := len(d.liveSeen.finished); n > maxFinished {
		d.liveSeen.finished = append(d.liveSeen.finished[:0], d.liveSeen.finished[n-maxFinished:]...)
	}
}

// livePublish sends the page a snapshot, at most twice a second.
func (d *Daemon) livePublish(now time.Time) {
	if d.opt.Live == nil || now.Sub(d.liveSeen.published) < 500*time.Millisecond {
		return
	}
	d.liveSeen.published = now
	f, w, l, dr := d.Score()
	snap := live.Snapshot{Updated: now, Account: d.config().Account.Handle, Server: d.addr(), Status: d.liveSeen.status,
		Tourney:  d.tourneyLive(),
		Score:    live.Score{Finished: f, Wins: w, Losses: l, Draws: dr},
		Finished: append([]live.Finished(nil), d.liveSeen.finished...)}
	for _, g := range d.games {
		us := g.t.Us()
		ctl := g.t.Control()
		lg := live.Game{Number: g.t.Number(), Opponent: g.t.Opponent(), Us: us.String(),
			Control: fmt.Sprintf("%d+%d", int(ctl.Base/time.Minute), int(ctl.Increment/time.Second)), Ply: g.t.Plies(),
			ClockUs: g.t.Clock(us, now).Milliseconds(), ClockThem: g.t.Clock(us.Other(), now).Milliseconds(),
			State: "their turn", Value: g.lastAttempt.Value, HasValue: g.lastAttempt.HasValue,
			Own: g.live.own, Heat: g.live.heat, HasHeat: g.live.hasHeat,
			Heard: append([]string(nil), g.live.heard...)}
		switch {
		case g.drv.Thinking():
			lg.State = "thinking"
		case g.t.OurTurn():
			lg.State = "our turn"
		}
		for _, c := range g.lastAttempt.Candidates {
			lg.Candidates = append(lg.Candidates, live.Candidate{Move: c.Move.String(), Visits: c.Visits, Value: c.Value,
				PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck})
		}
		snap.Games = append(snap.Games, lg)
	}
	d.opt.Live.Publish(snap)
}
