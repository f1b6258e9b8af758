package runcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"kriegbot/bot"
	"kriegbot/cli/servecmd"
	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/cmdflag"
	"kriegbot/live"
	"kriegbot/opponent"
	"kriegbot/replay"
)

// Command runs "kriegbot run [-config FILE] [-check] [-games N] [-v]
// [-connect HOST:PORT] [-guest] [-join N] [-http ADDR]": it reads the flags
// and the configuration, and hands the daemon (bot.Play) the embedded
// server (cli/servecmd) and the live page's replays (replay.Page), so that
// the daemon imports neither.
func Command(args []string, stdout, stderr io.Writer) int {
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
	cfg, source, err := config.LoadOrDefaults(*path, cmdflag.IsSet(fset, "config"))
	if err != nil {
		// One error per line, each with the command's prefix.
		for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
			fmt.Fprintf(stderr, "kriegbot run: %s\n", line)
		}
		return bot.ExitBadConfig
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
	if cmdflag.IsSet(fset, "join") && !slices.Contains(cfg.Tournament.Join, *join) {
		cfg.Tournament.Join = append(slices.Clip(cfg.Tournament.Join), *join)
		if err := cfg.Validate(); err != nil {
			return cmdflag.Fail(stderr, "run", "-join %d: %v", *join, err)
		}
	}
	spec, err := players.Parse(cfg.Engine.Player, players.Kinds())
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot run: %s: engine.player: %v\n", source, err)
		return bot.ExitBadConfig
	}
	var wild16Spec players.Spec
	if cfg.Engine.Wild16Player != "" {
		if wild16Spec, err = players.Parse(cfg.Engine.Wild16Player, players.Kinds()); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %s: engine.wild16_player: %v\n", source, err)
			return bot.ExitBadConfig
		}
	}
	var sparSpec players.Spec
	if cfg.Server.Embedded && cfg.Sparring.Enabled {
		if sparSpec, err = players.Parse(cfg.Sparring.Player, players.Kinds()); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %s: sparring.player: %v\n", source, err)
			return bot.ExitBadConfig
		}
	}
	password, err := config.Password(cfg, os.Getenv)
	if err != nil && !cfg.Server.Embedded && cfg.Server.Protocol == "icc" {
		fmt.Fprintf(stderr, "kriegbot run: %v\n", err)
		return bot.ExitBadConfig
	}
	token := ""
	if cfg.Server.Protocol == "kriegspiel" && !cfg.Server.Embedded {
		if token, _, err = config.Token(cfg, os.Getenv); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %v\n", err)
			return bot.ExitBadConfig
		}
	}
	if *check {
		fmt.Fprintf(stdout, "# %s: valid\n", source)
		io.WriteString(stdout, cfg.Effective())
		if err := writeModels(stdout, cfg.Engine.VariantModels); err != nil {
			fmt.Fprintf(stderr, "kriegbot run: %v\n", err)
			return bot.ExitBadConfig
		}
		return bot.ExitDone
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	console := bot.NewConsole(stdout, cmdflag.IsTerminal(stdout), *verbose, stderr)
	var page *live.Server
	if *httpAddr != "" {
		render := func(rec string) ([]byte, error) { return replay.Page(ctx, rec, buildinfo.ID()) }
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
		console.Note("kriegbot: the live page is on http://%s/", ln.Addr())
	}
	return bot.Play(ctx, bot.Setup{Config: cfg, Spec: spec, Wild16Spec: wild16Spec, SparringSpec: sparSpec, Password: password, Token: token,
		Console: console, Live: page, StartServer: servecmd.StartEmbedded, Stderr: stderr})
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

// writeModels says, as comments after the effective values, which model
// each rule variant's games will start from: the variant's file in dir
// (engine.variant_models) or the embedded default, and why a file there
// is not used. Per-opponent models blend over it.
func writeModels(w io.Writer, dir string) error {
	bases, err := opponent.LoadBases(dir, umpire.VariantNames())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# opponent model of each variant (engine.variant_models = %q; per-opponent models blend over it):\n", dir)
	for _, v := range umpire.VariantNames() {
		b := bases.For(v)
		line := b.Name()
		if b.Unused != nil {
			line += fmt.Sprintf(" (%s is not used: %v)", opponent.ModelPath(dir, v), b.Unused)
		}
		fmt.Fprintf(w, "#   %-13s %s\n", v+":", line)
	}
	return nil
}
