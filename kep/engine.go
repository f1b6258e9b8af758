package kep

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/driver"
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// Config adapts Run.
type Config struct {
	// Kinds are the player kinds the Player option is read against;
	// players.Kinds() when nil.
	Kinds []players.Kind
	// Name is the engine's id name; "kriegbot" when empty.
	Name string
	// InfoEvery is how often a running search reports its progress in an
	// info line (players that can tell it: mcts); 0 means every second,
	// a negative value never.
	InfoEvery time.Duration
}

// defaultInfoEvery is the progress interval when Config.InfoEvery is 0.
const defaultInfoEvery = time.Second

// Author is the engine's id author line.
const Author = "the kriegbot authors"

// quitWait bounds how long quit waits for a cancelled search to hand the
// player back: Attempt returns at once when its context ends, and quit must
// be done within 100 ms.
const quitWait = 50 * time.Millisecond

// phase is where the game stands for the engine.
type phase uint8

const (
	noGame    phase = iota
	ourTurn         // a go is expected
	answering       // an attempt went out; legal or illegal is expected
	theirTurn       // opponent is expected
)

var phaseWords = [...]string{noGame: "no game", ourTurn: "our turn", answering: "awaiting the answer to our attempt", theirTurn: "the opponent's turn"}

// inputLine is one line from the driver, numbered from 1.
type inputLine struct {
	n    int
	text string
}

// searchResult is what a search goroutine hands back.
type searchResult struct {
	move    chess.Move
	err     error
	report  *players.SearchReport // nil for players without one
	elapsed time.Duration
}

// running is a search in flight: driver.Game.Think on a goroutine of its
// own, so that the loop keeps reading (stop, isready, quit) meanwhile.
type running struct {
	cancel context.CancelFunc
	done   chan searchResult
	start  time.Time
	// progress reads the search's iterations so far from the loop's
	// goroutine; tick paces the progress lines. Both nil for players that
	// cannot tell.
	progress func() int64
	tick     *time.Ticker
}

// progresser is a player whose running search can be asked how far it got
// (from another goroutine).
type progresser interface {
	Progress() int64
}

// engine is Run's state; only Run's goroutine touches it.
type engine struct {
	cfg   Config
	log   zerolog.Logger
	w     *bufio.Writer
	werr  error
	set   settings
	model belief.Prior // loaded from ModelFile, nil for the player's own

	player    players.Player
	playerKey string // the spec and model file the player was built with

	phase   phase
	color   chess.Color
	plies   int
	pending chess.Move // our last attempt
	// askingAny says our last attempt was "Any?" (attempt any).
	askingAny bool
	// variant is the game's rule variant (zero: wild 16).
	variant umpire.Variant
	know    players.Knowledge
	// game drives the player through the game (the daemon's and the match
	// runner's driver): the one time policy, with the turn's refusals and
	// when its first go arrived (the clock runs during refused attempts),
	// and the one ponder goroutine. Nil when no game is on.
	game *driver.Game

	search *running
	// ponderGo is the limits of the last go ponder, which a ponderhit
	// searches with.
	ponderGo *GoLimits
	// queue holds the lines that wait for the running search to end, and
	// queued their size in bytes, bounded by maxQueued.
	queue  []queuedLine
	queued int
}

// queuedLine is a parsed line waiting for the search to end.
type queuedLine struct {
	n    int
	line Line
}

// maxQueued bounds the bytes of the lines waiting for a search: a driver
// that streams lines without waiting for the attempt cannot fill memory.
const maxQueued = 1 << 20

// priorSetter is implemented by players that take an opponent model for the
// next game (the same optional interface the daemon uses).
type priorSetter interface {
	SetPrior(belief.Prior)
}

