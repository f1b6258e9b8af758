package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/driver"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/backoff"
	"kriegbot/internal/buildinfo"
	"kriegbot/live"
	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
)

// Exit codes of the daemon.
const (
	ExitDone      = 0 // finished as asked (game limit, softquit, signal)
	ExitRestart   = 1 // gave up on the server: a supervisor should restart us
	ExitBadConfig = 2 // the configuration (or the account) cannot work
	ExitAbandoned = 3 // left at once (second signal, hardquit) with games in progress, lost by leaving
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
	// Wild16Spec, when set (its String not empty), is the player of the
	// games under wild 16's announcements (engine.wild16_player).
	Wild16Spec players.Spec
	// Log receives structured events.
	Log zerolog.Logger
	// Console, when set, is what a person sees (results, and on a terminal
	// the progress and a status line).
	Console *Console
	// Dir is the log folder for transcripts and game records ("" keeps none).
	Dir string
	// Dial overrides the connection (tests); default iccclient.TelnetDialer.
	Dial iccclient.Dialer
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Seed is the base of every game's seed.
	Seed uint64
	// Live, when set, is the operator's page: the daemon publishes what it
	// does to it.
	Live *live.Server
	// AutoSeek posts automatic seeks (taken at once, and listed as open
	// games by the server's HTTP door) instead of manual ones.
	AutoSeek bool
	// Rules, when set, are the referee's rules of the server's games (a
	// server of our own, e.g. kriegbot tourney's); else the embedded
	// server's (server.rules) or, on any other server, ICC's.
	Rules *umpire.Rules
}

// Daemon is one bot account: it keeps a connection to the server, plays the
// games its policy accepts, obeys its owner, and writes its records.
type Daemon struct {
	opt Options
	rng *rand.Rand // the reconnections' jitter

	mu      sync.Mutex // guards cfg, paused, quitting (owner and signals)
	cfg     config.Config
	paused  bool
	soft    bool // finish games, accept nothing new, then exit
	softAt  time.Time
	hard    bool // leave now
	control chan struct{}

	sess        *iccclient.Session
	games       map[int]*gameRun
	policy      policy  // challenges, seeks, rematches
	tour        entrant // computer tournaments (entrant.go)
	score       score
	refusedTell map[string]time.Time
	gameSeq     uint64
	connections int
	thinkDone   chan driver.Thought
	recent      []*pendingList     // finished games waiting for their full move list
	asked       []int              // move lists asked for on this connection, oldest first
	list        *listing           // the move list being received of a game not given back
	poll        time.Duration      // watchdog interval (tests shorten it)
	stale       time.Duration      // wait for a game after a reconnection (tests shorten it)
	quitWait    time.Duration      // a quitting daemon's wait for a server that is down (tests shorten it)
	build       string             // BuildID, for the game records
	learner     learner            // per-opponent models
	abandoned   []string           // games in progress when we left at once
	playing     int                // len(games), for other goroutines (mu)
	cancelLogin context.CancelFunc // ends a login in progress (mu)
	liveSeen    liveState          // what the operator's page has been shown
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
		opt: opt, cfg: cfg, rng: rand.New(rand.NewPCG(opt.Seed, 0x6b726965)), build: buildinfo.ID(),
		control: make(chan struct{}, 1), games: map[int]*gameRun{},
		refusedTell: map[string]time.Time{}, thinkDone: make(chan driver.Thought, 4),
		tour: entrant{log: opt.Log},
	}
}

// Playing returns the number of games in progress.
func (d *Daemon) Playing() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.playing
}

// Abandoned lists the games that were in progress when the daemon left at
// once (a second signal, hardquit), one description each.
func (d *Daemon) Abandoned() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.abandoned...)
}

// Score returns games finished and our wins, losses and draws.
func (d *Daemon) Score() (finished, wins, losses, draws int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.score
	return s.finished, s.wins, s.losses, s.draws
}

// SoftQuit asks the daemon to finish its games, accept nothing new, and exit.
// A second call (or HardQuit) makes it leave at once.
func (d *Daemon) SoftQuit() {
	d.mu.Lock()
	if d.soft {
		d.hard = true
	} else {
		d.softAt = d.opt.Now()
	}
	d.soft = true
	idle := d.playing == 0
	cancel := d.cancelLogin
	d.mu.Unlock()
	if idle && cancel != nil {
		cancel() // no game to finish: a login in progress need not end first
	}
	d.poke()
}

