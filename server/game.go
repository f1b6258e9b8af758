package server

import (
	"fmt"
	"math"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
	"kriegbot/tourney"
)

// Game is one wild 16 game in progress or finished. Guarded by s.mu.
type Game struct {
	number  int
	names   [2]string
	titles  [2]string
	ratings [2]int
	players [2]Client    // the telnet door's users; nil while a player is away (grace period), or for an HTTP bot
	bots    [2]Bot       // the HTTP door's bot in a seat, else nil
	id      string       // 24 hex digits: the HTTP door's game_id
	code    string       // the HTTP door's 6-character game_code
	absent  [2]time.Time // when the player left, during a grace period
	rated   bool
	minutes int
	inc     int // seconds

	ump   *umpire.Umpire
	clock [2]time.Duration // remaining, as of turnStart for the side to move
	// idleClock holds both clocks until White's first legal move, as
	// kriegspiel.org does; set for games with an HTTP bot in a seat.
	idleClock bool
	// paused stops the clocks of a TD game while a player is away
	// (disconnected, within the TD's grace): the game waits, as an ICC
	// adjournment does and CCT's rules ask.
	paused    bool
	turnStart time.Time
	timer     *time.Timer
	gen       int // bumped on every move and at the end, to retire old timers

	answers []umpire.Answer
	attempt []attemptRecord
	sans    []string // SAN of each legal move
	used    []time.Duration

	result, endCode, description string
	started, ended, updated      time.Time

	tourney any           // the TD's pairing this game plays, or nil
	tdTags  []tourney.Tag // its PGN tags, set by the TD when it ends
}

// attemptRecord is one attempt as the record files keep it.
type attemptRecord struct {
	Ply     int
	Side    chess.Color
	Answer  umpire.Answer
	At      time.Duration // since the game started
	ClockMs [2]int64      // both clocks after the attempt
	FEN     string        // the position after a legal move
}

// AskAnyIn puts the "Any?" question of the player of colour col in g to
// the umpire (the caller checked the variant allows it now: Umpire's
// CanAskAny), keeps the answer, and tells the doors following games. The
// telnet door never hears of it: its games are wild 16's.
func (s *Server) AskAnyIn(ev Events, g *Game, col chess.Color) (umpire.Answer, AttemptOutcome) {
	if out, ok := s.ready(ev, g, col, "any"); !ok {
		return umpire.Answer{}, out
	}
	a, err := g.ump.AskAny()
	if err != nil {
		return a, AttemptOver
	}
	if a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny {
		s.recordRefused(g, col, a, s.cfg.Now())
	}
	s.changed(g)
	return a, AttemptJudged
}

func (g *Game) colorOf(c Client) chess.Color {
	if g.players[chess.Black] == c || g.players[chess.White] != c && strings.EqualFold(g.names[chess.Black], c.Handle()) {
		return chess.Black
	}
	return chess.White
}

func scoreFor(winner chess.Color) string {
	if winner == chess.White {
		return "1-0"
	}
	return "0-1"
}

func colorName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

// remaining is side's clock now.
func (g *Game) remaining(side chess.Color, now time.Time) time.Duration {
	r := g.clock[side]
	if g.clockRuns() && side == g.ump.Side() {
		r -= now.Sub(g.turnStart)
	}
	return r
}

// clockRuns reports whether the side to move's clock is running.
func (g *Game) clockRuns() bool { return g.result == "" && !g.idleClock && !g.paused }

// pause stops the clocks: the mover's time so far is charged, and no
// flag falls until resume.
func (s *Server) pause(g *Game) {
	if g.paused || !g.clockRuns() {
		return
	}
	now := s.cfg.Now()
	g.clock[g.ump.Side()] -= now.Sub(g.turnStart)
	g.turnStart = now
	g.paused = true
	g.gen++ // retire the flag timer
	if g.timer != nil {
		g.timer.Stop()
	}
}

// resume restarts a paused game's clocks once both players are back.
func (s *Server) resume(g *Game) {
	if !g.paused || g.players[0] == nil || g.players[1] == nil {
		return
	}
	g.paused = false
	g.turnStart = s.cfg.Now()
	s.armClock(g)
}

// rejoin gives c, who has just logged in, back its seat in the games it
// left within their grace period.
func (s *Server) rejoin(ev Events, c Client) {
	for _, g := range s.games {
		for col := chess.White; col <= chess.Black; col++ {
			if g.players[col] == nil && g.bots[col] == nil && strings.EqualFold(g.names[col], c.Handle()) {
				g.players[col] = c
				g.absent[col] = time.Time{}
				s.resume(g)
				s.door.PlayerBack(ev, g, col)
			}
		}
	}
}

