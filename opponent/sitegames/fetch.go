package sitegames

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"kriegbot/internal/backoff"
	"kriegbot/protocol/ksapi"
	"kriegbot/protocol/ksclient"
)

// Source is the site's API as the fetcher uses it (a *ksclient.Client).
type Source interface {
	Bots(ctx context.Context) (ksapi.Bots, error)
	User(ctx context.Context, name string) (ksapi.User, error)
	UserGames(ctx context.Context, name string, page, perPage int) (ksapi.UserGames, error)
	Moves(ctx context.Context, ref string) (ksapi.Transcript, error)
}

// Options steer a fetch.
type Options struct {
	// Users are where the walk starts, beside the site's bots list.
	Users []string
	// Pause is the least time from a reply to the next request (default
	// 1 s), so requests reach the server at least Pause apart.
	Pause time.Duration
	// Humans keeps only games with at least one person playing.
	Humans bool
	// Since skips games played before it (zero: no bound).
	Since time.Time
	// Max stops after this many new games (0: no bound).
	Max int
	// PerPage is the page size asked for (default the site's most, 100).
	PerPage int
	// Retries bounds the tries of one request that fails for a reason
	// worth retrying (default 6); then the item is skipped with a note.
	Retries int
	// BackoffMin and BackoffMax bound the wait after a failure (default
	// 2 s and 5 min); a Retry-After longer than the wait is honoured.
	BackoffMin, BackoffMax time.Duration
	// Note receives one line per notable event (a skipped item, a
	// back-off); Progress one call per stored game.
	Note     func(string)
	Progress func(Progress)
	// Now and Sleep are the clock (defaults: the real ones); Sleep returns
	// ctx's error when it ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Seed seeds the back-off's jitter.
	Seed uint64
}

// Progress is where a fetch stands.
type Progress struct {
	Stored    int // new games stored
	Skipped   int // games passed over (stored already, filtered, broken)
	Requests  int
	UsersDone int
	UsersLeft int // users known and not yet walked
	Elapsed   time.Duration
}

// Summary is what a fetch did.
type Summary struct {
	Progress
	// Stopped says the context ended the walk before it was done.
	Stopped bool
}

// errAuth ends a fetch: retrying with the same token cannot help.
var errAuth = errors.New("the site refused the token")

// fetcher is one walk over the site's users.
type fetcher struct {
	src   Source
	store *Store
	opt   Options
	back  *backoff.Backoff
	last  time.Time // when the last reply came
	start time.Time
	prog  Progress
	queue []string
	seen  map[string]bool
	roles map[string]string // a user's role, from GET /user/{name}
}

// Fetch walks the site's users (the bots list, Options.Users, then every
// opponent met in their archived games), pages through each user's
// archived games, and stores the transcript of every game not stored yet.
// It returns when the walk is done, Max games are stored, or ctx ends (then
// Summary.Stopped is set and the error is nil: what was stored stays).
func Fetch(ctx context.Context, src Source, store *Store, opt Options) (Summary, error) {
	opt.fill()
	f := &fetcher{src: src, store: store, opt: opt, seen: map[string]bool{}, roles: map[string]string{},
		back: backoff.New(opt.BackoffMin, opt.BackoffMax, rand.New(rand.NewPCG(opt.Seed, 0x6b726965)))}
	f.start = opt.Now()
	err := f.walk(ctx)
	f.prog.Elapsed = opt.Now().Sub(f.start)
	sum := Summary{Progress: f.prog}
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		sum.Stopped = true
		return sum, nil
	}
	return sum, err
}