// abandon records the games still in progress as lost by leaving at once
// and gives the exit code that tells a supervisor so.
func (d *Daemon) abandon(games []string) int {
	if len(games) == 0 {
		return ExitDone
	}
	d.mu.Lock()
	d.abandoned = append(d.abandoned, games...)
	d.mu.Unlock()
	return ExitAbandoned
}

// leave is the exit code of a daemon that stops between connections (or
// leaves at once): the games it still holds are abandoned, their records
// closed with a result line.
func (d *Daemon) leave() int {
	games := abandonGames(d.games, abandonedWhy, d.opt.Now(), func(g *gameRun) string { return g.t.String() })
	d.setPlaying()
	return d.abandon(games)
}

// abandonedWhy is the reason a record of an abandoned game gives.
const abandonedWhy = "abandoned: the daemon left with the game in progress; the server decides it"

// HardQuit makes the daemon leave at once, games or not.
func (d *Daemon) HardQuit() {
	d.mu.Lock()
	d.soft, d.hard = true, true
	cancel := d.cancelLogin
	d.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	d.poke()
}

// stopNow reports that the daemon should leave: told to leave at once, or
// to finish its games when it has none.
func (d *Daemon) stopNow() bool {
	soft, hard := d.quitting()
	return hard || soft && len(d.games) == 0
}

// setPlaying publishes the number of games in progress.
func (d *Daemon) setPlaying() {
	d.mu.Lock()
	d.playing = len(d.games)
	d.mu.Unlock()
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
	d.learner.open(d.config().Engine.OpponentModels, d.opt.Log)
	addr := d.addr()
	retry := backoff.New(0, 0, d.rng)
	failures := 0
	// movesLost: the connection ended with a finished game's move list
	// still to come. A quitting daemon comes back once more for it (ask
	// counts bound this); a failed login gives it up.
	movesLost := false
	var down time.Time // since when the server is out of reach (zero: logged in)
	for {
		if _, hard := d.quitting(); ctx.Err() != nil || hard || d.stopNow() && !movesLost {
			return d.leave()
		}
		if d.quitLeft(down) <= 0 {
			// Quitting, with games to finish on a server that stays down:
			// they cannot be finished, and a stop must not wait for ever.
			d.opt.Log.Warn().Int("games", len(d.games)).Msg("quitting: the server stays out of reach; leaving the games in progress")
			return d.leave()
		}
		cfg := d.config()
		d.opt.Console.say(lineProgress, "connecting to %s ...", addr)
		lctx, cancel := context.WithCancel(ctx)
		d.mu.Lock()
		d.cancelLogin = cancel
		d.mu.Unlock()
		sc := d.sessionConfig(cfg, addr)
		sess, err := iccclient.Dial(lctx, sc)
		d.mu.Lock()
		d.cancelLogin = nil
		d.mu.Unlock()
		cancel()
		if err != nil {
			closeTranscript(sc)
			if down.IsZero() {
				down = d.opt.Now()
			}
		}
		if err != nil && d.stopNow() {
			return d.leave()
		}
		if err != nil {
			var le *iccclient.LoginError
			if errors.As(err, &le) && !le.Retryable() {
				d.opt.Log.Error().Int("code", le.Code).Str("why", le.Explanation).Msg("login refused for good")
				return ExitBadConfig
			}
			failures++
			if max := cfg.Connection.MaxReconnects; max > 0 && failures > max {
				d.opt.Log.Error().Err(err).Int("tries", failures).Msg("giving up on the server")
				return ExitRestart
			}
			wait := min(nextBackoff(retry, cfg), d.quitLeft(down))
			// Said once: the warning reaches the person through
			// logs.console, on a terminal and piped alike.
			d.opt.Log.Warn().Err(err).Stringer("retry_in", wait.Round(time.Millisecond)).Msg("cannot log in")
			if !d.sleep(ctx, wait) {
				return d.leave()
			}
			continue
		}
		d.connections++
		d.opt.Log.Info().Str("handle", sess.Handle()).Str("addr", addr).Int("connection", d.connections).Msg("logged in")
		d.opt.Console.say(lineProgress, "logged in as %s", sess.Handle())
		loggedIn := d.opt.Now()
		down = time.Time{}
		code, done, next := d.serve(ctx, sess)
		sess.Close()
		closeTranscript(sc)
		if done {
			return code
		}
		if next != "" {
			addr = next
		}
		// The delays start again from reconnect_min only after a session
		// that lasted: a server that takes the login and drops us (or
		// garbles) at once is not hammered every second.
		if retry.Lasted(loggedIn, d.opt.Now(), stableSession) {
			failures = 0
		} else {
			failures++
			if max := cfg.Connection.MaxReconnects; max > 0 && failures > max {
				d.opt.Log.Error().Err(sess.Err()).Int("tries", failures).Msg("giving up on the server: every session ends at once")
				return ExitRestart
			}
		}
		movesLost = d.awaitingMoves()
		down = d.opt.Now()
		wait := min(nextBackoff(retry, cfg), d.quitLeft(down))
		d.opt.Log.Warn().Err(sess.Err()).Stringer("retry_in", wait.Round(time.Millisecond)).Msg("connection lost")
		if !d.sleep(ctx, wait) {
			return d.leave()
		}
	}
}

