package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/live"
	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/record"
	"kriegbot/track"
	"kriegbot/track/iccgame"
)

// The ICC backend of the daemon: the session loop translates the wire into
// each game's tracker (package iccgame) and the tracker's events into the
// game's driver (package driver), and sends what the driver decides.

// gameRun is one game being played on this connection.
type gameRun struct {
	seat
	d *Daemon
	t *iccgame.Tracker
	// resyncAsked: we asked for the move list because something disagreed;
	// polled: when we last asked.
	resyncAsked bool
	resyncWhy   string
	polled      time.Time
	// stale is when the connection that carried this game was lost, until
	// the server gives the game back; zero otherwise. asked and asks are
	// our questions about it since (movelists.go).
	stale time.Time
	asked time.Time
	asks  int
	// resumed, from a DG 15 that gave the game back until its move list
	// comes: the game it may continue (resume.go).
	resumed *resumption
	// dg is the DG 15 that started this run; own are our moves the
	// referee accepted (as the record counts them), to tell whether a move
	// list continues this game.
	dg  protocol.MyGameStartedDG
	own []chess.Move
}

// The ICC side of the game loop (gameloop.go).

func (g *gameRun) shared() *seat       { return &g.seat }
func (g *gameRun) tracker() track.Game { return g.t }

// heed asks for the move list when the tracker noticed a desync.
func (g *gameRun) heed(now time.Time) {
	if _, _, _, over := g.t.Over(); over {
		return
	}
	if why := g.t.TakeDesync(); why != "" {
		num := g.t.Number()
		g.d.opt.Log.Warn().Int("game", num).Str("why", why).Msg("desync: asking for the move list")
		g.resyncWhy = why
		g.resyncAsked = true
		g.polled = now
		g.d.askMoves(num)
	}
}

// showAnswers sees every event the driver hears: our accepted moves are
// noted for the resumption check (resume.go) before they are shown.
func (g *gameRun) showAnswers(ev []players.Event) {
	for _, e := range ev {
		if v := e.View; e.Kind == players.Answer && v.Heard && v.Own && !v.Illegal {
			g.own = append(g.own, v.Move)
		}
	}
	g.d.showAnswers(g, ev)
}

// mayAct: a game not given back yet after a reconnection waits.
// mayAct: not while the game is lost with its connection, nor while a
// game given back waits for its move list (it may be another game under
// the number: an attempt now would go into the old game's record).
func (g *gameRun) mayAct() bool { return g.stale.IsZero() && g.resumed == nil }

func (g *gameRun) wanted() bool { return g.mayAct() && g.t.Wants() }

func (g *gameRun) send(acts []driver.Action) { g.d.send(g, acts) }

func (g *gameRun) finish(now time.Time) { g.d.finish(g.t.Number(), g, nil, now) }

// serve runs one connection. It returns (code, true, "") to exit, or
// (_, false, addr) to reconnect (to addr, when the server redirected us).
func (d *Daemon) serve(ctx context.Context, sess *iccclient.Session) (int, bool, string) {
	d.sess = sess
	d.policy.connected()
	loggedIn := d.opt.Now()
	d.tourney(loggedIn, func(t *entrant) { t.connected(loggedIn) })
	// Games from before a reconnection wait for the server to give them
	// back (DG 15 again); for those it does not, we ask what became of them.
	now := d.opt.Now()
	for _, g := range d.games {
		g.drv.Stop()
		g.stale = now
	}
	d.askAfterReconnect(now)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	defer stopThinking(d.games)
	for {
		select {
		case <-ctx.Done():
			d.SoftQuit()
			d.HardQuit()
		case <-d.control:
		case m, ok := <-sess.Messages():
			if !ok {
				return 0, false, ""
			}
			if next := d.handle(m); next != "" {
				return 0, false, next
			}
		case r := <-d.thinkDone:
			thought(d, d.games, r)
		case <-tick.C:
			d.tick()
		}
		if code, done := d.checkQuit(); done {
			return code, true, ""
		}
		drive(d, d.games, d.opt.Now())
		d.setPlaying()
	}
}

