package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/protocol/handle"
)

// The daemon's part in computer tournaments ([tournament] in config.toml,
// docs/tournaments.md "The bot's side"). While the bot is in an event, the
// rules here replace the normal matchmaking of policy.go: no seeks, no
// challenges sent, no seek ads answered, and of the challenges only the
// paired opponent's, at the paired time control, is accepted (whatever the
// policy filters say). The wire is read by package protocol (the DGs and
// ParseTDLine); nothing here reads a TD line a second way.
//
// The state machine, per event:
//
//	joining ──(TD confirms, pairs us)──► in ──(aborted, forfeited, variable
//	   │                                  │    OFF, DG 104, silence, leave)──► gone
//	   ├──────────────────────────────────┘
//	   └──(the TD refuses the join: full, over, left, one event at a time)──► gone
//
// and, across events, one open pairing at a time: paired ─(answered when
// idle)─► answered ─(DG 15 with the paired opponent)─► playing (kept by game
// number until the game is over, so a next round's pairing may come while
// the last game is being finished). A pairing whose game has not started
// after round_grace is dropped: the bot waits, idle, for the next round.

// eventState is where the bot stands in one event.
type eventState int

const (
	evJoining eventState = iota // join sent, no word from the TD yet
	evIn                        // the TD confirmed the join or paired us
)

// tevent is one event the bot entered.
type tevent struct {
	td     string
	id     int // event number; 0 when the TD gave none (ICC's tourney-set line)
	state  eventState
	heard  time.Time // last word about the event: join, pairing, game, line
	joinBy []string  // the lines that joined it, sent again on rejoin
	score  score     // its games, from our side
}

func (e *tevent) String() string {
	if e.id == 0 {
		return "the event of " + e.td
	}
	return fmt.Sprintf("tourney #%d (%s)", e.id, e.td)
}

// pairing is the round the TD paired us for.
type pairing struct {
	ev       *tevent
	opp      string
	form     string // "suggestion" (DG 63), "tourney-set", "mamer"
	answer   string // the line that starts the game
	colour   string // "white", "black" or "" when the TD did not say
	round    int    // 0 when the TD did not say
	tc       bool   // the time control below is known
	wMin     int
	wInc     int
	bMin     int
	bInc     int
	at       time.Time // when the pairing came
	answered time.Time // when we answered it (zero: not yet)
	shown    bool      // the console has the pairing line
}

// tourney is the daemon's tournament state (the Daemon's goroutine only).
type tourney struct {
	events    []*tevent
	past      []*tevent                  // the last events over: their standings may still come; auto_join skips them
	pair      *pairing                   // the open pairing: its game has not started
	playing   map[int]*pairing           // paired games in progress, by game number
	announced map[int]protocol.TourneyDG // DG 103 by id, until DG 104
	joinedCfg bool                       // tournament.join was sent (first login)
	standings *tevent                    // collecting the standings table of this event
	waitShown bool                       // the console was told we wait for a round
}

// maxAnnounced bounds the DG 103 entries kept (a server could send many);
// maxPast the events over that are remembered for their final standings.
const (
	maxAnnounced = 200
	maxPast      = 16
)

// active reports that the bot is in an event (or plays its last game).
func (t *tourney) active() bool { return len(t.events) > 0 || t.pair != nil || len(t.playing) > 0 }

// wasIn reports an event of td numbered id that is over for us.
func (t *tourney) wasIn(td string, id int) bool {
	for _, e := range t.past {
		if e.id == id && strings.EqualFold(e.td, td) {
			return true
		}
	}
	return false
}

// playsIn reports a paired game of event e in progress.
func (t *tourney) playsIn(e *tevent) bool {
	for _, p := range t.playing {
		if p.ev == e {
			return true
		}
	}
	return false
}

// find returns the event of td numbered id; id 0 matches the TD's only
// event, when it has exactly one.
func (t *tourney) find(td string, id int) *tevent {
	var only *tevent
	n := 0
	for _, e := range t.events {
		if td != "" && !strings.EqualFold(e.td, td) {
			continue
		}
		if id != 0 && e.id == id {
			return e
		}
		only = e
		n++
	}
	if id == 0 && n == 1 {
		return only
	}
	return nil
}

