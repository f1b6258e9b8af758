package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"kriegbot/config"
	"kriegbot/internal/backoff"
	"kriegbot/live"
	"kriegbot/protocol/ksclient"
)

// The kriegspiel.org backend of the daemon: the site's bot API over HTTPS
// (package ksclient) fed into each game's driver, as games.go does for ICC.
// One loop owns the games and every request that changes them; one
// goroutine per game reads its event stream and only pings the loop, which
// then fetches the state. A steady poll of /game/mine/active covers dropped
// events. Every failure of the network, a 429 or a 5xx holds all requests
// back with exponential backoff and jitter (Retry-After honoured).

// KSOptions are the kriegspiel.org backend's settings beside the config.
type KSOptions struct {
	// URL is the API's base; Token the bot's bearer token.
	URL, Token string
	// HTTP overrides the HTTP client (tests).
	HTTP *http.Client
	// Poll is the steady interval of GET /game/mine/active (default 2.5 s).
	Poll time.Duration
	// Stall is how long an event stream may stay silent (the site sends a
	// keepalive every 15 s) before it is reopened (default 45 s).
	Stall time.Duration
	// JoinEvery is the least time between two looks at other bots' open
	// games (default 61 s; the site allows one join a minute).
	JoinEvery time.Duration
	// CreateEvery is the least time between two lobby games created
	// (default 30 s).
	CreateEvery time.Duration
	// RotateAfter is how long a lobby game of ours waits for an opponent,
	// with server.create_rule_variant = "rotate", in a variant with no
	// game started since we started, before it is withdrawn and its
	// variant rested (four times RotateAfter, doubling with each
	// game of it left untaken in a row, up to an hour), so that a variant
	// nobody plays holds no place of max_games for long (default 5 min;
	// the site deletes a waiting game after 10).
	RotateAfter time.Duration
	// Timeout bounds one request (default 20 s).
	Timeout time.Duration
	// Rate bounds requests per second (default 8; see ksclient.Config).
	Rate float64
	// BackoffMin and BackoffMax bound the delays after failures (default
	// connection.reconnect_min and reconnect_max).
	BackoffMin, BackoffMax time.Duration
}

func (o *KSOptions) defaults(d *Daemon) {
	cfg := d.config()
	if o.Poll <= 0 {
		o.Poll = 2500 * time.Millisecond
	}
	if o.Stall <= 0 {
		o.Stall = 45 * time.Second
	}
	if o.JoinEvery <= 0 {
		o.JoinEvery = 61 * time.Second
	}
	if o.CreateEvery <= 0 {
		o.CreateEvery = 30 * time.Second
	}
	if o.RotateAfter <= 0 {
		o.RotateAfter = 5 * time.Minute
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = cfg.Connection.ReconnectMin.Duration
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = cfg.Connection.ReconnectMax.Duration
	}
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = o.BackoffMin
	}
}

// ksRun is one run of the backend.
type ksRun struct {
	ctx   context.Context
	d     *Daemon
	o     KSOptions
	c     *ksclient.Client
	me    string
	games map[string]*ksGame
	pings chan string
	fatal chan error
	wg    sync.WaitGroup

	hold     time.Time        // no request before this (backoff)
	retry    *backoff.Backoff // the requests' delays
	profiled bool
	lastPoll time.Time
	waiting  string    // our waiting lobby game, "" for none
	wait     lobbyWait // since when it waits, in which variant
	lastMake time.Time
	lastJoin time.Time
	created  int // lobby games created (rotate takes the next variant on a tie)
	done     []*ksDone
	seen     map[string]bool // games we finished or refused: never started again

	// The spread of variants (kslobby.go): games started this run by
	// variant, the variants resting after a lobby game of theirs went
	// untaken (until when, and how many in a row), and the creators of
	// open games known to be bots or not.
	played map[string]int
	rested map[string]time.Time
	misses map[string]int
	isBot  map[string]bool
}