// checkQuit ends the connection politely when quitting and no game remains.
func (d *Daemon) checkQuit() (int, bool) {
	soft, hard := d.quitting()
	if hard {
		if len(d.games) > 0 {
			d.opt.Log.Warn().Int("games", len(d.games)).Msg("leaving at once: games in progress are lost")
		}
		d.sess.Send(protocol.QuitLine)
		return d.leave(), true
	}
	if soft && len(d.games) == 0 && !d.policy.waiting() && !d.awaitingMoves() {
		now := d.opt.Now()
		if d.tour.active() {
			// The game in progress is over: leave the events before the
			// server, so the TD does not pair (and forfeit) an absent bot.
			d.tourney(now, func(t *entrant) { t.leaveEvents(0, "softquit", now) })
		}
		// A challenge or seek of ours may still be open, and its accept
		// may be on its way: withdraw them, and wait a moment for a game
		// that crosses the withdrawal (leaving would forfeit it).
		if d.policy.withdrawn.IsZero() {
			d.sess.Send(protocol.WithdrawLine)
			d.sess.Send(protocol.UnseekLine(0))
			d.policy.withdrawn = now
			if d.policy.offersOpen(now) {
				return 0, false
			}
		} else if now.Sub(d.policy.withdrawn) < crossingWait {
			return 0, false
		}
		d.sess.Send(protocol.QuitLine)
		return ExitDone, true
	}
	return 0, false
}

// crossingWait is how long a quitting daemon that had offers open waits
// after withdrawing them for a game start that crossed the withdrawal.
const crossingWait = 3 * time.Second

// awaitingMoves reports a finished game whose full move list (for its PGN)
// is still asked for: a soft quit waits for it (at most maxAsks questions,
// askAgain apart).
func (d *Daemon) awaitingMoves() bool {
	for _, p := range d.recent {
		if p.open() {
			return true
		}
	}
	return false
}

// trackers lists the games' trackers, for routing referee text.
func (d *Daemon) trackers() []*iccgame.Tracker {
	out := make([]*iccgame.Tracker, 0, len(d.games))
	for _, g := range d.games {
		out = append(out, g.t)
	}
	return out
}

// handle processes one message; it returns an address when the server asks
// us to switch to it.
func (d *Daemon) handle(m protocol.Message) string {
	now := d.opt.Now()
	switch m.Kind {
	case protocol.MsgText:
		d.text(m.Text, now)
	case protocol.MsgDatagram:
		if m.DecodeErr != nil {
			d.opt.Log.Warn().Err(m.DecodeErr).Int("dg", m.N).Strs("fields", m.Fields).Msg("bad datagram")
			return ""
		}
		return d.datagram(m.DG, now)
	case protocol.MsgOverflow:
		d.opt.Log.Warn().Msg("server output overflowed (^Z/^O): some output was lost; resyncing games")
		for _, g := range d.games {
			d.askMoves(g.t.Number())
		}
	case protocol.MsgError:
		d.opt.Log.Warn().Str("error", m.Text).Msg("wire")
	}
	return ""
}

// text applies a referee line to the game it belongs to (iccgame.Route):
// an unprefixed line that two games could own makes both resync.
func (d *Daemon) text(line string, now time.Time) {
	var td bool
	d.tourney(now, func(t *entrant) { td = t.text(line, now) })
	if td || d.listText(line, now) {
		return
	}
	items, refLike, unknown := protocol.ParseAnnouncements(nil, []byte(line))
	if unknown {
		d.opt.Log.Warn().Str("line", line).Msg("referee-looking text not understood")
	}
	if !refLike || len(items) == 0 {
		return
	}
	to, ambiguous := iccgame.Route(items, d.trackers())
	if ambiguous {
		d.opt.Log.Warn().Str("line", line).Msg("referee line without a game number, and two games wait for an answer: asking for both move lists")
		for _, g := range d.games {
			if g.t.Unanswered() {
				g.resyncWhy = "a referee line without a game number could be this game's"
				g.resyncAsked = true
				d.askMoves(g.t.Number())
			}
		}
		return
	}
	for _, t := range to {
		t.Announce(items, line, now)
	}
}

