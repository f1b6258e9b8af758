package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// The TD's rounds: opening and starting events, pairing, the paired
// games from the answer to the result, absentees, the end. Everything
// here runs under s.mu.

// tdSay sends one TD message to c: a tell from the TD (ICC style) or a
// qtell line starting with ":" (FICS style), which no user's tell can
// produce (a user's tell reads "<handle>(<titles>) tells you: ...").
func (s *Server) tdSay(ev *events, c *client, te *tdEvent, line string) {
	if c == nil {
		return
	}
	style := s.td.cfg.Style
	if te != nil {
		style = te.Spec.Style
	}
	if style == "fics" {
		ev.text(c, ":"+line)
		return
	}
	ev.dg(c, protocol.DGPersonalTell, s.tdHandle(), "TD", line, "1")
	if !c.dgOn(protocol.DGPersonalTell) {
		ev.text(c, fmt.Sprintf("%s(TD) tells you: %s", s.tdHandle(), line))
	}
}

// tdSayTo is tdSay to a handle, if it is logged in.
func (s *Server) tdSayTo(ev *events, handle string, te *tdEvent, line string) {
	s.tdSay(ev, s.users[strings.ToLower(handle)], te, line)
}

// tdTourneyDG is the event as DG 103 shows it.
func (s *Server) tdTourneyDG(te *tdEvent) protocol.TourneyDG {
	d := protocol.TourneyDG{ID: te.ID, Bits: 1,
		Description: fmt.Sprintf("%s: %s, wild 16 %d %d unrated, %s", te.Spec.Name, te.Event.System, te.Spec.Minutes, te.Spec.Inc, te.Status),
		Info:        protocol.JoinCommands(fmt.Sprintf("tell %s info %d", s.tdHandle(), te.ID)),
	}
	switch {
	case te.Status == tdOpen:
		d.Join = protocol.JoinCommands(fmt.Sprintf("tell %s join %d", s.tdHandle(), te.ID))
	case te.lateJoinable():
		d.Join = protocol.JoinCommands(fmt.Sprintf("tell %s latejoin %d", s.tdHandle(), te.ID))
	}
	return d
}

// tdListDG sends DG 103 (or 104 for an event that is over) about te to
// every user who has it on.
func (s *Server) tdListDG(ev *events, te *tdEvent) {
	for _, u := range s.users {
		s.tdListDGTo(ev, u, te)
	}
}

func (s *Server) tdListDGTo(ev *events, u *client, te *tdEvent) {
	if te.over() {
		ev.dg(u, protocol.DGRemoveTourney, protocol.RemoveTourneyDG{ID: te.ID}.Fields()...)
		return
	}
	ev.dg(u, protocol.DGTourney, s.tdTourneyDG(te).Fields()...)
}

// tdLive counts the events not over.
func (s *Server) tdLive() int {
	n := 0
	for _, te := range s.td.events {
		if !te.over() {
			n++
		}
	}
	return n
}

// tdOpenEvent opens an event from its spec.
func (s *Server) tdOpenEvent(ev *events, sp td.EventSpec) (*tdEvent, error) {
	if s.tdLive() >= s.td.cfg.MaxEvents {
		return nil, fmt.Errorf("%d events are already running", s.tdLive())
	}
	id := s.td.nextID
	if sp.Style == "" {
		sp.Style = s.td.cfg.Style
	}
	if sp.Name == "" {
		sp.Name = fmt.Sprintf("KS%d", id)
	}
	s.td.nextID++
	te := &tdEvent{ID: id, Spec: sp, Status: tdOpen, Opened: s.cfg.Now(), Event: tourney.New(sp.Name, sp.System, sp.Rounds)}
	te.Event.Site = "kriegbot serve"
	s.td.events = append(s.td.events, te)
	s.tdArmStart(te)
	s.tdListDG(ev, te)
	s.tdSave(te)
	s.cfg.Log("td: tourney %d opened: %s", id, sp)
	return te, nil
}

