package bot

import (
	"context"
	"hash/fnv"
	"io"
	"net/http"
	"slices"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksclient"
	"kriegbot/record"
	"kriegbot/track"
	"kriegbot/track/ksgame"
)

// One game on the kriegspiel.org API: the side of the game loop
// (gameloop.go) that the site needs: starting a game the poll found,
// reading its state, posting attempts and resignations, finishing it.

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

func (g *ksGame) shared() *seat { return &g.seat }

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
	variant, ok := r.plays(m.RuleVariant)
	if !ok {
		d.opt.Log.Warn().Str("game", ref).Str("variant", m.RuleVariant).Strs("supported", d.config().Server.SupportedRuleVariants).
			Msg("not a variant we play (server.supported_rule_variants): resigning it")
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
	g := &ksGame{r: r, ref: ref, code: m.GameCode, guest: guest, t: ksgame.NewVariantTracker(us, variant, now), moveNumber: m.MoveNumber}
	if g.code == "" {
		g.code = ref
	}
	// A wild 16 game is played under the daemon's rules, as it always was;
	// another variant under the site's (umpire.Site), as the site's
	// referee plays it.
	var rules *umpire.Rules
	if !variant.IsWild16() {
		site := umpire.Site(variant)
		rules = &site
	}
	seed, err := d.startGame(gameStart{us: us, me: d.opt.Name, control: ctl, number: number, opp: opp, learn: !guest, rules: rules,
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
	r.startedIn(variant.Name)
	d.opt.Log.Info().Str("game", ref).Str("code", g.code).Str("opponent", opp).Str("color", us.String()).
		Str("variant", variant.Name).Int("record_game", number).Uint64("seed", seed).Msg("game started")
	d.opt.Console.say(lineProgress, "game %s started: %s (white) vs %s (black), %s rated %s; we play %s", g.code, white, black, ctl,
		variant.Name, us.String())
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

// plays returns the variant the site calls name ("" is wild 16, as an
// older site says nothing), and whether we play it
// (server.supported_rule_variants).
func (r *ksRun) plays(name string) (umpire.Variant, bool) {
	if name == "" {
		name = umpire.Wild16().Name
	}
	v, err := umpire.ParseVariant(name)
	return v, err == nil && slices.Contains(r.d.config().Server.SupportedRuleVariants, v.Name)
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

// attempt sends one attempt, or refuses it at once when the site would;
// the player's "Any?" (chess.NullMove) is asked as such.
func (r *ksRun) attempt(ctx context.Context, g *ksGame, a driver.Action) {
	d := r.d
	g.lastAttempt = a
	m := a.Move
	if m == chess.NullMove && !g.t.Variant().IsWild16() {
		if ok, why := g.t.Sendable(m); !ok {
			d.opt.Log.Warn().Str("game", g.ref).Str("why", why).Msg("\"Any?\" not asked")
			return
		}
		g.t.SentAny(d.opt.Now())
		r.post(ctx, g)
		return
	}
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
	if g.t.Asking() {
		r.askAny(ctx, g)
		return
	}
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
	res, err := r.c.Move(ctx, g.ref, ksclient.AttemptText(m))
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

// askAny asks the outstanding "Any?", now or, when requests are held
// back, once they may go again.
func (r *ksRun) askAny(ctx context.Context, g *ksGame) {
	d := r.d
	if d.opt.Now().Before(r.hold) {
		g.postDue = true
		return
	}
	g.postDue = false
	res, err := r.c.AskAny(ctx, g.ref)
	if err == nil {
		r.ok()
		g.t.AnswerAny(res, d.opt.Now())
		return
	}
	g.stateDue = true // the state tells whether it was answered
	if r.failed(err, "ask-any") {
		return
	}
	switch ksclient.Code(err) {
	case "NOT_YOUR_TURN", "GAME_NOT_ACTIVE", "GAME_NOT_FOUND":
		d.opt.Log.Warn().Err(err).Str("game", g.ref).Msg("\"Any?\" refused by the site: reading the state")
	default:
		// ACTION_NOT_AVAILABLE: the question cannot be asked this turn.
		d.opt.Log.Info().Err(err).Str("game", g.ref).Msg("\"Any?\" not available: the player is told it cannot be asked")
		g.t.Unsent()
		g.t.RefusedAny()
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