// Run speaks KEP: it reads commands from in and writes protocol lines to out
// and diagnostics to logw, until quit, the end of in (after answering a go
// still pending) or ctx's end. It returns an error only when out fails (the
// driver is gone). Run does not wait for a reader blocked in in.Read: that
// goroutine ends when in returns.
func Run(ctx context.Context, in io.Reader, out, logw io.Writer, cfg Config) error {
	if cfg.Kinds == nil {
		cfg.Kinds = players.Kinds()
	}
	if cfg.Name == "" {
		cfg.Name = "kriegbot"
	}
	e := &engine{cfg: cfg, log: newLog(logw), w: bufio.NewWriter(out), set: defaultSettings(), pending: chess.NullMove}
	lines := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop, e.log)
	eof := false
	for {
		e.drain()
		if e.werr != nil {
			e.abort()
			return e.werr
		}
		if eof && e.search == nil && len(e.queue) == 0 {
			return nil
		}
		var done chan searchResult
		var tick <-chan time.Time
		if e.search != nil {
			done = e.search.done
			if e.search.tick != nil {
				tick = e.search.tick.C
			}
		}
		select {
		case <-ctx.Done():
			e.abort()
			return e.werr
		case r := <-done:
			e.finish(r)
		case <-tick:
			e.sendProgress()
		case l, ok := <-lines:
			if !ok {
				eof, lines = true, nil
				if e.search != nil || len(e.queue) > 0 {
					e.log.Info().Msg("end of input: answering what is pending, then exiting")
				}
				continue
			}
			if quit := e.accept(l); quit {
				e.abort()
				return e.werr
			}
		}
	}
}

// readLines sends in's lines to lines until the end of in or stop. A line of
// more than MaxLine bytes is skipped (logged) without being held in memory.
func readLines(in io.Reader, lines chan<- inputLine, stop <-chan struct{}, lg zerolog.Logger) {
	defer close(lines)
	br := bufio.NewReaderSize(in, MaxLine+1)
	n := 0
	for {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			n++
			lg.Warn().Int("line", n).Msgf("longer than %d bytes: skipped", MaxLine)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		} else if len(b) > 0 {
			n++
			select {
			case lines <- inputLine{n: n, text: string(b)}:
			case <-stop:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				lg.Error().Err(err).Msg("reading input")
			}
			return
		}
	}
}

// send writes one protocol line and flushes it.
func (e *engine) send(s string) {
	if e.werr != nil {
		return
	}
	e.w.WriteString(s)
	e.w.WriteByte('\n')
	if err := e.w.Flush(); err != nil {
		e.werr = fmt.Errorf("kep: writing to the driver: %w", err)
		e.log.Error().Err(err).Msg("writing to the driver")
	}
}

// accept takes one line as it arrives and reports whether it was quit.
// Lines take effect in order: while a search runs, a line that needs the
// player waits in the queue until the search ends, and so does every line
// behind it. quit and stop never wait (stop ends the running search, whatever
// waits behind it); isready, kep and setoption act at once while nothing
// waits before them (they do not touch the player), so that readyok still
// means that every line before it took effect.
func (e *engine) accept(l inputLine) (quit bool) {
	c, err := ParseLine(l.text)
	if err != nil {
		e.log.Warn().Int("line", l.n).Msgf("%s: ignored", strings.TrimPrefix(err.Error(), "kep: "))
		return false
	}
	if len(c.Extra) > 0 {
		e.log.Warn().Int("line", l.n).Msgf("%s: unknown words %q ignored", c.Kind, clipWords(c.Extra))
	}
	switch {
	case c.Kind == Quit:
		return true
	case c.Kind == Empty:
	case e.search == nil && len(e.queue) == 0, c.Kind == Stop && e.search != nil:
		e.handle(l.n, c)
	case len(e.queue) == 0 && (c.Kind == IsReady || c.Kind == Hello || c.Kind == SetOption):
		e.handle(l.n, c)
	default:
		if e.queued+len(l.text) > maxQueued {
			e.log.Warn().Int("line", l.n).Msgf("more than %d bytes wait for the search: dropped", maxQueued)
			return false
		}
		if len(e.queue) == 0 {
			e.log.Info().Int("line", l.n).Msgf("%s waits for the search to end (stop ends it)", c.Kind)
		}
		e.queue = append(e.queue, queuedLine{n: l.n, line: c})
		e.queued += len(l.text)
	}
	return false
}

