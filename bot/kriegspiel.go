package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kriegbot/config"
	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/internal/backoff"
	"kriegbot/live"
	"kriegbot/protocol/ksclient"
	"kriegbot/record"
	"kriegbot/server"
	"kriegbot/track"
	"kriegbot/track/ksgame"
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

// ksGame is one game being played on the site.
type ksGame struct {
	seat
	r     *ksRun
	ref   string // game_id
	code  string
	guest bool // the opponent is one of the site's guests
	t     *ksgame.Tracker
	// stateDue: fetch the state at the next chance (an event, a change in
	// the poll, a reply we could not read).
	stateDue   bool
	lastState  time.Time
	moveNumber int // as the poll last showed it
	missing    int // 404s in a row
	resignDue  bool
	postDue    bool               // the outstanding attempt is to be sent
	stop       context.CancelFunc // ends the event stream
}

// The kriegspiel.org side of the game loop (gameloop.go).

func (g *ksGame) shared() *seat       { return &g.seat }
func (g *ksGame) tracker() track.Game { return g.t }

// heed logs words not understood, and rebuilds the player from the
// scoresheet on a desync.
func (g *ksGame) heed(now time.Time) {
	d := g.r.d
	if u := g.t.TakeUnknown(); len(u) > 0 {
		d.opt.Log.Warn().Str("game", g.ref).Strs("words", u).Msg("referee words not understood (ignored)")
	}
	if why := g.t.TakeDesync(); why != "" {
		d.opt.Log.Warn().Str("game", g.ref).Str("why", why).Msg("our view disagrees with the site's")
		if len(g.t.Timeline()) > 0 {
			g.r.rebuild(g, why, now)
		}
		g.stateDue = true
	}
}

func (g *ksGame) showAnswers(ev []players.Event) { g.r.showAnswers(g, ev) }

// mayAct: no attempt once we resign.
func (g *ksGame) mayAct() bool { return !g.resignDue }

func (g *ksGame) wanted() bool { return g.t.Due() && !g.resignDue }

func (g *ksGame) send(acts []driver.Action) { g.r.send(g.r.ctx, g, acts) }

func (g *ksGame) finish(now time.Time) { g.r.finish(g, now) }