// byID returns our event numbered id, whoever its TD.
func (t *tourney) byID(id int) *tevent {
	for _, e := range t.events {
		if e.id == id && id != 0 {
			return e
		}
	}
	return nil
}

// pairedGame reports that game num is a paired game.
func (t *tourney) pairedGame(num int) bool { return t.playing[num] != nil }

// trustedTD reports a handle listed in tournament.td (when not set, "TD"
// on our own server only: config.TrustedTDs).
func (d *Daemon) trustedTD(h string) bool { return h != "" && contains(d.config().TrustedTDs(), h) }

// tdCommand fills a join or leave template.
func tdCommand(tmpl, td string, id int) string {
	return strings.NewReplacer("{td}", td, "{event}", strconv.Itoa(id)).Replace(tmpl)
}

// tourneyConnected runs after each login: the tournament DGs (JIN's
// workaround: the server may not send the event list for 103 turned on at
// login, so it is turned on again), the events of tournament.join on the
// first login, and on later ones the rejoin of the events we are in.
func (d *Daemon) tourneyConnected(now time.Time) {
	cfg := d.config().Tournament
	tds := d.config().TrustedTDs()
	if len(tds) == 0 {
		return
	}
	d.sess.Send(fmt.Sprintf("set-2 %d 1", protocol.DGTourney))
	t := &d.tour
	if !t.joinedCfg {
		t.joinedCfg = true
		for _, id := range cfg.Join {
			d.joinEvent(tds[0], id, now)
		}
	} else if cfg.Rejoin {
		for _, e := range t.events {
			d.opt.Log.Info().Str("td", e.td).Int("event", e.id).Msg("tournament: joining again after the reconnection")
			for _, l := range e.joinBy {
				d.sess.Send(l)
			}
			e.heard = now
		}
	}
	if p := t.pair; p != nil && !p.answered.IsZero() {
		// The match we sent died with the connection: answer again.
		p.answered = time.Time{}
	}
}

// joinEvent joins event id of td: with the event's own join commands when
// a DG 103 announced it and they tell a trusted TD, else join_command.
func (d *Daemon) joinEvent(td string, id int, now time.Time) string {
	t := &d.tour
	if e := t.find(td, id); e != nil && (id != 0 || e.id == 0) {
		return fmt.Sprintf("Already in %s.", e)
	}
	cmds := []string{tdCommand(d.config().Tournament.JoinCommand, td, id)}
	if dg, ok := t.announced[id]; ok {
		if own, dgTD := d.announcedJoin(dg); own != nil && strings.EqualFold(dgTD, td) {
			cmds = own
		}
	}
	return d.enter(td, id, cmds, now)
}

// enter sends the join lines and starts following the event.
func (d *Daemon) enter(td string, id int, cmds []string, now time.Time) string {
	e := &tevent{td: td, id: id, heard: now, joinBy: cmds}
	d.tour.events = append(d.tour.events, e)
	for _, c := range cmds {
		d.sess.Send(c)
	}
	d.clearOffers(now)
	d.tour.waitShown = false
	d.opt.Log.Info().Str("td", td).Int("event", id).Strs("commands", cmds).Msg("tournament: joining")
	d.opt.Console.say(lineResult, "tourney: joining %s", e)
	return fmt.Sprintf("Joining %s.", e)
}

// clearOffers withdraws our seek and challenges as the bot enters an
// event: a game they started now would be one the TD did not pair.
func (d *Daemon) clearOffers(now time.Time) {
	if !d.policy.offersOpen(now) {
		return
	}
	d.sess.Send(protocol.WithdrawLine)
	d.unseek()
	d.policy.lastMatch = time.Time{}
}