// drain executes the waiting lines until a search starts.
func (e *engine) drain() {
	for e.search == nil && len(e.queue) > 0 && e.werr == nil {
		q := e.queue[0]
		e.queue = e.queue[1:]
		e.handle(q.n, q.line)
	}
	if len(e.queue) == 0 {
		e.queue, e.queued = nil, 0 // let the backing array go
	}
}

// handle executes one command.
func (e *engine) handle(n int, c Line) {
	switch c.Kind {
	case Empty, Quit:
	case Hello:
		e.send("id name " + e.cfg.Name)
		e.send("id author " + Author)
		for _, d := range optionDefs() {
			e.send(d.line())
		}
		e.send("kepok")
	case IsReady:
		e.send("readyok")
	case SetOption:
		e.setOption(n, c.Name, c.Value)
	case Stop:
		if e.search == nil && e.game != nil && e.game.Pondering() {
			e.stopPonder() // a ponder answers nothing
			return
		}
		if e.search == nil {
			e.log.Warn().Int("line", n).Msg("stop with no search running: ignored")
			return
		}
		e.search.cancel() // the attempt goes out when the search hands it back
	default:
		e.gameCommand(n, c)
	}
}

// gameCommand executes the commands that drive the game.
func (e *engine) gameCommand(n int, c Line) {
	// The player is not safe for concurrent use: whatever reaches it ends
	// the ponder first (at once: it stops between two iterations).
	e.stopPonder()
	if c.Kind == NewGame {
		e.newGame(n, c.Color, c.Variant)
		return
	}
	if e.phase == noGame {
		e.log.Warn().Int("line", n).Msgf("%s with no game (newgame starts one): ignored", c.Kind)
		return
	}
	if p, ok := phaseFor(c.Kind); ok && e.phase != p {
		e.log.Warn().Int("line", n).Msgf("%s in %s: ignored", c.Kind, phaseWords[e.phase])
		return
	}
	switch c.Kind {
	case Go:
		if c.Go.Ponder {
			e.goPonder(n, c.Go)
			return
		}
		if e.phase != ourTurn {
			e.log.Warn().Int("line", n).Msgf("go in %s: answering anyway", phaseWords[e.phase])
		}
		e.ponderGo = nil
		e.start(c.Go)
	case Illegal, Legal, Opponent, Any, OpponentIllegal, OpponentAny:
		e.refereeEvent(n, c)
	case PonderHit:
		if e.phase != ourTurn || e.ponderGo == nil {
			e.log.Warn().Int("line", n).Msgf("ponderhit in %s without a go ponder before the opponent's move: ignored", phaseWords[e.phase])
			return
		}
		g := *e.ponderGo
		e.ponderGo = nil
		e.start(g)
	case GameOver:
		e.endGame(players.Outcome{Result: c.Result, Reason: c.Reason})
	}
}

// endGame tells the player the game is over and forgets the game.
func (e *engine) endGame(o players.Outcome) {
	e.game.End(o, record.ResultLine{}, time.Now())
	e.game = nil
	e.phase = noGame
}

// goPonder answers go ponder: in the opponent's turn the player ponders
// (players.Ponderer, on the driver's ponder goroutine; others do nothing)
// until the next line that needs it, and answers nothing; the limits are
// kept for a ponderhit. Outside the opponent's turn it is a go (logged): a
// driver that waits for an attempt must not hang.
func (e *engine) goPonder(n int, g GoLimits) {
	g.Ponder = false
	if e.phase != theirTurn {
		e.log.Warn().Int("line", n).Msgf("go ponder in %s: answering as go", phaseWords[e.phase])
		e.start(g)
		return
	}
	e.ponderGo = &g
	e.game.Ponder(g.Nodes)
}

