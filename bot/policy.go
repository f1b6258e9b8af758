package bot

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/protocol"
)

// policy is the daemon's matchmaking state: the challenge we accepted and
// wait to see start, our seek, the challenges we send, and rematch counts.
type policy struct {
	pending    string // handle whose challenge we accepted, game not yet started
	pendingAt  time.Time
	seekPosted bool
	lastMatch  time.Time
	lastOpp    string
	inARow     int
	announced  bool      // the console was told what we wait for, since the last game
	withdrawn  time.Time // when a quitting daemon withdrew its offers (zero: not yet)
	// deferred are the standing seek ads (DG 50) let be only because we
	// were busy or paused, by index: the server sends an ad once (at login,
	// or when posted), so one seen while we still held a game that a
	// restart killed would otherwise never be answered.
	deferred map[int]protocol.SeekDG
}

// offersOpen reports an offer of ours that an opponent may still take: our
// seek, or a challenge sent in the last minute.
func (p *policy) offersOpen(now time.Time) bool {
	return p.seekPosted || !p.lastMatch.IsZero() && now.Sub(p.lastMatch) < time.Minute
}

// connected forgets what a lost connection took with it (the server sends
// its standing seek ads again at login).
func (p *policy) connected() {
	p.seekPosted, p.pending, p.withdrawn, p.deferred = false, "", time.Time{}, nil
}

// deferAd keeps a seek ad to reconsider once we are free.
func (p *policy) deferAd(v protocol.SeekDG) {
	if p.deferred == nil {
		p.deferred = map[int]protocol.SeekDG{}
	}
	p.deferred[v.Index] = v
}

// adRemoved handles DG 51: the seek ad is gone.
func (p *policy) adRemoved(v protocol.SeekRemovedDG) { delete(p.deferred, v.Index) }

// waiting reports an accepted challenge whose game has not started.
func (p *policy) waiting() bool { return p.pending != "" }

// started notes a game start: the seek and the accepted challenge are used.
func (p *policy) started() { p.pending, p.seekPosted, p.announced = "", false, false }

// opponent counts games in a row against the same opponent.
func (p *policy) opponent(opp string) {
	if strings.EqualFold(opp, p.lastOpp) {
		p.inARow++
	} else {
		p.lastOpp, p.inARow = opp, 1
	}
}

// removed handles DG 28: the accepted challenge went away without a game.
func (p *policy) removed(v protocol.MatchRemovedDG) {
	if strings.EqualFold(v.Challenger, p.pending) || strings.EqualFold(v.Receiver, p.pending) {
		if !strings.Contains(strings.ToLower(v.Explanation), "accept") {
			p.pending = ""
		}
	}
}

// rematchLimit reports that handle has had its games in a row.
func (p *policy) rematchLimit(handle string, max int) bool {
	return max > 0 && strings.EqualFold(handle, p.lastOpp) && p.inARow >= max
}