// announcedJoin returns a DG 103's join commands and the TD they tell,
// when every one is "tell <trusted TD> ..." (so an announcement cannot make
// the bot send anything but a tell to a TD it trusts); nil otherwise.
func (d *Daemon) announcedJoin(dg protocol.TourneyDG) ([]string, string) {
	cmds := protocol.SplitCommands(dg.Join)
	td := ""
	for _, c := range cmds {
		f := strings.Fields(c)
		if len(f) < 2 || !strings.EqualFold(f[0], "tell") && !strings.EqualFold(f[0], "xtell") ||
			!d.trustedTD(f[1]) || td != "" && !strings.EqualFold(td, f[1]) || !cleanLine(c) {
			return nil, ""
		}
		td = f[1]
	}
	if td == "" {
		return nil, ""
	}
	return cmds, td
}

// cleanLine reports a line that can be sent as one command: no control
// bytes, at most 200 bytes.
func cleanLine(s string) bool {
	if len(s) > 200 || s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return false
		}
	}
	return true
}

// leaveEvents sends the leave line of every event we are in (or only of
// event id, when not 0) and stops following them.
func (d *Daemon) leaveEvents(id int, why string, now time.Time) int {
	tmpl := d.config().Tournament.LeaveCommand
	n := 0
	for _, e := range append([]*tevent(nil), d.tour.events...) {
		if id != 0 && e.id != id {
			continue
		}
		d.sess.Send(tdCommand(tmpl, e.td, e.id))
		d.endEvent(e, "left: "+why, now)
		n++
	}
	return n
}

// endEvent stops following an event and, when it was the last, returns the
// bot to its normal play. A paired game in progress is played out.
func (d *Daemon) endEvent(e *tevent, why string, now time.Time) {
	d.forget(e)
	s := e.score
	d.opt.Log.Info().Str("td", e.td).Int("event", e.id).Str("why", why).Int("games", s.finished).
		Int("wins", s.wins).Int("losses", s.losses).Int("draws", s.draws).Msg("tournament: event over for us")
	pts := points(s) + " points"
	if pts == "1 points" {
		pts = "1 point"
	}
	d.opt.Console.say(lineResult, "tourney: %s over for us (%s): %d game%s +%d -%d =%d, %s",
		e, why, s.finished, plural(s.finished), s.wins, s.losses, s.draws, pts)
	d.backToNormal()
}

// joinRefused drops an event whose TD refused our join (full, over, left
// before, another event of ours): waiting for it until tournament.silence
// would keep the bot from playing for hours. The event is remembered as
// over for us, so that auto_join does not ask again when it is announced.
func (d *Daemon) joinRefused(e *tevent, why string) {
	d.forget(e)
	d.opt.Log.Warn().Str("td", e.td).Int("event", e.id).Str("why", why).Msg("tournament: the TD refused our join")
	if why == "" {
		why = "no reason given"
	}
	d.opt.Console.say(lineResult, "tourney: %s refused our join: %s", e, why)
	d.backToNormal()
}

// forget stops following an event: its open pairing is dropped, a paired
// game in progress is played out, and it joins the events over for us.
func (d *Daemon) forget(e *tevent) {
	t := &d.tour
	for i, x := range t.events {
		if x == e {
			t.events = append(t.events[:i], t.events[i+1:]...)
			break
		}
	}
	if t.pair != nil && t.pair.ev == e {
		d.showPairing(t.pair)
		t.pair = nil
	}
	t.past = append(t.past, e)
	if len(t.past) > maxPast {
		t.past = t.past[1:]
	}
}

// backToNormal says so when the bot is in no event any more: the policy
// seeks and takes challenges again (not when it is quitting).
func (d *Daemon) backToNormal() {
	if soft, _ := d.quitting(); !d.tour.active() && !soft {
		d.policy.announced = false // the console says again what we wait for
		d.opt.Console.say(lineResult, "tourney: back to normal play")
	}
}

// points writes a score's points, halves included.
func points(s score) string {
	p := float64(s.wins) + float64(s.draws)/2
	return strconv.FormatFloat(p, 'f', -1, 64)
}