func (d *Daemon) datagram(dg protocol.DG, now time.Time) string {
	if n := iccgame.GameOf(dg); n != 0 {
		if g := d.games[n]; g != nil {
			g.t.Datagram(dg, now)
		}
		return ""
	}
	switch v := dg.(type) {
	case protocol.MyGameStartedDG:
		d.gameStarted(v, now)
	case protocol.MoveListDG:
		d.moveList(v)
	case protocol.MatchDG:
		d.challenge(v, now)
	case protocol.SeekDG:
		d.seekAd(v, now)
	case protocol.SeekRemovedDG:
		d.policy.adRemoved(v)
	case protocol.MatchRemovedDG:
		d.policy.removed(v)
	case protocol.PersonalTellDG:
		d.tell(v)
	case protocol.SuggestionDG:
		d.tourney(now, func(t *entrant) { t.suggestion(v, now) })
	case protocol.TourneyDG:
		d.tourney(now, func(t *entrant) { t.announce(v, now) })
	case protocol.RemoveTourneyDG:
		d.tourney(now, func(t *entrant) { t.removed(v, now) })
	case protocol.OffersInMyGameDG:
		if g := d.games[v.Game]; g != nil {
			us := g.t.Us()
			g.drv.Offered(v.WhiteDraw && us == chess.Black || v.BlackDraw && us == chess.White)
		}
	case protocol.GameMessageDG:
		if g := d.games[v.Game]; g != nil && strings.Contains(strings.ToLower(v.Text), "offers you a draw") {
			g.drv.Offered(true)
		}
	case protocol.SwitchServersDG:
		host := v.IP
		if host == "" {
			host = v.Server
		}
		d.opt.Log.Info().Str("server", host).Int("port", v.Port).Msg("server asks us to switch")
		return fmt.Sprintf("%s:%d", host, v.Port)
	}
	return ""
}

// rules are the referee's rules of games on this server: those given,
// the embedded server's, kriegspiel.org's, or else ICC's (an ICC-protocol
// server does not say which it applies).
func (d *Daemon) rules() umpire.Rules {
	if d.opt.Rules != nil {
		return *d.opt.Rules
	}
	cfg := d.config()
	if r, err := embeddedRules(cfg); err == nil && cfg.Server.Embedded {
		return r
	}
	if cfg.Server.Protocol == "kriegspiel" {
		return umpire.KS()
	}
	return umpire.ICC()
}

// settings are the driver's settings from the configuration.
func (d *Daemon) settings() driver.Settings {
	cfg := d.config()
	return driver.Settings{
		Overhead: cfg.Engine.MoveOverhead.Duration, MinThink: cfg.Engine.MinThink.Duration, Emergency: cfg.Engine.Emergency.Duration,
		Resign: cfg.Policy.Resign, ResignBelow: cfg.Policy.ResignBelow, ResignMoves: cfg.Policy.ResignMoves,
		AcceptDraw: cfg.Policy.AcceptDraw, DrawBelow: cfg.Policy.DrawBelow,
		// One game at a time: a ponder must not take the processors from
		// another game's search on its clock.
		Ponder: cfg.Engine.Ponder && cfg.Policy.MaxGames == 1,
	}
}