// ksDone is a finished game waiting for its transcript (moves and PGN).
type ksDone struct {
	guest bool
	ref   string
	rec   *record.Writer
	tries int
	next  time.Time
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
	waiting  string // our waiting lobby game, "" for none
	lastMake time.Time
	lastJoin time.Time
	done     []*ksDone
	seen     map[string]bool // games we finished or refused: never started again
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
			if c, ok := w.(io.Closer); ok {
				defer c.Close()
			}
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
			d.mu.Lock()
			for _, g := range r.games {
				d.abandoned = append(d.abandoned, fmt.Sprintf("game %s vs %s", g.code, g.opp))
			}
			d.mu.Unlock()
		}
		return ExitDone, true
	}
	drive(d, r.games, now)
	if now.Before(r.hold) {
		return 0, false
	}
	if !r.profiled {
		if err := r.c.Profile(ctx); err != nil {
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
	d.opt.Log.Warn().Err(err).Str("request", what).Dur("retry_in", wait).Msg("kriegspiel.org request failed")
	return true
}

// ok notes a request that worked: the delays start again from the least.
func (r *ksRun) ok() { r.retry.Reset() }

// poll looks at our games: new ones start, changed ones are fetched.
func (r *ksRun) poll(ctx context.Context, now time.Time) bool {
	list, err := r.c.Active(ctx)
	if err != nil {
		r.failed(err, "active games")
		return !ksclient.Unauthorized(err)
	}
	r.ok()
	r.waiting = ""
	listed := map[string]bool{}
	for _, m := range list.Games {
		ref := m.Ref()
		listed[ref] = true
		switch m.State {
		case "waiting":
			if r.mine(m) {
				r.waiting = ref
			}
		case "active":
			g := r.games[ref]
			if g == nil {
				if !r.seen[ref] {
					r.start(ctx, m, now)
				}
				continue
			}
			if m.MoveNumber != g.moveNumber || now.Sub(g.lastState) > 30*time.Second {
				g.stateDue = true
			}
			g.moveNumber = m.MoveNumber
		}
	}
	for ref, g := range r.games {
		if !listed[ref] {
			g.stateDue = true // over (archived) or gone: the state says which
		}
	}
	return true
}

// mine reports a game created by us (our seat filled, the other empty).
func (r *ksRun) mine(m ksclient.Metadata) bool {
	for _, s := range []*ksclient.Seat{m.White, m.Black} {
		if s != nil && strings.EqualFold(s.Username, r.me) {
			return true
		}
	}
	return m.White == nil || m.Black == nil // a waiting game listed as ours
}

// start begins playing a game the poll found.
func (r *ksRun) start(ctx context.Context, m ksclient.Metadata, now time.Time) {
	d := r.d
	ref := m.Ref()
	st, err := r.c.State(ctx, ref)
	if err != nil {
		if !r.failed(err, "state of a new game") {
			d.opt.Log.Warn().Err(err).Str("game", ref).Msg("cannot read a new game's state")
		}
		return
	}
	r.ok()
	us, ok := ksgame.ParseColor(st.YourColor)
	if !ok {
		return
	}
	if m.RuleVariant != "" && m.RuleVariant != "wild16" {
		d.opt.Log.Warn().Str("game", ref).Str("variant", m.RuleVariant).Msg("not a wild 16 game: resigning it")
		r.seen[ref] = true
		if err := r.c.Resign(ctx, ref); err != nil {
			r.failed(err, "resign")
		}
		return
	}
	white, black := seatName(m.White, "white"), seatName(m.Black, "black")
	opp, oppSeat := black, m.Black
	if us == chess.Black {
		opp, oppSeat = white, m.White
	}
	// A guest is someone else next time: no model is used or learnt.
	guest := oppSeat != nil && oppSeat.Role == "guest"
	h := fnv.New32a()
	io.WriteString(h, ref)
	number := int(h.Sum32() % 1_000_000_000)
	ctl := controlOf(st)
	g := &ksGame{r: r, ref: ref, code: m.GameCode, guest: guest, t: ksgame.NewTracker(us, now), moveNumber: m.MoveNumber}
	if g.code == "" {
		g.code = ref
	}
	// The site's wild 16 (ks-game) ends games by its own rules; the player
	// is told ICC's, as records and replay assume.
	seed, err := d.startGame(gameStart{us: us, control: ctl, number: number, opp: opp, learn: !guest,
		line: record.GameLine{Game: number, White: white, Black: black, BaseMin: int((ctl.Base + 30*time.Second) / time.Minute),
			IncS: int(ctl.Increment / time.Second), Rated: true, Wild: 16}}, &g.seat, now)
	if err != nil {
		r.seen[ref] = true
		if err := r.c.Resign(ctx, ref); err != nil {
			r.failed(err, "resign")
		}
		return
	}
	r.games[ref] = g
	r.seen[ref] = true
	if ref == r.waiting {
		r.waiting = ""
	}
	d.opt.Log.Info().Str("game", ref).Str("code", g.code).Str("opponent", opp).Str("color", us.String()).
		Int("record_game", number).Uint64("seed", seed).Msg("game started")
	d.opt.Console.say(lineProgress, "game %s started: %s (white) vs %s (black), %s rated; we play %s", g.code, white, black, ctl, us.String())
	// A game in progress (we restarted) is heard from its scoresheet: our
	// moves with their move_uci, the opponent's as hidden moves; where the
	// scoresheet falls short the tracker notes a desync and drive rebuilds
	// the player.
	g.t.State(st, now)
	g.lastState = now
	sctx, cancel := context.WithCancel(ctx)
	g.stop = cancel
	r.wg.Add(1)
	go func() { defer r.wg.Done(); r.watch(sctx, ref) }()
}

// controlOf is a game's time control: the site's only one, rapid (25 + 10),
// unless the clock of a game not yet under way shows another (the embedded
// server's door plays a telnet seek at its own terms). The clocks stand
// still until White's first move, which adds the increment: before it both
// show the base; after it Black's still shows the base (less the moments
// since) and White's the base plus the increment.
func controlOf(st ksclient.State) clock.Control {
	ctl := clock.Control{Base: 25 * time.Minute, Increment: 10 * time.Second}
	c := st.Clock
	if st.MoveNumber > 2 || c == nil || c.WhiteRemaining == nil || c.BlackRemaining == nil {
		return ctl
	}
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)).Round(time.Second) }
	base := sec(*c.BlackRemaining)
	if st.MoveNumber <= 1 {
		base = sec(max(*c.WhiteRemaining, *c.BlackRemaining))
	}
	if base < 30*time.Second || base > 3*time.Hour {
		return ctl
	}
	if m := base.Round(time.Minute); (base - m).Abs() <= 5*time.Second {
		base = m // a clock that ran a moment: the whole minutes it began with
	}
	ctl.Base = base
	if st.MoveNumber == 2 {
		if inc := sec(*c.WhiteRemaining) - base; inc >= 0 && inc <= time.Minute {
			ctl.Increment = inc
		}
	}
	return ctl
}