// tdArmStart sets the timer of an event that starts some time after it
// opened.
func (s *Server) tdArmStart(te *tdEvent) {
	if te.Status != tdOpen || te.Spec.StartAfter <= 0 {
		return
	}
	wait := max(te.Opened.Add(te.Spec.StartAfter).Sub(s.cfg.Now()), 0)
	te.startTimer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed || te.Status != tdOpen {
			return
		}
		ev := s.newEvents()
		if err := s.tdStart(ev, te); err != nil {
			s.tdAbort(ev, te, "fewer than two players joined")
		}
		ev.flush()
	})
}

// tdStart starts an open event and pairs round 1.
func (s *Server) tdStart(ev *events, te *tdEvent) error {
	if te.Status != tdOpen {
		return fmt.Errorf("%s is %s", te.title(), te.Status)
	}
	te.Event.Date = s.cfg.Now().UTC().Format("2006.01.02")
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
	s.cfg.Log("td: tourney %d started with %d players", te.ID, len(te.Event.Players))
	for _, p := range te.Event.Players {
		s.tdSayTo(ev, p.Handle, te, fmt.Sprintf("%s starts: %s, %s, %s.", te.heading(), te.Event.System, plural(len(te.Event.Players), "player"), plural(te.Event.Rounds, "round")))
	}
	s.tdListDG(ev, te)
	s.tdPairNext(ev, te)
	return nil
}

// tdPairNext pairs the next round (and the next, while a round has no
// game to play: a round robin's forfeits), or ends the event.
func (s *Server) tdPairNext(ev *events, te *tdEvent) {
	for !s.closed && te.Status == tdRunning && len(te.Boards) == 0 {
		if te.Event.Done() {
			s.tdFinish(ev, te)
			return
		}
		rd, err := te.Event.PairNext()
		if err != nil {
			if !errors.Is(err, tourney.ErrFinished) && !errors.Is(err, tourney.ErrNothingToPair) {
				s.cfg.Log("td: tourney %d: pairing round %d: %v", te.ID, te.round()+1, err)
			}
			s.tdFinish(ev, te)
			return
		}
		s.cfg.Log("td: tourney %d round %d paired: %d games, %d byes %s", te.ID, rd.Number, len(rd.Games), len(rd.Byes), rd.Note)
		last := rd.Number == te.Event.Rounds
		for _, g := range rd.Games {
			w, b := te.Event.Players[g.White].Handle, te.Event.Players[g.Black].Handle
			if g.Result.Done() { // a round robin's forfeit for a withdrawn player
				continue
			}
			bd := &tdBoard{Round: rd.Number, Board: g.Board, White: w, Black: b, ev: te,
				Deadline: s.cfg.Now().Add(s.td.cfg.AbsentGrace)}
			te.Boards = append(te.Boards, bd)
			for col := range 2 {
				if c := s.users[strings.ToLower(bd.names()[col])]; c != nil {
					s.removeOffersOf(ev, c.handle)
					s.tdAnnounce(ev, bd, col)
				}
			}
			s.tdArmAbsence(bd)
		}
		if last {
			s.tdListDG(ev, te) // no more late joins: DG 103 loses its join command
		}
		for _, by := range rd.Byes {
			h := te.Event.Players[by.Player].Handle
			s.tdSayTo(ev, h, te, fmt.Sprintf("%s round %d: you have a %s.", te.heading(), rd.Number, by.Kind))
			if last {
				s.tdOff(ev, te, h)
			}
		}
		s.tdSave(te)
	}
}