// stopPonder ends the ponder in flight, if any, and waits for the player.
// A player that failed while pondering is logged, not fatal.
func (e *engine) stopPonder() {
	if e.game == nil {
		return
	}
	if err := e.game.StopPonder(time.Now()); err != nil {
		e.log.Error().Err(err).Msg("the player failed while pondering")
	}
}

// phaseFor returns the phase in which a referee event makes sense.
func phaseFor(k Kind) (phase, bool) {
	switch k {
	case Illegal, Legal, Any:
		return answering, true
	case Opponent, OpponentIllegal, OpponentAny:
		return theirTurn, true
	}
	return noGame, false
}

// hear tells the engine's own record of our men, and the player through
// the game driver, which keeps the turn's time (a refusal goes on with the
// turn, our legal move ends it). A player that fails on an answer is
// logged, not fatal: the engine goes on, and a go still gets an attempt.
func (e *engine) hear(v umpire.View) {
	e.know.Hear(v)
	defer func() {
		if r := recover(); r != nil {
			e.log.Error().Msgf("the player failed on %+v: %v", v, r)
		}
	}()
	e.game.Hear([]players.Event{{Kind: players.Answer, View: v}}, time.Now())
}

// setOption applies a setoption. A change of player or model takes effect at
// the next newgame: a game is played by one player from start to end.
func (e *engine) setOption(n int, name, value string) {
	old := e.set
	if err := e.set.set(name, value, e.cfg.Kinds); err != nil {
		e.log.Warn().Int("line", n).Msgf("%v: ignored", err)
		return
	}
	if e.set.modelFile != old.modelFile {
		if e.set.modelFile == "" {
			e.model = nil
		} else {
			c, err := oppmodel.LoadCounts(e.set.modelFile)
			if err != nil {
				e.log.Warn().Int("line", n).Msgf("option ModelFile: %v: ignored", err)
				e.set.modelFile = old.modelFile
				return
			}
			e.model = oppmodel.NewModel(c)
		}
	}
	if e.phase != noGame && e.key(e.variant) != e.playerKey {
		e.log.Info().Int("line", n).Msgf("option %s takes effect at the next newgame", name)
	}
}

// key names the player a game in variant v is played by.
func (e *engine) key(v umpire.Variant) string { return e.set.spec(v) + "\x00" + e.set.modelFile }

// newGame starts a game in variant v, building the player anew when its
// options changed. A named variant is played under the site's rules
// (umpire.Site, as kriegbot match -rules plays it); none named is wild 16
// under ICC's, as KEP always played.
func (e *engine) newGame(n int, c chess.Color, v umpire.Variant) {
	if e.phase != noGame {
		e.log.Warn().Int("line", n).Msg("newgame before gameover: the previous game is abandoned")
		e.endGame(players.Outcome{Result: "*", Reason: "abandoned"})
	}
	if e.player == nil || e.key(v) != e.playerKey {
		spec := e.set.spec(v)
		sp, err := e.set.playerSpec, error(nil)
		if e.set.player == "" { // the spec the other options compose
			sp, err = players.Parse(spec, e.cfg.Kinds)
		}
		if err != nil {
			// Only reachable when Threads and Hash combine badly; Player
			// specs are checked when set.
			e.log.Error().Int("line", n).Msgf("player %q: %v: playing heuristic", spec, err)
			if sp, err = players.Parse("heuristic", e.cfg.Kinds); err != nil {
				e.log.Error().Int("line", n).Msgf("no player: %v", err)
				e.phase = noGame
				return
			}
		}
		e.player, e.playerKey = sp.New(), e.key(v)
		if e.model != nil {
			if ps, ok := e.player.(priorSetter); ok {
				ps.SetPrior(e.model)
			} else {
				e.log.Warn().Int("line", n).Msgf("player %q takes no opponent model: ModelFile unused", spec)
			}
		}
	}
	rules := umpire.ICC()
	if v.Name != "" {
		rules = umpire.Site(v)
	}
	g := players.Game{Color: c, Rules: rules, Seed: e.set.seed}
	game, err := driver.New(driver.Setup{Player: e.player, Game: g, Settings: e.driverSettings()}, nil)
	if err != nil {
		e.log.Error().Int("line", n).Msgf("newgame: %v", err)
		e.phase = noGame
		return
	}
	e.game = game
	e.color, e.plies, e.pending, e.askingAny, e.ponderGo = c, 0, chess.NullMove, false, nil
	e.variant = rules.Variant
	e.know.Start(&g)
	e.phase = theirTurn
	if c == chess.White {
		e.phase = ourTurn
	}
}

