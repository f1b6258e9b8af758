package tddoor

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/protocol/handle"
	"kriegbot/server"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// The TD's rounds: opening and starting events, pairing, the paired
// games from the answer to the result, absentees, the end. Everything
// here runs under s.mu.

// say sends one TD message to c: a tell from the TD (ICC style) or a
// qtell line starting with ":" (FICS style), which no user's tell can
// produce (a user's tell reads "<handle>(<titles>) tells you: ...").
func (d *Door) say(ev *server.Events, c *server.Client, te *tdEvent, line string) {
	if c == nil {
		return
	}
	style := d.cfg.Style
	if te != nil {
		style = te.Spec.Style
	}
	if style == "fics" {
		ev.Text(c, ":"+line)
		return
	}
	ev.DG(c, protocol.DGPersonalTell, d.handle(), "TD", line, "1")
	if !c.DGOn(protocol.DGPersonalTell) {
		ev.Text(c, fmt.Sprintf("%s(TD) tells you: %s", d.handle(), line))
	}
}

// sayTo is say to a handle, if it is logged in.
func (d *Door) sayTo(ev *server.Events, handle string, te *tdEvent, line string) {
	s := d.s
	d.say(ev, s.User(handle), te, line)
}

// tourneyDG is the event as DG 103 shows it.
func (d *Door) tourneyDG(te *tdEvent) protocol.TourneyDG {
	dg := protocol.TourneyDG{ID: te.ID, Bits: 1,
		Description: fmt.Sprintf("%s: %s, wild 16 %d %d unrated, %s", te.Spec.Name, te.Event.System, te.Spec.Minutes, te.Spec.Inc, te.Status),
		Info:        protocol.JoinCommands(fmt.Sprintf("tell %s info %d", d.handle(), te.ID)),
	}
	switch {
	case te.Status == tdOpen:
		dg.Join = protocol.JoinCommands(fmt.Sprintf("tell %s join %d", d.handle(), te.ID))
	case te.lateJoinable():
		dg.Join = protocol.JoinCommands(fmt.Sprintf("tell %s latejoin %d", d.handle(), te.ID))
	}
	return dg
}

// listDG sends DG 103 (or 104 for an event that is over) about te to
// every user who has it on.
func (d *Door) listDG(ev *server.Events, te *tdEvent) {
	s := d.s
	for _, u := range s.Online() {
		d.listDGTo(ev, u, te)
	}
}

func (d *Door) listDGTo(ev *server.Events, u *server.Client, te *tdEvent) {
	if te.over() {
		ev.DG(u, protocol.DGRemoveTourney, protocol.RemoveTourneyDG{ID: te.ID}.Fields()...)
		return
	}
	ev.DG(u, protocol.DGTourney, d.tourneyDG(te).Fields()...)
}

// live counts the events not over.
func (d *Door) live() int {
	n := 0
	for _, te := range d.events {
		if !te.over() {
			n++
		}
	}
	return n
}

// openEvent opens an event from its spec.
func (d *Door) openEvent(ev *server.Events, sp td.EventSpec) (*tdEvent, error) {
	s := d.s
	if d.live() >= d.cfg.MaxEvents {
		return nil, fmt.Errorf("%d events are already running", d.live())
	}
	id := d.nextID
	if sp.Style == "" {
		sp.Style = d.cfg.Style
	}
	if sp.Name == "" {
		sp.Name = fmt.Sprintf("KS%d", id)
	}
	d.nextID++
	te := &tdEvent{ID: id, Spec: sp, Status: tdOpen, Opened: s.Now(), Event: tourney.New(sp.Name, sp.System, sp.Rounds)}
	te.Event.Site = "kriegbot serve"
	d.events = append(d.events, te)
	d.armStart(te)
	d.listDG(ev, te)
	d.save(te)
	s.Note().Msgf("td: tourney %d opened: %s", id, sp)
	return te, nil
}

// armStart sets the timer of an event that starts some time after it
// opened.
func (d *Door) armStart(te *tdEvent) {
	s := d.s
	if te.Status != tdOpen || te.Spec.StartAfter <= 0 {
		return
	}
	wait := max(te.Opened.Add(te.Spec.StartAfter).Sub(s.Now()), 0)
	te.startTimer = time.AfterFunc(wait, func() {
		s.Lock()
		defer s.Unlock()
		if s.Closed() || te.Status != tdOpen {
			return
		}
		ev := s.NewEvents()
		if err := d.start(ev, te); err != nil {
			d.abort(ev, te, "fewer than two players joined")
		}
		ev.Flush()
	})
}

