package server

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
	"kriegbot/tourney"
)

// Game is one wild 16 game in progress or finished. Guarded by s.mu.
type Game struct {
	number  int
	names   [2]string
	titles  [2]string
	ratings [2]int
	players [2]*Client   // nil while a player is away (grace period), or for an HTTP bot
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

	drawOffer  [2]bool
	abortOffer [2]bool

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
}

func (g *Game) colorOf(c *Client) chess.Color {
	if g.players[chess.Black] == c || g.players[chess.White] != c && strings.EqualFold(g.names[chess.Black], c.handle) {
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

// seat is one side of a game about to start: a telnet client or an HTTP bot.
type seat struct {
	c   *Client
	bot Bot
	// odds is taken off this side's clock at the start (a TD game's late
	// arrival, the TD's LateOdds); at least a second is left.
	odds time.Duration
}

func (p seat) name() string {
	if p.bot != nil {
		return p.bot.Name()
	}
	return p.c.handle
}

func (p seat) titles() string {
	if p.bot != nil {
		return "C"
	}
	return p.c.titles
}

// busy reports whether a telnet client is already playing (an HTTP bot may
// play several games at once, as on kriegspiel.org).
func (p seat) busy() bool { return p.c != nil && p.c.game != nil }

// startGame creates a game between white and black and tells both. id and
// code name it for the HTTP door ("" makes new ones).
func (s *Server) startGame(ev *Events, white, black seat, minutes, inc int, rated bool, id, code string) *Game {
	now := s.cfg.Now()
	if id == "" {
		id, code = s.newGameID()
	}
	g := &Game{
		number: s.nextGame, names: [2]string{white.name(), black.name()},
		titles:  [2]string{white.titles(), black.titles()},
		ratings: [2]int{s.rating(white.name()), s.rating(black.name())},
		players: [2]*Client{white.c, black.c}, bots: [2]Bot{white.bot, black.bot},
		rated: rated, minutes: minutes, inc: inc, id: id, code: code,
		ump: umpire.New(s.cfg.Rules), turnStart: now, started: now, updated: now,
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
			p.c.game = g
			s.removeOffersOf(ev, p.c.handle)
		}
	}
	kind := "unrated"
	if rated {
		kind = "rated"
	}
	for col, c := range g.players {
		ev.text(c, fmt.Sprintf("Creating: %s (%d) %s (%d) %s wild 16 %d %d", g.names[0], g.ratings[0], g.names[1], g.ratings[1], kind, minutes, inc))
		ev.text(c, fmt.Sprintf("{Game %d (%s vs. %s) Creating %s wild 16 (Kriegspiel) match.}", g.number, g.names[0], g.names[1], kind))
		s.sendGameState(ev, g, chess.Color(col))
	}
	s.armClock(g)
	for _, w := range s.watchers {
		w.GameStarted(g)
	}
	s.note().Msgf("game %d started: %s vs %s %d+%d", g.number, g.names[0], g.names[1], minutes, inc)
	return g
}

// sendGameState tells the player of colour col everything about the game as
// that player may see it: at the start, and again when a player comes back.
func (s *Server) sendGameState(ev *Events, g *Game, col chess.Color) {
	c := g.players[col]
	n := strconv.Itoa(g.number)
	rated := "0"
	if g.rated {
		rated = "1"
	}
	mins, inc := strconv.Itoa(g.minutes), strconv.Itoa(g.inc)
	ev.dg(c, protocol.DGMyGameStarted, n, g.names[0], g.names[1], "16", "Wild", rated, mins, inc, mins, inc,
		"1", "", strconv.Itoa(g.ratings[0]), strconv.Itoa(g.ratings[1]), n, g.titles[0], g.titles[1],
		"0", "0", "0", "", "0")
	sym := "PW"
	if col == chess.Black {
		sym = "PB"
	}
	ev.dg(c, protocol.DGMyRelationToGame, n, sym)
	ev.dg(c, protocol.DGFlip, n, boolField(col == chess.Black))
	s.sendMoveList(ev, c, g, col, false)
	now := s.cfg.Now()
	ev.dg(c, protocol.DGSetClock, n, strconv.Itoa(int(g.remaining(chess.White, now)/time.Second)), strconv.Itoa(int(g.remaining(chess.Black, now)/time.Second)))
	s.sendClocks(ev, c, g, now)
	if c != nil && !c.dgOn(protocol.DGSendMoves) {
		for _, l := range boardText(ptr(g.ump.Position()), col) {
			ev.text(c, l)
		}
	}
	if g.ump.Side() == col {
		s.yourTurn(ev, g, col)
	}
}

func ptr(p chess.Position) *chess.Position { return &p }

func boolField(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (s *Server) yourTurn(ev *Events, g *Game, col chess.Color) {
	c := g.players[col]
	ev.dg(c, protocol.DGMyTurn, strconv.Itoa(g.number))
	if c != nil && !c.dgOn(protocol.DGSendMoves) {
		ev.text(c, fmt.Sprintf("Game %d: it is your move (%s).", g.number, strings.ToLower(colorName(col))))
	}
}

// sendClocks sends DG 56 for both sides.
func (s *Server) sendClocks(ev *Events, c *Client, g *Game, now time.Time) {
	n := strconv.Itoa(g.number)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		running := g.clockRuns() && g.ump.Side() == side
		ms := g.remaining(side, now).Milliseconds()
		ev.dg(c, protocol.DGMsec, n, "WB"[side:side+1], strconv.FormatInt(ms, 10), boolField(running))
	}
}

// moveFields renders one legal move for a viewer: the full move for its
// mover (or anyone once the game is over), "?" or "?x<sq>" for the opponent.
func moveFields(mf protocol.MoveFields, san string, a umpire.Answer, hidden bool, used time.Duration, left time.Duration) []string {
	var f []string
	alg, smith := san, a.Attempt.String()
	if hidden {
		alg, smith = "?", "?"
		if a.Capture.Kind != umpire.NoCapture {
			smith = "?x" + a.Capture.Square.String()
		}
	}
	if mf.Algebraic {
		f = append(f, alg)
	}
	if mf.Smith {
		f = append(f, smith)
	}
	if mf.Time {
		f = append(f, strconv.Itoa(int(used/time.Second)))
	}
	if mf.Clock {
		f = append(f, strconv.Itoa(int(left/time.Second)))
	}
	return f
}

// sendMoveList sends DG 25 (and a text list when asked) as col sees it; col
// -1 or a finished game reveals every move.
func (s *Server) sendMoveList(ev *Events, c *Client, g *Game, col chess.Color, asText bool) {
	if c == nil {
		return
	}
	reveal := g.result != "" || col > chess.Black
	mf := c.moveFields()
	fields := []string{strconv.Itoa(g.number), "*"}
	var text []string
	leg := 0
	clockAfter := [2]time.Duration{}
	base := time.Duration(g.minutes) * time.Minute
	clockAfter[0], clockAfter[1] = base, base
	for _, a := range g.answers {
		if !a.Legal {
			continue
		}
		side := a.Mover
		clockAfter[side] += -g.used[leg] + time.Duration(g.inc)*time.Second
		hidden := !reveal && side != col
		fields = append(fields, strings.Join(moveFields(mf, g.sans[leg], a, hidden, g.used[leg], clockAfter[side]), " "))
		shown := g.sans[leg]
		if hidden {
			shown = "?"
			if a.Capture.Kind != umpire.NoCapture {
				shown = "?x" + a.Capture.Square.String()
			}
		}
		if side == chess.White {
			text = append(text, fmt.Sprintf("%3d. %s", leg/2+1, shown))
		} else if len(text) > 0 && leg%2 == 1 {
			text[len(text)-1] += "   " + shown
		}
		leg++
	}
	ev.dg(c, protocol.DGMoveList, fields...)
	if asText {
		ev.text(c, fmt.Sprintf("Movelist for game %d: %s vs. %s, wild 16, %d %d", g.number, g.names[0], g.names[1], g.minutes, g.inc))
		for _, l := range text {
			ev.text(c, l)
		}
		if g.result != "" {
			ev.text(c, fmt.Sprintf("{%s} %s", g.description, g.result))
		}
	}
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
	ev := s.newEvents()
	s.endGame(ev, g, "Abo", "aborted", "Game aborted: nobody moved")
	ev.flush()
}

func (s *Server) flagCheck(g *Game, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.result != "" || g.gen != gen {
		return
	}
	ev := s.newEvents()
	if s.checkFlag(ev, g) {
		ev.flush()
		return
	}
	s.armClock(g) // woke early: sleep again
}

// checkFlag ends the game if the side to move has run out of time.
func (s *Server) checkFlag(ev *Events, g *Game) bool {
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

// attempt referees c's move attempt m in its game.
func (s *Server) attempt(ev *Events, c *Client, m chess.Move, text string) {
	s.attemptIn(ev, c.game, c.game.colorOf(c), m, text)
}

// AttemptOutcome says how attemptIn dealt with an attempt.
type AttemptOutcome uint8

const (
	AttemptJudged  AttemptOutcome = iota // the umpire answered (legal or not)
	AttemptFlagged                       // the mover's flag had fallen: the game ended
	AttemptNotTurn                       // not the mover's turn
	AttemptOver                          // the game was already over
)

// attemptIn referees the attempt m of the player of colour col in g, tells
// both players (a telnet seat by text and DGs, an HTTP seat by an event)
// and returns the umpire's answer.
func (s *Server) attemptIn(ev *Events, g *Game, col chess.Color, m chess.Move, text string) (a umpire.Answer, out AttemptOutcome) {
	c := g.players[col]
	n := strconv.Itoa(g.number)
	if g.result != "" {
		ev.text(c, "The game is over.")
		return umpire.Answer{}, AttemptOver
	}
	if g.paused {
		ev.text(c, "The game waits for your opponent to come back; the clocks are stopped.")
		return umpire.Answer{}, AttemptNotTurn
	}
	if s.checkFlag(ev, g) {
		return umpire.Answer{}, AttemptFlagged
	}
	if g.ump.Side() != col {
		ev.dg(c, protocol.DGIllegalMove, n, text, "4")
		ev.text(c, "It is not your move.")
		return umpire.Answer{}, AttemptNotTurn
	}
	now := s.cfg.Now()
	before := g.ump.Position()
	a, err := g.ump.Attempt(m)
	if err != nil {
		ev.text(c, "The game is over.")
		return a, AttemptOver
	}
	g.answers = append(g.answers, a)
	g.updated = now
	if !a.Legal {
		g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans), Side: col, Answer: a, At: now.Sub(g.started),
			ClockMs: [2]int64{g.remaining(0, now).Milliseconds(), g.remaining(1, now).Milliseconds()}})
		ev.dg(c, protocol.DGIllegalMove, n, text, "2")
		ev.text(c, fmt.Sprintf("Illegal move (%s).", text))
		s.changed(g)
		return a, AttemptJudged
	}
	// Legal: charge the clock, add the increment, tell both.
	used := now.Sub(g.turnStart)
	if g.idleClock { // White's first move starts the clocks
		used, g.idleClock = 0, false
	}
	g.clock[col] -= used
	g.clock[col] += time.Duration(g.inc) * time.Second
	g.turnStart = now
	san := before.SAN(a.Attempt)
	g.sans = append(g.sans, san)
	g.used = append(g.used, used)
	g.drawOffer = [2]bool{}
	g.abortOffer = [2]bool{}
	g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans) - 1, Side: col, Answer: a, At: now.Sub(g.started),
		ClockMs: [2]int64{g.remaining(0, now).Milliseconds(), g.remaining(1, now).Milliseconds()}})
	for viewer := chess.White; viewer <= chess.Black; viewer++ {
		p := g.players[viewer]
		if p == nil {
			continue
		}
		f := moveFields(p.moveFields(), san, a, viewer != col, used, g.clock[col])
		ev.dg(p, protocol.DGSendMoves, append([]string{n}, f...)...)
		if !p.dgOn(protocol.DGSendMoves) {
			if viewer == col {
				ev.text(p, fmt.Sprintf("Game %d: you played %s.", g.number, san))
			} else {
				ev.text(p, fmt.Sprintf("Game %d: %s has moved.", g.number, colorName(col)))
			}
		}
		for _, line := range announcementLines(g.number, a) {
			ev.text(p, line)
		}
		s.sendClocks(ev, p, g, now)
		if !p.dgOn(protocol.DGSendMoves) && a.Ending == umpire.NotOver {
			for _, l := range boardText(ptr(g.ump.Position()), viewer) {
				ev.text(p, l)
			}
		}
	}
	if a.Ending != umpire.NotOver {
		code, desc := endingCode(a.Ending, col)
		result := a.Result
		if a.Ending == umpire.PlyLimit {
			// The server's move limit ends the game for good: nobody won.
			result = "1/2-1/2"
		}
		s.endGame(ev, g, code, result, desc)
		return
	}
	s.yourTurn(ev, g, 1-col)
	s.armClock(g)
	s.changed(g)
	return a, AttemptJudged
}

// announcementLines are the referee's words for a legal move, one per line,
// told to both players: capture, checks, pawn tries.
func announcementLines(game int, a umpire.Answer) []string {
	words := refereeWords(a)
	prefix := "Game " + strconv.Itoa(game) + ": "
	for i, w := range words {
		words[i] = prefix + w
	}
	return words
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
func (s *Server) endGame(ev *Events, g *Game, code, result, description string) {
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
	score := result
	if result == "aborted" {
		score = "*"
	}
	n := strconv.Itoa(g.number)
	for _, p := range g.players {
		if p == nil {
			continue
		}
		ev.text(p, fmt.Sprintf("{Game %d (%s vs. %s) %s} %s", g.number, g.names[0], g.names[1], description, score))
		ev.dg(p, protocol.DGMyGameResult, n, "0", code, result, description, "{}")
		s.sendClocks(ev, p, g, now)
		ev.dg(p, protocol.DGMyRelationToGame, n, "X")
		if !g.rated {
			ev.text(p, "Game was not rated.  No rating adjustment.")
		}
		p.game, p.lastGame = nil, g
		p.lastActive = now // idle time counts from the end of the game
	}
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
	GameEnded(ev *Events, g *Game)
}

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
