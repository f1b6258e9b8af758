package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/opponent"
	"kriegbot/protocol"
)

// Exit codes of the daemon.
const (
	ExitDone      = 0 // finished as asked (game limit, softquit, signal)
	ExitRestart   = 1 // gave up on the server: a supervisor should restart us
	ExitBadConfig = 2 // the configuration (or the account) cannot work
)

// Options are what a Daemon needs besides its configuration.
type Options struct {
	// Name tells this daemon's log lines apart ("kriegbot", "sparring").
	Name string
	// Password of the account (from config.Password); never logged.
	Password string
	// Addr overrides the configured host and port (the embedded server's).
	Addr string
	// Spec is the parsed engine player.
	Spec players.Spec
	// Log receives structured events.
	Log zerolog.Logger
	// Console, when set, gets one line per finished game.
	Console io.Writer
	// Dir is the log folder for transcripts and game records ("" keeps none).
	Dir string
	// Dial overrides the connection (tests); default protocol.TelnetDialer.
	Dial protocol.Dialer
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Seed is the base of every game's seed.
	Seed uint64
}

// Daemon is one bot account: it keeps a connection to the server, plays the
// games its policy accepts, obeys its owner, and writes its records.
type Daemon struct {
	opt Options
	rng *rand.Rand

	mu      sync.Mutex // guards cfg, paused, quitting (owner and signals)
	cfg     config.Config
	paused  bool
	soft    bool // finish games, accept nothing new, then exit
	hard    bool // leave now
	control chan struct{}

	sess        *protocol.Session
	games       map[int]*gameRun
	pending     string // handle whose challenge we accepted, game not yet started
	pendingAt   time.Time
	seekPosted  bool
	lastMatch   time.Time
	lastOpp     string
	inARow      int
	finished    int
	wins        int
	losses      int
	draws       int
	refusedTell map[string]time.Time
	gameSeq     uint64
	connections int
	thinkDone   chan thinkResult
	recent      []*gameRecord // finished games waiting for their full move list
	poll        time.Duration // watchdog interval (tests shorten it)
	searches    int           // searches started, numbering their answers
	stale       time.Duration // wait for a game after a reconnection (tests shorten it)
	build       string        // BuildID, for the game records
	store       *opponent.Store
	defaults    *oppmodel.Counts
}

// New makes a daemon; cfg must be valid.
func New(cfg config.Config, opt Options) *Daemon {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Name == "" {
		opt.Name = cfg.Account.Handle
	}
	return &Daemon{
		opt: opt, cfg: cfg, rng: rand.New(rand.NewPCG(opt.Seed, 0x6b726965)), build: BuildID(),
		control: make(chan struct{}, 1), games: map[int]*gameRun{},
		refusedTell: map[string]time.Time{}, thinkDone: make(chan thinkResult, 4),
	}
}

// Score returns games finished and our wins, losses and draws.
func (d *Daemon) Score() (finished, wins, losses, draws int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.finished, d.wins, d.losses, d.draws
}

// SoftQuit asks the daemon to finish its games, accept nothing new, and exit.
// A second call (or HardQuit) makes it leave at once.
func (d *Daemon) SoftQuit() {
	d.mu.Lock()
	if d.soft {
		d.hard = true
	}
	d.soft = true
	d.mu.Unlock()
	d.poke()
}

// HardQuit makes the daemon leave at once, games or not.
func (d *Daemon) HardQuit() {
	d.mu.Lock()
	d.soft, d.hard = true, true
	d.mu.Unlock()
	d.poke()
}

func (d *Daemon) poke() {
	select {
	case d.control <- struct{}{}:
	default:
	}
}

func (d *Daemon) config() config.Config {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg
}

func (d *Daemon) quitting() (soft, hard bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.soft, d.hard
}

func (d *Daemon) addr() string {
	if d.opt.Addr != "" {
		return d.opt.Addr
	}
	c := d.config()
	return fmt.Sprintf("%s:%d", c.Server.Host, c.Server.Port)
}