// start starts an open event and pairs round 1.
func (d *Door) start(ev *server.Events, te *tdEvent) error {
	s := d.s
	if te.Status != tdOpen {
		return fmt.Errorf("%s is %s", te.title(), te.Status)
	}
	te.Event.Date = s.Now().UTC().Format("2006.01.02")
	if err := te.Event.Start(); err != nil {
		if errors.Is(err, tourney.ErrNothingToPair) {
			return errors.New("fewer than two players have joined")
		}
		return err
	}
	if te.startTimer != nil {
		te.startTimer.Stop()
	}
	te.Status = tdRunning
	s.Note().Msgf("td: tourney %d started with %d players", te.ID, len(te.Event.Players))
	for _, p := range te.Event.Players {
		d.sayTo(ev, p.Handle, te, fmt.Sprintf("%s starts: %s, %s, %s.", te.heading(), te.Event.System, plural(len(te.Event.Players), "player"), plural(te.Event.Rounds, "round")))
	}
	d.listDG(ev, te)
	d.pairNext(ev, te)
	return nil
}

// pairNext pairs the next round (and the next, while a round has no
// game to play: a round robin's forfeits), or ends the event.
func (d *Door) pairNext(ev *server.Events, te *tdEvent) {
	s := d.s
	for !s.Closed() && (te.Status == tdRunning || te.Status == tdAdjourned && te.Event.Done()) && len(te.Boards) == 0 {
		if te.Event.Done() {
			d.finish(ev, te)
			return
		}
		rd, err := te.Event.PairNext()
		if err != nil {
			if !errors.Is(err, tourney.ErrFinished) && !errors.Is(err, tourney.ErrNothingToPair) {
				s.Warn().Msgf("td: tourney %d: pairing round %d: %v", te.ID, te.round()+1, err)
			}
			d.finish(ev, te)
			return
		}
		s.Note().Msgf("td: tourney %d round %d paired: %d games, %d byes %s", te.ID, rd.Number, len(rd.Games), len(rd.Byes), rd.Note)
		last := rd.Number == te.Event.Rounds
		for _, g := range rd.Games {
			w, b := te.Event.Players[g.White].Handle, te.Event.Players[g.Black].Handle
			if g.Result.Done() { // a round robin's forfeit for a withdrawn player
				continue
			}
			bd := &tdBoard{Round: rd.Number, Board: g.Board, White: w, Black: b, ev: te,
				Deadline: s.Now().Add(d.cfg.AbsentGrace)}
			te.Boards = append(te.Boards, bd)
			for col := range 2 {
				if c := s.User(bd.names()[col]); c != nil {
					s.RemoveOffersOf(ev, c.Handle())
					d.announce(ev, bd, col)
				}
			}
			d.armAbsence(bd)
		}
		if last {
			d.listDG(ev, te) // no more late joins: DG 103 loses its join command
		}
		for _, by := range rd.Byes {
			h := te.Event.Players[by.Player].Handle
			d.sayTo(ev, h, te, fmt.Sprintf("%s round %d: you have a %s.", te.heading(), rd.Number, by.Kind))
			if last {
				d.off(ev, te, h)
			}
		}
		d.save(te)
	}
}

// announce tells side col of b its pairing: the ICC way (DG 63 whose
// command starts the game, and the tourney-set line, answered by
// "match <opponent>!") or the FICS way (mamer's line, answered by
// "td play N").
func (d *Door) announce(ev *server.Events, b *tdBoard, col int) {
	s := d.s
	te := b.ev
	c := s.User(b.names()[col])
	if c == nil {
		return
	}
	opp := b.names()[1-col]
	colour := chess.Color(col)
	line := protocol.TDLine{Kind: protocol.TDPairing, Colour: strings.ToLower(server.ColorName(colour)), Opponent: opp, Event: te.ID}
	if te.Spec.Style == "icc" {
		line = protocol.TDLine{Kind: protocol.TDTourneySet, TD: d.handle(), Tag: te.Spec.Name, Opponent: opp,
			WhiteMin: te.Spec.Minutes, WhiteInc: te.Spec.Inc, BlackMin: te.Spec.Minutes, BlackInc: te.Spec.Inc,
			Wild: 16, Colour: strings.ToLower(server.ColorName(colour)), Round: b.Round}
		ev.DG(c, protocol.DGSuggestion, protocol.SuggestionDG{Command: line.Answer(),
			Text:     fmt.Sprintf("Tourney #%d round %d: you play %s against %s.", te.ID, b.Round, line.Colour, opp),
			Priority: 1, Suggester: d.handle(), Subject: opp, ID: te.ID}.Fields()...)
		ev.Text(c, line.String())
	} else {
		ev.Text(c, ":"+line.String())
	}
	left := max(b.Deadline.Sub(s.Now()), 0)
	if left >= time.Second {
		left = left.Round(time.Second)
	} else {
		left = left.Round(10 * time.Millisecond)
	}
	d.say(ev, c, te, fmt.Sprintf("Round %d, board %d: answer with \"%s\" within %s, or lose by forfeit.", b.Round, b.Board, line.Answer(), left))
}