// tick seeks or challenges when idle (busy: playing, paused or quitting).
func (p *policy) tick(d *Daemon, now time.Time, cfg config.Config, busy bool) {
	if p.pending != "" && now.Sub(p.pendingAt) > 10*time.Second {
		p.pending = "" // the accepted challenge never turned into a game
	}
	if busy || p.pending != "" {
		return
	}
	// Free again: the ads we let be while busy are looked at once more,
	// oldest index first, before we post offers of our own.
	ads := slices.Sorted(maps.Keys(p.deferred))
	for _, i := range ads {
		if p.pending != "" {
			break
		}
		ad := p.deferred[i]
		delete(p.deferred, i)
		d.seekAd(ad, now)
	}
	if p.pending != "" {
		return
	}
	pol := cfg.Policy
	if pol.Seek && !p.seekPosted {
		line, err := protocol.SeekLine(protocol.SeekParams{Minutes: pol.SeekBase, Increment: pol.SeekIncrement,
			Rated: pol.SeekRated, Wild: 16, Manual: !d.opt.AutoSeek, MinRating: pol.MinRating, MaxRating: pol.MaxRating})
		if err == nil {
			d.sess.Send(line)
			p.seekPosted = true
			d.liveSeen.status = fmt.Sprintf("waiting for a game: seeking wild 16 at %d+%d", pol.SeekBase, pol.SeekIncrement)
			d.opt.Console.say(lineProgress, "%s", d.liveSeen.status)
			p.announced = true
		}
	}
	if c := pol.Challenge; c != "" && now.Sub(p.lastMatch) > 5*time.Second {
		if p.rematchLimit(c, pol.MaxRematches) {
			return
		}
		line, err := protocol.MatchLine(protocol.MatchParams{Opponent: c, Minutes: pol.SeekBase,
			Increment: pol.SeekIncrement, Rated: pol.SeekRated, Wild: 16})
		if err == nil {
			d.sess.Send(line)
			p.lastMatch = now
			if !p.announced {
				d.liveSeen.status = fmt.Sprintf("waiting for a game: challenging %s to wild 16 at %d+%d", c, pol.SeekBase, pol.SeekIncrement)
				d.opt.Console.say(lineProgress, "%s", d.liveSeen.status)
				p.announced = true
			}
		}
	}
	if !p.announced && pol.AcceptChallenges {
		d.liveSeen.status = fmt.Sprintf("waiting for a challenge (wild 16, %d-%d minutes)", pol.MinBase, pol.MaxBase)
		d.opt.Console.say(lineProgress, "%s", d.liveSeen.status)
		p.announced = true
	}
}

// unseek withdraws our seek.
func (d *Daemon) unseek() {
	d.sess.Send(protocol.UnseekLine(0))
	d.policy.seekPosted = false
}

// offer is a game someone proposes to us: a challenge (DG 29) or a seek ad
// (DG 50). One set of filters judges both.
type offer struct {
	from    string
	rating  int
	wild    int
	minutes int // initial time
	inc     int // seconds
	rated   bool
}

// challengeOffer is a DG 29 as an offer.
func challengeOffer(v protocol.MatchDG) offer {
	return offer{from: v.Challenger, rating: v.ChallengerRating, wild: v.Wild,
		minutes: v.ChallengerTime, inc: v.ChallengerInc, rated: v.Rated}
}

// challenge answers a DG 29 addressed to us.
func (d *Daemon) challenge(v protocol.MatchDG, now time.Time) {
	me := d.sess.Handle()
	if !strings.EqualFold(v.Receiver, me) {
		return // our own challenge echoed
	}
	var taken bool
	unplayable := d.unplayable(challengeOffer(v))
	d.tourney(now, func(t *entrant) { taken = t.challenge(v, unplayable) })
	if taken {
		return // in an event: the entrant decides (entrant.go)
	}
	why := d.challengeRefusal(v)
	if why == "" {
		line, err := protocol.AcceptLine(v.Challenger)
		if err != nil {
			return
		}
		d.policy.pending, d.policy.pendingAt = v.Challenger, now
		d.opt.Log.Info().Str("from", v.Challenger).Int("min", v.ChallengerTime).Int("inc", v.ChallengerInc).Msg("accepting challenge")
		d.sess.Send(line)
		return
	}
	d.opt.Log.Info().Str("from", v.Challenger).Str("why", why).Msg("declining challenge")
	if line, err := protocol.DeclineLine(v.Challenger); err == nil {
		d.sess.Send(line)
	}
}

// challengeRefusal is refusal for a challenge: the player whose offer we
// answered and wait for does not make us busy. Two seeking daemons answer
// each other's seeks at once (after a server restart, both ads come at
// login): each then gets the other's challenge while it waits for its
// own, and both used to decline as busy, leaving both seeks unanswered
// for good.
func (d *Daemon) challengeRefusal(v protocol.MatchDG) string {
	why := d.refusal(challengeOffer(v))
	if why == whyBusy && d.policy.waiting() && strings.EqualFold(d.policy.pending, v.Challenger) {
		pending := d.policy.pending
		d.policy.pending = ""
		why = d.refusal(challengeOffer(v))
		d.policy.pending = pending
	}
	return why
}