// tourneyText reads a text line as a TD line; it reports whether the line
// was one (or belonged to a standings table), so that it is not read as a
// referee line.
func (d *Daemon) tourneyText(line string, now time.Time) bool {
	l, err := protocol.ParseTDLine(line)
	if errors.Is(err, protocol.ErrNotTDLine) {
		if row, ok := strings.CutPrefix(strings.TrimSpace(line), ":"); ok && d.tour.standings != nil {
			d.standingsRow(row) // FICS: the rows are qtell lines
			return true
		}
		d.tour.standings = nil
		return false
	}
	d.tour.standings = nil
	if err != nil {
		d.opt.Log.Warn().Err(err).Str("line", line).Msg("tournament: TD line not understood")
		return true
	}
	d.tdLine(l, "", line, now)
	return true
}

// standingsRow shows one row of the standings table that follows a
// trusted TD's standings line, as the TD wrote it (it is not read); a row
// starting "Total" (ours, and mamer's ":Total:") or "*: Paired" ends it.
func (d *Daemon) standingsRow(row string) {
	t := &d.tour
	e := t.standings
	d.opt.Log.Info().Int("event", e.id).Str("row", row).Msg("tournament: standings")
	d.opt.Console.say(lineResult, "tourney #%d standings: %s", e.id, row)
	if r := strings.TrimSpace(row); strings.HasPrefix(r, "Total") || strings.HasPrefix(r, "*: Paired") {
		t.standings = nil
	}
}

// tdTell takes a trusted TD's tell that is no TD line: a row of the
// standings table being received, or chatter (logged, never answered, so
// that two programs cannot talk to each other for ever).
func (d *Daemon) tdTell(from, text string) {
	if e := d.tour.standings; e != nil && strings.EqualFold(e.td, from) {
		d.standingsRow(text) // ICC style: the rows are tells
		return
	}
	d.opt.Log.Info().Str("from", from).Str("text", text).Msg("tell from a TD")
	for _, e := range d.tour.events {
		if e.state == evJoining && strings.EqualFold(e.td, from) && strings.Contains(strings.ToLower(text), "tourney") {
			// The answer to our join, when it is no confirmation ("There
			// is no tourney #7.", "Tourney #7 (KS1) is full (8 players)."):
			// the user must see it. Other chatter stays in the log.
			d.opt.Console.say(lineResult, "tourney: joining %s: %s says: %s", e, from, text)
			break
		}
	}
}

// tdLine follows one TD line, from the server's text (from == "") or in a
// tell from handle from. Lines whose TD is not trusted, and event lines
// about events we are not in, are logged and ignored.
func (d *Daemon) tdLine(l protocol.TDLine, from, raw string, now time.Time) {
	t := &d.tour
	ignore := func(why string) {
		d.opt.Log.Warn().Str("from", from).Str("kind", l.Kind.String()).Str("line", raw).Str("why", why).Msg("tournament: TD line ignored")
	}
	if from != "" && !d.trustedTD(from) {
		ignore("the teller is not a trusted TD (tournament.td)")
		return
	}
	switch l.Kind {
	case protocol.TDTourneySet:
		td := l.TD
		if td == "" {
			td = from
		}
		if !d.trustedTD(td) || from != "" && !strings.EqualFold(from, td) {
			ignore("not set by a trusted TD (tournament.td)")
			return
		}
		wMin, wInc, bMin, bInc := l.WhiteMin, l.WhiteInc, l.BlackMin, l.BlackInc
		d.paired(pairing{ev: d.eventFor(td, 0, now), opp: l.Opponent, form: "tourney-set", answer: l.Answer(),
			colour: l.Colour, round: l.Round, tc: wMin+wInc > 0 && bMin+bInc > 0 && l.Wild == 16,
			wMin: wMin, wInc: wInc, bMin: bMin, bInc: bInc}, now)
	case protocol.TDVariableOff:
		if !d.trustedTD(l.TD) || from != "" && !strings.EqualFold(from, l.TD) {
			ignore("not set by a trusted TD (tournament.td)")
			return
		}
		for _, e := range append([]*tevent(nil), t.events...) {
			if strings.EqualFold(e.td, l.TD) {
				d.endEvent(e, "tourney variable set to OFF", now)
			}
		}
	case protocol.TDPairing:
		e := d.numbered(l.Event, from, now)
		if e == nil {
			ignore("a pairing in an event we are not in")
			return
		}
		d.paired(pairing{ev: e, opp: l.Opponent, form: "mamer", answer: l.Answer(), colour: l.Colour}, now)
	case protocol.TDJoined:
		e := t.byID(l.Event)
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("a join we did not ask for")
			return
		}
		e.state, e.heard = evIn, now
		t.waitShown = false // "waiting for the next round" only now
		d.opt.Log.Info().Str("td", e.td).Int("event", e.id).Msg("tournament: joined")
		d.opt.Console.say(lineResult, "tourney: joined %s", e)
	case protocol.TDJoinRefused:
		e := t.byID(l.Event)
		if e == nil || from != "" && !strings.EqualFold(from, e.td) {
			ignore("a refused join of an event we are not joining")
			return
		}
		// Also when we were in it: the TD answers the join we send again
		// after a reconnection this way when it withdrew us meanwhile.
		d.joinRefused(e, l.Reason)
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
		d.endEvent(e, why, now)
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
		d.opt.Log.Info().Int("event", e.id).Msg("tournament: standings follow")
		d.opt.Console.say(lineResult, "tourney #%d standings:", e.id)
	}
}

