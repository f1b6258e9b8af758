package bot

import (
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
	announced  bool // the console was told what we wait for, since the last game
}

// connected forgets what a lost connection took with it.
func (p *policy) connected() { p.seekPosted, p.pending = false, "" }

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
	pol := cfg.Policy
	if pol.Seek && !p.seekPosted {
		line, err := protocol.SeekLine(protocol.SeekParams{Minutes: pol.SeekBase, Increment: pol.SeekIncrement,
			Rated: pol.SeekRated, Wild: 16, Manual: !d.opt.AutoSeek, MinRating: pol.MinRating, MaxRating: pol.MaxRating})
		if err == nil {
			d.sess.Send(line)
			p.seekPosted = true
			d.opt.Console.say(lineProgress, "waiting for a game: seeking wild 16 at %d+%d", pol.SeekBase, pol.SeekIncrement)
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
				d.opt.Console.say(lineProgress, "waiting for a game: challenging %s to wild 16 at %d+%d", c, pol.SeekBase, pol.SeekIncrement)
				p.announced = true
			}
		}
	}
	if !p.announced && pol.AcceptChallenges {
		d.opt.Console.say(lineProgress, "waiting for a challenge (wild 16, %d-%d minutes)", pol.MinBase, pol.MaxBase)
		p.announced = true
	}
}

// unseek withdraws our seek.
func (d *Daemon) unseek() {
	d.sess.Send(protocol.UnseekLine(0))
	d.policy.seekPosted = false
}

// challenge answers a DG 29 addressed to us.
func (d *Daemon) challenge(v protocol.MatchDG, now time.Time) {
	me := d.sess.Handle()
	if !strings.EqualFold(v.Receiver, me) {
		return // our own challenge echoed
	}
	why := d.refusal(v)
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

// refusal says why a challenge is declined, or "" to accept it.
func (d *Daemon) refusal(v protocol.MatchDG) string {
	cfg := d.config()
	p := cfg.Policy
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	switch {
	case soft:
		return "shutting down"
	case paused:
		return "paused by the owner"
	case !p.AcceptChallenges:
		return "not accepting challenges"
	case len(d.games)+btoi(d.policy.waiting()) >= p.MaxGames:
		return "busy"
	case v.Wild != 16:
		return "only wild 16"
	case v.ChallengerTime < p.MinBase || v.ChallengerTime > p.MaxBase:
		return "time control"
	case v.ChallengerInc < p.MinIncrement || v.ChallengerInc > p.MaxIncrement:
		return "increment"
	case v.Rated && !p.Rated, !v.Rated && !p.Unrated:
		return "rated or unrated"
	case p.MinRating > 0 && v.ChallengerRating < p.MinRating, p.MaxRating > 0 && v.ChallengerRating > p.MaxRating:
		return "rating"
	case contains(p.Block, v.Challenger):
		return "blocked"
	case len(p.Allow) > 0 && !contains(p.Allow, v.Challenger):
		return "not on the allow list"
	case d.policy.rematchLimit(v.Challenger, p.MaxRematches):
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