// Run connects and plays until told to stop or the game limit is reached,
// reconnecting with exponential backoff and jitter. It returns an exit code.
func (d *Daemon) Run(ctx context.Context) int {
	d.openStore()
	addr := d.addr()
	backoff := time.Duration(0)
	failures := 0
	for {
		if _, hard := d.quitting(); hard || ctx.Err() != nil {
			return ExitDone
		}
		cfg := d.config()
		sess, err := protocol.Dial(ctx, d.sessionConfig(cfg, addr))
		if err != nil {
			var le *protocol.LoginError
			if errors.As(err, &le) && !le.Retryable() {
				d.opt.Log.Error().Int("code", le.Code).Str("why", le.Explanation).Msg("login refused for good")
				return ExitBadConfig
			}
			failures++
			if max := cfg.Connection.MaxReconnects; max > 0 && failures > max {
				d.opt.Log.Error().Err(err).Int("tries", failures).Msg("giving up on the server")
				return ExitRestart
			}
			backoff = d.nextBackoff(backoff, cfg)
			d.opt.Log.Warn().Err(err).Dur("retry_in", backoff).Msg("cannot log in")
			if !d.sleep(ctx, backoff) {
				return ExitDone
			}
			continue
		}
		failures = 0
		backoff = 0
		d.connections++
		d.opt.Log.Info().Str("handle", sess.Handle()).Str("addr", addr).Int("connection", d.connections).Msg("logged in")
		code, done, next := d.serve(ctx, sess)
		sess.Close()
		if done {
			return code
		}
		if next != "" {
			addr = next
		}
		backoff = d.nextBackoff(backoff, cfg)
		d.opt.Log.Warn().Err(sess.Err()).Dur("retry_in", backoff).Msg("connection lost")
		if !d.sleep(ctx, backoff) {
			return ExitDone
		}
	}
}

func (d *Daemon) nextBackoff(prev time.Duration, cfg config.Config) time.Duration {
	lo, hi := cfg.Connection.ReconnectMin.Duration, cfg.Connection.ReconnectMax.Duration
	next := prev * 2
	if next < lo {
		next = lo
	}
	if next > hi {
		next = hi
	}
	// Full jitter in the upper half, so a server restart does not see every
	// bot come back in the same second.
	return next/2 + time.Duration(d.rng.Int64N(int64(next/2)+1))
}

func (d *Daemon) sleep(ctx context.Context, dur time.Duration) bool {
	t := time.NewTimer(dur)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-d.control:
		_, hard := d.quitting()
		if hard {
			return false
		}
		return d.sleep(ctx, dur/2)
	}
}

func (d *Daemon) sessionConfig(cfg config.Config, addr string) protocol.SessionConfig {
	handle := cfg.Account.Handle
	if cfg.Account.Guest {
		handle = "g"
	}
	sc := protocol.SessionConfig{
		Addr: addr, Handle: handle, Password: d.opt.Password, PasswordPrompt: cfg.Account.PasswordPrompt,
		Level1: cfg.Server.Level1, Settings: cfg.Server.Settings,
		KeepAlive: cfg.Connection.KeepAlive.Duration, DeadAfter: cfg.Connection.DeadAfter.Duration,
		LoginTimeout: cfg.Connection.LoginTimeout.Duration, LinesPerSecond: cfg.Connection.LinesPerSecond,
		Dial: d.opt.Dial, Now: d.opt.Now,
	}
	if d.opt.Dir != "" && cfg.Logs.Transcripts {
		if w, err := openTranscript(d.opt.Dir, d.opt.Name, d.opt.Now()); err == nil {
			sc.Transcript = w
		} else {
			d.opt.Log.Warn().Err(err).Msg("no transcript")
		}
	}
	return sc
}

// thinkResult is a finished search.
type thinkResult struct {
	game int
	seq  int
	move chess.Move
	err  error
}

