package tourneycmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/bot"
	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/cmdflag"
	"kriegbot/protocol/handle"
	"kriegbot/server"
	"kriegbot/server/td"
	"kriegbot/server/tddoor"
	"kriegbot/server/telnetdoor"
	"kriegbot/server/timecontrol"
	"kriegbot/tourney"
)

// options are the command's settings, from its flags.
type options struct {
	players  []entrant
	system   string
	rounds   int
	minutes  int
	inc      int
	style    string
	rules    string
	addr     string
	wait     time.Duration
	absent   time.Duration
	out      string
	name     string
	seed     uint64
	timeout  time.Duration
	verbose  bool
	progress time.Duration // how often the TD's state is read
	// resume goes on with the event in out, set up by its settings file.
	resume bool
}

// tdHandle is the server's tournament director (the server's default).
const tdHandle = "TD"

// entrant is one of our players: its handle on the server and its engine.
type entrant struct {
	handle string
	spec   players.Spec
}

// Command runs "kriegbot tourney".
func Command(args []string, stdout, stderr io.Writer) int {
	opt, code, done := parseFlags(args, stderr)
	if done {
		return code
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	end, err := run(context.Background(), opt, stdout, stderr, sig)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "kriegbot tourney: %v\n", err)
		return cmdflag.Failure
	case end == endCut:
		return bot.ExitAbandoned
	}
	return cmdflag.OK
}