func seatName(s *ksclient.Seat, fallback string) string {
	if s == nil || s.Username == "" {
		return fallback
	}
	return s.Username
}

// rebuild gives the game's player the scoresheet as the site lists it.
func (r *ksRun) rebuild(g *ksGame, why string, now time.Time) {
	if err := g.drv.Rebuild(g.t.Timeline(), why, now); err != nil {
		r.d.opt.Log.Error().Err(err).Str("game", g.ref).Msg("the player could not be rebuilt")
		return
	}
	g.t.Rebuilt()
	r.d.opt.Log.Warn().Str("game", g.ref).Str("why", why).Int("plies", g.t.Plies()).Msg("player rebuilt from the scoresheet")
}

// fetchState reads a game's state into its tracker.
func (r *ksRun) fetchState(ctx context.Context, g *ksGame, now time.Time) {
	st, err := r.c.State(ctx, g.ref)
	if err != nil {
		r.stateFailed(g, err)
		return
	}
	r.ok()
	g.stateDue, g.lastState, g.missing = false, now, 0
	g.t.State(st, now)
}

// stateFailed handles a failed state request: a game the site no longer
// knows (404 twice) is over for us.
func (r *ksRun) stateFailed(g *ksGame, err error) {
	if r.failed(err, "state") {
		return
	}
	if ksclient.Status(err) == http.StatusNotFound || ksclient.Status(err) == http.StatusForbidden {
		g.missing++
		if g.missing >= 2 {
			r.d.opt.Log.Warn().Err(err).Str("game", g.ref).Msg("the site no longer knows the game: it is over for us")
			g.t.Vanished("the game vanished from the site (" + ksclient.Code(err) + ")")
		}
		return
	}
	r.d.opt.Log.Warn().Err(err).Str("game", g.ref).Msg("state refused")
	g.stateDue = false
}

// send carries out the driver's actions.
func (r *ksRun) send(ctx context.Context, g *ksGame, acts []driver.Action) {
	d := r.d
	for _, a := range acts {
		switch a.Kind {
		case driver.AcceptDraw:
			// The site has no draw offers.
		case driver.Resign:
			if a.Err != nil {
				d.opt.Log.Error().Err(a.Err).Str("game", g.ref).Msg("the player has no attempt; resigning")
			} else {
				d.opt.Log.Info().Str("game", g.ref).Float64("value", a.Value).Int("moves", g.drv.LowTurns()).Msg("resigning")
			}
			g.resignDue = true
			r.resign(ctx, g)
		case driver.Attempt:
			r.attempt(ctx, g, a)
		}
	}
}

// attempt sends one attempt, or refuses it at once when the site would.
func (r *ksRun) attempt(ctx context.Context, g *ksGame, a driver.Action) {
	d := r.d
	g.lastAttempt = a
	m := a.Move
	if ok, why := g.t.Sendable(m); !ok {
		switch why {
		case "refused before this turn", "not in allowed_moves":
			d.opt.Log.Debug().Str("game", g.ref).Str("move", m.String()).Str("why", why).Msg("attempt refused without asking")
			g.t.Refuse(m)
		default:
			d.opt.Log.Warn().Str("game", g.ref).Str("move", m.String()).Str("why", why).Msg("attempt not sent")
		}
		return
	}
	g.t.Sent(m, d.opt.Now())
	r.post(ctx, g)
}