// armAbsence sets the timer that forfeits the absent at b.Deadline.
func (d *Door) armAbsence(b *tdBoard) {
	s := d.s
	if b.timer != nil {
		b.timer.Stop()
	}
	b.gen++
	gen := b.gen
	b.timer = time.AfterFunc(max(b.Deadline.Sub(s.Now()), 0), func() { d.absenceOver(b, gen) })
}

// absenceOver forfeits the sides of b who did not answer (or are not
// free to play) by the deadline.
func (d *Door) absenceOver(b *tdBoard, gen int) {
	s := d.s
	s.Lock()
	defer s.Unlock()
	if s.Closed() || b.gen != gen || b.game != nil || !slices.Contains(b.ev.Boards, b) || b.ev.Status != tdRunning {
		return
	}
	ev := s.NewEvents()
	defer ev.Flush()
	if d.tryStart(ev, b) {
		return
	}
	var absent [2]bool
	for col, name := range b.names() {
		c := s.User(name)
		absent[col] = !b.Ready[col] || c == nil || c.Playing()
	}
	s.Note().Msgf("td: tourney %d round %d board %d: absent %v", b.ev.ID, b.Round, b.Board, absent)
	res := tourney.DoubleForfeit
	switch {
	case absent[0] && !absent[1]:
		res = tourney.BlackForfeitWin
	case absent[1] && !absent[0]:
		res = tourney.WhiteForfeitWin
	}
	d.forfeit(ev, b, res, absent, "did not come to the game")
}

// forfeit records a forfeit result on b and withdraws the forfeited.
func (d *Door) forfeit(ev *server.Events, b *tdBoard, res tourney.Result, lost [2]bool, why string) {
	s := d.s
	te := b.ev
	if g := b.game; g != nil && g.Result() == "" {
		g.SetTourney(nil) // the forfeit, not the game's end, is the result
		s.EndGame(ev, g, "Adj", res.PGN(), "Game forfeited by the TD")
	}
	b.game = nil
	d.record(ev, b, res)
	for col, name := range b.names() {
		if lost[col] {
			d.sayTo(ev, name, te, fmt.Sprintf("You lose round %d by forfeit: %s.", b.Round, why))
			d.withdraw(ev, te, name, true)
		}
	}
	d.pairNext(ev, te)
}

// answer is c's answer to its pairing on b.
func (d *Door) answer(ev *server.Events, c *server.Client, b *tdBoard) {
	s := d.s
	col := b.side(c.Handle())
	if b.game != nil {
		ev.Text(c, fmt.Sprintf("Your tourney game (game %d) is already in progress.", b.game.Number()))
		return
	}
	if !b.Ready[col] && !c.Playing() {
		b.arrived[col] = s.Now()
	}
	b.Ready[col] = true
	if d.tryStart(ev, b) {
		return
	}
	opp := b.names()[1-col]
	why := "is not logged in"
	if o := s.User(opp); o != nil {
		why = "is playing another game"
	}
	if c.Playing() {
		why = "cannot start while you play another game"
		opp = "your game"
	}
	d.say(ev, c, b.ev, fmt.Sprintf("Round %d: %s %s; waiting until %s UTC, then the absent side loses by forfeit.",
		b.Round, opp, why, b.Deadline.UTC().Format("15:04:05")))
}

