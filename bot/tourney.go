package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/config"
	"kriegbot/protocol"
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
