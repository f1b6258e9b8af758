package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/cmdflag"
	"kriegbot/internal/rotate"
	"kriegbot/live"
)

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

// Setup is what kriegbot run hands the daemon once its flags and its
// configuration are read and checked (cli/runcmd).
type Setup struct {
	Config config.Config
	// Spec is our player's, SparringSpec the sparring partner's (the zero
	// Spec when it has none).
	Spec, SparringSpec players.Spec
	// Wild16Spec is the player of the wild 16 games (engine.wild16_player),
	// the zero Spec to play them with Spec.
	Wild16Spec players.Spec
	// Password and Token are the account's secrets for the configured
	// server (the embedded server makes its own).
	Password, Token string
	Console         *Console
	// Live is the operator's page, nil for none.
	Live *live.Server
	// StartServer starts the embedded server (nil: a configuration with
	// server.embedded = true is refused).
	StartServer StartServer
	// Stderr takes the warnings and errors of the log (logs.console) and
	// the start-up failures.
	Stderr io.Writer
}

// Play runs kriegbot run's daemons: it starts the logs, the embedded
// server and sparring partner when configured, and the bot, and plays
// until the games are done or a signal (SIGINT, SIGTERM) makes it leave.
// It returns the exit status (ExitDone, ExitRestart, ExitBadConfig,
// ExitAbandoned).
func Play(ctx context.Context, s Setup) int {
	cfg, spec, sparSpec, password, token, console, page, stderr := s.Config, s.Spec, s.SparringSpec, s.Password, s.Token, s.Console, s.Live, s.Stderr
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
	log.Info().Uint64("seed", seed).Str("player", spec.String()).Str("wild16_player", s.Wild16Spec.String()).Bool("embedded", cfg.Server.Embedded).Msg("kriegbot starting")

	addr := ""
	var wg sync.WaitGroup
	var sparring *Daemon
	var embedded EmbeddedServer
	if cfg.Server.Embedded {
		srv, err := startEmbedded(s.StartServer, cfg, log)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot run: embedded server: %v\n", err)
			return ExitRestart
		}
		embedded = srv
		defer srv.Close()
		addr = srv.Addr()
		password = srv.Password(cfg.Account.Handle)
		// The embedded ICC-protocol server plays wild 16 only; its
		// kriegspiel.org door, any of the site's variants.
		playing := playersText(spec, s.Wild16Spec)
		if cfg.Server.Protocol == "icc" && s.Wild16Spec.String() != "" {
			playing = s.Wild16Spec.String()
		}
		line := fmt.Sprintf("kriegbot: embedded wild 16 server on %s; playing %s as %s", addr, playing, cfg.Account.Handle)
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
	bot := New(cfg, Options{Name: cfg.Account.Handle, Password: password, Addr: addr, Spec: spec, Wild16Spec: s.Wild16Spec,
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
// takes: each game lasts at most both clocks spent over a game that reaches
// the embedded server's move limit; most end well before.
func demoNotice(cfg config.Config) string {
	p := cfg.Policy
	rules, _ := embeddedRules(cfg) // the rules were checked with the configuration
	perGame := rules.LongestGame(time.Duration(p.SeekBase)*time.Minute, time.Duration(p.SeekIncrement)*time.Second)
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
	if cmdflag.IsTerminal(stderr) {
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

// embeddedRules are the embedded server's referee rules: server.rules,
// bounded as our servers' are (umpire.Rules.Bounded: dead material and the
// move limit end every game).
func embeddedRules(cfg config.Config) (umpire.Rules, error) {
	rules, err := umpire.ParseRules(cfg.Server.Rules)
	return rules.Bounded(), err
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