// tryStart starts b's game if one side answered and both are here and
// free; it reports whether it did.
func (d *Door) tryStart(ev *server.Events, b *tdBoard) bool {
	s := d.s
	if b.game != nil || !slices.Contains(b.ev.Boards, b) || b.ev.Status != tdRunning || !b.Ready[0] && !b.Ready[1] {
		return false
	}
	w, bl := s.User(b.White), s.User(b.Black)
	if w == nil || bl == nil || w.Playing() || bl.Playing() {
		return false
	}
	te := b.ev
	odds, late := d.lateOdds(b)
	var lateOdds [2]time.Duration
	if late >= 0 {
		lateOdds[late] = odds
	}
	g := s.StartTourneyGame(ev, w, bl, lateOdds, te.Spec.Minutes, te.Spec.Inc, b)
	b.game = g
	b.gen++ // retire the absence timer
	if b.timer != nil {
		b.timer.Stop()
	}
	for _, c := range []*server.Client{w, bl} {
		d.say(ev, c, te, fmt.Sprintf("Game %d is round %d, board %d of %s.", g.Number(), b.Round, b.Board, te.title()))
		if late >= 0 {
			d.say(ev, c, te, fmt.Sprintf("%s came %s late: %s off %s's clock (time odds for a late arrival).",
				b.names()[late], odds.Round(time.Second), odds.Round(time.Second), b.names()[late]))
		}
	}
	s.Note().Msgf("td: tourney %d round %d board %d: game %d", te.ID, b.Round, b.Board, g.Number())
	return true
}

// lateOdds is the time taken off the late side's clock as b's game
// starts (LateOdds), and that side (-1: none). A side arrived when it
// answered, or when it logged in or came free after answering; a side
// that never answered arrives now (the game starts on one answer). The
// later side is late by the time the other waited for it.
func (d *Door) lateOdds(b *tdBoard) (time.Duration, int) {
	s := d.s
	if !d.cfg.LateOdds {
		return 0, -1
	}
	now := s.Now()
	var at [2]time.Time
	for col := range 2 {
		at[col] = b.arrived[col]
		if at[col].IsZero() {
			at[col] = now
		}
	}
	late, waited := 1, at[1].Sub(at[0])
	if waited < 0 {
		late, waited = 0, -waited
	}
	if waited < time.Second { // the wire's delay, not lateness
		return 0, -1
	}
	return waited, late
}

// gameStarted and gameChanged: the TD follows games only to their end.
func (d *Door) GameStarted(*server.Game) {}
func (d *Door) GameChanged(*server.Game) {}

// gameEnded takes the end of a game: a TD game's result (gameOver), or
// the end of its players' other game, which may free them for their
// pairing (free).
func (d *Door) GameEnded(ev *server.Events, g *server.Game) {
	if g.Tourney() != nil {
		d.gameOver(ev, g)
		return
	}
	for _, name := range []string{g.Name(chess.White), g.Name(chess.Black)} {
		d.free(ev, name)
	}
}

// gameOver takes the result of a TD game: it records it (an aborted
// game, which only a server shutdown makes, is played again), and pairs
// the next round when this was the last game of the round.
func (d *Door) gameOver(ev *server.Events, g *server.Game) {
	s := d.s
	b := g.Tourney().(*tdBoard)
	b.game = nil
	te := b.ev
	if te.Status != tdRunning && te.Status != tdAdjourned || !slices.Contains(te.Boards, b) {
		return
	}
	var res tourney.Result
	switch g.Result() {
	case "1-0":
		res = tourney.WhiteWins
	case "0-1":
		res = tourney.BlackWins
	case "1/2-1/2":
		res = tourney.Draw
	default:
		// Aborted: the pairing stands; the game is played again (after a
		// restart, the players answer the pairing anew).
		b.Ready, b.arrived = [2]bool{}, [2]time.Time{}
		b.Disconnects = [2]int{}
		b.Deadline = s.Now().Add(d.cfg.AbsentGrace)
		if !s.Closed() {
			for col := range 2 {
				d.announce(ev, b, col)
			}
			d.armAbsence(b)
		}
		d.save(te)
		return
	}
	d.record(ev, b, res)
	if tags, err := te.Event.PGNTags(b.Round, b.Board); err == nil {
		g.SetTags(tags)
		te.PGN = append(te.PGN, g.PGN())
	}
	d.pairNext(ev, te)
	d.save(te)
}