// driverSettings are the game driver's settings under the options: the
// one time policy (the daemon's least think time and emergency line, the
// MoveOverhead option); each go brings its own limits (Situation), and
// neither ponder nor value-based decisions are the driver's own (a go
// ponder asks for a ponder, and a KEP engine never resigns).
func (e *engine) driverSettings() driver.Settings {
	return driver.Settings{Overhead: e.set.overhead, MinThink: clock.DefaultMinThink, Emergency: clock.DefaultEmergency}
}

// situation turns a go's limits into the attempt's situation for the one
// time policy (engine/clock.Policy, through the game driver): movetime is
// a deadline, less the overhead; clocks go through the time manager; nodes
// bound the work whatever else is given; none of them, no limit.
func (e *engine) situation(now time.Time, g GoLimits) driver.Situation {
	s := driver.Situation{Since: now, MoveNumber: e.plies/2 + 1, Nodes: g.Nodes, Ask: &clock.Ask{Deadline: g.MoveTime}}
	if g.MoveTime <= 0 && g.HasClock[e.color] {
		s.Ask = &clock.Ask{Clock: true, Remaining: g.Clock[e.color], Increment: g.Inc[e.color], MoveNumber: s.MoveNumber}
	}
	return s
}

// start answers a go: the driver's synchronous search (driver.Game.Think)
// runs on a goroutine of its own, so the loop keeps reading (stop,
// isready, quit) meanwhile; only that goroutine touches the game until it
// hands back the result.
func (e *engine) start(g GoLimits) {
	now := time.Now()
	if g.HasClock[e.color] {
		theirs := g.Clock[e.color.Other()]
		if !g.HasClock[e.color.Other()] {
			theirs = g.Clock[e.color]
		}
		e.game.Hear([]players.Event{{Kind: players.ClockUpdate, Clock: players.Clocks{Ours: g.Clock[e.color], Theirs: theirs}}}, now)
	}
	// MoveOverhead may have changed since the last go; it is applied here,
	// never while a search runs (the search reads the game's settings).
	e.game.SetOverhead(e.set.overhead)
	sit := e.situation(now, g)
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan searchResult, 1), start: time.Now()}
	p, game := e.player, e.game
	if pr, ok := p.(progresser); ok && e.cfg.InfoEvery >= 0 {
		every := e.cfg.InfoEvery
		if every == 0 {
			every = defaultInfoEvery
		}
		r.progress, r.tick = pr.Progress, time.NewTicker(every)
	}
	e.search = r
	go func() {
		act := game.Think(ctx, time.Now(), sit)
		res := searchResult{move: act.Move, err: act.Err}
		if in, ok := p.(players.Inspector); ok && res.err == nil {
			rep := in.LastSearch()
			res.report = &rep
		}
		res.elapsed = time.Since(r.start)
		r.done <- res
	}()
}

// endSearch forgets the running search, stopping its progress lines.
func (e *engine) endSearch() {
	if e.search.tick != nil {
		e.search.tick.Stop()
	}
	e.search = nil
}

// sendProgress reports how far the running search got (see infoLine).
func (e *engine) sendProgress() {
	r := e.search
	e.send(infoLine(time.Since(r.start), r.progress(), nil))
}