// tdAnnounce tells side col of b its pairing: the ICC way (DG 63 whose
// command starts the game, and the tourney-set line, answered by
// "match <opponent>!") or the FICS way (mamer's line, answered by
// "td play N").
func (s *Server) tdAnnounce(ev *events, b *tdBoard, col int) {
	te := b.ev
	c := s.users[strings.ToLower(b.names()[col])]
	if c == nil {
		return
	}
	opp := b.names()[1-col]
	colour := chess.Color(col)
	line := protocol.TDLine{Kind: protocol.TDPairing, Colour: strings.ToLower(colorName(colour)), Opponent: opp, Event: te.ID}
	if te.Spec.Style == "icc" {
		line = protocol.TDLine{Kind: protocol.TDTourneySet, TD: s.tdHandle(), Tag: te.Spec.Name, Opponent: opp,
			WhiteMin: te.Spec.Minutes, WhiteInc: te.Spec.Inc, BlackMin: te.Spec.Minutes, BlackInc: te.Spec.Inc,
			Wild: 16, Colour: strings.ToLower(colorName(colour)), Round: b.Round}
		ev.dg(c, protocol.DGSuggestion, protocol.SuggestionDG{Command: line.Answer(),
			Text:     fmt.Sprintf("Tourney #%d round %d: you play %s against %s.", te.ID, b.Round, line.Colour, opp),
			Priority: 1, Suggester: s.tdHandle(), Subject: opp, ID: te.ID}.Fields()...)
		ev.text(c, line.String())
	} else {
		ev.text(c, ":"+line.String())
	}
	left := max(b.Deadline.Sub(s.cfg.Now()), 0)
	if left >= time.Second {
		left = left.Round(time.Second)
	} else {
		left = left.Round(10 * time.Millisecond)
	}
	s.tdSay(ev, c, te, fmt.Sprintf("Round %d, board %d: answer with \"%s\" within %s, or lose by forfeit.", b.Round, b.Board, line.Answer(), left))
}

// tdArmAbsence sets the timer that forfeits the absent at b.Deadline.
func (s *Server) tdArmAbsence(b *tdBoard) {
	if b.timer != nil {
		b.timer.Stop()
	}
	b.gen++
	gen := b.gen
	b.timer = time.AfterFunc(max(b.Deadline.Sub(s.cfg.Now()), 0), func() { s.tdAbsenceOver(b, gen) })
}

// tdAbsenceOver forfeits the sides of b who did not answer (or are not
// free to play) by the deadline.
func (s *Server) tdAbsenceOver(b *tdBoard, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || b.gen != gen || b.game != nil || !slices.Contains(b.ev.Boards, b) || b.ev.Status != tdRunning {
		return
	}
	ev := s.newEvents()
	defer ev.flush()
	if s.tdTryStart(ev, b) {
		return
	}
	var absent [2]bool
	for col, name := range b.names() {
		c := s.users[strings.ToLower(name)]
		absent[col] = !b.Ready[col] || c == nil || c.game != nil
	}
	s.cfg.Log("td: tourney %d round %d board %d: absent %v", b.ev.ID, b.Round, b.Board, absent)
	res := tourney.DoubleForfeit
	switch {
	case absent[0] && !absent[1]:
		res = tourney.BlackForfeitWin
	case absent[1] && !absent[0]:
		res = tourney.WhiteForfeitWin
	}
	s.tdForfeit(ev, b, res, absent, "did not come to the game")
}

// tdForfeit records a forfeit result on b and withdraws the forfeited.
func (s *Server) tdForfeit(ev *events, b *tdBoard, res tourney.Result, lost [2]bool, why string) {
	te := b.ev
	if g := b.game; g != nil && g.result == "" {
		g.td = nil // the forfeit, not the game's end, is the result
		s.endGame(ev, g, "Adj", res.PGN(), "Game forfeited by the TD")
	}
	b.game = nil
	s.tdRecord(ev, b, res)
	for col, name := range b.names() {
		if lost[col] {
			s.tdSayTo(ev, name, te, fmt.Sprintf("You lose round %d by forfeit: %s.", b.Round, why))
			s.tdWithdraw(ev, te, name, true)
		}
	}
	s.tdPairNext(ev, te)
}