func (d *Daemon) gameStarted(v protocol.MyGameStartedDG, now time.Time) {
	if !v.Played {
		return
	}
	me := d.sess.Handle()
	var us chess.Color
	switch {
	case strings.EqualFold(v.White, me):
		us = chess.White
	case strings.EqualFold(v.Black, me):
		us = chess.Black
	default:
		return
	}
	d.policy.started()
	var resumed *resumption
	if old := d.games[v.Game]; old != nil {
		old.drv.Stop()
		if sameGame(old, v, us) {
			// Given back after a reconnection: go on from the server's
			// move list (DG 25 follows) in the same record, if the list
			// continues it (resume.go).
			resumed = &resumption{old: old}
		} else {
			d.writeOff(old, "unknown: the server started another game under its number", now, true)
		}
	}
	if v.Wild != 16 {
		d.opt.Log.Warn().Int("wild", v.Wild).Int("game", v.Game).Msg("not a wild 16 game: resigning it")
		d.sess.Send(protocol.ResignLine)
		return
	}
	g, seed, err := d.openGame(v, us, resumed, now)
	if err != nil {
		d.sess.Send(protocol.ResignLine)
		return
	}
	d.games[v.Game] = g
	cfg := d.config()
	t := g.t
	opp := t.Opponent()
	d.policy.opponent(opp)
	d.tourney(now, func(t *entrant) { t.gameStarted(v.Game, opp, now) })
	d.opt.Log.Info().Int("game", v.Game).Str("opponent", opp).Str("color", us.String()).
		Int("base_min", v.WhiteInitial).Int("inc_s", v.WhiteIncrement).Bool("rated", v.Rated).Uint64("seed", seed).Msg("game started")
	rated := "unrated"
	if v.Rated {
		rated = "rated"
	}
	d.opt.Console.say(lineProgress, "game %d started: %s (white) vs %s (black), %d+%d %s; we play %s",
		v.Game, v.White, v.Black, v.WhiteInitial, v.WhiteIncrement, rated, us.String())
	if cfg.Policy.Greeting != "" {
		if line, err := protocol.SayLine(cfg.Policy.Greeting); err == nil {
			d.sess.Send(line)
		}
	}
}

// send puts a driver's actions on the wire.
func (d *Daemon) send(g *gameRun, acts []driver.Action) {
	num := g.t.Number()
	for _, a := range acts {
		switch a.Kind {
		case driver.AcceptDraw:
			d.opt.Log.Info().Int("game", num).Float64("value", a.Value).Msg("accepting the draw offer")
			d.sess.Send(protocol.DrawLine)
		case driver.OfferDraw:
			d.opt.Log.Info().Int("game", num).Float64("value", a.Value).Msg("offering a draw: we cannot force mate, they keep at most one man")
			d.sess.Send(protocol.DrawLine) // on ICC "draw" offers, or accepts a standing offer
		case driver.Resign:
			if a.Err != nil {
				d.opt.Log.Error().Err(a.Err).Int("game", num).Msg("the player has no attempt; resigning")
			} else {
				d.opt.Log.Info().Int("game", num).Float64("value", a.Value).Int("moves", g.drv.LowTurns()).Msg("resigning")
			}
			d.sess.Send(protocol.ResignLine)
			g.t.Resigned()
		case driver.Attempt:
			style := protocol.PromoteUCI
			if d.config().Server.PromotionStyle == "equals" {
				style = protocol.PromoteEquals
			}
			line, err := protocol.MoveLine(a.Move, style)
			if err != nil {
				d.opt.Log.Error().Err(err).Msg("bad attempt from the player")
				continue
			}
			g.t.Sent(a.Move, d.opt.Now())
			g.lastAttempt = a
			if err := d.sess.Send(line); err != nil {
				d.opt.Log.Warn().Err(err).Msg("could not send the attempt")
			}
		}
	}
}

// finish closes a game: the player, the records, the score, the console.
// sans is the revealed move list when we have it already (a game that ended
// while we were away); else it is asked for.
func (d *Daemon) finish(num int, g *gameRun, sans []string, now time.Time) {
	delete(d.games, num)
	result, _, reason := d.endGame(g, fmt.Sprint(num), now)
	us := g.t.Us()
	d.tourney(now, func(t *entrant) { t.gameOver(num, g.t.Opponent(), us, result, reason, now) })
	if r := g.drv.Record(); r != nil {
		if err := r.Err(); err != nil {
			d.opt.Log.Error().Err(err).Int("game", num).Str("file", r.Path()).Msg("the game record could not be written in full")
		}
		if sans != nil {
			d.completeRecord(r, sans)
			return
		}
		d.askMoves(num) // the full move list, for the PGN
		d.keepRecord(r, now)
	}
}

// completeRecord writes a finished game's revealed moves (and its PGN) and
// teaches the opponent's model.
func (d *Daemon) completeRecord(r *record.Writer, sans []string) {
	if r.Moves(sans) {
		opp, color := r.Opponent()
		d.learner.learn(opp, color, sans, d.opt.Log)
	}
}