// record sets b's result, takes b off the round's open boards and tells
// both players; after the last round a player's tourney variable goes off.
func (d *Door) record(ev *server.Events, b *tdBoard, res tourney.Result) {
	s := d.s
	te := b.ev
	if err := te.Event.SetResult(b.Round, b.Board, res); err != nil {
		s.Warn().Msgf("td: tourney %d: %v", te.ID, err)
	}
	b.gen++
	if b.timer != nil {
		b.timer.Stop()
	}
	te.Boards = slices.DeleteFunc(te.Boards, func(x *tdBoard) bool { return x == b })
	s.Note().Msgf("td: tourney %d round %d board %d: %s %s %s", te.ID, b.Round, b.Board, b.White, res, b.Black)
	for _, name := range b.names() {
		d.sayTo(ev, name, te, fmt.Sprintf("Round %d: %s - %s %s.", b.Round, b.White, b.Black, res))
		if b.Round == te.Event.Rounds {
			d.off(ev, te, name)
		}
	}
}

// off tells a player, once, that its part in the event is over.
func (d *Door) off(ev *server.Events, te *tdEvent, handle string) {
	s := d.s
	if te.isOff(handle) {
		return
	}
	te.Off = append(te.Off, handle)
	if c := s.User(handle); c != nil {
		ev.Text(c, protocol.TDLine{Kind: protocol.TDVariableOff, TD: d.handle()}.String())
	}
}

// withdraw takes a player out of the event: an unstarted game of the
// current round is lost by forfeit, a game in progress is played out.
func (d *Door) withdraw(ev *server.Events, te *tdEvent, handle string, forfeited bool) {
	if !te.entrant(handle) {
		return
	}
	if err := te.Event.Withdraw(handle); err != nil {
		return
	}
	if forfeited {
		d.sayTo(ev, handle, te, protocol.TDLine{Kind: protocol.TDForfeited, Event: te.ID}.String())
	}
	if b := te.boardOf(handle); b != nil && b.game == nil {
		lost := [2]bool{}
		lost[b.side(handle)] = true
		res := tourney.WhiteForfeitWin
		if lost[0] {
			res = tourney.BlackForfeitWin
		}
		d.record(ev, b, res)
	}
	if te.boardOf(handle) == nil {
		d.off(ev, te, handle)
	}
	d.save(te)
}

// finish ends a finished event: standings to every player, DG 104.
func (d *Door) finish(ev *server.Events, te *tdEvent) {
	s := d.s
	te.Status = tdDone
	s.Note().Msgf("td: tourney %d finished", te.ID)
	for _, p := range te.Event.Players {
		if c := s.User(p.Handle); c != nil {
			d.standings(ev, c, te)
		}
		d.off(ev, te, p.Handle)
	}
	d.listDG(ev, te)
	d.save(te)
}

// abort stops an event: games in progress are aborted and count for
// nothing.
func (d *Door) abort(ev *server.Events, te *tdEvent, why string) {
	s := d.s
	te.Status = tdAborted
	if te.startTimer != nil {
		te.startTimer.Stop()
	}
	for _, b := range te.Boards {
		b.gen++
		if b.timer != nil {
			b.timer.Stop()
		}
		if g := b.game; g != nil && g.Result() == "" {
			g.SetTourney(nil)
			s.EndGame(ev, g, "Abo", "aborted", "Game aborted: the tourney was aborted")
		}
	}
	te.Boards = nil
	s.Note().Msgf("td: tourney %d aborted: %s", te.ID, why)
	for _, p := range te.Event.Players {
		d.sayTo(ev, p.Handle, te, protocol.TDLine{Kind: protocol.TDAborted, Event: te.ID}.String())
		d.off(ev, te, p.Handle)
	}
	d.listDG(ev, te)
	d.save(te)
}

// standings sends the standings of te to c, headed by mamer's line.
func (d *Door) standings(ev *server.Events, c *server.Client, te *tdEvent) {
	d.say(ev, c, te, protocol.TDLine{Kind: protocol.TDStandings, Event: te.ID}.String())
	if len(te.Event.Players) == 0 {
		d.say(ev, c, te, "No players.")
		return
	}
	var b strings.Builder
	te.Event.WriteStandings(&b, tourney.DefaultTieBreaks(te.Event.System)...)
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		d.say(ev, c, te, l)
	}
	d.say(ev, c, te, fmt.Sprintf("Total: %s, %s.", te.progress(), te.Status))
}

// engaged is the running event handle plays in, or nil: an entrant
// plays no other game until its part in the event is over.
func (d *Door) engaged(handle string) *tdEvent {
	for _, te := range d.events {
		if te.Status == tdRunning && te.entrant(handle) && !te.isOff(handle) {
			return te
		}
	}
	return nil
}