// post sends the outstanding attempt, now or, when requests are held
// back, once they may go again.
func (r *ksRun) post(ctx context.Context, g *ksGame) {
	d := r.d
	m := g.t.Outstanding()
	if m == chess.NullMove {
		g.postDue = false
		return
	}
	if d.opt.Now().Before(r.hold) {
		g.postDue = true
		return
	}
	g.postDue = false
	res, err := r.c.Move(ctx, g.ref, m.String())
	now := d.opt.Now()
	if err == nil {
		r.ok()
		g.t.Answer(m, res, now)
		return
	}
	g.stateDue = true // the state tells whether the attempt was played
	if r.failed(err, "move") {
		return
	}
	switch ksclient.Code(err) {
	case "NOT_YOUR_TURN", "GAME_NOT_ACTIVE", "GAME_NOT_FOUND":
		d.opt.Log.Warn().Err(err).Str("game", g.ref).Msg("attempt refused by the site: reading the state")
	default:
		if st := ksclient.Status(err); st == http.StatusBadRequest || st == http.StatusUnprocessableEntity {
			// The site cannot take this attempt at all: the player hears it
			// refused, and it is never sent again.
			d.opt.Log.Warn().Err(err).Str("game", g.ref).Str("move", m.String()).Msg("attempt rejected: taken as refused")
			g.t.Unsent()
			g.t.Refuse(m)
		}
	}
}

// resign resigns a game (again after a failure).
func (r *ksRun) resign(ctx context.Context, g *ksGame) {
	if r.d.opt.Now().Before(r.hold) {
		return
	}
	err := r.c.Resign(ctx, g.ref)
	if err == nil {
		r.ok()
		g.resignDue = false
		g.t.Resigned()
		return
	}
	if r.failed(err, "resign") {
		return
	}
	g.resignDue = false // over already, or gone: the state says
	g.stateDue = true
}

// finish closes a game: the player, the record, the score, the console.
func (r *ksRun) finish(g *ksGame, now time.Time) {
	d := r.d
	delete(r.games, g.ref)
	if g.stop != nil {
		g.stop()
	}
	result, _, _ := d.endGame(g, g.code, now)
	if rec := g.drv.Record(); rec != nil {
		if result == "*" {
			rec.Close() // never completed on the site: no transcript to ask for
		} else {
			r.done = append(r.done, &ksDone{ref: g.ref, rec: rec, next: now, guest: g.guest})
		}
	}
}

// transcripts fetches finished games' move lists (only once completed:
// on a live game the site would show the opponent's moves) for the
// record's moves line, the PGN and the opponent's model.
func (r *ksRun) transcripts(ctx context.Context, now time.Time) {
	keep := r.done[:0]
	for _, f := range r.done {
		if now.Before(f.next) || now.Before(r.hold) {
			keep = append(keep, f)
			continue
		}
		if !r.fetchMoves(ctx, f) {
			f.tries++
			f.next = now.Add(time.Duration(f.tries) * 5 * time.Second)
			if f.tries < 5 {
				keep = append(keep, f)
				continue
			}
			r.d.opt.Log.Warn().Str("game", f.ref).Msg("no transcript after 5 tries: the record keeps no moves line")
		}
		f.rec.Close()
	}
	r.done = keep
}

// fetchMoves reads a completed game's transcript into its record; false
// to try again later.
func (r *ksRun) fetchMoves(ctx context.Context, f *ksDone) bool {
	d := r.d
	meta, err := r.c.Game(ctx, f.ref)
	if err != nil {
		r.failed(err, "game")
		return false
	}
	if meta.State != "completed" {
		return false // never the transcript of a live game
	}
	tr, err := r.c.Moves(ctx, f.ref)
	if err != nil {
		r.failed(err, "moves")
		return false
	}
	r.ok()
	sans, err := transcriptSAN(tr)
	if err != nil {
		d.opt.Log.Warn().Err(err).Str("game", f.ref).Msg("transcript not replayable: no PGN")
		return true
	}
	if f.rec.Moves(sans) && !f.guest {
		opp, color := f.rec.Opponent()
		d.learner.learn(opp, color, sans, d.opt.Log)
	}
	return true
}

// transcriptSAN replays a transcript's played moves into SAN.
func transcriptSAN(tr ksclient.Transcript) ([]string, error) {
	pos := chess.StartPosition()
	var sans []string
	for _, m := range tr.Moves {
		if !m.MoveDone || m.UCI == nil || strings.EqualFold(m.QuestionType, "ASK_ANY") {
			continue
		}
		mv, err := chess.ParseUCI(strings.ToLower(*m.UCI))
		if err != nil || !pos.IsLegal(mv) {
			return nil, fmt.Errorf("ply %d: %q is not a legal move", len(sans)+1, *m.UCI)
		}
		sans = append(sans, pos.SAN(mv))
		pos.Make(mv)
	}
	return sans, nil
}