// quitLeft is how much longer a quitting daemon tries to come back to
// its games on a server out of reach since down: the longest a server
// keeps a game for a player who left (CCT's 5 minutes, serve -td-grace),
// counted from the later of down and the quit. Not quitting, or not down:
// no bound.
func (d *Daemon) quitLeft(down time.Time) time.Duration {
	d.mu.Lock()
	soft, since := d.soft, d.softAt
	d.mu.Unlock()
	if !soft || down.IsZero() {
		return maxWait
	}
	wait := d.quitWait
	if wait == 0 {
		wait = 5 * time.Minute
	}
	return wait - d.opt.Now().Sub(later(down, since))
}

// maxWait is "no bound" for quitLeft.
const maxWait = time.Duration(1<<63 - 1)

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// closeTranscript closes a connection's transcript, if it has one.
func closeTranscript(sc iccclient.Config) {
	if c, ok := sc.Transcript.(io.Closer); ok {
		c.Close()
	}
}

// stableSession is how long a session must last for the reconnection delays
// to start again from the shortest.
const stableSession = time.Minute

// nextBackoff is the wait before the next login, within the configured
// bounds (read at each failure: the owner may change them).
func nextBackoff(b *backoff.Backoff, cfg config.Config) time.Duration {
	b.Min, b.Max = cfg.Connection.ReconnectMin.Duration, cfg.Connection.ReconnectMax.Duration
	return b.Next()
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
		if d.stopNow() {
			return false
		}
		return d.sleep(ctx, dur/2)
	}
}

func (d *Daemon) sessionConfig(cfg config.Config, addr string) iccclient.Config {
	handle := cfg.Account.Handle
	if cfg.Account.Guest {
		handle = "g"
	}
	sc := iccclient.Config{
		Addr: addr, Handle: handle, Password: d.opt.Password, PasswordPrompt: cfg.Account.PasswordPrompt,
		Level1: cfg.Server.Level1, Settings: cfg.Server.Settings,
		KeepAlive: cfg.Connection.KeepAlive.Duration, DeadAfter: cfg.Connection.DeadAfter.Duration,
		LoginTimeout: cfg.Connection.LoginTimeout.Duration, LinesPerSecond: cfg.Connection.LinesPerSecond,
		Dial: d.opt.Dial, Now: d.opt.Now,
	}
	dgs := append([]int(nil), protocol.BotDatagrams...)
	if cfg.Policy.AnswerSeeks {
		// Seek ads only when we answer them: on ICC they are many.
		dgs = append(dgs, protocol.DGSeek, protocol.DGSeekRemoved)
	}
	if len(cfg.TrustedTDs()) > 0 {
		// Pairing suggestions and the event list, when a TD is trusted.
		dgs = append(dgs, protocol.DGSuggestion, protocol.DGTourney, protocol.DGRemoveTourney)
	}
	sc.Datagrams = dgs
	if d.opt.Dir != "" && cfg.Logs.Transcripts {
		if w, err := openTranscript(d.opt.Dir, d.opt.Name, d.opt.Now()); err == nil {
			sc.Transcript = w
		} else {
			d.opt.Log.Warn().Err(err).Msg("no transcript")
		}
	}
	return sc
}
