package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksclient"
	"kriegbot/record"
)

// The kriegspiel.org lobby: the poll of our games, our waiting lobby game,
// other bots' open games joined, and the transcripts of finished games.

// ksDone is a finished game waiting for its transcript (moves and PGN).
type ksDone struct {
	guest bool
	ref   string
	rec   *record.Writer
	tries int
	next  time.Time
}

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
				if r.wait.ref != ref { // one of an earlier run: it waits from now
					r.wait = lobbyWait{ref: ref, since: now, variant: variantOf(m.RuleVariant)}
				}
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
	// A game with drops (crazykrieg) is no chess move list: the
	// opponent's model does not learn from it.
	v, _ := umpire.ParseVariant(tr.RuleVariant)
	if f.rec.Moves(sans) && !f.guest && !v.Drops {
		opp, color := f.rec.Opponent()
		d.learner.learn(opp, color, sans, d.opt.Log)
	}
	return true
}

// transcriptSAN replays a transcript's played moves into SAN; a drop
// (crazykrieg) is spelt "N@e4", and the game is replayed by the umpire,
// which keeps the pockets.
func transcriptSAN(tr ksclient.Transcript) ([]string, error) {
	if v, err := umpire.ParseVariant(tr.RuleVariant); err == nil && v.Drops {
		return dropsSAN(tr, v)
	}
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

// dropsSAN is transcriptSAN for a variant with drops.
func dropsSAN(tr ksclient.Transcript, v umpire.Variant) ([]string, error) {
	u := umpire.New(umpire.Site(v))
	var sans []string
	for _, m := range tr.Moves {
		if !m.MoveDone || m.UCI == nil || strings.EqualFold(m.QuestionType, "ASK_ANY") {
			continue
		}
		mv, err := ksclient.ParseAttempt(*m.UCI)
		pos := u.Position()
		if err == nil {
			var a umpire.Answer
			if a, err = u.Attempt(mv); err == nil && !a.Legal {
				err = errors.New("refused")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("ply %d: %q is not a legal move", len(sans)+1, *m.UCI)
		}
		sans = append(sans, record.SAN(&pos, mv))
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
// joins other bots' open games (when we seek), within max_games. It
// spreads the games over the variants we play: a join takes the open game
// in the variant we have played least, and "rotate" creates in the
// variant played least, withdrawing a lobby game nobody takes.
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
	// A rotated lobby game nobody took goes, and its variant rests: the
	// next one is offered.
	if cfg.Server.CreateRuleVariant == "rotate" && r.untaken(now) {
		v := r.wait.variant
		if r.withdraw(ctx) {
			r.rest(v, now)
		}
	}
	waiting := 0
	if r.waiting != "" {
		waiting = 1
	}
	if p.AcceptChallenges && r.waiting == "" && len(r.games) < p.MaxGames && now.Sub(r.lastMake) >= r.o.CreateEvery {
		r.lastMake = now
		variant := r.createVariant(now)
		c, err := r.c.Create(ctx, variant)
		switch {
		case err == nil:
			r.ok()
			r.created++
			r.waiting = c.GameID
			r.wait = lobbyWait{ref: c.GameID, since: now, variant: variant}
			d.opt.Log.Info().Str("game", c.GameID).Str("code", c.GameCode).Str("variant", variant).Msg("lobby game created: waiting for an opponent")
			d.liveSeen.status = fmt.Sprintf("waiting for an opponent in lobby game %s (%s)", c.GameCode, variant)
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
	var mayJoin []ksclient.OpenGame
	for _, o := range open.Games {
		if _, ok := r.plays(o.RuleVariant); ok && o.RuleVariant != "" && !strings.EqualFold(o.CreatedBy, r.me) && !contains(p.Block, o.CreatedBy) &&
			(len(p.Allow) == 0 || contains(p.Allow, o.CreatedBy)) {
			mayJoin = append(mayJoin, o)
		}
	}
	lookups := 0
	for _, o := range spreadJoins(mayJoin, r.played) {
		name := strings.ToLower(o.CreatedBy)
		bot, known := r.isBot[name]
		if !known {
			if lookups == 3 {
				break // a few profile lookups at most per look
			}
			lookups++
			u, err := r.c.User(ctx, o.CreatedBy)
			if err != nil {
				r.failed(err, "user")
				return
			}
			bot = u.IsBot || u.Role == "bot"
			if len(r.isBot) >= 1000 {
				clear(r.isBot)
			}
			r.isBot[name] = bot // a bot stays one, a user one
		}
		if !bot {
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
		d.opt.Log.Info().Str("game", j.GameID).Str("code", o.GameCode).Str("opponent", o.CreatedBy).Str("variant", o.RuleVariant).
			Msg("joined a bot's open game")
		r.lastPoll = time.Time{} // see it at once
		return
	}
}

// untaken reports our waiting lobby game as one nobody takes: it has
// waited RotateAfter in a variant with no game started this run. A
// variant that has had games has players, busy for now: its game waits
// on (as a lobby game of a variant named by server.create_rule_variant
// does), or rotating would rest the very variants played and offer the
// one nobody plays instead.
func (r *ksRun) untaken(now time.Time) bool {
	w := r.wait
	return r.waiting != "" && w.ref == r.waiting && w.variant != "" && r.played[w.variant] == 0 && now.Sub(w.since) >= r.o.RotateAfter
}

// lobbyWait is our waiting lobby game: since when it waits, and in which
// variant ("" when unknown).
type lobbyWait struct {
	ref     string
	since   time.Time
	variant string
}

// spreadJoins orders the open games we may join: the variants we have
// played least (played, games started by variant) first, and within one
// variant the site's order (newest first).
func spreadJoins(open []ksclient.OpenGame, played map[string]int) []ksclient.OpenGame {
	out := slices.Clone(open)
	slices.SortStableFunc(out, func(a, b ksclient.OpenGame) int {
		return played[variantOf(a.RuleVariant)] - played[variantOf(b.RuleVariant)]
	})
	return out
}

// variantOf is the variant the site calls name, by our name for it.
func variantOf(name string) string {
	if v, err := umpire.ParseVariant(name); err == nil {
		return v.Name
	}
	return name
}

// createVariant is the variant of the next lobby game we create
// (server.create_rule_variant): the one named, or with "rotate" the one
// spreadVariant picks, so that the players of every variant we play find
// a game of ours and our games spread over them.
func (r *ksRun) createVariant(now time.Time) string {
	s := r.d.config().Server
	if s.CreateRuleVariant != "rotate" || len(s.SupportedRuleVariants) == 0 {
		return s.CreateRuleVariant
	}
	return spreadVariant(s.SupportedRuleVariants, r.played, r.rested, r.created, now)
}

// spreadVariant picks among variants the one not resting (rested: until
// when) that has the fewest games played, the first from the offset-th
// on a tie (each in turn); when all rest, the one whose rest ends first.
func spreadVariant(variants []string, played map[string]int, rested map[string]time.Time, offset int, now time.Time) string {
	best, soonest := "", ""
	for i := range variants {
		v := variants[(offset+i)%len(variants)]
		if now.Before(rested[v]) {
			if soonest == "" || rested[v].Before(rested[soonest]) {
				soonest = v
			}
			continue
		}
		if best == "" || played[v] < played[best] {
			best = v
		}
	}
	if best == "" {
		return soonest
	}
	return best
}

// rest keeps variant v out of the rotation for a while after a lobby game
// of it went untaken: four times RotateAfter, doubled for each one
// untaken in a row before it, up to an hour.
func (r *ksRun) rest(v string, now time.Time) {
	r.misses[v]++
	d := min(4*r.o.RotateAfter<<min(r.misses[v]-1, 10), time.Hour)
	r.rested[v] = now.Add(d)
	r.d.opt.Log.Info().Str("variant", v).Int("untaken", r.misses[v]).Stringer("rest", d).
		Msg("nobody took our lobby game: the variant rests, the next is offered")
}

// startedIn notes a game started in variant v: one more played, and v
// has players (it rests no more).
func (r *ksRun) startedIn(v string) {
	r.played[v]++
	delete(r.misses, v)
	delete(r.rested, v)
}

// withdraw deletes our waiting game (quitting, or a rotated game nobody
// took); true when it went.
func (r *ksRun) withdraw(ctx context.Context) bool {
	err := r.c.Delete(ctx, r.waiting)
	if err != nil && r.failed(err, "delete") {
		return false
	}
	r.d.opt.Log.Info().Str("game", r.waiting).Err(err).Msg("lobby game withdrawn")
	r.waiting = ""
	return err == nil
}