// refuse reports (and says to c) whether a game between c and other
// must be refused because one of them is in an event.
func (d *Door) refuse(ev *server.Events, c *server.Client, other string) bool {
	for _, h := range []string{c.Handle(), other} {
		if h == "" {
			continue
		}
		if te := d.engaged(h); te != nil {
			ev.Text(c, fmt.Sprintf("%s is playing in %s: only the paired games until the event is over.", h, te.title()))
			return true
		}
	}
	return false
}

// pairedBoard is the open board pairing c with opp, if any.
func (d *Door) pairedBoard(handle, opp string) *tdBoard {
	for _, te := range d.events {
		if te.Status != tdRunning {
			continue
		}
		if b := te.boardOf(handle); b != nil && b.side(opp) == 1-b.side(handle) {
			return b
		}
	}
	return nil
}

// login gives a player who logs in the events (DG 103) and its pairing,
// and starts its game if the opponent answered.
func (d *Door) login(ev *server.Events, c *server.Client) {
	s := d.s
	for _, te := range d.events {
		if !te.over() {
			d.listDGTo(ev, c, te)
		}
		if te.Status != tdRunning {
			continue
		}
		if b := te.boardOf(c.Handle()); b != nil && b.game == nil {
			if col := b.side(c.Handle()); b.Ready[col] {
				b.arrived[col] = s.Now() // it was gone: it arrives now
			}
			d.announce(ev, b, b.side(c.Handle()))
			d.tryStart(ev, b)
		}
	}
}

// free is called when a player's game that is no TD game ends: its
// paired game may start now.
func (d *Door) free(ev *server.Events, handle string) {
	s := d.s
	for _, te := range d.events {
		if te.Status == tdRunning {
			if b := te.boardOf(handle); b != nil {
				if col := b.side(handle); b.Ready[col] {
					b.arrived[col] = s.Now() // busy until now
				}
				d.tryStart(ev, b)
			}
		}
	}
}

// departed takes a guest who left the server out of its events at once,
// as ICC's TD does: a guest never comes back under its name (the next
// guest of that name is someone else). Its entry in an open event is
// struck; in a running one it is withdrawn: an unstarted game of the
// round is lost by forfeit (the table forfeits a game in progress).
func (d *Door) departed(ev *server.Events, handle string) {
	for _, te := range d.events {
		if te.over() || !te.entrant(handle) {
			continue
		}
		d.s.Note().Msgf("td: tourney %d: guest %s is gone: out of the event", te.ID, handle)
		if te.Status == tdOpen {
			te.strike(handle)
			d.save(te)
			continue
		}
		d.withdraw(ev, te, handle, false)
		d.pairNext(ev, te)
	}
}

// resume picks up the events loaded from Dir: the guests before the
// restart are gone (departed; their names go to new guests), absence
// timers run anew from now, rounds left complete are paired, StartAfter
// timers rearmed.
func (d *Door) resume() {
	s := d.s
	ev := s.NewEvents()
	for _, te := range d.events {
		if te.over() {
			continue
		}
		var guests []string
		for _, p := range te.Event.Players {
			if handle.IsGuest(p.Handle) {
				guests = append(guests, p.Handle)
			}
		}
		for _, g := range guests {
			d.departed(ev, g)
		}
	}
	for _, te := range d.events {
		switch te.Status {
		case tdOpen:
			d.armStart(te)
		case tdRunning, tdAdjourned:
			te.Status = tdRunning
			d.save(te)
			for _, b := range te.Boards {
				b.Ready = [2]bool{}
				b.Deadline = s.Now().Add(d.cfg.AbsentGrace)
				d.armAbsence(b)
			}
			d.pairNext(ev, te)
		}
	}
	ev.Flush()
}

// Disconnect counts a TD game's disconnection and says how long the
// player has to come back: 0 when this one forfeits the game, the
// MaxDisconnects-th (server.Director).
func (d *Door) Disconnect(g *server.Game, col chess.Color) (time.Duration, int) {
	b := g.Tourney().(*tdBoard)
	b.Disconnects[col]++
	d.save(b.ev)
	if b.Disconnects[col] >= d.cfg.MaxDisconnects {
		return 0, d.cfg.MaxDisconnects
	}
	return d.cfg.GameGrace, d.cfg.MaxDisconnects
}