// tdAnswer is c's answer to its pairing on b.
func (s *Server) tdAnswer(ev *events, c *client, b *tdBoard) {
	col := b.side(c.handle)
	if b.game != nil {
		ev.text(c, fmt.Sprintf("Your tourney game (game %d) is already in progress.", b.game.number))
		return
	}
	if !b.Ready[col] && c.game == nil {
		b.arrived[col] = s.cfg.Now()
	}
	b.Ready[col] = true
	if s.tdTryStart(ev, b) {
		return
	}
	opp := b.names()[1-col]
	why := "is not logged in"
	if o := s.users[strings.ToLower(opp)]; o != nil {
		why = "is playing another game"
	}
	if c.game != nil {
		why = "cannot start while you play another game"
		opp = "your game"
	}
	s.tdSay(ev, c, b.ev, fmt.Sprintf("Round %d: %s %s; waiting until %s UTC, then the absent side loses by forfeit.",
		b.Round, opp, why, b.Deadline.UTC().Format("15:04:05")))
}

// tdTryStart starts b's game if one side answered and both are here and
// free; it reports whether it did.
func (s *Server) tdTryStart(ev *events, b *tdBoard) bool {
	if b.game != nil || !slices.Contains(b.ev.Boards, b) || b.ev.Status != tdRunning || !b.Ready[0] && !b.Ready[1] {
		return false
	}
	w, bl := s.users[strings.ToLower(b.White)], s.users[strings.ToLower(b.Black)]
	if w == nil || bl == nil || w.game != nil || bl.game != nil {
		return false
	}
	te := b.ev
	odds, late := s.tdLateOdds(b)
	seats := [2]seat{{c: w}, {c: bl}}
	if late >= 0 {
		seats[late].odds = odds
	}
	g := s.startGame(ev, seats[0], seats[1], te.Spec.Minutes, te.Spec.Inc, false, "", "")
	g.td, b.game = b, g
	b.gen++ // retire the absence timer
	if b.timer != nil {
		b.timer.Stop()
	}
	for _, c := range []*client{w, bl} {
		s.tdSay(ev, c, te, fmt.Sprintf("Game %d is round %d, board %d of %s.", g.number, b.Round, b.Board, te.title()))
		if late >= 0 {
			s.tdSay(ev, c, te, fmt.Sprintf("%s came %s late: %s off %s's clock (time odds for a late arrival).",
				b.names()[late], odds.Round(time.Second), odds.Round(time.Second), b.names()[late]))
		}
	}
	s.cfg.Log("td: tourney %d round %d board %d: game %d", te.ID, b.Round, b.Board, g.number)
	return true
}