// numbered returns our event numbered id for an event line; a trusted TD
// that tells us of an event we do not follow (a daemon restarted inside
// it) makes us follow it. Server text about an unknown event gives nil.
func (d *Daemon) numbered(id int, from string, now time.Time) *tevent {
	if e := d.tour.byID(id); e != nil && (from == "" || strings.EqualFold(from, e.td)) {
		return e
	}
	if from == "" {
		return nil
	}
	return d.eventFor(from, id, now)
}

// eventFor returns td's event id, following it from now on when we did
// not: a trusted TD that pairs us knows we are in its event (we may have
// been restarted, or joined by the owner by hand).
func (d *Daemon) eventFor(td string, id int, now time.Time) *tevent {
	if e := d.tour.find(td, id); e != nil {
		return e
	}
	e := &tevent{td: td, id: id, state: evIn, heard: now,
		joinBy: []string{tdCommand(d.config().Tournament.JoinCommand, td, id)}}
	d.tour.events = append(d.tour.events, e)
	d.clearOffers(now)
	d.opt.Log.Info().Str("td", td).Int("event", id).Msg("tournament: following an event we did not join here")
	return e
}

// suggestion follows DG 63 from a trusted TD: its command is sent as it
// is when it is a match command, else "match <subject>".
func (d *Daemon) suggestion(v protocol.SuggestionDG, now time.Time) {
	if !d.trustedTD(v.Suggester) {
		d.opt.Log.Warn().Str("from", v.Suggester).Str("command", v.Command).Msg("tournament: suggestion from a handle that is not a trusted TD: ignored")
		return
	}
	if !handle.Valid(v.Subject) {
		d.opt.Log.Warn().Str("from", v.Suggester).Str("subject", v.Subject).Msg("tournament: suggestion without a valid opponent: ignored")
		return
	}
	answer := "match " + v.Subject
	if strings.HasPrefix(v.Command, "match ") && cleanLine(v.Command) {
		answer = v.Command
	}
	// The suggestion's id names the event when it is one of ours (our
	// TD's does); else the pairing is the TD's only event's.
	ev := d.tour.find(v.Suggester, v.ID)
	if ev == nil {
		ev = d.eventFor(v.Suggester, 0, now)
	}
	d.paired(pairing{ev: ev, opp: v.Subject, form: "suggestion", answer: answer}, now)
}

