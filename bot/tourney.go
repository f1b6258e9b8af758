package bot

import (
	"time"

	"kriegbot/protocol"
)

// The daemon's side of the tournament entrant (entrant.go): with each input
// it tells the entrant what it knows, then carries out the entrant's
// effects on the wire, the console, the operator's page and the
// matchmaking, in order.

// tourney runs one input of the entrant and carries out its effects.
func (d *Daemon) tourney(now time.Time, in func(t *entrant)) {
	d.carryOut(d.tour.input(d.entrantEnv(), func() { in(&d.tour) }), now)
}

// entrantEnv is what the entrant is told with an input.
func (d *Daemon) entrantEnv() entrantEnv {
	cfg := d.config()
	d.mu.Lock()
	paused, soft := d.paused, d.soft
	d.mu.Unlock()
	env := entrantEnv{cfg: cfg.Tournament, tds: cfg.TrustedTDs(), soft: soft, paused: paused}
	if d.sess != nil {
		env.me = d.sess.Handle()
	}
	for num, g := range d.games {
		_, _, _, over := g.t.Over()
		env.games = append(env.games, envGame{number: num, opp: g.t.Opponent(), over: over, stale: !g.stale.IsZero()})
	}
	return env
}

// carryOut does what the entrant decided.
func (d *Daemon) carryOut(fx []effect, now time.Time) {
	for _, f := range fx {
		switch f.kind {
		case fxSend:
			d.sess.Send(f.line)
		case fxSay:
			d.opt.Console.say(f.say, "%s", f.line)
		case fxClearOffers:
			// A game our offers started now would be one the TD did not pair.
			if d.policy.offersOpen(now) {
				d.sess.Send(protocol.WithdrawLine)
				d.unseek()
				d.policy.lastMatch = time.Time{}
			}
		case fxOfferOut:
			d.policy.lastMatch = now // a soft quit waits for a game that crosses it
		case fxAccepting:
			d.policy.pending, d.policy.pendingAt = f.line, now
		case fxNormalPlay:
			d.policy.announced = false
		case fxStatus:
			d.liveSeen.status = f.line
		}
	}
}

// trustedTD reports a handle listed in tournament.td (when not set, "TD"
// on our own server only: config.TrustedTDs).
func (d *Daemon) trustedTD(h string) bool { return h != "" && contains(d.config().TrustedTDs(), h) }

// ownerTourney is the owner's "tourney [join N [td] | leave [N]]".
func (d *Daemon) ownerTourney(from, rest string) {
	now := d.opt.Now()
	var reply string
	d.tourney(now, func(t *entrant) { reply = t.owner(rest, now) })
	d.reply(from, reply)
}