// tdLateOdds is the time taken off the late side's clock as b's game
// starts (LateOdds), and that side (-1: none). A side arrived when it
// answered, or when it logged in or came free after answering; a side
// that never answered arrives now (the game starts on one answer). The
// later side is late by the time the other waited for it.
func (s *Server) tdLateOdds(b *tdBoard) (time.Duration, int) {
	if !s.td.cfg.LateOdds {
		return 0, -1
	}
	now := s.cfg.Now()
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

// tdGameOver takes the result of a TD game: it records it (an aborted
// game, which only a server shutdown makes, is played again), and pairs
// the next round when this was the last game of the round.
func (s *Server) tdGameOver(ev *events, g *game) {
	b := g.td
	b.game = nil
	te := b.ev
	if te.Status != tdRunning || !slices.Contains(te.Boards, b) {
		return
	}
	var res tourney.Result
	switch g.result {
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
		b.Deadline = s.cfg.Now().Add(s.td.cfg.AbsentGrace)
		if !s.closed {
			for col := range 2 {
				s.tdAnnounce(ev, b, col)
			}
			s.tdArmAbsence(b)
		}
		s.tdSave(te)
		return
	}
	s.tdRecord(ev, b, res)
	if tags, err := te.Event.PGNTags(b.Round, b.Board); err == nil {
		g.tdTags = tags
		te.PGN = append(te.PGN, gamePGN(g))
	}
	s.tdPairNext(ev, te)
	s.tdSave(te)
}

// tdRecord sets b's result, takes b off the round's open boards and tells
// both players; after the last round a player's tourney variable goes off.
func (s *Server) tdRecord(ev *events, b *tdBoard, res tourney.Result) {
	te := b.ev
	if err := te.Event.SetResult(b.Round, b.Board, res); err != nil {
		s.cfg.Log("td: tourney %d: %v", te.ID, err)
	}
	b.gen++
	if b.timer != nil {
		b.timer.Stop()
	}
	te.Boards = slices.DeleteFunc(te.Boards, func(x *tdBoard) bool { return x == b })
	s.cfg.Log("td: tourney %d round %d board %d: %s %s %s", te.ID, b.Round, b.Board, b.White, res, b.Black)
	for _, name := range b.names() {
		s.tdSayTo(ev, name, te, fmt.Sprintf("Round %d: %s - %s %s.", b.Round, b.White, b.Black, res))
		if b.Round == te.Event.Rounds {
			s.tdOff(ev, te, name)
		}
	}
}

// tdOff tells a player, once, that its part in the event is over.
func (s *Server) tdOff(ev *events, te *tdEvent, handle string) {
	if te.isOff(handle) {
		return
	}
	te.Off = append(te.Off, handle)
	if c := s.users[strings.ToLower(handle)]; c != nil {
		ev.text(c, protocol.TDLine{Kind: protocol.TDVariableOff, TD: s.tdHandle()}.String())
	}
}

// tdWithdraw takes a player out of the event: an unstarted game of the
// current round is lost by forfeit, a game in progress is played out.
func (s *Server) tdWithdraw(ev *events, te *tdEvent, handle string, forfeited bool) {
	if !te.entrant(handle) {
		return
	}
	if err := te.Event.Withdraw(handle); err != nil {
		return
	}
	if forfeited {
		s.tdSayTo(ev, handle, te, protocol.TDLine{Kind: protocol.TDForfeited, Event: te.ID}.String())
	}
	if b := te.boardOf(handle); b != nil && b.game == nil {
		lost := [2]bool{}
		lost[b.side(handle)] = true
		res := tourney.WhiteForfeitWin
		if lost[0] {
			res = tourney.BlackForfeitWin
		}
		s.tdRecord(ev, b, res)
	}
	if te.boardOf(handle) == nil {
		s.tdOff(ev, te, handle)
	}
	s.tdSave(te)
}

// tdFinish ends a finished event: standings to every player, DG 104.
func (s *Server) tdFinish(ev *events, te *tdEvent) {
	te.Status = tdDone
	s.cfg.Log("td: tourney %d finished", te.ID)
	for _, p := range te.Event.Players {
		if c := s.users[strings.ToLower(p.Handle)]; c != nil {
			s.tdStandings(ev, c, te)
		}
		s.tdOff(ev, te, p.Handle)
	}
	s.tdListDG(ev, te)
	s.tdSave(te)
}

// tdAbort stops an event: games in progress are aborted and count for
// nothing.
func (s *Server) tdAbort(ev *events, te *tdEvent, why string) {
	te.Status = tdAborted
	if te.startTimer != nil {
		te.startTimer.Stop()
	}
	for _, b := range te.Boards {
		b.gen++
		if b.timer != nil {
			b.timer.Stop()
		}
		if g := b.game; g != nil && g.result == "" {
			g.td = nil
			s.endGame(ev, g, "Abo", "aborted", "Game aborted: the tourney was aborted")
		}
	}
	te.Boards = nil
	s.cfg.Log("td: tourney %d aborted: %s", te.ID, why)
	for _, p := range te.Event.Players {
		s.tdSayTo(ev, p.Handle, te, protocol.TDLine{Kind: protocol.TDAborted, Event: te.ID}.String())
		s.tdOff(ev, te, p.Handle)
	}
	s.tdListDG(ev, te)
	s.tdSave(te)
}

// tdStandings sends the standings of te to c, headed by mamer's line.
func (s *Server) tdStandings(ev *events, c *client, te *tdEvent) {
	s.tdSay(ev, c, te, protocol.TDLine{Kind: protocol.TDStandings, Event: te.ID}.String())
	if len(te.Event.Players) == 0 {
		s.tdSay(ev, c, te, "No players.")
		return
	}
	var b strings.Builder
	te.Event.WriteStandings(&b, tourney.DefaultTieBreaks(te.Event.System)...)
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		s.tdSay(ev, c, te, l)
	}
	s.tdSay(ev, c, te, fmt.Sprintf("Total: %s, %s.", te.progress(), te.Status))
}

