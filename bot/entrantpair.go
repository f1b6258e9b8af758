package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/protocol/handle"
)

// A tournament round from the bot's side: the TD's pairing (a DG 63
// suggestion or a TD line), our answer, the paired opponent's challenge
// (the only one taken in an event), and the paired game's start and end.

// suggestion follows DG 63 from a trusted TD: its command is sent as it
// is when it is a match command, else "match <subject>".
func (t *entrant) suggestion(v protocol.SuggestionDG, now time.Time) {
	if !t.trusted(v.Suggester) {
		t.log.Warn().Str("from", v.Suggester).Str("command", v.Command).Msg("tournament: suggestion from a handle that is not a trusted TD: ignored")
		return
	}
	if !handle.Valid(v.Subject) {
		t.log.Warn().Str("from", v.Suggester).Str("subject", v.Subject).Msg("tournament: suggestion without a valid opponent: ignored")
		return
	}
	answer := "match " + v.Subject
	if strings.HasPrefix(v.Command, "match ") && cleanLine(v.Command) {
		answer = v.Command
	}
	// The suggestion's id names the event when it is one of ours (our
	// TD's does); else the pairing is the TD's only event's.
	ev := t.find(v.Suggester, v.ID)
	if ev == nil {
		ev = t.eventFor(v.Suggester, 0, now)
	}
	t.paired(pairing{ev: ev, opp: v.Subject, form: "suggestion", answer: answer}, now)
}

// paired takes a pairing: once per pairing, whichever forms announce it.
func (t *entrant) paired(p pairing, now time.Time) {
	// A fresh log event each time: a zerolog event is spent by Msg.
	log := func() *zerolog.Event {
		return t.log.Info().Str("td", p.ev.td).Int("event", p.ev.id).Str("opponent", p.opp).Str("form", p.form)
	}
	p.ev.state, p.ev.heard = evIn, now
	if !handle.Valid(p.opp) || strings.EqualFold(p.opp, t.env.me) {
		t.log.Warn().Str("opponent", p.opp).Msg("tournament: pairing with an impossible opponent: ignored")
		return
	}
	for _, g := range t.env.games {
		num := g.number
		// A game over on the server but not yet closed here does not
		// count: the next round may pair the same opponent.
		if g.over || !strings.EqualFold(g.opp, p.opp) {
			continue
		}
		if !g.stale {
			log().Int("game", num).Msg("tournament: pairing for the game we are playing: ignored")
			return
		}
		// A game lost with the connection that the server has not given
		// back, and the TD pairs us with the same opponent again: the
		// server restarted, aborting it, and the pairing stands. It is
		// played anew; the old game counts for nothing in the event.
		if t.playing[num] != nil {
			delete(t.playing, num)
			log().Int("game", num).Msg("tournament: the paired game was not given back and the pairing stands: playing it anew")
		}
	}
	if q := t.pair; q != nil && strings.EqualFold(q.opp, p.opp) {
		// The same pairing in a second form (our TD sends DG 63 and the
		// tourney-set line): what it adds is kept, nothing is sent.
		if p.tc && !q.tc {
			q.tc, q.wMin, q.wInc, q.bMin, q.bInc = true, p.wMin, p.wInc, p.bMin, p.bInc
		}
		if q.colour == "" {
			q.colour = p.colour
		}
		if q.round == 0 {
			q.round = p.round
		}
		log().Msg("tournament: the same pairing again: already taken")
		return
	}
	if t.env.soft {
		log().Msg("tournament: pairing not answered: we are leaving")
		return
	}
	p.at = now
	t.showPairing(t.pair) // a pairing replaced before the tick showed it
	t.pair = &p
	t.waitShown = false
	log().Str("colour", p.colour).Int("round", p.round).Str("answer", p.answer).Msg("tournament: paired")
	t.answerPairing(now)
}

// showPairing puts the open pairing on the console, once. It waits for the
// next tick (or the game's start), because the second form of the same
// pairing, right behind the first, may add its round and colour (our TD
// sends DG 63, which has neither, then the tourney-set line).
func (t *entrant) showPairing(p *pairing) {
	if p == nil || p.shown {
		return
	}
	p.shown = true
	t.say(lineResult, "tourney: %s%s: paired with %s%s", p.ev, roundText(p.round), p.opp, colourText(p.colour))
}

func roundText(r int) string {
	if r == 0 {
		return ""
	}
	return fmt.Sprintf(" round %d", r)
}

func colourText(c string) string {
	if c == "" {
		return ""
	}
	return " (we play " + c + ")"
}