func parseFlags(args []string, stderr io.Writer) (options, int, bool) {
	fs := flag.NewFlagSet("tourney", flag.ContinueOnError)
	list := fs.String("players", "", "the players, comma-separated engine specs, e.g. \"mcts,mcts:approach=a,heuristic,random\"; an entry NAME=SPEC names the account")
	system := fs.String("format", "swiss", "swiss, rr (round robin) or drr (double round robin)")
	rounds := fs.Int("rounds", 0, "Swiss rounds (0: enough for a clear winner, at least 3; a round robin has its own)")
	tc := fs.String("tc", "1+1", "time control of every game: minutes + increment in seconds, e.g. 1+1 or 2+12, or with units (1m+1s); kriegbot match -tc reads it the same")
	style := fs.String("style", "icc", "how the TD announces pairings: icc (DG 63 and the tourney-set line) or fics (mamer's lines)")
	rules := fs.String("rules", "olympiad", "referee rules: icc, olympiad (automatic draws by the 50-move rule and repetition) or ks (kriegspiel.org's: a draw after 2,000 half-moves without capture or pawn move); or a variant of kriegspiel.org other than wild 16 (berkeley, berkeley_any, cincinnati, english, rand, crazykrieg), played in-process under the site's rules, each game as kriegbot match plays it")
	addr := fs.String("addr", "127.0.0.1:0", "the server's address; give a fixed port (and -wait) to let outside ICC-protocol bots join by \"tell TD join 1\"")
	wait := fs.Duration("wait", 0, "wait this long for outside entrants before the start (0: start once our players have joined)")
	absent := fs.Duration("absent", 2*time.Minute, "time a paired player has to start its game before losing by forfeit")
	out := fs.String("out", "", "folder for the event's PGN, crosstable (text and HTML), records and logs (default tourney-DATE-TIME)")
	name := fs.String("name", "KO1", "the event's name (its PGN Event tag)")
	seed := fs.Uint64("seed", 0, "base seed of the players (0: random; logged, so the games replay)")
	timeout := fs.Duration("timeout", 0, "give up after this long (0: a bound from the rounds and the time control)")
	verbose := fs.Bool("v", false, "daemon and server logs on standard error, as well as in the folder")
	resume := fs.String("resume", "", "go on with the event adjourned (Ctrl-C) or cut short in this folder, with its players, seeds and settings; only -v and -timeout go with it")
	cmdflag.SetUsage(fs, "tourney -players SPEC,SPEC,... [flags]\n       kriegbot tourney -resume DIR [-v] [-timeout D]",
		`Plays a computer olympiad on loopback: kriegbot serve with its TD, one daemon per player;
prints each pairing and result, then the crosstable; writes PGN and HTML.
Ctrl-C finishes the games in progress and adjourns the event; a second Ctrl-C adjourns
it at once (those games are played again). -resume DIR goes on with it. Exit status:
0 the event done or adjourned, 1 a failure, 2 bad usage, 3 adjourned by a second Ctrl-C
with games in progress.
With -rules naming a variant of kriegspiel.org other than wild 16 (berkeley_any ...),
the event is played in-process, each game as kriegbot match plays it, since the
server's telnet door plays wild 16 only: tourney.pgn, tourney.txt and .html and each
side's records under -out; Ctrl-C stops it (no -resume, no -wait).
example: kriegbot tourney -players "mcts,mcts:approach=a,heuristic,random" -format swiss -rounds 3 -tc 1+1
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return options{}, code, true
	}
	if fs.NArg() > 0 {
		return options{}, cmdflag.Fail(stderr, "tourney", "unexpected argument %q", fs.Arg(0)), true
	}
	if *resume != "" {
		var others []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "resume" && f.Name != "v" && f.Name != "timeout" {
				others = append(others, "-"+f.Name)
			}
		})
		if len(others) > 0 {
			return options{}, cmdflag.Fail(stderr, "tourney", "-resume takes the event's settings from %s: %s cannot change them", *resume, strings.Join(others, ", ")), true
		}
		if *timeout < 0 {
			return options{}, cmdflag.Fail(stderr, "tourney", "-timeout must not be negative"), true
		}
		return options{out: *resume, resume: true, verbose: *verbose, timeout: *timeout, progress: 300 * time.Millisecond}, 0, false
	}
	opt := options{system: *system, rounds: *rounds, style: *style, rules: *rules, addr: *addr, wait: *wait,
		absent: *absent, out: *out, name: *name, seed: *seed, timeout: *timeout, verbose: *verbose, progress: 300 * time.Millisecond}
	var err error
	if opt.players, err = parsePlayers(*list); err != nil {
		return options{}, cmdflag.Fail(stderr, "tourney", "-players: %v", err), true
	}
	if opt.minutes, opt.inc, err = timecontrol.Parse(*tc); err != nil {
		return options{}, cmdflag.Fail(stderr, "tourney", "-tc: %v", err), true
	}
	if _, err := umpire.ParseRules(opt.rules); err != nil {
		if _, ok := variantOf(opt.rules); !ok {
			return options{}, cmdflag.Fail(stderr, "tourney", "-rules: %v (or a variant of kriegspiel.org: %s)", err, strings.Join(umpire.VariantNames(), ", ")), true
		}
		if opt.wait > 0 {
			return options{}, cmdflag.Fail(stderr, "tourney", "-wait: outside players join over the telnet door, which plays wild 16 only; a %s event is played in-process", opt.rules), true
		}
	}
	if host, _, err := net.SplitHostPort(opt.addr); err != nil {
		return options{}, cmdflag.Fail(stderr, "tourney", "-addr %q: %v", opt.addr, err), true
	} else if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		// The players' accounts have throw-away passwords, but the server
		// also takes guests: it stays on this machine.
		return options{}, cmdflag.Fail(stderr, "tourney", "-addr %q: want a loopback address", opt.addr), true
	}
	if opt.wait < 0 || opt.absent <= 0 || opt.timeout < 0 || opt.rounds < 0 || opt.rounds > 99 {
		return options{}, cmdflag.Fail(stderr, "tourney", "-wait, -timeout and -rounds must not be negative, -absent must be positive, -rounds at most 99"), true
	}
	if opt.system != "swiss" && opt.system != "rr" && opt.system != "drr" {
		return options{}, cmdflag.Fail(stderr, "tourney", "-format %q: want swiss, rr or drr", opt.system), true
	}
	if opt.rounds != 0 && opt.system != "swiss" {
		// A round robin has its own rounds: say so rather than play
		// another number than asked.
		return options{}, cmdflag.Fail(stderr, "tourney", "-rounds %d: a round robin has its own rounds (n-1, twice in a drr); -rounds is for -format swiss", opt.rounds), true
	}
	if opt.rounds == 0 && opt.wait > 0 && opt.system == "swiss" {
		// The default length follows the field, which outside entrants
		// change after the rounds are fixed.
		return options{}, cmdflag.Fail(stderr, "tourney", "-wait lets outside players enter: give -rounds too (the default follows the field size, not known in advance)"), true
	}
	if opt.rounds == 0 {
		opt.rounds = defaultRounds(len(opt.players))
	}
	if _, err := td.ParseEventSpec(opt.eventSpec(), opt.style); err != nil {
		return options{}, cmdflag.Fail(stderr, "tourney", "%v", err), true
	}
	return opt, 0, false
}

// defaultRounds is a Swiss length that can tell a winner: ceil(log2 n),
// at least 3, and never more than a round robin.
func defaultRounds(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return max(min(max(r, 3), n-1+n%2), 1)
}

// parsePlayers reads the -players list. Specs have their own comma-
// separated options ("mcts:mem=2,threads=2"), so an item holding "=" but
// no ":" continues the previous spec unless it is NAME=SPEC with a known
// kind after the "=". Handles are the name given, or the spec's kind
// with the values of its options ("mcts-a"), made unique with a number.
func parsePlayers(list string) ([]entrant, error) {
	kinds := players.Kinds()
	isKind := func(s string) bool {
		k, _, _ := strings.Cut(s, ":")
		for _, kd := range kinds {
			if kd.Name == k {
				return true
			}
		}
		return false
	}
	type item struct{ name, spec string }
	var items []item
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		if n, s, ok := strings.Cut(w, "="); ok && !strings.Contains(n, ":") && isKind(s) {
			items = append(items, item{n, s})
			continue
		}
		if strings.Contains(w, "=") && !strings.Contains(w, ":") && len(items) > 0 {
			items[len(items)-1].spec += "," + w
			continue
		}
		items = append(items, item{"", w})
	}
	if len(items) < 2 {
		return nil, errors.New("want at least two players")
	}
	if len(items) > 16 {
		return nil, errors.New("at most 16 players (each is a daemon searching on this machine)")
	}
	used := map[string]bool{}
	var out []entrant
	for _, it := range items {
		sp, err := players.Parse(it.spec, kinds)
		if err != nil {
			return nil, err
		}
		h := it.name
		if h != "" {
			if !handle.Valid(h) || used[strings.ToLower(h)] {
				return nil, fmt.Errorf("name %q: want %s, not used twice", h, handle.Syntax)
			}
			if strings.EqualFold(h, tdHandle) {
				return nil, fmt.Errorf("name %q is the tournament director's handle", h)
			}
		} else {
			h = autoHandle(sp, used)
		}
		used[strings.ToLower(h)] = true
		out = append(out, entrant{handle: h, spec: sp})
	}
	return out, nil
}

// autoHandle names a player after its spec: the kind, then each option's
// value ("mcts:approach=a" is "mcts-a"), cut to a valid handle and made
// unique with a number.
func autoHandle(sp players.Spec, used map[string]bool) string {
	h := sp.Kind()
	for _, o := range sp.Options() {
		h += "-" + o.Value
	}
	h = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, h)
	if len(h) > 16 {
		h = h[:16]
	}
	base := h
	for i := 2; used[strings.ToLower(h)]; i++ {
		h = base + strconv.Itoa(i)
	}
	return h
}

// eventSpec is the TD's event, in the text form serve's -tourney takes.
func (o options) eventSpec() string {
	start := strconv.Itoa(len(o.players))
	if o.wait > 0 {
		start = o.wait.String()
	}
	return fmt.Sprintf("name=%s system=%s rounds=%d tc=%d+%d style=%s start=%s", o.name, o.system, o.rounds, o.minutes, o.inc, o.style, start)
}

// bound is how long the whole event may take: every round's game at its
// longest (both clocks spent over a game that reaches the ply cap), the
// waits, and a margin.
func (o options) bound() time.Duration {
	if o.timeout > 0 {
		return o.timeout
	}
	perGame := o.longestGame()
	rounds := o.rounds
	if o.system != "swiss" {
		rounds = len(o.players) + len(o.players)%2
		if o.system == "drr" {
			rounds *= 2
		}
	}
	return o.wait + time.Duration(rounds)*(perGame+o.absent) + 2*time.Minute
}

// How an event run by the command ended.
type ending int

const (
	endDone      ending = iota // every round played (or the event aborted)
	endAdjourned               // stopped between rounds (Ctrl-C): -resume goes on
	endCut                     // stopped at once (a second Ctrl-C): the round's games in progress are played again on -resume
)

// run plays the event, or goes on with the one in opt.out (opt.resume).
// Each value on interrupts is a Ctrl-C: the first finishes the round's
// games in progress and adjourns the event, the second adjourns it at once.
func run(ctx context.Context, opt options, stdout, stderr io.Writer, interrupts <-chan os.Signal) (ending, error) {
	if v, ok := variantOf(opt.rules); ok && !opt.resume {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-interrupts:
				cancel()
			case <-ctx.Done():
			}
		}()
		return endDone, runVariant(ctx, opt, v, stdout)
	}
	began := time.Now()
	if opt.out == "" {
		opt.out = "tourney-" + began.Format("20060102-150405")
	}
	if err := prepareFolder(&opt); err != nil {
		return endDone, err
	}
	logFile, err := os.OpenFile(filepath.Join(opt.out, "tourney.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return endDone, err
	}
	defer logFile.Close()
	var logOut io.Writer = logFile
	if opt.verbose {
		logOut = io.MultiWriter(logFile, zerolog.ConsoleWriter{Out: stderr, TimeFormat: "15:04:05"})
	}
	log := zerolog.New(logOut).With().Timestamp().Logger()
	log.Info().Uint64("seed", opt.seed).Str("event", opt.eventSpec()).Bool("resume", opt.resume).Msg("kriegbot tourney starting")

	srv, director, addr, passwords, err := startServer(opt, log)
	if err != nil {
		return endDone, err
	}
	defer srv.Close()
	verb := "files in"
	if opt.resume {
		verb = "going on with the event in"
	}
	fmt.Fprintf(stdout, "kriegbot tourney: %s, %d players, %s at %d+%d (%s rules), TD on %s; %s %s\n",
		opt.name, len(opt.players), systemName(opt), opt.minutes, opt.inc, opt.rules, addr, verb, opt.out)
	for _, e := range opt.players {
		fmt.Fprintf(stdout, "  %-16s %s\n", e.handle, e.spec)
	}
	fmt.Fprintf(stdout, "a round lasts as long as its longest game, at most %s (the %d-ply cap); Ctrl-C finishes the round's games and adjourns the event (twice: at once), -resume %s goes on\n",
		opt.longestGame().Round(time.Second), opt.maxPlies(), opt.out)

	daemons := make([]*bot.Daemon, len(opt.players))
	var wg sync.WaitGroup
	dctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rules, err := opt.serverRules()
	if err != nil {
		return endDone, err
	}
	for i, e := range opt.players {
		cfg, err := daemonConfig(opt, e, addr)
		if err != nil {
			return endDone, err
		}
		d := bot.New(cfg, bot.Options{Name: e.handle, Password: passwords[e.handle], Addr: addr, Spec: e.spec, Rules: &rules,
			Log: log.With().Str("bot", e.handle).Logger(), Dir: cfg.Logs.Dir, Seed: opt.seed ^ (uint64(i+1) * 0x9e3779b97f4a7c15)})
		daemons[i] = d
		wg.Add(1)
		go func() { defer wg.Done(); d.Run(dctx) }()
	}
	// However the event ends, the daemons leave: soft (after their game)
	// first, then at once.
	defer func() {
		for _, d := range daemons {
			d.SoftQuit()
		}
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			for _, d := range daemons {
				d.HardQuit()
			}
			cancel()
			<-finished
		}
	}()

	wctx, wcancel := context.WithTimeout(ctx, opt.bound())
	defer wcancel()
	path := td.EventFile(opt.out, 1, "json")
	state, end, err := watch(wctx, path, opt.progress, newProgress(stdout), interrupts, stopper{
		adjourn: func() {
			fmt.Fprintf(stdout, "kriegbot tourney: finishing the games in progress, then adjourning the event (Ctrl-C again to adjourn them now: they are played again on -resume)\n")
			director.Adjourn()
		},
		playing: func() int { n, _ := srv.GameCount(); return n },
		cut: func() {
			fmt.Fprintf(stdout, "kriegbot tourney: adjourning now; the games in progress are played again on -resume\n")
			director.Adjourn()
			srv.Close() // the games in progress end aborted; their pairings stand
			for _, d := range daemons {
				d.HardQuit()
			}
		},
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return endDone, fmt.Errorf("the event did not end within %s (see %s)", opt.bound().Round(time.Second), filepath.Join(opt.out, "tourney.log"))
		}
		return endDone, err
	}
	if end != endDone {
		// The server writes the event as it stops: read it back for the
		// tables.
		srv.Close()
		if st, ok, err := readState(path); err == nil && ok {
			state = st
		}
	}
	fmt.Fprintln(stdout)
	if state.Event != nil && state.Event.Started() {
		if err := writeTables(stdout, state.Event); err != nil {
			return end, err
		}
		fmt.Fprintln(stdout)
	}
	files := fmt.Sprintf("PGN %s, crosstable %s and %s", td.EventFile(opt.out, 1, "pgn"), td.EventFile(opt.out, 1, "txt"), td.EventFile(opt.out, 1, "html"))
	switch {
	case end != endDone:
		fmt.Fprintf(stdout, "event %s (%s) after %s: %s\ngo on with: kriegbot tourney -resume %s\n", state.Status, state.progress(),
			time.Since(began).Round(time.Second), files, opt.out)
	default:
		fmt.Fprintf(stdout, "event %s in %s: %s\n", state.Status, time.Since(began).Round(time.Second), files)
	}
	fmt.Fprintf(stdout, "each player's game records (kriegbot replay FILE): %s\n", filepath.Join(opt.out, "PLAYER", "games"))
	if end == endDone && state.Status != "done" {
		return end, fmt.Errorf("the event was %s", state.Status)
	}
	return end, nil
}

// writeTables writes the standings and the crosstable ranked as the TD
// ranks them in tourney-1.txt and .html: by points, then the system's
// tie-breaks (without them, players level on points would come in
// pairing-number order, and the console would disagree with the files).
func writeTables(w io.Writer, e *tourney.Event) error {
	tbs := tourney.DefaultTieBreaks(e.System)
	if err := e.WriteStandings(w, tbs...); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := e.WriteCrosstable(w, tbs...); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n(a cell: the opponent's No, the colour played, the result: 1 won, = drawn, 0 lost, + or - by forfeit)")
	return err
}

func systemName(opt options) string {
	switch opt.system {
	case "rr":
		return "a round robin"
	case "drr":
		return "a double round robin"
	}
	return fmt.Sprintf("a %d-round Swiss", opt.rounds)
}

// serverRules are the referee's rules of the server's games, which the
// players are given too (their searches, and their records for replay).
func (o options) serverRules() (umpire.Rules, error) {
	rules, err := umpire.ParseRules(o.rules)
	if err != nil {
		return rules, err
	}
	return rules.Bounded(), nil // as the demo's embedded server: no game runs for ever
}

// startServer starts kriegbot serve in-process, loopback, with an account
// per player (fresh random passwords: the real login path is exercised)
// and the TD running the event (returned too: Ctrl-C adjourns it).
func startServer(opt options, log zerolog.Logger) (*server.Server, *tddoor.Door, string, map[string]string, error) {
	rules, err := opt.serverRules()
	if err != nil {
		return nil, nil, "", nil, err
	}
	spec, err := td.ParseEventSpec(opt.eventSpec(), opt.style)
	if err != nil {
		return nil, nil, "", nil, err
	}
	handles := make([]string, len(opt.players))
	for i, e := range opt.players {
		handles[i] = e.handle
	}
	accounts, passwords, err := server.ThrowAwayAccounts("C", handles...)
	if err != nil {
		return nil, nil, "", nil, err
	}
	srvLog := log.With().Str("component", "server").Logger()
	srv, err := server.New(server.Config{Rules: rules, Accounts: accounts,
		RecordDir: filepath.Join(opt.out, "server"), DisconnectGrace: 2 * time.Minute, Log: srvLog})
	if err != nil {
		return nil, nil, "", nil, err
	}
	telnet := telnetdoor.New(srv, telnetdoor.Config{})
	director, err := tddoor.New(srv, tddoor.Config{Dir: opt.out, Events: []td.EventSpec{spec}, Style: opt.style, AbsentGrace: opt.absent})
	if err != nil {
		srv.Close()
		return nil, nil, "", nil, err
	}
	ln, err := net.Listen("tcp", opt.addr)
	if err != nil {
		srv.Close()
		return nil, nil, "", nil, err
	}
	go telnet.Serve(ln)
	return srv, director, ln.Addr().String(), passwords, nil
}

// daemonConfig is one player's daemon: tournament mode, nothing else. It
// seeks nothing, challenges nobody, accepts no other game, and joins the
// event on start; its records and logs go to its own folder.
func daemonConfig(opt options, e entrant, addr string) (config.Config, error) {
	c := config.Defaults()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return c, err
	}
	c.Server.Embedded, c.Server.Host = false, host
	if c.Server.Port, err = strconv.Atoi(port); err != nil {
		return c, err
	}
	c.Server.Rules = opt.rules // for -check and the log; the game rules come by bot.Options.Rules
	c.Sparring.Enabled = false
	c.Account.Handle = e.handle
	c.Engine.Player, c.Engine.Wild16Player = e.spec.String(), "" // the entrant's player in every game
	dir := filepath.Join(opt.out, e.handle)
	c.Engine.OpponentModels = filepath.Join(dir, "opponents")
	c.Policy.Seek, c.Policy.Challenge, c.Policy.Games, c.Policy.Greeting = false, "", 0, ""
	c.Policy.AcceptChallenges = false
	c.Policy.MinBase = min(c.Policy.MinBase, opt.minutes)
	c.Tournament.TD = []string{tdHandle}
	c.Tournament.Join = []int{1}
	c.Logs.Dir = dir
	c.Logs.Console = "off"
	c.Connection.LinesPerSecond = 50
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("%s: %v", e.handle, err)
	}
	return c, nil
}