// gameRun is one game being played.
type gameRun struct {
	t        *tracker
	p        players.Player
	seed     uint64
	seq      int // number of the search in flight or last asked (Daemon.searches)
	thinking bool
	cancel   context.CancelFunc
	queued   []players.Event // heard while the player was thinking
	retries  clock.Tracker
	over     bool // the player was told GameOver
	record   *gameRecord
	low      int  // consecutive moves with a value below the resign line
	offered  bool // the opponent offers a draw
	// resyncAsked: we asked for the move list because something disagreed;
	// polled: when we last asked.
	resyncAsked bool
	resyncWhy   string
	polled      time.Time
	// stale is when the connection that carried this game was lost, until
	// the server gives the game back; zero otherwise.
	stale time.Time
	// model names the per-opponent model the player was given, or "".
	model string
}

// serve runs one connection. It returns (code, true, "") to exit, or
// (_, false, addr) to reconnect (to addr, when the server redirected us).
func (d *Daemon) serve(ctx context.Context, sess *protocol.Session) (int, bool, string) {
	d.sess = sess
	d.seekPosted = false
	d.pending = ""
	// Games from before a reconnection wait for the server to give them
	// back (DG 15 again); those it does not are over for us.
	for _, g := range d.games {
		if g.cancel != nil {
			g.cancel()
		}
		g.stale = d.opt.Now()
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	defer d.stopThinking()
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
			d.thought(r)
		case <-tick.C:
			d.tick()
		}
		if code, done := d.checkQuit(); done {
			return code, true, ""
		}
		d.drive()
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
		return ExitDone, true
	}
	if soft && len(d.games) == 0 && d.pending == "" && !d.awaitingMoves() {
		d.sess.Send(protocol.UnseekLine(0))
		d.sess.Send(protocol.QuitLine)
		return ExitDone, true
	}
	return 0, false
}

// awaitingMoves reports a finished game whose full move list (for its PGN)
// was asked for less than two seconds ago: a soft quit waits for it.
func (d *Daemon) awaitingMoves() bool {
	now := d.opt.Now()
	for _, r := range d.recent {
		if !r.pgn && now.Sub(r.finishedAt) < 2*time.Second {
			return true
		}
	}
	return false
}

func (d *Daemon) stopThinking() {
	for _, g := range d.games {
		if g.cancel != nil {
			g.cancel()
		}
	}
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
			d.sess.Send(fmt.Sprintf("moves %d", g.t.number))
		}
	case protocol.MsgError:
		d.opt.Log.Warn().Str("error", m.Text).Msg("wire")
	}
	return ""
}

func (d *Daemon) text(line string, now time.Time) {
	items, refLike, unknown := protocol.ParseAnnouncements(nil, []byte(line))
	if unknown {
		d.opt.Log.Warn().Str("line", line).Msg("referee-looking text not understood")
	}
	if !refLike || len(items) == 0 {
		return
	}
	for _, g := range d.games {
		if items[0].Game != 0 && items[0].Game != g.t.number {
			continue
		}
		g.t.announce(items, line, now)
	}
}