// seekAd answers a seek ad (DG 50) that passes the filters with "play";
// others are let be (a seek is addressed to everyone: no decline).
func (d *Daemon) seekAd(v protocol.SeekDG, now time.Time) {
	cfg := d.config()
	if !cfg.Policy.AnswerSeeks || strings.EqualFold(v.Name, d.sess.Handle()) || d.tour.active() {
		return // in an event the TD makes the games
	}
	why := d.refusal(offer{from: v.Name, rating: v.Rating, wild: v.Wild, minutes: v.Minutes, inc: v.Inc, rated: v.Rated})
	if why == whyBusy || why == whyPaused {
		d.opt.Log.Debug().Str("from", v.Name).Int("index", v.Index).Str("why", why).Msg("seek kept for when we are free")
		d.policy.deferAd(v)
		return
	}
	if why != "" {
		d.opt.Log.Debug().Str("from", v.Name).Int("index", v.Index).Str("why", why).Msg("not answering a seek")
		return
	}
	d.policy.pending, d.policy.pendingAt = v.Name, now
	d.opt.Log.Info().Str("from", v.Name).Int("index", v.Index).Int("min", v.Minutes).Int("inc", v.Inc).Msg("answering a seek")
	d.sess.Send(protocol.PlayLine(v.Index))
}

// unplayable says why no offer at all can be taken now (leaving, paused,
// max_games reached) or why this one cannot be played by us (not wild 16),
// or "". The policy filters (refusal) and the paired challenge of an event
// (entrant.go), which passes those filters by, both start with it.
func (d *Daemon) unplayable(o offer) string {
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	switch {
	case soft:
		return "shutting down"
	case paused:
		return whyPaused
	case len(d.games)+btoi(d.policy.waiting()) >= d.config().Policy.MaxGames:
		return whyBusy
	case o.wild != 16:
		return "only wild 16"
	}
	return ""
}

// The refusals that pass: an offer refused for these may be taken later.
const (
	whyBusy   = "busy"
	whyPaused = "paused by the owner"
)

// refusal says why an offer is declined, or "" to accept it.
func (d *Daemon) refusal(o offer) string {
	if why := d.unplayable(o); why != "" {
		return why
	}
	p := d.config().Policy
	switch {
	case !p.AcceptChallenges:
		return "not accepting challenges"
	case o.minutes < p.MinBase || o.minutes > p.MaxBase:
		return "time control"
	case o.inc < p.MinIncrement || o.inc > p.MaxIncrement:
		return "increment"
	case o.rated && !p.Rated, !o.rated && !p.Unrated:
		return "rated or unrated"
	case p.MinRating > 0 && o.rating < p.MinRating, p.MaxRating > 0 && o.rating > p.MaxRating:
		return "rating"
	case contains(p.Block, o.from):
		return "blocked"
	case len(p.Allow) > 0 && !contains(p.Allow, o.from):
		return "not on the allow list"
	case d.policy.rematchLimit(o.from, p.MaxRematches):
		return "rematch limit"
	}
	return ""
}

// score counts finished games from our side.
type score struct {
	finished, wins, losses, draws int
}

// add counts one result ("1-0", "0-1", "1/2-1/2"; aborted and unfinished
// games do not count) for a game played as us, and returns the new score.
func (s *score) add(result string, us chess.Color) score {
	if result != "aborted" && result != "*" {
		s.finished++
		switch {
		case result == "1-0" && us == chess.White || result == "0-1" && us == chess.Black:
			s.wins++
		case result == "1-0" && us == chess.Black || result == "0-1" && us == chess.White:
			s.losses++
		default:
			s.draws++
		}
	}
	return *s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func contains(list []string, h string) bool {
	for _, x := range list {
		if strings.EqualFold(x, h) {
			return true
		}
	}
	return false
}