// RunKriegspiel plays on the kriegspiel.org bot API until told to stop or
// the game limit is reached. It returns an exit code: ExitBadConfig when
// the site refuses the token (401).
func (d *Daemon) RunKriegspiel(ctx context.Context, o KSOptions) int {
	o.defaults(d)
	cfg := d.config()
	d.learner.open(cfg.Engine.OpponentModels, d.opt.Log)
	var tw io.Writer
	if d.opt.Dir != "" && cfg.Logs.Transcripts {
		if w, err := openTranscript(d.opt.Dir, d.opt.Name, d.opt.Now()); err == nil {
			tw = w
			defer w.Close()
		} else {
			d.opt.Log.Warn().Err(err).Msg("no transcript")
		}
	}
	c, err := ksclient.New(ksclient.Config{URL: o.URL, Token: o.Token, HTTP: o.HTTP, Timeout: o.Timeout, Rate: o.Rate,
		Transcript: tw, UserAgent: "kriegbot/" + d.build, Now: d.opt.Now})
	if err != nil {
		d.opt.Log.Error().Err(err).Msg("kriegspiel.org client")
		return ExitBadConfig
	}
	r := &ksRun{ctx: ctx, d: d, o: o, c: c, me: strings.ToLower(cfg.Account.Handle), games: map[string]*ksGame{},
		pings: make(chan string, 16), fatal: make(chan error, 1), seen: map[string]bool{},
		played: map[string]int{}, rested: map[string]time.Time{}, misses: map[string]int{}, isBot: map[string]bool{},
		retry: backoff.New(o.BackoffMin, o.BackoffMax, rand.New(rand.NewPCG(d.opt.Seed, 0x6b73)))}
	d.opt.Log.Info().Str("url", o.URL).Msg("playing on the kriegspiel.org API")
	d.opt.Console.say(lineProgress, "playing on %s as %s", o.URL, cfg.Account.Handle)
	code := r.loop(ctx)
	// The page shows how it ended, not the last snapshot of the loop,
	// which may be half a second older.
	d.liveSeen.published = time.Time{}
	d.livePublish(d.opt.Now(), o.URL, func() []live.Game { return liveGames(r.games, d.opt.Now()) })
	for _, g := range r.games {
		g.drv.Stop()
		if g.stop != nil {
			g.stop()
		}
	}
	for _, f := range r.done {
		f.rec.Close()
	}
	r.wg.Wait()
	return code
}

func (r *ksRun) loop(ctx context.Context) int {
	d := r.d
	tick := time.NewTicker(min(r.o.Poll/5, 200*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			d.SoftQuit()
			d.HardQuit()
		case <-d.control:
		case ref := <-r.pings:
			// On our turn the event is our own attempt's, whose reply we
			// have: the poll covers the rest (a resignation, a flag).
			if g := r.games[ref]; g != nil && !g.t.OurTurn() {
				g.stateDue = true
			}
		case err := <-r.fatal:
			d.opt.Log.Error().Err(err).Msg("kriegspiel.org refuses the token: stopping")
			d.opt.Console.say(lineResult, "kriegbot: kriegspiel.org refuses the token (%v); check account.token_env / token_file", err)
			return ExitBadConfig
		case th := <-d.thinkDone:
			thought(d, r.games, th)
		case <-tick.C:
		}
		code, stop := r.step(ctx)
		d.mu.Lock()
		d.playing = len(r.games) // for Playing (the signal handler)
		d.mu.Unlock()
		now := d.opt.Now()
		d.livePublish(now, r.o.URL, func() []live.Game { return liveGames(r.games, now) })
		if stop {
			return code
		}
	}
}

// step does what is due: quitting, requests (unless held back), driving.
func (r *ksRun) step(ctx context.Context) (int, bool) {
	d := r.d
	now := d.opt.Now()
	_, hard := d.quitting()
	if hard {
		if len(r.games) > 0 {
			d.opt.Log.Warn().Int("games", len(r.games)).Msg("leaving at once: games in progress are left to run out")
		}
		for _, g := range r.games {
			if g.stop != nil {
				g.stop()
			}
		}
		games := abandonGames(r.games, abandonedWhy, now, func(g *ksGame) string { return fmt.Sprintf("game %s vs %s", g.code, g.opp) })
		return d.abandon(games), true
	}
	drive(d, r.games, now)
	if now.Before(r.hold) {
		return 0, false
	}
	if !r.profiled {
		if err := r.c.Profile(ctx, d.config().Server.SupportedRuleVariants); err != nil {
			if !r.failed(err, "profile sync") {
				// a 403 (not a bot) or another refusal: play anyway
				d.opt.Log.Warn().Err(err).Msg("profile sync refused: playing on")
				r.profiled = true
			}
			return r.fatalCode()
		}
		r.ok()
		r.profiled = true
	}
	if now.Sub(r.lastPoll) >= r.o.Poll {
		r.lastPoll = now
		if !r.poll(ctx, now) {
			return r.fatalCode()
		}
	}
	for _, g := range r.games {
		if g.resignDue {
			r.resign(ctx, g)
		}
		if g.stateDue && !now.Before(r.hold) {
			r.fetchState(ctx, g, now)
		}
		if g.t.TakeResend() {
			d.opt.Log.Info().Str("game", g.ref).Str("move", g.t.Outstanding().String()).Msg("the attempt never reached the site: sending it again")
			g.postDue = true
		}
		if g.postDue && !d.opt.Now().Before(r.hold) {
			r.post(ctx, g)
		}
	}
	drive(d, r.games, now)
	r.transcripts(ctx, now)
	// Read after the games are driven: a game that just ended may have
	// reached the game limit, and then no new game starts.
	soft, _ := d.quitting()
	if soft && len(r.games) == 0 {
		if r.waiting != "" {
			r.withdraw(ctx)
		}
		if !r.awaitingMoves(now) {
			return ExitDone, true
		}
		return 0, false
	}
	if !soft && !now.Before(r.hold) {
		r.lobby(ctx, now)
	}
	return r.fatalCode()
}