// seat is one side of a game about to start: a telnet client or an HTTP bot.
type seat struct {
	c   Client
	bot Bot
	// odds is taken off this side's clock at the start (a TD game's late
	// arrival, the TD's LateOdds); at least a second is left.
	odds time.Duration
}

func (p seat) name() string {
	if p.bot != nil {
		return p.bot.Name()
	}
	return p.c.Handle()
}

func (p seat) titles() string {
	if p.bot != nil {
		return "C"
	}
	return p.c.Titles()
}

// busy reports whether a telnet client is already playing (an HTTP bot may
// play several games at once, as on kriegspiel.org).
func (p seat) busy() bool { return p.c != nil && p.c.Playing() }

// startGame creates a game of variant v between white and black and tells
// both. id and code name it for the HTTP door ("" makes new ones). A wild
// 16 game has the server's rules (Config.Rules); another variant, only
// ever an HTTP lobby game, the site's rules for it (umpire.Site), under the
// server's move limit when it has one (a demo's or a test's bound).
func (s *Server) startGame(ev Events, white, black seat, minutes, inc int, rated bool, id, code string, v umpire.Variant) *Game {
	rules := s.cfg.Rules
	if !v.IsWild16() {
		rules = umpire.Site(v)
		rules.MaxPlies = s.cfg.Rules.MaxPlies
	}
	now := s.cfg.Now()
	if id == "" {
		id, code = s.newGameID()
	}
	g := &Game{
		number: s.nextGame, names: [2]string{white.name(), black.name()},
		titles:  [2]string{white.titles(), black.titles()},
		ratings: [2]int{s.rating(white.name()), s.rating(black.name())},
		players: [2]Client{white.c, black.c}, bots: [2]Bot{white.bot, black.bot},
		rated: rated, minutes: minutes, inc: inc, id: id, code: code,
		ump: umpire.New(rules), turnStart: now, started: now, updated: now,
		idleClock: white.bot != nil || black.bot != nil,
	}
	s.nextGame++
	base := time.Duration(minutes) * time.Minute
	if base == 0 {
		base = 10 * time.Second // an untimed request still gets a clock: 0 minutes + increment
	}
	g.clock = [2]time.Duration{base, base}
	for col, p := range []seat{white, black} {
		if p.odds > 0 {
			g.clock[col] = max(base-p.odds, time.Second)
		}
	}
	s.games[g.number] = g
	for _, p := range []seat{white, black} {
		if p.c != nil {
			s.removeOffersOf(ev, p.c.Handle())
		}
	}
	s.door.GameStarted(ev, g)
	s.armClock(g)
	for _, w := range s.watchers {
		w.GameStarted(g)
	}
	s.note().Msgf("game %d started: %s vs %s %d+%d", g.number, g.names[0], g.names[1], minutes, inc)
	return g
}

// armClock sets the flag timer for the side to move. While the clock is
// idle (before White's first move in a game with an HTTP bot) the timer
// instead aborts a game nobody starts, after the bot door's IdleGame (httpdoor.Config.IdleGame).
func (s *Server) armClock(g *Game) {
	if g.timer != nil {
		g.timer.Stop()
	}
	g.gen++
	gen := g.gen
	if g.idleClock {
		g.timer = time.AfterFunc(s.bots.IdleGame(), func() { s.idleOver(g, gen) })
		return
	}
	side := g.ump.Side()
	wait := g.clock[side] - s.cfg.Now().Sub(g.turnStart)
	if wait < 0 {
		wait = 0
	}
	g.timer = time.AfterFunc(wait+time.Millisecond, func() { s.flagCheck(g, gen) })
}

// idleOver aborts a game whose clock never started (kriegspiel.org deletes
// an active game with no completed move after an hour).
func (s *Server) idleOver(g *Game, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.result != "" || g.gen != gen || !g.idleClock {
		return
	}
	ev := s.door.NewEvents()
	s.endGame(ev, g, "Abo", "aborted", "Game aborted: nobody moved")
	ev.Flush()
}

func (s *Server) flagCheck(g *Game, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.result != "" || g.gen != gen {
		return
	}
	ev := s.door.NewEvents()
	if s.checkFlag(ev, g) {
		ev.Flush()
		return
	}
	s.armClock(g) // woke early: sleep again
}

