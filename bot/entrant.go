package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

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

// entrant is the daemon's part in computer tournaments as a state machine
// (the Daemon's goroutine only): TD lines, datagrams, game starts and ends,
// the owner's word and the clock go in; what the daemon is to do comes out
// (effects: lines to send, console lines, changes to its matchmaking). It
// does no I/O: the daemon gives it what it needs to know (env) with each
// input, and carries out its effects in order (tourney.go).
type entrant struct {
	env entrantEnv // what the daemon knows, as of this input
	out []effect   // what this input decides, in order
	log zerolog.Logger

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
func (t *entrant) active() bool { return len(t.events) > 0 || t.pair != nil || len(t.playing) > 0 }

// wasIn reports an event of td numbered id that is over for us.
func (t *entrant) wasIn(td string, id int) bool {
	for _, e := range t.past {
		if e.id == id && strings.EqualFold(e.td, td) {
			return true
		}
	}
	return false
}

// playsIn reports a paired game of event e in progress.
func (t *entrant) playsIn(e *tevent) bool {
	for _, p := range t.playing {
		if p.ev == e {
			return true
		}
	}
	return false
}

// find returns the event of td numbered id; id 0 matches the TD's only
// event, when it has exactly one.
func (t *entrant) find(td string, id int) *tevent {
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
func (t *entrant) byID(id int) *tevent {
	for _, e := range t.events {
		if e.id == id && id != 0 {
			return e
		}
	}
	return nil
}

// pairedGame reports that game num is a paired game.
func (t *entrant) pairedGame(num int) bool { return t.playing[num] != nil }

// trusted reports a handle listed in tournament.td (when not set, "TD"
// on our own server only: config.TrustedTDs).
func (t *entrant) trusted(h string) bool { return h != "" && contains(t.env.tds, h) }

// entrantEnv is what the entrant is told of the daemon with each input.
type entrantEnv struct {
	cfg    config.Tournament
	tds    []string // the trusted TDs (config.TrustedTDs)
	me     string   // our handle on this connection
	soft   bool     // finishing our games, then leaving
	paused bool     // paused by the owner
	games  []envGame
}

// envGame is a game in progress, as the entrant sees it.
type envGame struct {
	number int
	opp    string
	over   bool // over on the server, not yet closed here
	stale  bool // lost with the connection, not given back yet
}

// effect is one thing an input makes the daemon do.
type effect struct {
	kind effectKind
	line string   // the line to send or say, the status, the challenger
	say  lineKind // for fxSay
}

type effectKind int

const (
	fxSend        effectKind = iota // send line
	fxSay                           // line on the console, as say
	fxClearOffers                   // withdraw our seek and challenges, if any are open
	fxOfferOut                      // an offer of ours is out (a pairing answered)
	fxAccepting                     // we accept the paired challenger (line)'s challenge
	fxNormalPlay                    // back to normal play: the console says again what we wait for
	fxStatus                        // the operator's page's status line
)

func (t *entrant) send(line string) { t.out = append(t.out, effect{kind: fxSend, line: line}) }

func (t *entrant) say(k lineKind, format string, args ...any) {
	t.out = append(t.out, effect{kind: fxSay, say: k, line: fmt.Sprintf(format, args...)})
}

// input runs one input against env and returns its effects, in order.
func (t *entrant) input(env entrantEnv, in func()) []effect {
	t.env, t.out = env, nil
	in()
	out := t.out
	t.env, t.out = entrantEnv{}, nil
	return out
}

// tdCommand fills a join or leave template.
func tdCommand(tmpl, td string, id int) string {
	return strings.NewReplacer("{td}", td, "{event}", strconv.Itoa(id)).Replace(tmpl)
}

// connected runs after each login: the tournament DGs (JIN's
// workaround: the server may not send the event list for 103 turned on at
// login, so it is turned on again), the events of tournament.join on the
// first login, and on later ones the rejoin of the events we are in.
func (t *entrant) connected(now time.Time) {
	cfg := t.env.cfg
	tds := t.env.tds
	if len(tds) == 0 {
		return
	}
	t.send(fmt.Sprintf("set-2 %d 1", protocol.DGTourney))
	if !t.joinedCfg {
		t.joinedCfg = true
		for _, id := range cfg.Join {
			t.joinEvent(tds[0], id, now)
		}
	} else if cfg.Rejoin {
		for _, e := range t.events {
			t.log.Info().Str("td", e.td).Int("event", e.id).Msg("tournament: joining again after the reconnection")
			for _, l := range e.joinBy {
				t.send(l)
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
func (t *entrant) joinEvent(td string, id int, now time.Time) string {
	if e := t.find(td, id); e != nil && (id != 0 || e.id == 0) {
		return fmt.Sprintf("Already in %s.", e)
	}
	cmds := []string{tdCommand(t.env.cfg.JoinCommand, td, id)}
	if dg, ok := t.announced[id]; ok {
		if own, dgTD := announcedJoin(dg, t.env.tds); own != nil && strings.EqualFold(dgTD, td) {
			cmds = own
		}
	}
	return t.enter(td, id, cmds, now)
}

// enter sends the join lines and starts following the event.
func (t *entrant) enter(td string, id int, cmds []string, now time.Time) string {
	e := &tevent{td: td, id: id, heard: now, joinBy: cmds}
	t.events = append(t.events, e)
	for _, c := range cmds {
		t.send(c)
	}
	t.clearOffers(now)
	t.waitShown = false
	t.log.Info().Str("td", td).Int("event", id).Strs("commands", cmds).Msg("tournament: joining")
	t.say(lineResult, "tourney: joining %s", e)
	return fmt.Sprintf("Joining %s.", e)
}

// clearOffers withdraws our seek and challenges as the bot enters an
// event: a game they started now would be one the TD did not pair.
func (t *entrant) clearOffers(now time.Time) {
	t.out = append(t.out, effect{kind: fxClearOffers})
}

// announcedJoin returns a DG 103's join commands and the TD they tell,
// when every one is "tell <trusted TD> ..." (so an announcement cannot make
// the bot send anything but a tell to a TD it trusts); nil otherwise.
func announcedJoin(dg protocol.TourneyDG, tds []string) ([]string, string) {
	cmds := protocol.SplitCommands(dg.Join)
	td := ""
	for _, c := range cmds {
		f := strings.Fields(c)
		if len(f) < 2 || !strings.EqualFold(f[0], "tell") && !strings.EqualFold(f[0], "xtell") ||
			!contains(tds, f[1]) || td != "" && !strings.EqualFold(td, f[1]) || !cleanLine(c) {
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
func (t *entrant) leaveEvents(id int, why string, now time.Time) int {
	tmpl := t.env.cfg.LeaveCommand
	n := 0
	for _, e := range append([]*tevent(nil), t.events...) {
		if id != 0 && e.id != id {
			continue
		}
		t.send(tdCommand(tmpl, e.td, e.id))
		t.endEvent(e, "left: "+why, now)
		n++
	}
	return n
}

// endEvent stops following an event and, when it was the last, returns the
// bot to its normal play. A paired game in progress is played out.
func (t *entrant) endEvent(e *tevent, why string, now time.Time) {
	t.forget(e)
	s := e.score
	t.log.Info().Str("td", e.td).Int("event", e.id).Str("why", why).Int("games", s.finished).
		Int("wins", s.wins).Int("losses", s.losses).Int("draws", s.draws).Msg("tournament: event over for us")
	pts := points(s) + " points"
	if pts == "1 points" {
		pts = "1 point"
	}
	t.say(lineResult, "tourney: %s over for us (%s): %d game%s +%d -%d =%d, %s",
		e, why, s.finished, plural(s.finished), s.wins, s.losses, s.draws, pts)
	t.backToNormal()
}

// joinRefused drops an event whose TD refused our join (full, over, left
// before, another event of ours): waiting for it until tournament.silence
// would keep the bot from playing for hours. The event is remembered as
// over for us, so that auto_join does not ask again when it is announced.
func (t *entrant) joinRefused(e *tevent, why string) {
	t.forget(e)
	t.log.Warn().Str("td", e.td).Int("event", e.id).Str("why", why).Msg("tournament: the TD refused our join")
	if why == "" {
		why = "no reason given"
	}
	t.say(lineResult, "tourney: %s refused our join: %s", e, why)
	t.backToNormal()
}

// forget stops following an event: its open pairing is dropped, a paired
// game in progress is played out, and it joins the events over for us.
func (t *entrant) forget(e *tevent) {
	for i, x := range t.events {
		if x == e {
			t.events = append(t.events[:i], t.events[i+1:]...)
			break
		}
	}
	if t.pair != nil && t.pair.ev == e {
		t.showPairing(t.pair)
		t.pair = nil
	}
	t.past = append(t.past, e)
	if len(t.past) > maxPast {
		t.past = t.past[1:]
	}
}

// backToNormal says so when the bot is in no event any more: the policy
// seeks and takes challenges again (not when it is quitting).
func (t *entrant) backToNormal() {
	if !t.active() && !t.env.soft {
		t.out = append(t.out, effect{kind: fxNormalPlay}) // the console says again what we wait for
		t.say(lineResult, "tourney: back to normal play")
	}
}

// points writes a score's points, halves included.
func points(s score) string {
	p := float64(s.wins) + float64(s.draws)/2
	return strconv.FormatFloat(p, 'f', -1, 64)
}

// announce keeps a DG 103 and, with auto_join, joins a wild 16
// event a trusted TD announces while the bot is in no event.
func (t *entrant) announce(v protocol.TourneyDG, now time.Time) {
	if t.announced == nil {
		t.announced = map[int]protocol.TourneyDG{}
	}
	if _, ok := t.announced[v.ID]; !ok && len(t.announced) >= maxAnnounced {
		return
	}
	t.announced[v.ID] = v
	cmds, td := announcedJoin(v, t.env.tds)
	t.log.Info().Int("event", v.ID).Str("description", v.Description).Str("td", td).Msg("tournament: event announced")
	if cmds == nil || t.active() || !t.env.cfg.AutoJoin || !wild16(v.Description) || t.wasIn(td, v.ID) {
		return // an event we were in is announced again after a reconnection: not joined again
	}
	if t.env.soft {
		return
	}
	t.enter(td, v.ID, cmds, now)
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

// removed follows DG 104: our event is over.
func (t *entrant) removed(v protocol.RemoveTourneyDG, now time.Time) {
	delete(t.announced, v.ID)
	if e := t.byID(v.ID); e != nil {
		t.endEvent(e, "removed by the server (DG 104)", now)
	}
}

// tick runs the tournament's timers: a pairing waiting for the
// bot to be idle, the round grace, the silence of a vanished TD, and the
// console's word that we wait for a round.
func (t *entrant) tick(now time.Time) {
	cfg := t.env.cfg
	if !t.active() {
		return
	}
	t.answerPairing(now)
	t.showPairing(t.pair)
	if p := t.pair; p != nil && now.Sub(p.at) > cfg.RoundGrace.Duration {
		t.log.Warn().Str("opponent", p.opp).Stringer("waited", now.Sub(p.at).Round(time.Millisecond)).Msg("tournament: the paired game never started; waiting for the next round")
		t.say(lineResult, "tourney: %s: the game with %s never started; waiting for the next round", p.ev, p.opp)
		t.pair = nil
	}
	for _, e := range append([]*tevent(nil), t.events...) {
		if t.pair != nil && t.pair.ev == e || t.playsIn(e) {
			continue
		}
		if now.Sub(e.heard) > cfg.Silence.Duration {
			t.endEvent(e, fmt.Sprintf("no word from the TD for %v", cfg.Silence), now)
		}
	}
	if t.pair == nil && len(t.playing) == 0 && len(t.env.games) == 0 && len(t.events) > 0 && !t.waitShown {
		t.waitShown = true
		status := fmt.Sprintf("in %s: waiting for the next round", t.events[0])
		if t.events[0].state == evJoining {
			status = fmt.Sprintf("joining %s: no confirmation from %s yet", t.events[0], t.events[0].td)
		}
		t.out = append(t.out, effect{kind: fxStatus, line: status})
		t.say(lineProgress, "%s", status)
	}
}

// status is the owner's "tourney" reply.
func (t *entrant) status() string {
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

// liveLine is the live page's line: the owner's status, "" in no event.
func (t *entrant) liveLine() string {
	if !t.active() {
		return ""
	}
	return t.status()
}

// owner is the reply to the owner's "tourney [join N [td] | leave [N]]".
func (t *entrant) owner(rest string, now time.Time) string {
	f := strings.Fields(rest)
	tds := t.env.tds
	switch {
	case len(f) == 0:
		return t.status()
	case f[0] == "join" && (len(f) == 2 || len(f) == 3):
		id, err := strconv.Atoi(f[1])
		if err != nil || id < 1 || id > config.MaxEvent {
			return "Usage: tourney join N [td], N an event number."
		}
		if len(tds) == 0 {
			return "No trusted TD: list one in tournament.td."
		}
		td := tds[0]
		if len(f) == 3 {
			if !t.trusted(f[2]) {
				return fmt.Sprintf("%s is not a trusted TD (tournament.td: %s).", f[2], strings.Join(tds, ", "))
			}
			td = f[2]
		}
		if t.env.soft {
			return "Not joining: I am leaving."
		}
		return t.joinEvent(td, id, now)
	case f[0] == "leave" && len(f) <= 2:
		id := 0
		if len(f) == 2 {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 {
				return "Usage: tourney leave [N]."
			}
			id = n
		}
		if n := t.leaveEvents(id, "the owner's word", now); n == 0 {
			return "In no such tournament."
		}
		return "Left; back to normal play once the game in progress, if any, is over."
	default:
		return "Usage: tourney, tourney join N [td], tourney leave [N]."
	}
}
