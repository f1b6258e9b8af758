package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/cmdflag"
	"kriegbot/internal/rotate"
	"kriegbot/live"
)

// Command runs "kriegbot run [-config FILE] [-check] [-games N] [-v]
// [-connect HOST:PORT] [-guest]".
//
// Command returns the command's entry point; parts are what it takes from
// the programs beside the daemon, given by cli so that the daemon imports
// neither the replay tool nor the server.
func Command(parts Parts) func(args []string, stdout, stderr io.Writer) int {
	return func(args []string, stdout, stderr io.Writer) int { return command(args, stdout, stderr, parts) }
}

// Parts are the run command's pieces from outside the daemon.
type Parts struct {
	// ReplayPage makes a finished game's replay page for the live page
	// (nil: no replay links).
	ReplayPage ReplayPage
	// StartServer starts the embedded server (nil: a configuration with
	// server.embedded = true is refused).
	StartServer StartServer
}

// ReplayPage makes the HTML replay page of the game in a record file.
type ReplayPage func(ctx context.Context, record, build string) ([]byte, error)

// StartServer starts a wild 16 server on addr with a registered computer
// account and a fresh password for each handle, records in recordDir (""
// for none) and its notable events to log.
type StartServer func(rules umpire.Rules, handles []string, recordDir, addr string, log zerolog.Logger) (EmbeddedServer, error)

// EmbeddedServer is the server kriegbot run plays on by default.
type EmbeddedServer interface {
	// Addr is the telnet door's address.
	Addr() string
	// Password is a handle's throw-away password.
	Password(handle string) string
	// ServeAPI serves the kriegspiel.org bot API's door on ln until Close.
	ServeAPI(ln net.Listener) error
	Close() error
}