// answerPairing sends the pairing's answer, once, when the bot is idle:
// no game in progress, a game lost with the connection apart (the server
// did not give it back, so we are free there).
func (t *entrant) answerPairing(now time.Time) {
	p := t.pair
	if p == nil || !p.answered.IsZero() {
		return
	}
	for _, g := range t.env.games {
		if !g.stale {
			return
		}
	}
	if t.env.paused || t.env.soft {
		return // a quitting bot leaves the event instead (checkQuit)
	}
	t.send(p.answer)
	p.answered = now
	t.out = append(t.out, effect{kind: fxOfferOut}) // a soft quit waits for a crossing game
	t.log.Info().Str("opponent", p.opp).Str("answer", p.answer).Msg("tournament: answering the pairing")
}

// tourneyChallenge answers a challenge while in an event: the paired
// opponent's, at the paired time control, is accepted whatever the policy
// filters say; every other is declined. unplayable is why no game could be
// played now ("" when one could: the daemon's unplayable). It reports false
// when not in an event (the normal policy decides).
func (t *entrant) challenge(v protocol.MatchDG, unplayable string) bool {
	if !t.active() {
		return false
	}
	why := "in a tournament: only the paired opponent"
	if p := t.pair; p != nil && strings.EqualFold(v.Challenger, p.opp) {
		why = pairedRefusal(p, v, unplayable)
	}
	if why == "" {
		line, err := protocol.AcceptLine(v.Challenger)
		if err != nil {
			return true
		}
		t.out = append(t.out, effect{kind: fxAccepting, line: v.Challenger})
		t.log.Info().Str("from", v.Challenger).Int("min", v.ChallengerTime).Int("inc", v.ChallengerInc).Msg("tournament: accepting the paired challenge")
		t.send(line)
		return true
	}
	t.log.Info().Str("from", v.Challenger).Str("why", why).Msg("declining challenge")
	if line, err := protocol.DeclineLine(v.Challenger); err == nil {
		t.send(line)
	}
	return true
}

// pairedRefusal says why the paired opponent's challenge is declined, or
// "": only what makes any game unplayable (unplayable: leaving, a pause, a
// full board, another variant) and a time control other than the paired
// one refuse it; the policy filters do not apply.
func pairedRefusal(p *pairing, v protocol.MatchDG, unplayable string) string {
	if why := unplayable; why != "" || !p.tc {
		return why
	}
	// Ours and theirs by the paired colour; with none, both sides' clocks
	// must be the paired ones. A DG 29 without the receiver's clock (0 0)
	// is judged by the challenger's.
	ourMin, ourInc, theirMin, theirInc := p.wMin, p.wInc, p.bMin, p.bInc
	if p.colour == "black" {
		ourMin, ourInc, theirMin, theirInc = p.bMin, p.bInc, p.wMin, p.wInc
	}
	switch {
	case p.colour == "" && (p.wMin != p.bMin || p.wInc != p.bInc),
		v.ChallengerTime != theirMin || v.ChallengerInc != theirInc,
		(v.ReceiverTime != 0 || v.ReceiverInc != 0) && (v.ReceiverTime != ourMin || v.ReceiverInc != ourInc):
		return "not the paired time control"
	}
	return ""
}

// gameStarted notes a game start: the paired game, or another one
// (a challenge that crossed the join), which is played but counted apart.
func (t *entrant) gameStarted(num int, opp string, now time.Time) {
	p := t.pair
	switch {
	case t.playing[num] != nil:
		return // given back after a reconnection
	case p != nil && strings.EqualFold(opp, p.opp):
		t.showPairing(p)
		if t.playing == nil {
			t.playing = map[int]*pairing{}
		}
		t.playing[num], t.pair = p, nil
		p.ev.heard = now
		t.log.Info().Int("game", num).Str("opponent", opp).Str("td", p.ev.td).Int("event", p.ev.id).Msg("tournament: the paired game started")
	case t.active():
		t.log.Warn().Int("game", num).Str("opponent", opp).Msg("tournament: a game outside the pairing started; playing it")
	}
}

// gameOver counts the paired game's result in its event.
func (t *entrant) gameOver(num int, opp string, us chess.Color, result, reason string, now time.Time) {
	p := t.playing[num]
	if p == nil {
		return
	}
	delete(t.playing, num)
	t.waitShown = false
	s := p.ev.score.add(result, us)
	p.ev.heard = now
	t.log.Info().Str("td", p.ev.td).Int("event", p.ev.id).Int("round", p.round).Int("game", num).Str("opponent", opp).
		Str("result", result).Str("reason", reason).Str("points", points(s)).Int("games", s.finished).Msg("tournament: result")
	t.say(lineResult, "tourney: %s%s: %s vs %s (%s) %s; our score %s/%d",
		p.ev, roundText(p.round), result, opp, us.String(), reason, points(s), s.finished)
	t.backToNormal() // the event may have ended while the game was played out
}
