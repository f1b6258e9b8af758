package tddoor

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/ratelimit"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// What players and managers tell the TD ("tell TD <command>", or the FICS
// form "td <command>", which is "xtell TD <command>").

// tdCommand is one TD command. Managers' commands are refused to others.
type tdCommand struct {
	usage   string
	help    string
	manager bool
	run     func(d *Door, ev *server.Events, c *server.Client, args []string)
}

// tdCommands is the TD's table, by lower-case name; mamer's names
// (JoinTourney, WithdrawFromTourney, ListTourneys) are aliases.
func tdCommands() map[string]tdCommand {
	join := tdCommand{"join [N]", "enter an event (a running Swiss: a late join)", false, (*Door).cmdJoin}
	leave := tdCommand{"leave [N] [!]", "leave an event (once it started: leave !, your games left are lost)", false, (*Door).cmdLeave}
	withdraw := tdCommand{"WithdrawFromTourney N", "leave an event, started or not", false, (*Door).cmdWithdraw}
	list := tdCommand{"ListTourneys [-j]", "the events (-j: those you can join)", false, (*Door).cmdList}
	return map[string]tdCommand{
		"join":                join,
		"jointourney":         join,
		"latejoin":            {"latejoin [N]", "enter a running Swiss: half a point for each round already paired", false, (*Door).cmdJoin},
		"leave":               leave,
		"withdraw":            withdraw,
		"withdrawfromtourney": withdraw,
		"play":                {"play N", "answer your pairing in event N: start your game", false, (*Door).cmdPlay},
		"bye":                 {"bye [N]", "a half-point bye in the next round to be paired (Swiss only; a game already paired stands)", false, (*Door).cmdBye},
		"standings":           {"standings [N]", "the standings", false, (*Door).cmdStandings},
		"info":                {"info [N]", "what an event is and how far it got", false, (*Door).cmdInfo},
		"pairings":            {"pairings [N]", "the current round's pairings and results", false, (*Door).cmdPairings},
		"games":               {"games [N]", "the event's games in progress", false, (*Door).cmdGames},
		"status":              {"status", "your events and pairing", false, (*Door).cmdStatus},
		"listtourneys":        list,
		"list":                list,
		"help":                {"help", "this list", false, (*Door).cmdHelp},
		"open":                {"open name=X system=swiss|rr|drr rounds=5 tc=1+1 style=icc|fics start=manual|N|10m max=N", "open an event", true, (*Door).cmdOpen},
		"start":               {"start [N]", "start an open event", true, (*Door).cmdStart},
		"abort":               {"abort [N]", "abort an event", true, (*Door).cmdAbort},
		"forfeit":             {"forfeit <handle> [N]", "forfeit a player's game and withdraw the player", true, (*Door).cmdForfeit},
	}
}