// scoreGame counts a finished game (any backend): the score, the log, the
// console's result line, and the game limit.
func (d *Daemon) scoreGame(game, opp string, us chess.Color, result, code, reason string, plies, illegal int, left time.Duration, now time.Time) {
	d.mu.Lock()
	s := d.score.add(result, us)
	limit := d.cfg.Policy.Games
	d.mu.Unlock()
	d.opt.Log.Info().Str("game", game).Str("result", result).Str("code", code).Str("reason", reason).
		Int("plies", plies).Int("illegal", illegal).Stringer("clock_left", left).Msg("game over")
	d.opt.Console.say(lineResult, "game %s vs %s (%s): %s %s, %d plies, %d illegal attempts, %s left; score +%d -%d =%d",
		game, opp, us.String(), result, reason, plies, illegal, fmtClock(left), s.wins, s.losses, s.draws)
	d.opt.Console.setStatus("", now)
	if limit > 0 && s.finished >= limit {
		d.opt.Log.Info().Int("games", s.finished).Msg("game limit reached")
		d.mu.Lock()
		d.soft = true
		d.mu.Unlock()
	}
}

// keepRecord remembers a finished game's record until its move list comes
// (its move list was just asked for).
func (d *Daemon) keepRecord(r *record.Writer, now time.Time) {
	d.recent = append(d.recent, &pendingList{r: r, asked: now, asks: 1})
	if len(d.recent) > 8 {
		d.recent[0].r.Close()
		d.recent = d.recent[1:]
	}
}

// findRecord returns the newest record not yet complete that the revealed
// move list sans of game number game can complete: after a server restart,
// numbers start again, and an older game may hold the same one (the moves
// tell them apart, record.Writer.Agrees).
func (d *Daemon) findRecord(game int, sans []string) *record.Writer {
	for i := len(d.recent) - 1; i >= 0; i-- {
		if r := d.recent[i].r; r.Number() == game && !r.Complete() && r.Agrees(sans) {
			return r
		}
	}
	return nil
}

// findPending returns the newest open question about game number game.
func (d *Daemon) findPending(game int) *pendingList {
	for i := len(d.recent) - 1; i >= 0; i-- {
		if p := d.recent[i]; p.r.Number() == game && p.open() {
			return p
		}
	}
	return nil
}

// tick runs the timers: settling answers, the watchdog, aborts, and the
// policy's seeks and challenges.
func (d *Daemon) tick() {
	now := d.opt.Now()
	cfg := d.config()
	for num, g := range d.games {
		if !g.stale.IsZero() {
			d.staleTick(num, g, now)
			continue
		}
		g.t.Settle(now)
		if !g.drv.Thinking() && now.Sub(g.polled) >= d.pollEvery() {
			switch why, routine := g.t.Stalled(now, d.pollEvery()); {
			case routine:
				d.opt.Log.Debug().Int("game", num).Str("why", why).Msg("a long silence: looking at the move list")
				g.resyncWhy, g.resyncAsked, g.polled = why, true, now
				d.askMoves(num)
			case why != "":
				g.t.SetDesync(why)
			}
		}
		// No abort in a tournament game: the TD rules on an absent
		// opponent, and an abort would read as our refusal to play.
		if !d.tour.pairedGame(num) && g.t.FirstMoveOverdue(now, cfg.Policy.AbortAfter.Duration) {
			d.opt.Log.Info().Int("game", num).Msg("the opponent never moved: aborting")
			d.sess.Send(protocol.AbortLine)
		}
	}
	d.askAgainIfLost(now)
	d.showStatus(now)
	d.livePublish(now, d.addr(), func() []live.Game { return d.liveICCGames(now) })
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	d.tourney(now, func(t *entrant) { t.tick(now) })
	// In an event the TD makes the games: no seeks, no challenges.
	d.policy.tick(d, now, cfg, soft || paused || len(d.games) > 0 || d.tour.active())
}

// staleAfter is how long the daemon waits for an answer about a game the
// server did not give back after a reconnection before asking again.
func (d *Daemon) staleAfter() time.Duration {
	if d.stale > 0 {
		return d.stale
	}
	return 15 * time.Second
}

// pollEvery is the least time between two move-list requests of one game.
func (d *Daemon) pollEvery() time.Duration {
	if d.poll > 0 {
		return d.poll
	}
	return 15 * time.Second
}

func fmtClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}