// fatalCode reports a 401 seen by a request of the loop.
func (r *ksRun) fatalCode() (int, bool) {
	select {
	case err := <-r.fatal:
		r.d.opt.Log.Error().Err(err).Msg("kriegspiel.org refuses the token: stopping")
		r.d.opt.Console.say(lineResult, "kriegbot: kriegspiel.org refuses the token (%v); check account.token_env / token_file", err)
		return ExitBadConfig, true
	default:
		return 0, false
	}
}

// failed handles a request's error: a 401 is fatal, a retryable one holds
// every request back. It reports whether the error was one of those.
func (r *ksRun) failed(err error, what string) bool {
	d := r.d
	if ksclient.Unauthorized(err) {
		select {
		case r.fatal <- err:
		default:
		}
		return true
	}
	if !ksclient.Retryable(err) {
		return false
	}
	wait := r.retry.Next()
	if ra := ksclient.RetryAfter(err); ra > wait {
		wait = ra
	}
	r.hold = d.opt.Now().Add(wait)
	d.opt.Log.Warn().Err(err).Str("request", what).Stringer("retry_in", wait.Round(time.Millisecond)).Msg("kriegspiel.org request failed")
	return true
}

// ok notes a request that worked: the delays start again from the least.
func (r *ksRun) ok() { r.retry.Reset() }

// runBackend runs d on the configured front door: ICC's protocol, or the
// kriegspiel.org API (the site at server.url, or the embedded server's
// HTTP door).
func runBackend(ctx context.Context, d *Daemon, cfg config.Config, token string, srv EmbeddedServer) int {
	if cfg.Server.Protocol != "kriegspiel" {
		return d.Run(ctx)
	}
	url := cfg.Server.URL
	if cfg.Server.Embedded {
		u, tok, err := embeddedHTTPDoor(ctx, srv, cfg)
		if err != nil {
			d.opt.Log.Error().Err(err).Msg("no HTTP door on the embedded server")
			d.opt.Console.say(lineResult, "kriegbot run: %v", err)
			return ExitBadConfig
		}
		url, token = u, tok
	}
	return d.RunKriegspiel(ctx, KSOptions{URL: url, Token: token})
}

// embeddedHTTPDoor opens the embedded server's kriegspiel.org-style HTTP
// door on a loopback port, registers our bot there and returns the door's
// base URL and the bot's token. The door is the server's ServeAPI method
// (`kriegbot serve -http`); a server without it is reported as such.
func embeddedHTTPDoor(ctx context.Context, door interface{ ServeAPI(net.Listener) error }, cfg config.Config) (string, string, error) {
	if door == nil {
		return "", "", errors.New("server.protocol = \"kriegspiel\" with server.embedded = true needs the embedded server's HTTP door (kriegbot serve -http), which this build does not have")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Server.Host, "0"))
	if err != nil {
		return "", "", err
	}
	go door.ServeAPI(ln) // ends with the server's Close
	url := "http://" + ln.Addr().String()
	c, err := ksclient.New(ksclient.Config{URL: url, Timeout: 10 * time.Second})
	if err != nil {
		return "", "", err
	}
	reg, err := c.Register(ctx, ksclient.Registration{Username: cfg.Account.Handle, DisplayName: "kriegbot " + cfg.Account.Handle,
		OwnerEmail: "kriegbot@localhost", Description: "kriegbot on the embedded server", RuleVariants: cfg.Server.SupportedRuleVariants})
	if err != nil {
		return "", "", fmt.Errorf("registering on the embedded HTTP door: %w", err)
	}
	return url, reg.APIToken, nil
}