// awaitingMoves reports a finished game whose transcript is still wanted
// (a soft quit waits for it a little).
func (r *ksRun) awaitingMoves(now time.Time) bool {
	for _, f := range r.done {
		if f.tries < 2 {
			return true
		}
	}
	return false
}

// lobby keeps one waiting game of ours open (when we accept games) and
// joins other bots' open games (when we seek), within max_games.
func (r *ksRun) lobby(ctx context.Context, now time.Time) {
	d := r.d
	cfg := d.config()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	if paused {
		return
	}
	p := cfg.Policy
	// policy.games counts finished games, but several play at once here:
	// with the games in progress enough to reach it, no game is sought or
	// offered (and our waiting one goes), or the last ones would overshoot.
	if finished, _, _, _ := d.Score(); p.Games > 0 && finished+len(r.games) >= p.Games {
		if r.waiting != "" {
			r.withdraw(ctx)
		}
		return
	}
	waiting := 0
	if r.waiting != "" {
		waiting = 1
	}
	if p.AcceptChallenges && r.waiting == "" && len(r.games) < p.MaxGames && now.Sub(r.lastMake) >= r.o.CreateEvery {
		r.lastMake = now
		c, err := r.c.Create(ctx)
		switch {
		case err == nil:
			r.ok()
			r.waiting = c.GameID
			d.opt.Log.Info().Str("game", c.GameID).Str("code", c.GameCode).Msg("lobby game created: waiting for an opponent")
			d.liveSeen.status = fmt.Sprintf("waiting for an opponent in lobby game %s (wild 16)", c.GameCode)
			d.opt.Console.say(lineProgress, "%s", d.liveSeen.status)
			waiting = 1
		case ksclient.Code(err) == "BOT_ALREADY_HAS_OPEN_GAME":
			waiting = 1 // the poll will show it
		case !r.failed(err, "create"):
			d.opt.Log.Warn().Err(err).Msg("cannot create a lobby game")
		}
	}
	if !p.Seek || len(r.games)+waiting >= p.MaxGames || now.Sub(r.lastJoin) < r.o.JoinEvery || now.Before(r.hold) {
		return
	}
	r.lastJoin = now
	if r.waiting == "" {
		d.liveSeen.status = "waiting for a game: looking at other bots' open games once a minute"
	}
	open, err := r.c.Open(ctx)
	if err != nil {
		r.failed(err, "open games")
		return
	}
	r.ok()
	for i, o := range open.Games {
		if i >= 3 {
			break // a few profile lookups at most per look
		}
		if o.RuleVariant != "wild16" || strings.EqualFold(o.CreatedBy, r.me) || contains(p.Block, o.CreatedBy) ||
			len(p.Allow) > 0 && !contains(p.Allow, o.CreatedBy) {
			continue
		}
		u, err := r.c.User(ctx, o.CreatedBy)
		if err != nil {
			r.failed(err, "user")
			return
		}
		if !u.IsBot && u.Role != "bot" {
			continue // never a human-created game
		}
		j, err := r.c.Join(ctx, o.GameCode)
		r.lastJoin = d.opt.Now() // the site counts its minute from the join
		if err != nil {
			if !r.failed(err, "join") {
				d.opt.Log.Info().Err(err).Str("code", o.GameCode).Msg("join refused")
			}
			return
		}
		r.ok()
		d.opt.Log.Info().Str("game", j.GameID).Str("code", o.GameCode).Str("opponent", o.CreatedBy).Msg("joined a bot's open game")
		r.lastPoll = time.Time{} // see it at once
		return
	}
}

// withdraw deletes our waiting game (quitting).
func (r *ksRun) withdraw(ctx context.Context) {
	err := r.c.Delete(ctx, r.waiting)
	if err != nil && r.failed(err, "delete") {
		return
	}
	r.d.opt.Log.Info().Str("game", r.waiting).Err(err).Msg("lobby game withdrawn")
	r.waiting = ""
}