func command(args []string, stdout, stderr io.Writer, parts Parts) int {
	fset := flag.NewFlagSet("run", flag.ContinueOnError)
	path := fset.String("config", "config.toml", "configuration file; when the default file is missing, the built-in defaults (the embedded server and sparring partner) are used")
	check := fset.Bool("check", false, "validate the configuration, print the effective values (password masked) and exit")
	games := fset.Int("games", -1, "stop after this many finished games (overrides policy.games; 0 runs until stopped)")
	verbose := fset.Bool("v", false, "print a line per attempt and per answer (attempt, referee's words, value, time used)")
	connect := fset.String("connect", "", "play on the ICC-protocol server at HOST:PORT instead of the embedded one (no sparring partner, no challenges: the bot waits for games)")
	guest := fset.Bool("guest", false, "log in as a guest (no password; unrated games only)")
	join := fset.Int("join", 0, "join tourney N of the first tournament.td at start (added to tournament.join), e.g. an event of kriegbot serve's TD")
	httpAddr := fset.String("http", "", "serve the operator's live page (read-only: games, clocks, belief, candidates, score) on this loopback address, e.g. 127.0.0.1:8080")
	httpPublic := fset.Bool("http-public", false, "allow -http on an address other than loopback (the page shows the games in progress)")
	httpHost := fset.String("http-host", "", "comma-separated Host names the live page also answers to (e.g. its public name with -http-public); it always answers to the address it listens on")
	cmdflag.SetUsage(fset, "run [-config FILE] [-check] [-games N] [-v] [-connect HOST:PORT] [-guest] [-join N] [-http ADDR]",
		`Runs the bot. With the shipped config.toml it starts kriegbot's own wild 16
server in-process on a loopback port with a sparring partner, and plays game
after game against it over TCP, one line per finished game. SIGINT or SIGTERM
finishes the games in progress and exits (at once when none is in progress);
a second signal leaves at once.
Exit status: 0 done, 1 restart me (the server is unreachable), 2 bad configuration,
3 left at once with games in progress (a second signal, the owner's hardquit): they are lost.
`)
	if code, done := cmdflag.Parse(fset, args, stderr); done {
		return code
	}
	if fset.NArg() > 0 {
		return cmdflag.Fail(stderr, "run", "unexpected argument %q", fset.Arg(0))
	}
	cfg, source, err := loadConfig(*path, flagSet(fset, "config"))
	if err != nil {
		// One error per line, each with the command's prefix.
		for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
			fmt.Fprintf(stderr, "kriegbot run: %s\n", line)
		}
		return ExitBadConfig
	}
	if *games >= 0 {
		cfg.Policy.Games = *games
		if err := cfg.Validate(); err != nil {
			return cmdflag.Fail(stderr, "run", "-games %d: %v", *games, err)
		}
	}
	if *connect != "" {
		if err := connectTo(&cfg, *connect); err != nil {
			return cmdflag.Fail(stderr, "run", "-connect %s: %v", *connect, err)
		}
	}
	if *httpAddr != "" {
		if err := live.CheckAddr(*httpAddr, *httpPublic); err != nil {
			return cmdflag.Fail(stderr, "run", "-http %s: %v", *httpAddr, err)
		}
	}
	if *guest {
		cfg.Account.Guest = true
		if err := cfg.Validate(); err != nil {
			return cmdflag.Fail(stderr, "run", "-guest: %v", err)
		}
	}
	if flagSet(fset, "join") && !slices.Contains(cfg.Tournament.Join, *join) {
		cfg.Tournament.Join = append(slices.Clip(cfg.Tournament.Join), *join)
		if err := cfg.Validate(); err != nil {
			return cmdflag.Fail(stderr, "run", "-join %d: %v", *join, err)
		}
	}
	spec, err := players.Parse(cfg.Engine.Player, players.Kinds())
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot run: %s: engine.player: %v\n", source, err)
		return ExitBadConfig
	}
	var sparSpec players.Spec
	if cfg.Server.Embedded && cfg.Sparring.Enabled {
		if sparSpec, err = players.Parse(cfg.Sparring.Player, players.Kinds()); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %s: sparring.player: %v\n", source, err)
			return ExitBadConfig
		}
	}
	password, err := config.Password(cfg, os.Getenv)
	if err != nil && !cfg.Server.Embedded && cfg.Server.Protocol == "icc" {
		fmt.Fprintf(stderr, "kriegbot run: %v\n", err)
		return ExitBadConfig
	}
	token := ""
	if cfg.Server.Protocol == "kriegspiel" && !cfg.Server.Embedded {
		if token, _, err = config.Token(cfg, os.Getenv); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %v\n", err)
			return ExitBadConfig
		}
	}
	if *check {
		fmt.Fprintf(stdout, "# %s: valid\n", source)
		io.WriteString(stdout, cfg.Effective())
		return ExitDone
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	console := NewConsole(stdout, isTerminal(stdout), *verbose, stderr)
	var page *live.Server
	if *httpAddr != "" {
		var render func(string) ([]byte, error)
		if parts.ReplayPage != nil {
			render = func(rec string) ([]byte, error) { return parts.ReplayPage(ctx, rec, buildinfo.ID()) }
		}
		page = live.New(filepath.Join(cfg.Logs.Dir, "games"), render)
		for _, name := range strings.Split(*httpHost, ",") {
			if name = strings.TrimSpace(name); name != "" {
				page.AllowHosts(name)
			}
		}
		ln, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			return cmdflag.Fail(stderr, "run", "-http %s: %v", *httpAddr, err)
		}
		go page.Serve(ctx, ln)
		console.say(lineNote, "kriegbot: the live page is on http://%s/", ln.Addr())
	}
	return runDaemons(ctx, cfg, parts, spec, sparSpec, password, token, console, page, stdout, stderr)
}