// checkFlag ends the game if the side to move has run out of time.
func (s *Server) checkFlag(ev Events, g *Game) bool {
	side := g.ump.Side()
	if g.remaining(side, s.cfg.Now()) > 0 {
		return false
	}
	pos := g.ump.Position()
	if pos.HasInsufficientMaterial(1 - side) {
		s.endGame(ev, g, "NM", "1/2-1/2", fmt.Sprintf("%s ran out of time and %s has no material to mate", g.names[side], g.names[1-side]))
	} else {
		s.endGame(ev, g, "Fla", scoreFor(1-side), fmt.Sprintf("%s forfeits on time", g.names[side]))
	}
	return true
}

// AttemptOutcome says how attemptIn dealt with an attempt.
type AttemptOutcome uint8

const (
	AttemptJudged  AttemptOutcome = iota // the umpire answered (legal or not)
	AttemptFlagged                       // the mover's flag had fallen: the game ended
	AttemptNotTurn                       // not the mover's turn
	AttemptOver                          // the game was already over
)

// ready reports whether the player of colour col may put a question to
// g's umpire now; when not, the outcome says why (the game over, paused,
// a flag fallen, not col's turn), and the PlayerDoor was told of text.
func (s *Server) ready(ev Events, g *Game, col chess.Color, text string) (AttemptOutcome, bool) {
	switch {
	case g.result != "":
		s.door.AttemptRefused(ev, g, col, text, RefusedOver)
		return AttemptOver, false
	case g.paused:
		s.door.AttemptRefused(ev, g, col, text, RefusedPaused)
		return AttemptNotTurn, false
	case s.checkFlag(ev, g):
		return AttemptFlagged, false
	case g.ump.Side() != col:
		s.door.AttemptRefused(ev, g, col, text, RefusedNotTurn)
		return AttemptNotTurn, false
	}
	return AttemptJudged, true
}

// recordRefused keeps the refused attempt or the answered "Any?" a of the
// player of colour col, at now.
func (s *Server) recordRefused(g *Game, col chess.Color, a umpire.Answer, now time.Time) {
	g.answers = append(g.answers, a)
	g.updated = now
	g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans), Side: col, Answer: a, At: now.Sub(g.started),
		ClockMs: [2]int64{g.remaining(0, now).Milliseconds(), g.remaining(1, now).Milliseconds()}})
}

// offList reports whether a refuses an attempt off the askable list in a
// word of its own (IMPOSSIBLE_TO_ASK, NONSENSE): the site keeps no trace
// of it, and neither do the game's answers and records.
func offList(a umpire.Answer) bool {
	return !a.Legal && (a.Verdict == umpire.ImpossibleToAsk || a.Verdict == umpire.NonsenseMove)
}

// attemptIn referees the attempt m of the player of colour col in g, tells
// both players (the PlayerDoor) and the doors following games, and
// returns the umpire's answer.
func (s *Server) attemptIn(ev Events, g *Game, col chess.Color, m chess.Move, text string) (umpire.Answer, AttemptOutcome) {
	if out, ok := s.ready(ev, g, col, text); !ok {
		return umpire.Answer{}, out
	}
	now := s.cfg.Now()
	before := g.ump.Position()
	a, err := g.ump.Attempt(m)
	if err != nil {
		s.door.AttemptRefused(ev, g, col, text, RefusedOver)
		return a, AttemptOver
	}
	if offList(a) {
		s.changed(g)
		return a, AttemptJudged
	}
	if !a.Legal {
		s.recordRefused(g, col, a, now)
		s.door.AttemptJudged(ev, g, col, text, a, now)
		s.changed(g)
		return a, AttemptJudged
	}
	g.answers = append(g.answers, a)
	g.updated = now
	// Legal: charge the clock, add the increment, tell both.
	used := now.Sub(g.turnStart)
	if g.idleClock { // White's first move starts the clocks
		used, g.idleClock = 0, false
	}
	g.clock[col] -= used
	g.clock[col] += time.Duration(g.inc) * time.Second
	g.turnStart = now
	g.sans = append(g.sans, record.SAN(&before, a.Attempt))
	after := g.ump.Position()
	g.used = append(g.used, used)
	g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans) - 1, Side: col, Answer: a, At: now.Sub(g.started),
		ClockMs: [2]int64{g.remaining(0, now).Milliseconds(), g.remaining(1, now).Milliseconds()}, FEN: after.FEN()})
	s.door.AttemptJudged(ev, g, col, text, a, now)
	if a.Ending != umpire.NotOver {
		code, desc := endingCode(a.Ending, col)
		result := a.Result
		if a.Ending == umpire.PlyLimit {
			// The server's move limit ends the game for good: nobody won.
			result = "1/2-1/2"
		}
		s.endGame(ev, g, code, result, desc)
		return a, AttemptJudged
	}
	s.armClock(g)
	s.changed(g)
	return a, AttemptJudged
}