// infoLine is an info line: the time spent, then, when known, the search's
// iterations ("nodes", the unit of go nodes) and iterations per second
// ("nps"); for a finished search with a report also its depth along the
// principal line, the chosen attempt's value in pawns from our side
// ("proven" when exact) and the principal line itself, last:
//
//	info time 1500 nodes 61440 nps 40960 depth 5 value 0.35 pv e2e4 d2d4 g1f3 f1c4 e1g1
//
// A search in progress reports the first three only.
func infoLine(elapsed time.Duration, iterations int64, rep *players.SearchReport) string {
	b := make([]byte, 0, 64+6*players.MaxPV)
	b = append(b, "info time "...)
	b = strconv.AppendInt(b, elapsed.Milliseconds(), 10)
	if rep != nil {
		iterations = rep.Iterations
	}
	if iterations > 0 {
		b = append(b, " nodes "...)
		b = strconv.AppendInt(b, iterations, 10)
		if elapsed > 0 {
			b = append(b, " nps "...)
			b = strconv.AppendInt(b, int64(float64(iterations)/elapsed.Seconds()), 10)
		}
	}
	if rep == nil || rep.Iterations == 0 {
		return string(b)
	}
	b = append(b, " depth "...)
	b = strconv.AppendInt(b, int64(len(rep.PV)), 10)
	b = append(b, " value "...)
	v := strconv.FormatFloat(rep.Value, 'f', 2, 64)
	if v == "-0.00" {
		v = "0.00"
	}
	b = append(b, v...)
	if rep.Proven {
		b = append(b, " proven"...)
	}
	if len(rep.PV) > 0 {
		b = append(b, " pv"...)
		for _, m := range rep.PV {
			b = append(b, ' ')
			b = append(b, umpire.MoveText(m)...) // a drop as N@e4
		}
	}
	return string(b)
}

// finish sends the attempt of a finished search: a move, a drop (N@e4) or,
// where the variant has it, "Any?" (attempt any; the player's NullMove).
// When the player failed it sends the first attempt our own record allows,
// so that every go gets exactly one attempt.
func (e *engine) finish(r searchResult) {
	e.search.cancel()
	e.endSearch()
	m := r.move
	asking := r.err == nil && m == chess.NullMove && e.know.CanAskAny()
	if !asking && (r.err != nil || m == chess.NullMove) {
		var list chess.MoveList
		e.know.Askable(&list)
		drops := e.know.AskableDrops(nil)
		e.log.Error().Msgf("search failed (%v): sending the first askable attempt of %d", r.err, list.N+len(drops))
		m = chess.NullMove
		switch {
		case list.N > 0:
			m = list.Moves[0]
		case len(drops) > 0:
			m = drops[0]
		}
	}
	e.know.Asked(m)
	e.pending, e.askingAny = m, asking
	e.phase = answering
	e.send(infoLine(r.elapsed, 0, r.report))
	if asking {
		e.send("attempt any")
		return
	}
	e.send("attempt " + umpire.MoveText(m))
}

// abort ends a running search for quit: its attempt is not sent. The wait is
// bounded so that quit is prompt even if a player were slow to notice.
func (e *engine) abort() {
	if e.search == nil {
		e.stopPonder() // within one iteration of the player's
		return
	}
	e.search.cancel()
	select {
	case <-e.search.done:
	case <-time.After(quitWait):
		e.log.Error().Msgf("quit: the search did not stop within %v", quitWait)
	}
	e.endSearch()
}

// clipWords shortens a list of ignored words for the log.
func clipWords(ws []string) []string {
	const n = 8
	out := make([]string, 0, min(len(ws), n+1))
	for i, w := range ws {
		if i == n {
			out = append(out, fmt.Sprintf("... (%d more)", len(ws)-n))
			break
		}
		out = append(out, clip(w))
	}
	return out
}