// watch reads a game's event stream until ctx ends, reopening it when it
// ends, fails or stalls; every event (and every reopening, since events
// may have been lost) pings the loop.
func (r *ksRun) watch(ctx context.Context, ref string) {
	h := fnv.New64a()
	io.WriteString(h, ref)
	retry := backoff.New(r.o.BackoffMin, min(max(r.o.BackoffMax, r.o.BackoffMin), 30*time.Second),
		rand.New(rand.NewPCG(r.d.opt.Seed, h.Sum64())))
	for ctx.Err() == nil {
		began := time.Now()
		// A stream whose headers do not come within Stall is given up too.
		sctx, cancel := context.WithCancel(ctx)
		stalled := time.AfterFunc(r.o.Stall, func() {
			r.d.opt.Log.Warn().Str("game", ref).Dur("silent", r.o.Stall).Msg("event stream stalled before its first byte: reopening")
			cancel()
		})
		s, err := r.c.Events(sctx, ref)
		stalled.Stop()
		if err == nil {
			r.read(sctx, ref, s)
			s.Close()
			r.ping(ref)
		}
		cancel()
		if err != nil && ksclient.Unauthorized(err) {
			select {
			case r.fatal <- err:
			default:
			}
			return
		}
		retry.Lasted(began, time.Now(), time.Minute)
		delay := retry.Grow()
		if ra := ksclient.RetryAfter(err); ra > delay {
			retry.Raise(ra)
			delay = ra
		}
		t := time.NewTimer(retry.Jitter(delay))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// read pings the loop for each event until the stream ends or stalls.
func (r *ksRun) read(ctx context.Context, ref string, s *ksclient.Stream) {
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	ended := make(chan error, 1)
	go func() {
		for {
			ev, err := s.Next()
			if err != nil {
				ended <- err
				return
			}
			last.Store(time.Now().UnixNano())
			if ev.Comment {
				continue
			}
			if _, err := ksclient.ParseGameEvent(ev.Data); err != nil {
				r.d.opt.Log.Warn().Err(err).Str("game", ref).Msg("event not understood (taken as a ping)")
			}
			r.ping(ref)
			if ev.Type == "shutdown" {
				ended <- io.EOF
				return
			}
		}
	}()
	check := time.NewTicker(max(r.o.Stall/4, 10*time.Millisecond))
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			s.Close()
			<-ended
			return
		case err := <-ended:
			if !errors.Is(err, io.EOF) {
				r.d.opt.Log.Debug().Err(err).Str("game", ref).Msg("event stream ended")
			}
			return
		case <-check.C:
			if time.Since(time.Unix(0, last.Load())) > r.o.Stall {
				r.d.opt.Log.Warn().Str("game", ref).Dur("silent", r.o.Stall).Msg("event stream stalled: reopening")
				s.Close()
				<-ended
				return
			}
		}
	}
}

func (r *ksRun) ping(ref string) {
	select {
	case r.pings <- ref:
	default: // the loop is busy: the poll covers it
	}
}

// showAnswers prints our attempts' answers and the opponent's moves
// (verbose console).
func (r *ksRun) showAnswers(g *ksGame, ev []players.Event) {
	c := r.d.opt.Console
	if c == nil || !c.verbose {
		return
	}
	for _, e := range ev {
		if e.Kind != players.Answer || !e.View.Heard {
			continue
		}
		v := e.View
		words := saidText(v)
		if !v.Own {
			c.say(lineMove, "  %s (hidden): %s", g.code, words)
			continue
		}
		c.say(lineMove, "  %s %s: %s", g.code, v.Move, words)
	}
}

// runBackend runs d on the configured front door: ICC's protocol, or the
// kriegspiel.org API (the site at server.url, or the embedded server's
// HTTP door).
func runBackend(ctx context.Context, d *Daemon, cfg config.Config, token string, srv *server.Server) int {
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
func embeddedHTTPDoor(ctx context.Context, srv *server.Server, cfg config.Config) (string, string, error) {
	door, ok := any(srv).(interface{ ServeAPI(net.Listener) error })
	if srv == nil || !ok {
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
		OwnerEmail: "kriegbot@localhost", Description: "kriegbot on the embedded server", RuleVariants: []string{"wild16"}})
	if err != nil {
		return "", "", fmt.Errorf("registering on the embedded HTTP door: %w", err)
	}
	return url, reg.APIToken, nil
}