func endingCode(e umpire.Ending, mover chess.Color) (code, desc string) {
	switch e {
	case umpire.Checkmate:
		return "Mat", colorName(1-mover) + " checkmated"
	case umpire.Stalemate:
		return "Sta", colorName(1-mover) + " stalemated"
	case umpire.InsufficientMaterial:
		return "NM", "Neither player has mating material"
	case umpire.FiftyMoves:
		return "50", "Game drawn by the 50 move rule"
	case umpire.Repetition:
		return "Rep", "Game drawn by repetition"
	case umpire.TooManyReversible:
		return "50", "Game drawn: too many moves without capture or pawn move"
	case umpire.PlyLimit:
		return "Adj", "Game drawn by adjudication at the move limit"
	case umpire.DeadMaterial:
		return "Adj", "Game drawn by adjudication: neither side can force mate"
	}
	return "Adj", "Game over"
}

// endGame ends g with result ("1-0", "0-1", "1/2-1/2" or "aborted").
func (s *Server) endGame(ev Events, g *Game, code, result, description string) {
	if g.result != "" {
		return
	}
	now := s.cfg.Now()
	if g.ump.Ending() == umpire.NotOver && !g.idleClock && !g.paused {
		// Charge the running clock up to now, so the record shows it.
		side := g.ump.Side()
		g.clock[side] -= now.Sub(g.turnStart)
		g.turnStart = now
	}
	g.result, g.endCode, g.description, g.ended, g.updated = result, code, description, now, now
	g.gen++
	if g.timer != nil {
		g.timer.Stop()
	}
	delete(s.games, g.number)
	s.finished = append(s.finished, g)
	if len(s.finished) > s.cfg.MaxGames {
		s.finished = append(s.finished[:0], s.finished[len(s.finished)-s.cfg.MaxGames:]...)
	}
	if g.rated && (result == "1-0" || result == "0-1" || result == "1/2-1/2") {
		s.updateRatings(g)
	}
	s.door.GameEnded(ev, g, now)
	if s.cfg.RecordDir != "" {
		if _, err := writeRecords(s.cfg.RecordDir, g); err != nil {
			s.warn().Msgf("game %d: record: %v", g.number, err)
		}
	}
	for _, w := range s.watchers {
		w.GameEnded(ev, g)
	}
	s.note().Msgf("game %d ended: %s %s (%s)", g.number, result, code, description)
}

// GameWatcher is a door that follows the table's games: the table tells
// it when a game starts, changes (an attempt judged, legal or not) and
// ends (after the game's records are written), in the order the doors
// subscribed (New: the TD, then the HTTP door).
type GameWatcher interface {
	GameStarted(g *Game)
	GameChanged(g *Game)
	GameEnded(ev Events, g *Game)
}

// PlayerDoor is the door whose users sit at the table's games in person
// (the telnet door): the table publishes the events of its games and
// seek ads to it, with the lock held, into the batch of the use that
// caused them, and the door tells its users in its own words. A seat with
// no telnet user (a bot, a player away) is told nothing.
type PlayerDoor interface {
	// GameStarted: g has just started (its players seated, its clocks
	// set), before the GameWatchers hear of it; from now on its players
	// are Playing.
	GameStarted(ev Events, g *Game)
	// AttemptRefused: the attempt text of the player of colour col was not
	// refereed, for reason why.
	AttemptRefused(ev Events, g *Game, col chess.Color, text string, why Refusal)
	// AttemptJudged: the umpire answered a to the attempt text of the
	// player of colour col, at now; a legal move is already in g (its SAN,
	// time used and the mover's clock). When a ends the game, GameEnded
	// follows.
	AttemptJudged(ev Events, g *Game, col chess.Color, text string, a umpire.Answer, now time.Time)
	// GameEnded: g has just ended at now (its result, code and
	// description set, its clocks charged), before its records are
	// written and the GameWatchers hear of it; its players are Playing
	// no more.
	GameEnded(ev Events, g *Game, now time.Time)
	// PlayerAway: the player of colour col left g at left and has grace
	// to come back (a TD game's clocks are stopped).
	PlayerAway(ev Events, g *Game, col chess.Color, grace time.Duration, left time.Time)
	// PlayerBack: the player of colour col came back to g (a TD game's
	// clocks run again), and is Playing again.
	PlayerBack(ev Events, g *Game, col chess.Color)
	// SeekPosted and SeekRemoved: ad sk was posted, or taken down for
	// reason (DG 51's: 2 taken, 3 withdrawn).
	SeekPosted(ev Events, sk *Seek)
	SeekRemoved(ev Events, sk *Seek, reason int)
	// WithdrawOffers: the door withdraws the offers of handle it keeps
	// itself (challenges), after the table took down its seek ads: at
	// the start of its game, at logout, at a bare "match".
	WithdrawOffers(ev Events, handle string)

	// NewEvents starts the batch of one use of the table.
	NewEvents() Events
	// User is the user of lower-case handle lname logged in, or nil;
	// Online all of them, in no order.
	User(lname string) Client
	Online() []Client
	// Closing, Hangup and Closed are told as the table closes: Closing
	// first (stop listening), Hangup after the games ended and the last
	// batch was flushed (disconnect everybody), both with the lock held;
	// Closed without it, to wait until the door's connections are gone.
	Closing()
	Hangup()
	Closed()
}