func (d *Daemon) datagram(dg protocol.DG, now time.Time) string {
	switch v := dg.(type) {
	case protocol.MyGameStartedDG:
		d.gameStarted(v, now)
	case protocol.MoveListDG:
		d.moveList(v)
	case protocol.MoveDG:
		if g := d.games[v.Game]; g != nil {
			g.t.move(v, now)
		}
	case protocol.IllegalMoveDG:
		if g := d.games[v.Game]; g != nil {
			switch v.Reason {
			case 4:
				g.t.setDesync("the server says it is not our move")
				g.t.ourTurn = false
				g.t.attempt = chess.NullMove
			case 10:
				// lost on time before the attempt: DG 16 follows
			default:
				g.t.illegal(now, true, v.Move)
			}
		}
	case protocol.MsecDG:
		if g := d.games[v.Game]; g != nil {
			g.t.msec(v, now)
		}
	case protocol.MyTurnDG:
		if g := d.games[v.Game]; g != nil {
			g.t.myTurn(now)
		}
	case protocol.MyGameResultDG:
		if g := d.games[v.Game]; g != nil {
			g.t.end(v)
		}
	case protocol.MatchDG:
		d.challenge(v, now)
	case protocol.MatchRemovedDG:
		if strings.EqualFold(v.Challenger, d.pending) || strings.EqualFold(v.Receiver, d.pending) {
			if !strings.Contains(strings.ToLower(v.Explanation), "accept") {
				d.pending = ""
			}
		}
	case protocol.PersonalTellDG:
		d.tell(v)
	case protocol.OffersInMyGameDG:
		if g := d.games[v.Game]; g != nil {
			g.offered = v.WhiteDraw && g.t.us == chess.Black || v.BlackDraw && g.t.us == chess.White
		}
	case protocol.GameMessageDG:
		if g := d.games[v.Game]; g != nil && strings.Contains(strings.ToLower(v.Text), "offers you a draw") {
			g.offered = true
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
	d.pending = ""
	d.seekPosted = false
	if old := d.games[v.Game]; old != nil {
		// A resumed game after a reconnection: start afresh from the
		// server's move list (DG 25 follows).
		if old.cancel != nil {
			old.cancel()
		}
	}
	if v.Wild != 16 {
		d.opt.Log.Warn().Int("wild", v.Wild).Int("game", v.Game).Msg("not a wild 16 game: resigning it")
		d.sess.Send(protocol.ResignLine)
		return
	}
	cfg := d.config()
	d.gameSeq++
	seed := d.opt.Seed ^ (d.gameSeq * 0x9e3779b97f4a7c15) ^ uint64(v.Game)
	p := d.opt.Spec.New()
	rules := umpire.ICC()
	if r, err := umpire.ParseRules(cfg.Server.Rules); err == nil && cfg.Server.Embedded {
		rules = r
	}
	t := newTracker(v, us, now)
	ctl := clock.Control{Base: t.base, Increment: t.inc}
	model := d.priorFor(p, t.opponent())
	if err := p.NewGame(players.Game{Color: us, Rules: rules, Control: ctl, Seed: seed}); err != nil {
		d.opt.Log.Error().Err(err).Msg("player refused the game; resigning")
		d.sess.Send(protocol.ResignLine)
		return
	}
	g := &gameRun{t: t, p: p, seed: seed, model: model}
	d.games[v.Game] = g
	if d.opt.Dir != "" && cfg.Logs.Records {
		g.record = newGameRecord(d.opt.Dir, d.opt.Name, v, us, seed, d.opt.Spec.String(), now,
			map[string]any{"build": d.build, "opponent_model": g.model})
	}
	opp := t.opponent()
	if strings.EqualFold(opp, d.lastOpp) {
		d.inARow++
	} else {
		d.lastOpp, d.inARow = opp, 1
	}
	d.opt.Log.Info().Int("game", v.Game).Str("opponent", opp).Str("color", colorWord(us)).
		Int("base_min", v.WhiteInitial).Int("inc_s", v.WhiteIncrement).Bool("rated", v.Rated).Uint64("seed", seed).Msg("game started")
	if cfg.Policy.Greeting != "" {
		if line, err := protocol.SayLine(cfg.Policy.Greeting); err == nil {
			d.sess.Send(line)
		}
	}
}

// moveList rebuilds a game from the server's move list when we joined it
// late (a reconnection) or lost track (an overflow or a desync).
func (d *Daemon) moveList(v protocol.MoveListDG) {
	g := d.games[v.Game]
	if g == nil {
		if r := d.findRecord(v.Game); r != nil {
			if sans := r.fullMoves(v); sans != nil {
				d.learn(r, sans)
			}
		}
		return
	}
	asked := g.resyncAsked
	g.resyncAsked = false
	if len(v.Moves) == g.t.plies && !asked {
		return // the list at game start, or a poll that found nothing new
	}
	if len(v.Moves) == g.t.plies && g.t.pending == nil && g.t.attempt == chess.NullMove &&
		g.t.ourTurn == (len(v.Moves)%2 == int(g.t.us)) {
		return // asked, but we agree with the server after all
	}
	d.resync(g, v)
}

// resync replays the server's move list into a fresh player: our own moves
// as accepted, the opponent's as hidden moves with their capture squares. The
// checks and pawn tries of past moves are not in the list; the current turn's
// are asked for again by the next moves.
func (d *Daemon) resync(g *gameRun, v protocol.MoveListDG) {
	if g.cancel != nil {
		g.cancel()
	}
	why := g.resyncWhy
	if why == "" {
		why = g.t.desync
	}
	if why == "" {
		why = "the server's move list differs from ours"
	}
	d.opt.Log.Warn().Int("game", g.t.number).Str("why", why).Int("plies", len(v.Moves)).Msg("resyncing from the server's move list")
	if g.record != nil {
		g.record.line(map[string]any{"type": "resync", "plies": len(v.Moves), "why": why, "t": d.opt.Now().UTC().Format(time.RFC3339Nano)})
	}
	cfg := d.config()
	p := d.opt.Spec.New()
	rules := umpire.ICC()
	if r, err := umpire.ParseRules(cfg.Server.Rules); err == nil && cfg.Server.Embedded {
		rules = r
	}
	t := g.t
	if err := p.NewGame(players.Game{Color: t.us, Rules: rules, Control: clock.Control{Base: t.base, Increment: t.inc}, Seed: g.seed}); err != nil {
		return
	}
	for i, mv := range v.Moves {
		mover := chess.Color(i % 2)
		view := umpire.View{Heard: true, Own: mover == t.us, PawnTries: -1}
		if mv.Hidden {
			if mv.CaptureSquare != chess.NoSquare {
				view.Capture = umpire.Capture{Square: mv.CaptureSquare, Kind: umpire.PieceCaptured}
			}
		} else if m, err := chess.ParseUCI(strings.ToLower(mv.Smith)); err == nil {
			view.Move = m
		}
		p.Hear(players.Event{Kind: players.Answer, View: view})
	}
	g.p = p
	g.thinking = false
	g.queued = nil
	d.searches++
	g.seq = d.searches
	t.plies = len(v.Moves)
	t.pending = nil
	t.attempt = chess.NullMove
	t.ourTurn = len(v.Moves)%2 == int(t.us)
	t.turnStart = d.opt.Now()
	t.desync = ""
}

// drive hands events to players, starts searches, and finishes games.
func (d *Daemon) drive() {
	now := d.opt.Now()
	for num, g := range d.games {
		if g.t.desync != "" && !g.t.over {
			d.opt.Log.Warn().Int("game", num).Str("why", g.t.desync).Msg("desync: asking for the move list")
			g.resyncWhy = g.t.desync
			g.t.desync = ""
			g.resyncAsked = true
			g.polled = now
			d.sess.Send(fmt.Sprintf("moves %d", num))
		}
		ev := g.t.takeEvents()
		if g.thinking {
			g.queued = append(g.queued, ev...)
			if g.t.over && g.cancel != nil {
				g.cancel()
			}
			continue
		}
		d.hear(g, ev)
		if g.t.over {
			d.finish(num, g, now)
			continue
		}
		if g.stale.IsZero() && g.t.ourTurn && g.t.attempt == chess.NullMove && g.t.pending == nil {
			d.think(num, g, now)
		}
	}
}

func (d *Daemon) hear(g *gameRun, ev []players.Event) {
	// What was heard while the player searched comes first, and is recorded
	// and counted like the rest.
	ev = append(g.queued, ev...)
	g.queued = nil
	for _, e := range ev {
		if e.Kind == players.Answer && e.View.Own {
			if e.View.Illegal {
				g.retries.Refused()
			} else {
				g.retries.Moved()
			}
		}
		if g.record != nil {
			g.record.event(e, d.opt.Now())
		}
		g.p.Hear(e)
	}
}

// think starts a search for our next attempt.
func (d *Daemon) think(num int, g *gameRun, now time.Time) {
	cfg := d.config()
	if d.resignOrDraw(g, cfg) {
		return
	}
	t := g.t
	mgr := clock.Default(cfg.Engine.MoveOverhead.Duration + t.lag)
	mgr.MinSoft = cfg.Engine.MinThink.Duration
	mgr.Emergency = cfg.Engine.Emergency.Duration
	remaining := t.clock(t.us, now)
	plan := mgr.Budget(clock.State{
		Remaining: remaining, Increment: t.inc, MoveNumber: t.plies/2 + 1,
		Retries: g.retries.Retries(), ExpectedRetries: g.retries.Expected(), Spent: now.Sub(t.turnStart),
	})
	if t.base == 0 && t.inc == 0 {
		plan = clock.Plan{Soft: time.Second, Hard: 2 * time.Second}
	}
	// Sequence numbers are unique over the daemon's life, so the answer of a
	// search for a game replaced after a reconnection is never taken for the
	// new game's.
	d.searches++
	g.seq = d.searches
	seq := g.seq
	g.thinking = true
	ctx, cancel := context.WithTimeout(context.Background(), plan.Hard)
	g.cancel = cancel
	p := g.p
	budget := players.Budget{Time: plan.Soft, Emergency: plan.Emergency}
	go func() {
		m, err := p.Attempt(ctx, budget)
		cancel()
		d.thinkDone <- thinkResult{game: num, seq: seq, move: m, err: err}
	}()
}

// thought sends a finished search's attempt, if it is still wanted.
func (d *Daemon) thought(r thinkResult) {
	g := d.games[r.game]
	if g == nil || r.seq != g.seq {
		return
	}
	g.thinking = false
	g.cancel = nil
	if g.t.over || !g.stale.IsZero() || !g.t.ourTurn || g.t.attempt != chess.NullMove {
		return // the game ended or moved on while we thought: send nothing
	}
	if r.err != nil {
		d.opt.Log.Error().Err(r.err).Int("game", r.game).Msg("the player has no attempt; resigning")
		d.sess.Send(protocol.ResignLine)
		return
	}
	style := protocol.PromoteUCI
	if d.config().Server.PromotionStyle == "equals" {
		style = protocol.PromoteEquals
	}
	line, err := protocol.MoveLine(r.move, style)
	if err != nil {
		d.opt.Log.Error().Err(err).Msg("bad attempt from the player")
		return
	}
	g.t.sent(r.move, d.opt.Now())
	if g.record != nil {
		g.record.attempt(r.move, d.opt.Now(), g.p)
	}
	if err := d.sess.Send(line); err != nil {
		d.opt.Log.Warn().Err(err).Msg("could not send the attempt")
	}
}

// resignOrDraw applies the value-based policies before a search; it reports
// whether it ended (or offered to end) the game instead.
func (d *Daemon) resignOrDraw(g *gameRun, cfg config.Config) bool {
	vp, ok := g.p.(players.Valuer)
	if !ok {
		return false
	}
	v, ok := vp.Value()
	if !ok {
		return false
	}
	if g.offered && cfg.Policy.AcceptDraw && v < cfg.Policy.DrawBelow {
		d.opt.Log.Info().Int("game", g.t.number).Float64("value", v).Msg("accepting the draw offer")
		d.sess.Send(protocol.DrawLine)
		g.offered = false
	}
	if v < cfg.Policy.ResignBelow {
		g.low++
	} else {
		g.low = 0
	}
	if cfg.Policy.Resign && g.low >= cfg.Policy.ResignMoves {
		d.opt.Log.Info().Int("game", g.t.number).Float64("value", v).Int("moves", g.low).Msg("resigning")
		d.sess.Send(protocol.ResignLine)
		g.t.ourTurn = false
		return true
	}
	return false
}

// finish closes a game: the player, the records, the console line.
func (d *Daemon) finish(num int, g *gameRun, now time.Time) {
	delete(d.games, num)
	if !g.over {
		g.over = true
		g.p.GameOver(players.Outcome{Result: g.t.result, Reason: g.t.reason})
	}
	score := g.t.result
	win := score == "1-0" && g.t.us == chess.White || score == "0-1" && g.t.us == chess.Black
	loss := score == "1-0" && g.t.us == chess.Black || score == "0-1" && g.t.us == chess.White
	d.mu.Lock()
	if score != "aborted" && score != "*" {
		d.finished++
		switch {
		case win:
			d.wins++
		case loss:
			d.losses++
		default:
			d.draws++
		}
	}
	finished, w, l, dr := d.finished, d.wins, d.losses, d.draws
	limit := d.cfg.Policy.Games
	d.mu.Unlock()
	illegal := 0
	for _, a := range g.t.log {
		if a.View.Illegal {
			illegal++
		}
	}
	left := g.t.clock(g.t.us, now)
	d.opt.Log.Info().Int("game", num).Str("result", score).Str("code", g.t.code).Str("reason", g.t.reason).
		Int("plies", g.t.plies).Int("illegal", illegal).Dur("clock_left", left).Msg("game over")
	if d.opt.Console != nil {
		fmt.Fprintf(d.opt.Console, "game %d vs %s (%s): %s %s, %d plies, %d illegal attempts, %s left; score +%d -%d =%d\n",
			num, g.t.opponent(), colorWord(g.t.us), score, g.t.reason, g.t.plies, illegal, fmtClock(left), w, l, dr)
	}
	if g.record != nil {
		g.record.finish(g.t, now)
		d.sess.Send(fmt.Sprintf("moves %d", num)) // the full move list, for the PGN
		d.keepRecord(g.record)
	}
	if limit > 0 && finished >= limit {
		d.opt.Log.Info().Int("games", finished).Msg("game limit reached")
		d.mu.Lock()
		d.soft = true
		d.mu.Unlock()
	}
}

// tick runs the timers: settling answers, abort, seeking and challenging.
func (d *Daemon) tick() {
	now := d.opt.Now()
	cfg := d.config()
	for num, g := range d.games {
		if !g.stale.IsZero() {
			if now.Sub(g.stale) > d.staleAfter() {
				// As on ICC, where a Kriegspiel game is not adjourned: the
				// one who dropped lost it.
				d.opt.Log.Warn().Int("game", num).Msg("the server did not give the game back after the reconnection: lost by disconnection")
				loss := "0-1"
				if g.t.us == chess.Black {
					loss = "1-0"
				}
				g.t.over, g.t.result, g.t.reason, g.t.code = true, loss, "lost by disconnection (the server did not resume the game)", "Dis"
				if g.thinking && g.cancel != nil {
					g.cancel()
				}
			}
			continue
		}
		g.t.settle(now)
		d.watchdog(num, g, now)
		if a := cfg.Policy.AbortAfter.Duration; a > 0 && !g.t.over {
			theirFirst := g.t.us == chess.White && g.t.plies == 1 || g.t.us == chess.Black && g.t.plies == 0
			if theirFirst && now.Sub(g.t.lastOpp) > a && !g.t.ourTurn {
				d.opt.Log.Info().Int("game", g.t.number).Msg("the opponent never moved: aborting")
				d.sess.Send(protocol.AbortLine)
				g.t.lastOpp = now
			}
		}
	}
	if d.pending != "" && now.Sub(d.pendingAt) > 10*time.Second {
		d.pending = "" // the accepted challenge never turned into a game
	}
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	if soft || paused || len(d.games) > 0 || d.pending != "" {
		return
	}
	if cfg.Policy.Seek && !d.seekPosted {
		line, err := protocol.SeekLine(protocol.SeekParams{Minutes: cfg.Policy.SeekBase, Increment: cfg.Policy.SeekIncrement,
			Rated: cfg.Policy.SeekRated, Wild: 16, Manual: true, MinRating: cfg.Policy.MinRating, MaxRating: cfg.Policy.MaxRating})
		if err == nil {
			d.sess.Send(line)
			d.seekPosted = true
		}
	}
	if c := cfg.Policy.Challenge; c != "" && now.Sub(d.lastMatch) > 5*time.Second {
		if cfg.Policy.MaxRematches > 0 && strings.EqualFold(c, d.lastOpp) && d.inARow >= cfg.Policy.MaxRematches {
			return
		}
		line, err := protocol.MatchLine(protocol.MatchParams{Opponent: c, Minutes: cfg.Policy.SeekBase,
			Increment: cfg.Policy.SeekIncrement, Rated: cfg.Policy.SeekRated, Wild: 16})
		if err == nil {
			d.sess.Send(line)
			d.lastMatch = now
		}
	}
}

// watchdog notices a game that stopped moving for a reason we cannot see
// (output lost to an overflow or a broken link): our clock runs but we wait,
// or our attempt got no answer, or nothing at all came for a long while. It
// then asks for the move list, at most once per pollEvery.
func (d *Daemon) watchdog(num int, g *gameRun, now time.Time) {
	t := g.t
	if t.over || g.thinking || now.Sub(g.polled) < d.pollEvery() {
		return
	}
	why := ""
	switch {
	case t.running == int(t.us) && !t.ourTurn && t.pending == nil && t.attempt == chess.NullMove && now.Sub(t.clockAt) > 2*time.Second:
		why = "our clock runs but we are waiting"
	case t.attempt != chess.NullMove && now.Sub(t.sentAt) > 5*time.Second+4*t.lag:
		why = "no answer to our attempt"
	case !t.ourTurn && now.Sub(t.lastHeard) > d.pollEvery():
		why = "nothing heard for a while"
	}
	if why != "" {
		t.setDesync("%s", why)
	}
}

// staleAfter is how long after a reconnection a game may take to be given
// back by the server before the daemon counts it as lost.
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

// challenge answers a DG 29 addressed to us.
func (d *Daemon) challenge(v protocol.MatchDG, now time.Time) {
	me := d.sess.Handle()
	if !strings.EqualFold(v.Receiver, me) {
		return // our own challenge echoed
	}
	why := d.refusal(v)
	if why == "" {
		line, err := protocol.AcceptLine(v.Challenger)
		if err != nil {
			return
		}
		d.pending, d.pendingAt = v.Challenger, now
		d.opt.Log.Info().Str("from", v.Challenger).Int("min", v.ChallengerTime).Int("inc", v.ChallengerInc).Msg("accepting challenge")
		d.sess.Send(line)
		return
	}
	d.opt.Log.Info().Str("from", v.Challenger).Str("why", why).Msg("declining challenge")
	if line, err := protocol.DeclineLine(v.Challenger); err == nil {
		d.sess.Send(line)
	}
}

// refusal says why a challenge is declined, or "" to accept it.
func (d *Daemon) refusal(v protocol.MatchDG) string {
	cfg := d.config()
	p := cfg.Policy
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	switch {
	case soft:
		return "shutting down"
	case paused:
		return "paused by the owner"
	case !p.AcceptChallenges:
		return "not accepting challenges"
	case len(d.games)+btoi(d.pending != "") >= p.MaxGames:
		return "busy"
	case v.Wild != 16:
		return "only wild 16"
	case v.ChallengerTime < p.MinBase || v.ChallengerTime > p.MaxBase:
		return "time control"
	case v.ChallengerInc < p.MinIncrement || v.ChallengerInc > p.MaxIncrement:
		return "increment"
	case v.Rated && !p.Rated, !v.Rated && !p.Unrated:
		return "rated or unrated"
	case p.MinRating > 0 && v.ChallengerRating < p.MinRating, p.MaxRating > 0 && v.ChallengerRating > p.MaxRating:
		return "rating"
	case contains(p.Block, v.Challenger):
		return "blocked"
	case len(p.Allow) > 0 && !contains(p.Allow, v.Challenger):
		return "not on the allow list"
	case p.MaxRematches > 0 && strings.EqualFold(v.Challenger, d.lastOpp) && d.inARow >= p.MaxRematches:
		return "rematch limit"
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func contains(list []string, h string) bool {
	for _, x := range list {
		if strings.EqualFold(x, h) {
			return true
		}
	}
	return false
}

func colorWord(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

func fmtClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}