// paired takes a pairing: once per pairing, whichever forms announce it.
func (d *Daemon) paired(p pairing, now time.Time) {
	t := &d.tour
	// A fresh log event each time: a zerolog event is spent by Msg.
	log := func() *zerolog.Event {
		return d.opt.Log.Info().Str("td", p.ev.td).Int("event", p.ev.id).Str("opponent", p.opp).Str("form", p.form)
	}
	p.ev.state, p.ev.heard = evIn, now
	if !handle.Valid(p.opp) || strings.EqualFold(p.opp, d.sess.Handle()) {
		d.opt.Log.Warn().Str("opponent", p.opp).Msg("tournament: pairing with an impossible opponent: ignored")
		return
	}
	for num, g := range d.games {
		// A game over on the server but not yet closed here does not
		// count: the next round may pair the same opponent.
		if _, _, _, over := g.t.Over(); over || !strings.EqualFold(g.t.Opponent(), p.opp) {
			continue
		}
		if g.stale.IsZero() {
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
	if soft, _ := d.quitting(); soft {
		log().Msg("tournament: pairing not answered: we are leaving")
		return
	}
	p.at = now
	d.showPairing(t.pair) // a pairing replaced before the tick showed it
	t.pair = &p
	t.waitShown = false
	log().Str("colour", p.colour).Int("round", p.round).Str("answer", p.answer).Msg("tournament: paired")
	d.answerPairing(now)
}

// showPairing puts the open pairing on the console, once. It waits for the
// next tick (or the game's start), because the second form of the same
// pairing, right behind the first, may add its round and colour (our TD
// sends DG 63, which has neither, then the tourney-set line).
func (d *Daemon) showPairing(p *pairing) {
	if p == nil || p.shown {
		return
	}
	p.shown = true
	d.opt.Console.say(lineResult, "tourney: %s%s: paired with %s%s", p.ev, roundText(p.round), p.opp, colourText(p.colour))
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
func (d *Daemon) answerPairing(now time.Time) {
	p := d.tour.pair
	if p == nil || !p.answered.IsZero() {
		return
	}
	for _, g := range d.games {
		if g.stale.IsZero() {
			return
		}
	}
	d.mu.Lock()
	paused, soft := d.paused, d.soft
	d.mu.Unlock()
	if paused || soft {
		return // a quitting bot leaves the event instead (checkQuit)
	}
	d.sess.Send(p.answer)
	p.answered = now
	d.policy.lastMatch = now // an offer of ours is out: a soft quit waits for a crossing game
	d.opt.Log.Info().Str("opponent", p.opp).Str("answer", p.answer).Msg("tournament: answering the pairing")
}

// tourneyChallenge answers a challenge while in an event: the paired
// opponent's, at the paired time control, is accepted whatever the policy
// filters say; every other is declined. It reports false when not in an
// event (the normal policy decides).
func (d *Daemon) tourneyChallenge(v protocol.MatchDG, now time.Time) bool {
	t := &d.tour
	if !t.active() {
		return false
	}
	why := "in a tournament: only the paired opponent"
	if p := t.pair; p != nil && strings.EqualFold(v.Challenger, p.opp) {
		why = d.pairedRefusal(p, v)
	}
	if why == "" {
		line, err := protocol.AcceptLine(v.Challenger)
		if err != nil {
			return true
		}
		d.policy.pending, d.policy.pendingAt = v.Challenger, now
		d.opt.Log.Info().Str("from", v.Challenger).Int("min", v.ChallengerTime).Int("inc", v.ChallengerInc).Msg("tournament: accepting the paired challenge")
		d.sess.Send(line)
		return true
	}
	d.opt.Log.Info().Str("from", v.Challenger).Str("why", why).Msg("declining challenge")
	if line, err := protocol.DeclineLine(v.Challenger); err == nil {
		d.sess.Send(line)
	}
	return true
}

// pairedRefusal says why the paired opponent's challenge is declined, or
// "": only what makes any game unplayable (unplayable: leaving, a pause, a
// full board, another variant) and a time control other than the paired
// one refuse it; the policy filters do not apply.
func (d *Daemon) pairedRefusal(p *pairing, v protocol.MatchDG) string {
	if why := d.unplayable(challengeOffer(v)); why != "" || !p.tc {
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

// tourneyGameStarted notes a game start: the paired game, or another one
// (a challenge that crossed the join), which is played but counted apart.
func (d *Daemon) tourneyGameStarted(num int, opp string, now time.Time) {
	t := &d.tour
	p := t.pair
	switch {
	case t.playing[num] != nil:
		return // given back after a reconnection
	case p != nil && strings.EqualFold(opp, p.opp):
		d.showPairing(p)
		if t.playing == nil {
			t.playing = map[int]*pairing{}
		}
		t.playing[num], t.pair = p, nil
		p.ev.heard = now
		d.opt.Log.Info().Int("game", num).Str("opponent", opp).Str("td", p.ev.td).Int("event", p.ev.id).Msg("tournament: the paired game started")
	case t.active():
		d.opt.Log.Warn().Int("game", num).Str("opponent", opp).Msg("tournament: a game outside the pairing started; playing it")
	}
}

// tourneyGameOver counts the paired game's result in its event.
func (d *Daemon) tourneyGameOver(num int, opp string, us chess.Color, result, reason string, now time.Time) {
	t := &d.tour
	p := t.playing[num]
	if p == nil {
		return
	}
	delete(t.playing, num)
	t.waitShown = false
	s := p.ev.score.add(result, us)
	p.ev.heard = now
	d.opt.Log.Info().Str("td", p.ev.td).Int("event", p.ev.id).Int("round", p.round).Int("game", num).Str("opponent", opp).
		Str("result", result).Str("reason", reason).Str("points", points(s)).Int("games", s.finished).Msg("tournament: result")
	d.opt.Console.say(lineResult, "tourney: %s%s: %s vs %s (%s) %s; our score %s/%d",
		p.ev, roundText(p.round), result, opp, us.String(), reason, points(s), s.finished)
	d.backToNormal() // the event may have ended while the game was played out
}

// tourneyAnnounced keeps a DG 103 and, with auto_join, joins a wild 16
// event a trusted TD announces while the bot is in no event.
func (d *Daemon) tourneyAnnounced(v protocol.TourneyDG, now time.Time) {
	t := &d.tour
	if t.announced == nil {
		t.announced = map[int]protocol.TourneyDG{}
	}
	if _, ok := t.announced[v.ID]; !ok && len(t.announced) >= maxAnnounced {
		return
	}
	t.announced[v.ID] = v
	cmds, td := d.announcedJoin(v)
	d.opt.Log.Info().Int("event", v.ID).Str("description", v.Description).Str("td", td).Msg("tournament: event announced")
	if cmds == nil || t.active() || !d.config().Tournament.AutoJoin || !wild16(v.Description) || t.wasIn(td, v.ID) {
		return // an event we were in is announced again after a reconnection: not joined again
	}
	if soft, _ := d.quitting(); soft {
		return
	}
	d.enter(td, v.ID, cmds, now)
}

// wild16 reports an event description that names wild 16.
func wild16(desc string) bool {
	s := strings.ToLower(desc)
	for _, w := range []string{"w16", "wild 16", "wild16", "kriegspiel"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// tourneyRemoved follows DG 104: our event is over.
func (d *Daemon) tourneyRemoved(v protocol.RemoveTourneyDG, now time.Time) {
	delete(d.tour.announced, v.ID)
	if e := d.tour.byID(v.ID); e != nil {
		d.endEvent(e, "removed by the server (DG 104)", now)
	}
}

// tourneyTick runs the tournament's timers: a pairing waiting for the
// bot to be idle, the round grace, the silence of a vanished TD, and the
// console's word that we wait for a round.
func (d *Daemon) tourneyTick(now time.Time, cfg config.Tournament) {
	t := &d.tour
	if !t.active() {
		return
	}
	d.answerPairing(now)
	d.showPairing(t.pair)
	if p := t.pair; p != nil && now.Sub(p.at) > cfg.RoundGrace.Duration {
		d.opt.Log.Warn().Str("opponent", p.opp).Dur("waited", now.Sub(p.at)).Msg("tournament: the paired game never started; waiting for the next round")
		d.opt.Console.say(lineResult, "tourney: %s: the game with %s never started; waiting for the next round", p.ev, p.opp)
		t.pair = nil
	}
	for _, e := range append([]*tevent(nil), t.events...) {
		if t.pair != nil && t.pair.ev == e || t.playsIn(e) {
			continue
		}
		if now.Sub(e.heard) > cfg.Silence.Duration {
			d.endEvent(e, fmt.Sprintf("no word from the TD for %v", cfg.Silence), now)
		}
	}
	if t.pair == nil && len(t.playing) == 0 && len(d.games) == 0 && len(t.events) > 0 && !t.waitShown {
		t.waitShown = true
		d.liveSeen.status = fmt.Sprintf("in %s: waiting for the next round", t.events[0])
		if t.events[0].state == evJoining {
			d.liveSeen.status = fmt.Sprintf("joining %s: no confirmation from %s yet", t.events[0], t.events[0].td)
		}
		d.opt.Console.say(lineProgress, "%s", d.liveSeen.status)
	}
}

// tourneyStatus is the owner's "tourney" reply.
func (d *Daemon) tourneyStatus() string {
	t := &d.tour
	if !t.active() {
		return "In no tournament."
	}
	var parts []string
	for _, e := range t.events {
		state := "in"
		if e.state == evJoining {
			state = "joining"
		}
		parts = append(parts, fmt.Sprintf("%s: %s, %d games, %s points", e, state, e.score.finished, points(e.score)))
	}
	for num, p := range t.playing {
		parts = append(parts, fmt.Sprintf("playing game %d with %s%s", num, p.opp, roundText(p.round)))
	}
	switch p := t.pair; {
	case p != nil && !p.answered.IsZero():
		parts = append(parts, fmt.Sprintf("paired with %s%s, answered, waiting for the game", p.opp, roundText(p.round)))
	case p != nil:
		parts = append(parts, fmt.Sprintf("paired with %s%s, not answered yet", p.opp, roundText(p.round)))
	case len(t.playing) == 0:
		parts = append(parts, "waiting for the next round")
	}
	return strings.Join(parts, "; ") + "."
}

// tourneyLive is the live page's line: the owner's status, "" in no event.
func (d *Daemon) tourneyLive() string {
	if !d.tour.active() {
		return ""
	}
	return d.tourneyStatus()
}

// ownerTourney is the owner's "tourney [join N [td] | leave [N]]".
func (d *Daemon) ownerTourney(from, rest string) {
	now := d.opt.Now()
	f := strings.Fields(rest)
	tds := d.config().TrustedTDs()
	switch {
	case len(f) == 0:
		d.reply(from, d.tourneyStatus())
	case f[0] == "join" && (len(f) == 2 || len(f) == 3):
		id, err := strconv.Atoi(f[1])
		if err != nil || id < 1 || id > config.MaxEvent {
			d.reply(from, "Usage: tourney join N [td], N an event number.")
			return
		}
		if len(tds) == 0 {
			d.reply(from, "No trusted TD: list one in tournament.td.")
			return
		}
		td := tds[0]
		if len(f) == 3 {
			if !d.trustedTD(f[2]) {
				d.reply(from, fmt.Sprintf("%s is not a trusted TD (tournament.td: %s).", f[2], strings.Join(tds, ", ")))
				return
			}
			td = f[2]
		}
		if soft, _ := d.quitting(); soft {
			d.reply(from, "Not joining: I am leaving.")
			return
		}
		d.reply(from, d.joinEvent(td, id, now))
	case f[0] == "leave" && len(f) <= 2:
		id := 0
		if len(f) == 2 {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 {
				d.reply(from, "Usage: tourney leave [N].")
				return
			}
			id = n
		}
		if n := d.leaveEvents(id, "the owner's word", now); n == 0 {
			d.reply(from, "In no such tournament.")
			return
		}
		d.reply(from, "Left; back to normal play once the game in progress, if any, is over.")
	default:
		d.reply(from, "Usage: tourney, tourney join N [td], tourney leave [N].")
	}
}