// Tell runs one tell to the TD ("tell TD ...", the "td" command;
// server.Director).
func (d *Door) Tell(ev *server.Events, c *server.Client, text string) {
	s := d.s
	now := s.Now()
	bud := d.budgets[c]
	if bud == nil {
		bud = &tellBudget{limit: ratelimit.New(d.cfg.Rate, d.cfg.Burst)}
		d.budgets[c] = bud
	}
	if ok, _ := ratelimit.Take(bud.limit, now); !ok {
		if now.Sub(bud.warned) >= time.Second {
			bud.warned = now
			d.say(ev, c, nil, "You are sending the TD too many commands: wait a second.")
		}
		return
	}
	text = protocol.CleanText(text)
	args := strings.Fields(text)
	if len(args) == 0 {
		d.say(ev, c, nil, "Tell me a command; \"tell "+d.handle()+" help\" lists them.")
		return
	}
	name := strings.ToLower(args[0])
	cmd, ok := d.cmds[name]
	if !ok {
		d.say(ev, c, nil, fmt.Sprintf("I do not know %q; \"tell %s help\" lists my commands.", truncate(args[0], 32), d.handle()))
		return
	}
	if cmd.manager && !d.manager(c) {
		d.say(ev, c, nil, fmt.Sprintf("Only the TD's managers may %s.", name))
		return
	}
	cmd.run(d, ev, c, args[1:])
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// manager reports whether c may run managers' commands: a registered
// handle (a guest's name is the server's choice) on the managers list.
func (d *Door) manager(c *server.Client) bool {
	if c.Guest() {
		return false
	}
	for _, m := range d.cfg.Managers {
		if strings.EqualFold(m, c.Handle()) {
			return true
		}
	}
	return false
}

// pick finds the event a command means: the number given, else the
// player's own event, else the one event that is not over (or the last
// one). It reports nil after telling c why.
func (d *Door) pick(ev *server.Events, c *server.Client, args []string) *tdEvent {
	for _, a := range args {
		if n, ok := td.ParseNumber(a); ok {
			if te := d.event(n); te != nil {
				return te
			}
			d.say(ev, c, nil, fmt.Sprintf("There is no tourney #%d.", n))
			return nil
		}
		if td.MeantAsNumber(a) {
			d.say(ev, c, nil, fmt.Sprintf("%q is not an event number: events are numbered from 1 (\"tell %s list\").", truncate(a, 24), d.handle()))
			return nil
		}
	}
	var live []*tdEvent
	for _, te := range d.events {
		if !te.over() && te.entrant(c.Handle()) {
			return te
		}
		if !te.over() {
			live = append(live, te)
		}
	}
	switch {
	case len(live) == 1:
		return live[0]
	case len(live) > 1:
		d.say(ev, c, nil, "Several events are running: give the number (\"tell "+d.handle()+" list\").")
		return nil
	case len(d.events) > 0:
		return d.events[len(d.events)-1]
	}
	d.say(ev, c, nil, "There is no tourney.")
	return nil
}

func (d *Door) cmdHelp(ev *server.Events, c *server.Client, _ []string) {
	cmds := d.cmds
	names := make([]string, 0, len(cmds))
	for n, cmd := range cmds {
		if strings.EqualFold(strings.Fields(cmd.usage)[0], n) && (!cmd.manager || d.manager(c)) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	d.say(ev, c, nil, fmt.Sprintf("Tell me (\"tell %s <command>\" or \"td <command>\"):", d.handle()))
	for _, n := range names {
		d.say(ev, c, nil, fmt.Sprintf("  %s: %s", cmds[n].usage, cmds[n].help))
	}
}

func (d *Door) cmdJoin(ev *server.Events, c *server.Client, args []string) {
	s := d.s
	// A join of an event that does not exist is refused in the refusal's
	// form (not pick's "There is no tourney #N."), so that a program
	// waiting for its join reads the answer.
	for _, a := range args {
		if n, ok := td.ParseNumber(a); ok && d.event(n) == nil {
			d.refuseJoin(ev, c, nil, n, "there is no such tourney")
			return
		}
	}
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	for _, o := range d.events {
		if o != te && !o.over() && o.entrant(c.Handle()) {
			d.refuseJoin(ev, c, te, te.ID, fmt.Sprintf("you are in %s: one event at a time", o.title()))
			return
		}
	}
	if te.entrant(c.Handle()) {
		d.say(ev, c, te, protocol.TDLine{Kind: protocol.TDJoined, Event: te.ID}.String())
		return
	}
	if _, ok := te.Event.Find(c.Handle()); ok {
		d.refuseJoin(ev, c, te, te.ID, "you have left it and cannot enter it again")
		return
	}
	if len(te.Event.Players) >= te.Spec.MaxPlayers {
		d.refuseJoin(ev, c, te, te.ID, fmt.Sprintf("it is full (%d players)", te.Spec.MaxPlayers))
		return
	}
	var err error
	switch te.Status {
	case tdOpen:
		err = te.Event.AddPlayer(c.Handle(), s.Rating(c.Handle()))
	case tdRunning:
		err = te.Event.LateJoin(c.Handle(), s.Rating(c.Handle()))
	default:
		d.refuseJoin(ev, c, te, te.ID, "it is "+te.Status)
		return
	}
	if err != nil {
		d.refuseJoin(ev, c, te, te.ID, strings.TrimPrefix(err.Error(), "tourney: "))
		return
	}
	s.Note().Msgf("td: tourney %d: %s joined (%s)", te.ID, c.Handle(), te.Status)
	d.say(ev, c, te, protocol.TDLine{Kind: protocol.TDJoined, Event: te.ID}.String())
	if te.Status == tdRunning {
		s.RemoveOffersOf(ev, c.Handle()) // an entrant's old seek must not be taken now
	}
	if te.Status == tdRunning && te.round() > 0 {
		d.say(ev, c, te, fmt.Sprintf("A late join: a half-point bye for each round already paired (%d); you are paired from round %d.", te.round(), te.round()+1))
	}
	d.save(te)
	if te.Status == tdOpen && te.Spec.StartPlayers > 0 && len(te.Event.Players) >= te.Spec.StartPlayers {
		if err := d.start(ev, te); err != nil {
			s.Warn().Msgf("td: tourney %d: start: %v", te.ID, err)
		}
	}
}

// refuseJoin tells c that its join of event id (te, nil when there is
// no such event) is refused, and why, in the TDLine form the daemon reads.
func (d *Door) refuseJoin(ev *server.Events, c *server.Client, te *tdEvent, id int, why string) {
	l := protocol.TDLine{Kind: protocol.TDJoinRefused, Event: id, Reason: why}
	if te != nil {
		l.Tag = te.Spec.Name
	}
	d.say(ev, c, te, l.String())
}

func (d *Door) cmdLeave(ev *server.Events, c *server.Client, args []string) {
	bang := false
	var rest []string
	for _, a := range args {
		if a == "!" {
			bang = true
		} else {
			rest = append(rest, a)
		}
	}
	te := d.pick(ev, c, rest)
	if te == nil {
		return
	}
	if !te.entrant(c.Handle()) {
		d.say(ev, c, te, fmt.Sprintf("You are not in %s.", te.title()))
		return
	}
	if te.Status == tdRunning && !bang {
		d.say(ev, c, te, fmt.Sprintf("%s has started: \"tell %s leave !\" withdraws you, and your games left are lost.", te.heading(), d.handle()))
		return
	}
	d.leave(ev, c, te)
}

func (d *Door) cmdWithdraw(ev *server.Events, c *server.Client, args []string) {
	if len(args) == 0 {
		d.say(ev, c, nil, "Usage: WithdrawFromTourney N")
		return
	}
	if te := d.pick(ev, c, args[:1]); te != nil {
		if !te.entrant(c.Handle()) {
			d.say(ev, c, te, fmt.Sprintf("You are not in %s.", te.title()))
			return
		}
		d.leave(ev, c, te)
	}
}

// leave takes c out of te: before the start the entry is struck out,
// after it the player is withdrawn.
func (d *Door) leave(ev *server.Events, c *server.Client, te *tdEvent) {
	s := d.s
	if te.Status == tdOpen {
		te.strike(c.Handle())
		d.say(ev, c, te, fmt.Sprintf("You have left %s.", te.title()))
		d.save(te)
		return
	}
	if te.Status != tdRunning {
		d.say(ev, c, te, fmt.Sprintf("%s is %s.", te.heading(), te.Status))
		return
	}
	s.Note().Msgf("td: tourney %d: %s withdraws", te.ID, c.Handle())
	d.say(ev, c, te, fmt.Sprintf("You have withdrawn from %s.", te.title()))
	if b := te.boardOf(c.Handle()); b != nil && b.game != nil {
		d.say(ev, c, te, fmt.Sprintf("Your game %d is played out: resign it if you do not mean to play.", b.game.Number()))
	}
	d.withdraw(ev, te, c.Handle(), false)
	d.pairNext(ev, te)
}

func (d *Door) cmdPlay(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	b := te.boardOf(c.Handle())
	if b == nil || te.Status != tdRunning {
		d.say(ev, c, te, fmt.Sprintf("You have no game to play in %s now.", te.title()))
		return
	}
	d.answer(ev, c, b)
}

// cmdBye grants a requested half-point bye (FIDE C.04.1 lets
// organisers allow them; ICC's TD bots give them too) in the next round
// to be paired, never in one already paired: the player's game of the
// round in progress, if any, stands. The tourney package refuses a round
// robin (its schedule is fixed), a withdrawn player and a finished event.
func (d *Door) cmdBye(ev *server.Events, c *server.Client, args []string) {
	s := d.s
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	switch {
	case !te.entrant(c.Handle()):
		d.say(ev, c, te, fmt.Sprintf("You are not in %s.", te.title()))
		return
	case te.Status == tdOpen:
		d.say(ev, c, te, fmt.Sprintf("%s has not started: ask for your bye once round 1 is paired; it is for the next round.", te.heading()))
		return
	case te.Status != tdRunning:
		d.say(ev, c, te, fmt.Sprintf("%s is %s.", te.heading(), te.Status))
		return
	}
	next := te.round() + 1
	if next > te.Event.Rounds {
		d.say(ev, c, te, fmt.Sprintf("You cannot have a bye in %s: every round is paired already.", te.title()))
		return
	}
	if err := te.Event.RequestBye(c.Handle()); err != nil {
		d.say(ev, c, te, fmt.Sprintf("You cannot have a bye in %s: %s.", te.title(), strings.TrimPrefix(err.Error(), "tourney: ")))
		return
	}
	s.Note().Msgf("td: tourney %d: %s asks a bye in round %d", te.ID, c.Handle(), next)
	stands := ""
	if te.boardOf(c.Handle()) != nil {
		stands = fmt.Sprintf("; your game of round %d stands", te.round())
	}
	d.say(ev, c, te, fmt.Sprintf("You will have a half-point bye in round %d of %s%s.", next, te.title(), stands))
	d.save(te)
}

func (d *Door) cmdStandings(ev *server.Events, c *server.Client, args []string) {
	if te := d.pick(ev, c, args); te != nil {
		d.standings(ev, c, te)
	}
}

func (d *Door) cmdInfo(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	d.say(ev, c, te, fmt.Sprintf("Tourney #%d %s: %s, wild 16 %d %d unrated, %s style, %s; %s.",
		te.ID, te.Spec.Name, te.Event.System, te.Spec.Minutes, te.Spec.Inc, te.Spec.Style, te.Status, te.progress()))
	start := "a manager starts it"
	switch {
	case te.Spec.StartPlayers > 0:
		start = fmt.Sprintf("it starts at %d players", te.Spec.StartPlayers)
	case te.Spec.StartAfter > 0:
		start = "it starts at " + te.Opened.Add(te.Spec.StartAfter).UTC().Format("15:04:05") + " UTC"
	}
	if te.Status == tdOpen {
		d.say(ev, c, te, fmt.Sprintf("Join with \"tell %s join %d\"; %s.", d.handle(), te.ID, start))
	}
	d.say(ev, c, te, fmt.Sprintf("Absent players lose by forfeit %s after the pairing; a game waits %s for a disconnected player, and disconnection %d forfeits it.",
		d.cfg.AbsentGrace, d.cfg.GameGrace, d.cfg.MaxDisconnects))
}

func (d *Door) cmdPairings(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	r := te.round()
	if r == 0 {
		d.say(ev, c, te, fmt.Sprintf("%s has no round paired yet.", te.heading()))
		return
	}
	rd := te.Event.Played[r-1]
	d.say(ev, c, te, fmt.Sprintf("%s round %d:", te.heading(), r))
	for _, g := range rd.Games {
		d.say(ev, c, te, fmt.Sprintf("  %d. %s - %s %s", g.Board, te.Event.Players[g.White].Handle, te.Event.Players[g.Black].Handle, g.Result))
	}
	for _, by := range rd.Byes {
		d.say(ev, c, te, fmt.Sprintf("  %s: %s", te.Event.Players[by.Player].Handle, by.Kind))
	}
}

func (d *Door) cmdGames(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	n := 0
	for _, b := range te.Boards {
		if b.game != nil {
			d.say(ev, c, te, fmt.Sprintf("  game %d: %s - %s (round %d, board %d)", b.game.Number(), b.White, b.Black, b.Round, b.Board))
			n++
		}
	}
	d.say(ev, c, te, fmt.Sprintf("%s: %d games in progress.", te.title(), n))
}

func (d *Door) cmdStatus(ev *server.Events, c *server.Client, _ []string) {
	for _, te := range d.events {
		if te.over() || !te.entrant(c.Handle()) {
			continue
		}
		if te.Status == tdOpen {
			d.say(ev, c, te, fmt.Sprintf("You are in %s, waiting for the start (%s).", te.title(), te.progress()))
			return
		}
		b := te.boardOf(c.Handle())
		switch {
		case te.isOff(c.Handle()):
			d.say(ev, c, te, fmt.Sprintf("You are in %s; your games are over.", te.title()))
		case b == nil:
			d.say(ev, c, te, fmt.Sprintf("You are in %s, waiting for round %d.", te.title(), te.round()+1))
		case b.game != nil:
			d.say(ev, c, te, fmt.Sprintf("You are in %s, playing round %d: game %d.", te.title(), b.Round, b.game.Number()))
		default:
			col := b.side(c.Handle())
			d.say(ev, c, te, fmt.Sprintf("You are in %s, round %d: you play %s against %s; waiting for your answer.",
				te.title(), b.Round, strings.ToLower(server.ColorName(chess.Color(col))), b.names()[1-col]))
		}
		return
	}
	d.say(ev, c, nil, "You are in no tourney.")
}

func (d *Door) cmdList(ev *server.Events, c *server.Client, args []string) {
	joinable := len(args) > 0 && args[0] == "-j"
	d.say(ev, c, nil, d.handle()+"'s tourney list:")
	n := 0
	for _, te := range d.events {
		if joinable && te.Status != tdOpen && !te.lateJoinable() {
			continue
		}
		d.say(ev, c, nil, fmt.Sprintf("| %d | %s | %s | %s | %s |", te.ID, te.Status, te.Spec.Name, te.Spec.TypeColumn(), te.Opened.UTC().Format("2006-01-02 15:04")))
		n++
	}
	unit := "tourneys"
	if n == 1 {
		unit = "tourney"
	}
	d.say(ev, c, nil, fmt.Sprintf("Listed: %d %s.", n, unit))
}

func (d *Door) cmdOpen(ev *server.Events, c *server.Client, args []string) {
	sp, err := td.ParseEventSpec(strings.Join(args, " "), d.cfg.Style)
	if err != nil {
		d.say(ev, c, nil, "Cannot open: "+err.Error()+".")
		return
	}
	te, err := d.openEvent(ev, sp)
	if err != nil {
		d.say(ev, c, nil, "Cannot open: "+err.Error()+".")
		return
	}
	d.say(ev, c, te, fmt.Sprintf("Opened tourney #%d: %s.", te.ID, te.Spec))
}

func (d *Door) cmdStart(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	if err := d.start(ev, te); err != nil {
		d.say(ev, c, te, fmt.Sprintf("Cannot start %s: %v.", te.title(), err))
		return
	}
	d.say(ev, c, te, fmt.Sprintf("Started %s.", te.title()))
}

func (d *Door) cmdAbort(ev *server.Events, c *server.Client, args []string) {
	te := d.pick(ev, c, args)
	if te == nil {
		return
	}
	if te.over() {
		d.say(ev, c, te, fmt.Sprintf("%s is already %s.", te.heading(), te.Status))
		return
	}
	d.abort(ev, te, "by "+c.Handle())
	d.say(ev, c, te, fmt.Sprintf("Aborted %s.", te.title()))
}

func (d *Door) cmdForfeit(ev *server.Events, c *server.Client, args []string) {
	if len(args) == 0 {
		d.say(ev, c, nil, "Usage: forfeit <handle> [N]")
		return
	}
	te := d.pick(ev, c, args[1:])
	if te == nil {
		return
	}
	who := args[0]
	if !te.entrant(who) || te.Status != tdRunning {
		d.say(ev, c, te, fmt.Sprintf("%s is not playing in %s.", truncate(who, 32), te.title()))
		return
	}
	if b := te.boardOf(who); b != nil {
		lost := [2]bool{}
		lost[b.side(who)] = true
		res := tourney.WhiteForfeitWin
		if lost[0] {
			res = tourney.BlackForfeitWin
		}
		d.forfeit(ev, b, res, lost, "forfeited by "+c.Handle())
	} else {
		d.withdraw(ev, te, who, true)
		d.pairNext(ev, te)
	}
	d.say(ev, c, te, fmt.Sprintf("%s is forfeited from %s.", who, te.title()))
}