// tdEngaged is the running event handle plays in, or nil: an entrant
// plays no other game until its part in the event is over.
func (s *Server) tdEngaged(handle string) *tdEvent {
	for _, te := range s.td.events {
		if te.Status == tdRunning && te.entrant(handle) && !te.isOff(handle) {
			return te
		}
	}
	return nil
}

// tdRefuse reports (and says to c) whether a game between c and other
// must be refused because one of them is in an event.
func (s *Server) tdRefuse(ev *events, c *client, other string) bool {
	for _, h := range []string{c.handle, other} {
		if h == "" {
			continue
		}
		if te := s.tdEngaged(h); te != nil {
			ev.text(c, fmt.Sprintf("%s is playing in %s: only the paired games until the event is over.", h, te.title()))
			return true
		}
	}
	return false
}

// tdPairedBoard is the open board pairing c with opp, if any.
func (s *Server) tdPairedBoard(handle, opp string) *tdBoard {
	for _, te := range s.td.events {
		if te.Status != tdRunning {
			continue
		}
		if b := te.boardOf(handle); b != nil && b.side(opp) == 1-b.side(handle) {
			return b
		}
	}
	return nil
}

// tdLogin gives a player who logs in the events (DG 103) and its pairing,
// and starts its game if the opponent answered.
func (s *Server) tdLogin(ev *events, c *client) {
	for _, te := range s.td.events {
		if !te.over() {
			s.tdListDGTo(ev, c, te)
		}
		if te.Status != tdRunning {
			continue
		}
		if b := te.boardOf(c.handle); b != nil && b.game == nil {
			if col := b.side(c.handle); b.Ready[col] {
				b.arrived[col] = s.cfg.Now() // it was gone: it arrives now
			}
			s.tdAnnounce(ev, b, b.side(c.handle))
			s.tdTryStart(ev, b)
		}
	}
}

// tdFree is called when a player's game that is no TD game ends: its
// paired game may start now.
func (s *Server) tdFree(ev *events, handle string) {
	for _, te := range s.td.events {
		if te.Status == tdRunning {
			if b := te.boardOf(handle); b != nil {
				if col := b.side(handle); b.Ready[col] {
					b.arrived[col] = s.cfg.Now() // busy until now
				}
				s.tdTryStart(ev, b)
			}
		}
	}
}

// tdResume picks up the events loaded from Dir: absence timers run anew
// from now, rounds left complete are paired, StartAfter timers rearmed.
func (s *Server) tdResume() {
	ev := s.newEvents()
	for _, te := range s.td.events {
		switch te.Status {
		case tdOpen:
			s.tdArmStart(te)
		case tdRunning:
			for _, b := range te.Boards {
				b.Ready = [2]bool{}
				b.Deadline = s.cfg.Now().Add(s.td.cfg.AbsentGrace)
				s.tdArmAbsence(b)
			}
			s.tdPairNext(ev, te)
		}
	}
	ev.flush()
}

// tdDisconnect counts a TD game's disconnection and says how long the
// player has to come back: 0 when this one forfeits the game.
func (s *Server) tdDisconnect(g *game, col chess.Color) time.Duration {
	b := g.td
	b.Disconnects[col]++
	s.tdSave(b.ev)
	if b.Disconnects[col] >= s.td.cfg.MaxDisconnects {
		return 0
	}
	return s.td.cfg.GameGrace
}
