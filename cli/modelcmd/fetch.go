package modelcmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"kriegbot/config"
	"kriegbot/internal/cmdflag"
	"kriegbot/opponent/sitegames"
	"kriegbot/protocol/ksclient"
)

// fetch runs `kriegbot model fetch`. Exit status: 0 done or stopped by a
// signal (what was stored stays), 1 the site refused or failed, 2 usage.
func fetch(args []string, stdout, stderr io.Writer) int {
	return fetchWith(args, stdout, stderr, os.Getenv, nil)
}

// usersFlag collects -user, which may be given several times.
type usersFlag []string

func (u *usersFlag) String() string { return strings.Join(*u, ",") }
func (u *usersFlag) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		if !ksclient.ValidUsername(name) {
			return fmt.Errorf("username %q: want 1-33 letters, digits or _", name)
		}
		*u = append(*u, name)
	}
	return nil
}

// fetchWith is fetch with its environment and, for tests, the context that
// stands for Ctrl-C (nil: the process's signals).
func fetchWith(args []string, stdout, stderr io.Writer, getenv func(string) string, ctx context.Context) int {
	fset := flag.NewFlagSet("model fetch", flag.ContinueOnError)
	path := fset.String("config", "config.toml", "configuration file: server.url and the account's token come from it (built-in defaults when the default file is missing)")
	urlFlag := fset.String("url", "", "the API's base URL (default: server.url)")
	dir := fset.String("dir", "data/games", "the folder of fetched games, one JSON Lines file per rule variant")
	pause := fset.Duration("pause", time.Second, "the least time between two requests")
	humans := fset.Bool("humans", false, "keep only games with at least one person playing")
	since := fset.String("since", "", "skip games played before this date (YYYY-MM-DD)")
	most := fset.Int("max", 0, "stop after this many new games (0: no bound)")
	var users usersFlag
	fset.Var(&users, "user", "also start the walk from this user (repeat or comma-separate)")
	cmdflag.SetUsage(fset, "model fetch [-config FILE] [-url URL] [-dir DIR] [-pause D] [-humans] [-since DATE] [-max N] [-user NAME]",
		`Fetches finished games from kriegspiel.org with the bot's token, for building
opponent models from the people the bot meets (docs/opponent-model.md). It
walks the site's bots, the users given, then every opponent met in their
archived games, and stores each game's transcript once, one file per rule
variant under -dir. It is polite: one request at a time, -pause between
requests, and a growing back-off on 429 and 503 that honours Retry-After.
Ctrl-C stops it cleanly; run it again to go on where it stopped (no game is
fetched twice).
`)
	if code, done := cmdflag.Parse(fset, args, stderr); done {
		return code
	}
	if fset.NArg() > 0 {
		return cmdflag.Fail(stderr, "model fetch", "unexpected argument %q", fset.Arg(0))
	}
	var from time.Time
	if *since != "" {
		t, err := time.Parse("2006-01-02", *since)
		if err != nil {
			return cmdflag.Fail(stderr, "model fetch", "-since %q: want a date as YYYY-MM-DD", *since)
		}
		from = t
	}
	switch {
	case *pause < 100*time.Millisecond:
		return cmdflag.Fail(stderr, "model fetch", "-pause %s: at least 100ms, to stay a polite guest", *pause)
	case *most < 0:
		return cmdflag.Fail(stderr, "model fetch", "-max %d: want 0 or more", *most)
	}
	cfg, _, err := config.LoadOrDefaults(*path, cmdflag.IsSet(fset, "config"))
	if err != nil {
		return cmdflag.Fail(stderr, "model fetch", "%v", err)
	}
	base := *urlFlag
	if base == "" {
		base = cfg.Server.URL
	}
	token, source, err := config.Token(cfg, getenv)
	if err != nil {
		return cmdflag.Fail(stderr, "model fetch", "the bot's token: %v", err)
	}
	client, err := ksclient.New(ksclient.Config{URL: base, Token: token, UserAgent: "kriegbot-model-fetch", Rate: 1 / pause.Seconds()})
	if err != nil {
		return cmdflag.Fail(stderr, "model fetch", "%v", err)
	}
	store, warnings, err := sitegames.Open(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot model fetch: %v\n", err)
		return 1
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "kriegbot model fetch: %s\n", w)
	}
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	fmt.Fprintf(stderr, "fetching from %s (token from %s) into %s, which holds %d games; a request every %s at most\n",
		base, source, *dir, store.Len(), *pause)
	show := progressLine(stderr, *most)
	sum, err := sitegames.Fetch(ctx, client, store, sitegames.Options{
		Users: users, Pause: *pause, Humans: *humans, Since: from, Max: *most,
		Note:     func(s string) { show.clear(); fmt.Fprintf(stderr, "kriegbot model fetch: %s\n", s) },
		Progress: show.update,
	})
	show.clear()
	fmt.Fprintf(stdout, "%d new games stored, %d passed over, %d requests, %d users walked in %s; %s holds %d games (%s)\n",
		sum.Stored, sum.Skipped, sum.Requests, sum.UsersDone, sum.Elapsed.Round(time.Second), *dir, store.Len(), strings.Join(store.Counts(), ", "))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "kriegbot model fetch: %s\n", ksclient.Mask(err.Error(), token))
		return 1
	case sum.Stopped:
		fmt.Fprintln(stdout, "stopped; run the same command again to go on where it stopped")
	}
	return 0
}

// progress writes where a fetch stands: one line rewritten in place on a
// terminal, a line every 25 games when piped.
type progress struct {
	w     io.Writer
	tty   bool
	max   int
	shown bool
}

func progressLine(w io.Writer, max int) *progress {
	return &progress{w: w, tty: cmdflag.IsTerminal(w), max: max}
}

func (p *progress) update(pr sitegames.Progress) {
	if !p.tty && pr.Stored%25 != 0 {
		return
	}
	rate := float64(pr.Stored) / max(pr.Elapsed.Seconds(), 1e-3)
	left := fmt.Sprintf("%d users to walk", pr.UsersLeft)
	if p.max > 0 && rate > 0 {
		left = "about " + time.Duration(float64(p.max-pr.Stored)/rate*float64(time.Second)).Round(time.Second).String() + " left"
	}
	line := fmt.Sprintf("%d games stored, %.2f games/s, %d requests, %d users walked, %s", pr.Stored, rate, pr.Requests, pr.UsersDone, left)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, line)
}

// clear ends a line rewritten in place, so the next line starts clean.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
