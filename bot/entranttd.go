package bot

import (
	"errors"
	"strings"
	"time"

	"kriegbot/protocol"
)

// The TD's lines as the daemon follows them: text lines and tells read
// by protocol.ParseTDLine, the standings tables, and the events they name
// (entrant.go has the state machine they drive).

// text reads a text line as a TD line; it reports whether the line
// was one (or belonged to a standings table), so that it is not read as a
// referee line.
func (t *entrant) text(line string, now time.Time) bool {
	l, err := protocol.ParseTDLine(line)
	if errors.Is(err, protocol.ErrNotTDLine) {
		if row, ok := strings.CutPrefix(strings.TrimSpace(line), ":"); ok && t.standings != nil {
			t.standingsRow(row) // FICS: the rows are qtell lines
			return true
		}
		t.standings = nil
		return false
	}
	t.standings = nil
	if err != nil {
		t.log.Warn().Err(err).Str("line", line).Msg("tournament: TD line not understood")
		return true
	}
	t.tdLine(l, "", line, now)
	return true
}

// standingsRow shows one row of the standings table that follows a
// trusted TD's standings line, as the TD wrote it (it is not read); a row
// starting "Total" (ours, and mamer's ":Total:") or "*: Paired" ends it.
func (t *entrant) standingsRow(row string) {
	e := t.standings
	t.log.Info().Int("event", e.id).Str("row", row).Msg("tournament: standings")
	t.say(lineResult, "tourney #%d standings: %s", e.id, row)
	if r := strings.TrimSpace(row); strings.HasPrefix(r, "Total") || strings.HasPrefix(r, "*: Paired") {
		t.standings = nil
	}
}

// tdTell takes a trusted TD's tell that is no TD line: a row of the
// standings table being received, or chatter (logged, never answered, so
// that two programs cannot talk to each other for ever).
func (t *entrant) tdTell(from, text string) {
	if e := t.standings; e != nil && strings.EqualFold(e.td, from) {
		t.standingsRow(text) // ICC style: the rows are tells
		return
	}
	t.log.Info().Str("from", from).Str("text", text).Msg("tell from a TD")
	for _, e := range t.events {
		if e.state == evJoining && strings.EqualFold(e.td, from) && strings.Contains(strings.ToLower(text), "tourney") {
			// The answer to our join, when it is no confirmation ("There
			// is no tourney #7.", "Tourney #7 (KS1) is full (8 players)."):
			// the user must see it. Other chatter stays in the log.
			t.say(lineResult, "tourney: joining %s: %s says: %s", e, from, text)
			break
		}
	}
}

// tdLine follows one TD line, from the server's text (from == "") or in a
// tell from handle from. Lines whose TD is not trusted, and event lines
// about events we are not in, are logged and ignored.
func (t *entrant) tdLine(l protocol.TDLine, from, raw string, now time.Time) {
	ignore := func(why string) {
		t.log.Warn().Str("from", from).Str("kind", l.Kind.String()).Str("line", raw).Str("why", why).Msg("tournament: TD line ignored")
	}
	if from != "" && !t.trusted(from) {
		ignore("the teller is not a trusted TD (tournament.td)")
		return
	}
	switch l.Kind {
	case protocol.TDTourneySet:
		td := l.TD
		if td == "" {
			td = from
		}
		if !t.trusted(td) || from != "" && !strings.EqualFold(from, td) {
			ignore("not set by a trusted TD (tournament.td)")
			return
		}
		wMin, wInc, bMin, bInc := l.WhiteMin, l.WhiteInc, l.BlackMin, l.BlackInc
		t.paired(pairing{ev: t.eventFor(td, 0, now), opp: l.Opponent, form: "tourney-set", answer: l.Answer(),
			colour: l.Colour, round: l.Round, tc: wMin+wInc > 0 && bMin+bInc > 0 && l.Wild == 16,
			wMin: wMin, wInc: wInc, bMin: bMin, bInc: bInc}, now)
	case protocol.TDVariableOff:
		if !t.trusted(l.TD) || from != "" && !strings.EqualFold(from, l.TD) {
			ignore("not set by a trusted TD (tournament.td)")
			return
		}
		for _, e := range append([]*tevent(nil), t.events...) {
			if strings.EqualFold(e.td, l.TD) {
				t.endEvent(e, "tourney variable set to OFF", now)
			}
		}
	case protocol.TDPairing:
		e := t.numbered(l.Event, from, now)
		if e == nil {
			ignore("a pairing in an event we are not in")
			return
		}
		t.paired(pairing{ev: e, opp: l.Opponent, form: "mamer", answer: l.Answer(), colour: l.Colour}, now)
	case protocol.TDJoined:
		e := t.byID(l.Event)
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("a join we did not ask for")
			return
		}
		e.state, e.heard = evIn, now
		t.waitShown = false // "waiting for the next round" only now
		t.log.Info().Str("td", e.td).Int("event", e.id).Msg("tournament: joined")
		t.say(lineResult, "tourney: joined %s", e)
	case protocol.TDJoinRefused:
		e := t.byID(l.Event)
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("a refused join of an event we are not joining")
			return
		}
		// Also when we were in it: the TD answers the join we send again
		// after a reconnection this way when it withdrew us meanwhile.
		t.joinRefused(e, l.Reason)
	case protocol.TDAborted, protocol.TDForfeited:
		e := t.byID(l.Event)
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("an event we are not in")
			return
		}
		why := "aborted"
		if l.Kind == protocol.TDForfeited {
			why = "forfeited"
		}
		t.endEvent(e, why, now)
	case protocol.TDStandings:
		e := t.byID(l.Event)
		for _, p := range t.past {
			if e == nil && p.id == l.Event {
				e = p // the final standings come after our last game
			}
		}
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("the standings of an event we are not in")
			return
		}
		e.heard = now
		t.standings = e
		t.log.Info().Int("event", e.id).Msg("tournament: standings follow")
		t.say(lineResult, "tourney #%d standings:", e.id)
	}
}

// numbered returns our event numbered id for an event line; a trusted TD
// that tells us of an event we do not follow (a daemon restarted inside
// it) makes us follow it. Server text about an unknown event gives nil.
func (t *entrant) numbered(id int, from string, now time.Time) *tevent {
	if e := t.byID(id); e != nil && (from == "" || strings.EqualFold(from, e.td)) {
		return e
	}
	if from == "" {
		return nil
	}
	return t.eventFor(from, id, now)
}

// eventFor returns td's event id, following it from now on when we did
// not: a trusted TD that pairs us knows we are in its event (we may have
// been restarted, or joined by the owner by hand).
func (t *entrant) eventFor(td string, id int, now time.Time) *tevent {
	if e := t.find(td, id); e != nil {
		return e
	}
	e := &tevent{td: td, id: id, state: evIn, heard: now,
		joinBy: []string{tdCommand(t.env.cfg.JoinCommand, td, id)}}
	t.events = append(t.events, e)
	t.clearOffers(now)
	t.log.Info().Str("td", td).Int("event", id).Msg("tournament: following an event we did not join here")
	return e
}