// connectTo points the configuration at an outside ICC-protocol server at
// addr: no embedded server, no sparring partner, no standing challenge.
func connectTo(cfg *config.Config, addr string) error {
	// -connect names a telnet host and port; the kriegspiel.org API is a
	// URL. Taking the flag there would quietly play somewhere else than the
	// operator asked (the config's server.url), so it is refused.
	if cfg.Server.Protocol == "kriegspiel" {
		return errors.New("-connect is for ICC-protocol servers, but server.protocol is \"kriegspiel\": set server.url (and server.embedded = false) in the config instead")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:5000 (%v)", err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	cfg.Server.Embedded = false
	cfg.Server.Host, cfg.Server.Port = host, p
	cfg.Sparring.Enabled = false
	cfg.Policy.Challenge = ""
	return cfg.Validate()
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// loadConfig reads the file, or gives the defaults when the default file is
// absent (so `go run . run` works from any folder).
func loadConfig(path string, explicit bool) (config.Config, string, error) {
	cfg, err := config.Load(path)
	if err == nil {
		return cfg, path, nil
	}
	if !explicit && errors.Is(err, fs.ErrNotExist) {
		return config.Defaults(), "built-in defaults", nil
	}
	return config.Config{}, path, err
}

// runDaemons starts the logs, the embedded server and sparring partner when
// configured, and the bot; it handles the signals.
func runDaemons(ctx context.Context, cfg config.Config, parts Parts, spec, sparSpec players.Spec, password, token string, console *Console, page *live.Server, stdout, stderr io.Writer) int {
	began := time.Now()
	logFile, err := rotate.Open(cfg.Logs.Dir, "kriegbot.log", int64(cfg.Logs.MaxSizeMB)<<20, cfg.Logs.Keep)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot run: logs: %v\n", err)
		return ExitBadConfig
	}
	defer logFile.Close()
	level, err := zerolog.ParseLevel(cfg.Logs.Level)
	if err != nil {
		level = zerolog.InfoLevel
	}
	var outs []io.Writer = []io.Writer{logFile}
	if cw := consoleWriter(cfg.Logs.Console, stderr); cw != nil {
		outs = append(outs, cw)
	}
	log := zerolog.New(zerolog.MultiLevelWriter(outs...)).Level(level).With().Timestamp().Logger()
	seed := cfg.Engine.Seed
	if seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		// 63 bits, so the logged seed can be written back as engine.seed
		// (a TOML integer) to replay the games.
		seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	log.Info().Uint64("seed", seed).Str("player", spec.String()).Bool("embedded", cfg.Server.Embedded).Msg("kriegbot starting")

	addr := ""
	var wg sync.WaitGroup
	var sparring *Daemon
	var embedded EmbeddedServer
	if cfg.Server.Embedded {
		srv, err := startEmbedded(parts.StartServer, cfg, log)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot run: embedded server: %v\n", err)
			return ExitRestart
		}
		embedded = srv
		defer srv.Close()
		addr = srv.Addr()
		password = srv.Password(cfg.Account.Handle)
		line := fmt.Sprintf("kriegbot: embedded wild 16 server on %s; playing %s as %s", addr, spec, cfg.Account.Handle)
		if cfg.Sparring.Enabled {
			line += fmt.Sprintf(" against %s (%s)", cfg.Sparring.Handle, sparSpec)
		}
		console.say(lineNote, "%s", line)
		if cfg.Sparring.Enabled && cfg.Policy.Challenge == cfg.Sparring.Handle {
			console.say(lineNote, "%s", demoNotice(cfg))
		}
		if cfg.Sparring.Enabled {
			sc := sparringConfig(cfg)
			sparring = New(sc, Options{Name: cfg.Sparring.Handle, Password: srv.Password(cfg.Sparring.Handle), Addr: addr,
				Spec: sparSpec, Log: log.With().Str("bot", cfg.Sparring.Handle).Logger(), Seed: seed ^ 0x5a5a,
				AutoSeek: cfg.Server.Protocol == "kriegspiel"})
			wg.Add(1)
			sctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() { defer wg.Done(); sparring.Run(sctx) }()
		}
	}
	bot := New(cfg, Options{Name: cfg.Account.Handle, Password: password, Addr: addr, Spec: spec,
		Log: log.With().Str("bot", cfg.Account.Handle).Logger(), Console: console, Dir: cfg.Logs.Dir, Seed: seed, Live: page})
	defer startRecordKeeper(ctx, cfg, log.With().Str("component", "retention").Logger(), bot)()

	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		n := 0
		for range sig {
			n++
			if n == 1 && bot.Playing() > 0 {
				console.say(lineResult, "kriegbot: finishing the game in progress, then leaving (signal again to leave at once)")
			} else {
				console.say(lineResult, "kriegbot: leaving now")
			}
			bot.SoftQuit()
		}
	}()
	code := runBackend(ctx, bot, cfg, token, embedded)
	if sparring != nil {
		sparring.HardQuit()
		wg.Wait()
	}
	console.Close()
	console.say(lineResult, "%s", summary(bot, time.Since(began)))
	log.Info().Int("code", code).Msg("kriegbot stopped")
	return code
}

// demoNotice says up front what the embedded demo will do and how long it
// takes: each game lasts at most both clocks' base time and increments over
// a long game; most end well before.
func demoNotice(cfg config.Config) string {
	p := cfg.Policy
	perGame := 2 * (time.Duration(p.SeekBase)*time.Minute + 80*time.Duration(p.SeekIncrement)*time.Second)
	games := "game after game until stopped"
	if p.Games > 0 {
		games = fmt.Sprintf("%d game%s", p.Games, plural(p.Games))
	}
	return fmt.Sprintf("kriegbot: %s at %d+%d (%s rules); each game takes about a minute, at most %s; Ctrl-C stops after the game in progress",
		games, p.SeekBase, p.SeekIncrement, cfg.Server.Rules, perGame.Round(time.Minute))
}