// Client is a user of the telnet door, as the table seats it and the
// doors speak to it (through Events).
type Client interface {
	// Handle is its name; Titles its titles ("" or "C", ...); Guest
	// reports a guest login.
	Handle() string
	Titles() string
	Guest() bool
	// Playing reports whether it sits at a game.
	Playing() bool
	// DGOn reports whether it turned datagram n on.
	DGOn(n int) bool
}

// Events collects what one use of the table (a command, a request, a
// timer) tells the telnet door's users, and sends it at Flush: each
// user's share at once, in its order. Text and DG ignore a nil Client.
type Events interface {
	// Text queues a line for c; DG a datagram, if c turned it on.
	Text(c Client, line string)
	DG(c Client, n int, fields ...string)
	Flush()
}

// noPlayers is the PlayerDoor of a table no telnet door serves: nobody to
// tell.
type noPlayers struct{}

func (noPlayers) GameStarted(Events, *Game)                                                  {}
func (noPlayers) AttemptRefused(Events, *Game, chess.Color, string, Refusal)                 {}
func (noPlayers) AttemptJudged(Events, *Game, chess.Color, string, umpire.Answer, time.Time) {}
func (noPlayers) GameEnded(Events, *Game, time.Time)                                         {}
func (noPlayers) PlayerAway(Events, *Game, chess.Color, time.Duration, time.Time)            {}
func (noPlayers) PlayerBack(Events, *Game, chess.Color)                                      {}
func (noPlayers) SeekPosted(Events, *Seek)                                                   {}
func (noPlayers) SeekRemoved(Events, *Seek, int)                                             {}
func (noPlayers) WithdrawOffers(Events, string)                                              {}
func (noPlayers) NewEvents() Events                                                          { return noEvents{} }
func (noPlayers) User(string) Client                                                         { return nil }
func (noPlayers) Online() []Client                                                           { return nil }
func (noPlayers) Closing()                                                                   {}
func (noPlayers) Hangup()                                                                    {}
func (noPlayers) Closed()                                                                    {}

type noEvents struct{}

func (noEvents) Text(Client, string)       {}
func (noEvents) DG(Client, int, ...string) {}
func (noEvents) Flush()                    {}

// Refusal is why the table refused an attempt without asking the umpire.
type Refusal uint8

const (
	RefusedOver    Refusal = iota // the game is over
	RefusedPaused                 // a TD game waits for a player who left
	RefusedNotTurn                // not the mover's turn
)

// changed tells the watchers that g changed.
func (s *Server) changed(g *Game) {
	for _, w := range s.watchers {
		w.GameChanged(g)
	}
}

func (s *Server) updateRatings(g *Game) {
	w, b := float64(g.ratings[0]), float64(g.ratings[1])
	expW := 1 / (1 + math.Pow(10, (b-w)/400))
	var scoreW float64
	switch g.result {
	case "1-0":
		scoreW = 1
	case "1/2-1/2":
		scoreW = 0.5
	}
	d := int(math.Round(32 * (scoreW - expW)))
	s.ratings[strings.ToLower(g.names[0])] = g.ratings[0] + d
	s.ratings[strings.ToLower(g.names[1])] = g.ratings[1] - d
}