func (o *Options) fill() {
	if o.Pause <= 0 {
		o.Pause = time.Second
	}
	if o.PerPage <= 0 || o.PerPage > ksclient.MaxPerPage {
		o.PerPage = ksclient.MaxPerPage
	}
	if o.Retries <= 0 {
		o.Retries = 6
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = 2 * time.Second
	}
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = max(5*time.Minute, o.BackoffMin)
	}
	if o.Note == nil {
		o.Note = func(string) {}
	}
	if o.Progress == nil {
		o.Progress = func(Progress) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fetcher) enqueue(name string) {
	if name != "" && !f.seen[name] && ksclient.ValidUsername(name) {
		f.seen[name] = true
		f.queue = append(f.queue, name)
	}
}

func (f *fetcher) walk(ctx context.Context) error {
	for _, u := range f.opt.Users {
		f.enqueue(u)
	}
	var bots ksapi.Bots
	err := f.do(ctx, "the bots list", func() (err error) { bots, err = f.src.Bots(ctx); return err })
	if err != nil && !skippable(err) {
		return err
	}
	for _, b := range bots.Bots {
		f.enqueue(b.Username)
		f.roles[b.Username] = "bot"
	}
	if len(f.queue) == 0 {
		return errors.New("no user to start from: the bots list is empty and no user was given")
	}
	for len(f.queue) > 0 {
		name := f.queue[0]
		f.queue = f.queue[1:]
		done, err := f.user(ctx, name)
		f.prog.UsersDone++
		if err != nil || done {
			return err
		}
	}
	return nil
}