// summary is the last line: games finished and their score, the time it
// took, and any game left unfinished.
func summary(d *Daemon, took time.Duration) string {
	f, w, l, dr := d.Score()
	s := fmt.Sprintf("kriegbot: %d game%s finished (+%d -%d =%d) in %s", f, plural(f), w, l, dr, took.Round(time.Second))
	if ab := d.Abandoned(); len(ab) > 0 {
		s += fmt.Sprintf("; %d abandoned, lost by leaving: %s", len(ab), strings.Join(ab, "; "))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// consoleWriter is where logs.console sends the warnings and errors: "auto"
// is readable on a terminal and JSON lines when piped (systemd's journal,
// docker logs), so a refused password or an unreachable server is never
// silent.
func consoleWriter(mode string, stderr io.Writer) io.Writer {
	switch mode {
	case "off":
		return nil
	case "json":
		return levelFilter{stderr, zerolog.WarnLevel}
	case "pretty":
		return levelFilter{zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.Kitchen}, zerolog.WarnLevel}
	}
	if isTerminal(stderr) {
		return levelFilter{zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.Kitchen}, zerolog.WarnLevel}
	}
	return levelFilter{stderr, zerolog.WarnLevel}
}

// levelFilter passes only events at or above min to the console: the
// console shows problems and the one line per game, the file keeps all.
type levelFilter struct {
	w   io.Writer
	min zerolog.Level
}

func (f levelFilter) Write(p []byte) (int, error) { return f.w.Write(p) }

func (f levelFilter) WriteLevel(l zerolog.Level, p []byte) (int, error) {
	if l < f.min {
		return len(p), nil
	}
	return f.w.Write(p)
}

// sparringConfig derives the partner's configuration: it accepts our
// challenges and does nothing else of its own.
func sparringConfig(cfg config.Config) config.Config {
	s := cfg
	s.Account.Handle = cfg.Sparring.Handle
	s.Policy.Challenge = ""
	// Through the HTTP door kriegbot joins the partner's seek ad (a lobby
	// game to the door), since a telnet player cannot challenge it.
	s.Policy.Seek = cfg.Server.Protocol == "kriegspiel"
	s.Server.Protocol = "icc"
	s.Policy.Greeting = ""
	s.Policy.Games = 0
	s.Policy.Resign = false
	s.Policy.AcceptChallenges = true
	s.Policy.Allow = []string{cfg.Account.Handle}
	s.Owner.Handles = nil
	s.Tournament.Join, s.Tournament.AutoJoin = nil, false // our events are ours alone
	s.Logs.Transcripts = false
	s.Logs.Records = false
	return s
}

// embeddedMaxPlies is the embedded server's move limit (300 moves each).
const embeddedMaxPlies = 600

// embeddedRules are the embedded server's referee rules: server.rules, and
// no game runs forever: dead material (K+N against K+N never ends under
// ICC's rules) and the move limit are adjudicated draws.
func embeddedRules(cfg config.Config) (umpire.Rules, error) {
	rules, err := umpire.ParseRules(cfg.Server.Rules)
	if err != nil {
		return rules, err
	}
	rules.DeadMaterial = true
	if rules.MaxPlies == 0 {
		rules.MaxPlies = embeddedMaxPlies
	}
	return rules, nil
}

// startEmbedded starts the in-process server with two registered accounts
// (the bot and its partner) whose passwords are fresh random strings, so
// the real login path, with a masked password, is exercised.
func startEmbedded(start StartServer, cfg config.Config, log zerolog.Logger) (EmbeddedServer, error) {
	if start == nil {
		return nil, errors.New("this build has no embedded server: set server.embedded = false and server.host")
	}
	rules, err := embeddedRules(cfg)
	if err != nil {
		return nil, err
	}
	handles := []string{cfg.Account.Handle, cfg.Sparring.Handle}
	if cfg.Server.Protocol == "kriegspiel" {
		handles = handles[1:] // kriegbot registers on the HTTP door instead
	}
	srvLog := log.With().Str("component", "server").Logger()
	records := ""
	if cfg.Logs.Records {
		records = filepath.Join(cfg.Logs.Dir, "server")
	}
	return start(rules, handles, records, net.JoinHostPort(cfg.Server.Host, fmt.Sprint(cfg.Server.Port)),
		srvLog)
}