// user walks one user's archived games; done says Max is reached.
func (f *fetcher) user(ctx context.Context, name string) (done bool, err error) {
	role, err := f.role(ctx, name)
	if err != nil {
		return false, err
	}
	if role == "" {
		return false, nil // skipped with a note
	}
	for page := 1; ; page++ {
		var g ksapi.UserGames
		err := f.do(ctx, fmt.Sprintf("%s's games, page %d", name, page), func() (err error) {
			g, err = f.src.UserGames(ctx, name, page, f.opt.PerPage)
			return err
		})
		if skippable(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		older := false
		for _, row := range g.Games {
			f.enqueue(row.Opponent)
			if !f.opt.Since.IsZero() {
				if t, ok := playedAt(row.PlayedAt); ok && t.Before(f.opt.Since) {
					older = true // newest first: the rest are older still
					break
				}
			}
			done, err := f.game(ctx, name, role, row)
			if err != nil || done {
				return done, err
			}
		}
		if older || len(g.Games) == 0 || page >= g.Pagination.Pages {
			return false, nil
		}
	}
}

// role is a user's role ("bot", "user", "guest"), fetched once; "" when
// the user is gone (renamed or deleted), with a note.
func (f *fetcher) role(ctx context.Context, name string) (string, error) {
	if r, ok := f.roles[name]; ok {
		return r, nil
	}
	var u ksapi.User
	err := f.do(ctx, "the profile of "+name, func() (err error) { u, err = f.src.User(ctx, name); return err })
	if skippable(err) {
		f.roles[name] = ""
		return "", nil
	}
	if err != nil {
		return "", err
	}
	r := u.Role
	if u.IsBot {
		r = "bot"
	} else if r == "" {
		r = "user"
	}
	f.roles[name] = r
	return r, nil
}

// game stores one archived game unless it is stored, filtered or broken;
// done says Max is reached.
func (f *fetcher) game(ctx context.Context, name, role string, row ksapi.UserGame) (done bool, err error) {
	if f.store.Has(row.GameID) {
		f.prog.Skipped++
		return false, nil
	}
	me := Player{Name: name, Role: role, Bot: role == "bot"}
	them := Player{Name: row.Opponent, Role: row.OpponentRole, Bot: row.OpponentRole == "bot"}
	g := Game{ID: row.GameID, Variant: row.RuleVariant, Reason: row.Reason, PlayedAt: row.PlayedAt, White: me, Black: them}
	if row.PlayAs == "black" {
		g.White, g.Black = them, me
	}
	g.Result = result(row.Result, row.PlayAs)
	if f.opt.Humans && !g.HasHuman() {
		f.prog.Skipped++
		return false, nil
	}
	if !ksapi.IsRuleVariant(row.RuleVariant) {
		f.opt.Note(fmt.Sprintf("game %s: unknown rule variant %q, skipped", row.GameID, row.RuleVariant))
		f.prog.Skipped++
		return false, nil
	}
	var tr ksapi.Transcript
	err = f.do(ctx, "the transcript of game "+row.GameID, func() (err error) { tr, err = f.src.Moves(ctx, row.GameID); return err })
	if skippable(err) {
		f.prog.Skipped++
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch {
	case tr.GameID != "" && tr.GameID != row.GameID:
		f.opt.Note(fmt.Sprintf("game %s: the transcript is of game %s, skipped", row.GameID, tr.GameID))
		f.prog.Skipped++
		return false, nil
	case tr.RuleVariant != row.RuleVariant:
		f.opt.Note(fmt.Sprintf("game %s: listed as %q, its transcript says %q, skipped", row.GameID, row.RuleVariant, tr.RuleVariant))
		f.prog.Skipped++
		return false, nil
	case len(tr.Moves) == 0:
		f.opt.Note(fmt.Sprintf("game %s: an empty transcript, skipped", row.GameID))
		f.prog.Skipped++
		return false, nil
	}
	g.Moves = tr.Moves
	if err := f.store.Add(g); err != nil {
		return false, err
	}
	f.prog.Stored++
	f.prog.UsersLeft = len(f.queue)
	f.prog.Elapsed = f.opt.Now().Sub(f.start)
	f.opt.Progress(f.prog)
	return f.opt.Max > 0 && f.prog.Stored >= f.opt.Max, nil
}

// playedAt reads a game's date as the site writes it: RFC 3339, or
// Python's isoformat without a zone (UTC).
func playedAt(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// result turns a user's win, loss or draw as a colour into the game's.
func result(r, playAs string) string {
	switch {
	case r == "draw":
		return "1/2-1/2"
	case (r == "win") == (playAs == "white") && (r == "win" || r == "loss"):
		return "1-0"
	case r == "win" || r == "loss":
		return "0-1"
	}
	return "*"
}

// skipError marks an item given up on (gone, or failing past the
// retries); the walk goes on without it.
type skipError struct{ error }

func skippable(err error) bool {
	var s skipError
	return errors.As(err, &s)
}

// do makes one request politely: it waits out the pause since the last
// request, and retries what is worth retrying with a growing back-off that
// honours Retry-After. An item that is gone (404, 410) or keeps failing is
// noted and skipped; a refused token ends the walk.
func (f *fetcher) do(ctx context.Context, what string, call func() error) error {
	for try := 1; ; try++ {
		if wait := f.opt.Pause - f.opt.Now().Sub(f.last); !f.last.IsZero() && wait > 0 {
			if err := f.opt.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		f.prog.Requests++
		err := call()
		// The pause runs from the reply, not from the request: a request
		// slow to reach the server must not bring the next one closer to
		// it there.
		f.last = f.opt.Now()
		switch {
		case err == nil:
			f.back.Reset()
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case ksclient.Unauthorized(err):
			return fmt.Errorf("%s: %w (%v)", what, errAuth, err)
		case ksclient.Status(err) == 404 || ksclient.Status(err) == 410:
			f.opt.Note(fmt.Sprintf("%s: gone (%v), skipped", what, err))
			return skipError{err}
		case !ksclient.Retryable(err) || try >= f.opt.Retries:
			f.opt.Note(fmt.Sprintf("%s: %v, skipped after %d tries", what, err, try))
			return skipError{err}
		}
		d := max(f.back.Next(), ksclient.RetryAfter(err))
		f.opt.Note(fmt.Sprintf("%s: %v; try %d of %d in %s", what, err, try+1, f.opt.Retries, d.Round(time.Second)))
		if err := f.opt.Sleep(ctx, d); err != nil {
			return err
		}
	}
}
