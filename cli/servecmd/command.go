package servecmd

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/umpire"
	"kriegbot/internal/cmdflag"
	"kriegbot/server"
	"kriegbot/server/httpdoor"
	"kriegbot/server/td"
	"kriegbot/server/tddoor"
	"kriegbot/server/telnetdoor"
	"kriegbot/server/timecontrol"
)

// Command runs "kriegbot serve [flags]" and "kriegbot serve hash".
func Command(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "hash" {
		return hashCommand(args[1:], os.Stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:5000", "listen address; loopback unless you mean to serve a network")
	accounts := fs.String("accounts", "", "accounts file: one \"handle bcrypt-hash [titles]\" per line (make hashes with: kriegbot serve hash)")
	rulesName := fs.String("rules", "icc", "referee rules: icc (no automatic 50-move or repetition draw), olympiad (both automatic) or ks (kriegspiel.org's: a draw after 2,000 half-moves without capture or pawn move)")
	noGuests := fs.Bool("no-guests", false, "refuse guest logins")
	grace := fs.Duration("grace", 0, "time a disconnected player may take to come back (0 loses at once, as on ICC)")
	records := fs.String("records", "", "folder for a PGN and a JSON Lines record of every game")
	maxConns := fs.Int("max-conns", 1000, "most simultaneous connections")
	maxPerHost := fs.Int("max-conns-per-host", 0, "most simultaneous connections from one address (0: a quarter of -max-conns, at least 50)")
	quiet := fs.Bool("q", false, "do not log server events to stderr")
	httpAddr := fs.String("http", "", "also serve the kriegspiel.org bot API (HTTP) on this address, e.g. 127.0.0.1:8000")
	httpPublic := fs.Bool("http-public", false, "allow -http on a non-loopback address (plain HTTP: put TLS in front)")
	httpTime := fs.String("http-time", "25+10", "time control of games HTTP bots create: minutes+increment (the site's rapid is 25+10)")
	httpBots := fs.String("http-bots", "", "file keeping the HTTP door's bots and token digests across restarts (mode 0600)")
	accessLog := fs.String("http-access-log", "", "append a line per HTTP API request (time, method, path, address; no header) to this file")
	botIdle := fs.Duration("http-bot-idle", 30*24*time.Hour, "remove an HTTP bot after this long without a request (never while it plays or waits; negative: never)")
	botUnused := fs.Duration("http-bot-unused", 24*time.Hour, "remove an HTTP bot whose token is never used within this long of its registration (negative: never)")
	tdName := fs.String("td", "TD", "handle of the built-in tournament director (nobody may log in with it)")
	tdManagers := fs.String("td-managers", "", "comma-separated registered handles that may open, start, abort events and forfeit players by tell")
	tdDir := fs.String("td-dir", "", "folder keeping each TD event (resumed after a restart) and its PGN, text and HTML crosstable")
	tdStyle := fs.String("td-style", "icc", "default pairing announcement: icc (DG 63 and the tourney-set line) or fics (mamer's lines)")
	tdGrace := fs.Duration("td-absent", 2*time.Minute, "time a paired player has to answer before losing by forfeit")
	tdGameGrace := fs.Duration("td-grace", 5*time.Minute, "time a player who disconnects during a TD game has to come back (the third disconnection forfeits)")
	tdLateOdds := fs.Bool("td-late-odds", false, "CCT's time odds: the time a player waited for a late opponent is taken off the late side's clock at the start of the game")
	var tdEvents []td.EventSpec
	fs.Func("tourney", "open a TD event, e.g. \"name=KS1,system=swiss,rounds=5,tc=1+1,style=icc,start=4\" (start: manual, N players or a duration); repeatable", func(v string) error {
		sp, err := td.ParseEventSpec(v, "")
		if err != nil {
			return err
		}
		tdEvents = append(tdEvents, sp)
		return nil
	})
	cmdflag.SetUsage(fs, "serve [flags]\n       kriegbot serve hash < password",
		`Runs an ICC-compatible wild 16 (Kriegspiel) server. Bots log in as on ICC;
people can `+"`telnet 127.0.0.1 5000`"+`, log in as "g" and type "help".
The wire format is in docs/iccserver.md. `+"`serve hash`"+` reads a password on
standard input and prints the bcrypt hash for an accounts file.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return cmdflag.Fail(stderr, "serve", "unexpected argument %q", fs.Arg(0))
	}
	rules, err := umpire.ParseRules(*rulesName)
	if err != nil {
		return cmdflag.Fail(stderr, "serve", "%v", err)
	}
	if *maxConns < 1 {
		return cmdflag.Fail(stderr, "serve", "-max-conns must be at least 1")
	}
	if *maxPerHost < 0 {
		return cmdflag.Fail(stderr, "serve", "-max-conns-per-host must not be negative")
	}
	minutes, inc, err := timecontrol.Parse(*httpTime)
	if err != nil {
		return cmdflag.Fail(stderr, "serve", "-http-time: %v", err)
	}
	if *tdStyle != "icc" && *tdStyle != "fics" {
		return cmdflag.Fail(stderr, "serve", "-td-style %q: want icc or fics", *tdStyle)
	}
	if *tdGrace <= 0 || *tdGameGrace <= 0 {
		return cmdflag.Fail(stderr, "serve", "-td-absent and -td-grace must be positive")
	}
	var managers []string
	for _, m := range strings.Split(*tdManagers, ",") {
		if m = strings.TrimSpace(m); m != "" {
			managers = append(managers, m)
		}
	}
	for i := range tdEvents {
		if tdEvents[i].Style == "" {
			tdEvents[i].Style = *tdStyle
		}
		if tdEvents[i].StartPlayers == 0 && tdEvents[i].StartAfter == 0 && len(managers) == 0 {
			return cmdflag.Fail(stderr, "serve", "-tourney %s: start=manual needs -td-managers to start it", tdEvents[i])
		}
	}
	cfg := server.Config{Rules: rules, NoGuests: *noGuests, DisconnectGrace: *grace, RecordDir: *records,
		MaxConns: *maxConns, MaxConnsPerHost: *maxPerHost}
	tdCfg := tddoor.Config{Handle: *tdName, Managers: managers, Dir: *tdDir, Style: *tdStyle, Events: tdEvents,
		AbsentGrace: *tdGrace, GameGrace: *tdGameGrace, LateOdds: *tdLateOdds}
	if *botIdle == 0 || *botUnused == 0 {
		return cmdflag.Fail(stderr, "serve", "-http-bot-idle and -http-bot-unused must not be 0 (negative: never)")
	}
	if *httpAddr != "" && !*httpPublic && !loopbackAddr(*httpAddr) {
		return cmdflag.Fail(stderr, "serve", "-http %s is not a loopback address; add -http-public to serve it anyway", *httpAddr)
	}
	if *accounts != "" {
		a, err := server.LoadAccounts(*accounts)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
			return cmdflag.Usage
		}
		cfg.Accounts = a
	}
	if !*quiet {
		// One line per event: the time in UTC, the level, the words.
		cfg.Log = zerolog.New(zerolog.ConsoleWriter{Out: zerolog.SyncWriter(stderr), NoColor: true,
			TimeFormat: time.RFC3339, TimeLocation: time.UTC}).With().Timestamp().Logger()
	}
	srv, err := server.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
		return cmdflag.Usage
	}
	// The doors: the TD first (it follows the games before the HTTP
	// door), then the HTTP door, which follows the table's games whether
	// or not -http serves it: telnet users match the bots it keeps
	// (-http-bots), and it serves the TD's pages.
	telnet := telnetdoor.New(srv, telnetdoor.Config{})
	director, err := tddoor.New(srv, tdCfg)
	if err != nil {
		srv.Close()
		fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
		return cmdflag.Usage
	}
	var access io.Writer
	if *accessLog != "" {
		f, err := os.OpenFile(*accessLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			srv.Close()
			fmt.Fprintf(stderr, "kriegbot serve: -http-access-log: %v\n", err)
			return cmdflag.Failure
		}
		defer f.Close()
		access = f
	}
	door, err := httpdoor.New(srv, httpdoor.Config{Minutes: minutes, Inc: inc, TokenFile: *httpBots, BotIdle: *botIdle, BotUnused: *botUnused,
		Pages: director.ServeTourney, AccessLog: access})
	if err != nil {
		srv.Close()
		fmt.Fprintf(stderr, "kriegbot serve: server: bots: %v\n", err)
		return cmdflag.Usage
	}
	// Both doors are bound before anything is announced: a banner must not
	// name a server that then fails to start.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
		return cmdflag.Failure
	}
	var hl net.Listener
	if *httpAddr != "" {
		if hl, err = net.Listen("tcp", *httpAddr); err != nil {
			ln.Close()
			fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
			return cmdflag.Failure
		}
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "kriegbot serve: warning: listening on %s, which is not a loopback address\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "kriegbot serve: wild 16 server on %s (rules %s); telnet to it and log in as \"g\"\n", ln.Addr(), rules.Name)
	for _, l := range director.Events() {
		fmt.Fprintf(stdout, "kriegbot serve: %s\n", l)
	}
	var httpDone chan error
	if hl != nil {
		fmt.Fprintf(stdout, "kriegbot serve: kriegspiel.org bot API on http://%s (time control %d+%d)\n", hl.Addr(), minutes, inc)
		httpDone = make(chan error, 1)
		go func() { httpDone <- door.ServeAPI(hl) }()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	closed := make(chan struct{})
	go func() {
		<-ctx.Done()
		srv.Close()
		close(closed)
	}()
	if err := telnet.Serve(ln); err != nil {
		fmt.Fprintf(stderr, "kriegbot serve: %v\n", err)
		return cmdflag.Failure
	}
	// Serve returns when the listener closes, while Close is still at
	// work: the players' last words (their games aborted) and the bots
	// file are written before the process may exit.
	<-closed
	if httpDone != nil {
		if err := <-httpDone; err != nil {
			fmt.Fprintf(stderr, "kriegbot serve: http: %v\n", err)
			return cmdflag.Failure
		}
	}
	_, finished := srv.GameCount()
	noun := "games"
	if finished == 1 {
		noun = "game"
	}
	fmt.Fprintf(stdout, "kriegbot serve: stopped after %d %s\n", finished, noun)
	return cmdflag.OK
}

// loopbackAddr reports whether a listen address is on loopback: a
// loopback IP or "localhost" (an empty host listens everywhere).
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func hashCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			fmt.Fprintln(stderr, "usage: kriegbot serve hash < password\n\nPrints the bcrypt hash of the first line of standard input.")
			return cmdflag.OK
		}
		return cmdflag.Fail(stderr, "serve hash", "the password is read from standard input, not given as an argument")
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 1024)).ReadString('\n')
	if err != nil && err != io.EOF {
		fmt.Fprintf(stderr, "kriegbot serve hash: %v\n", err)
		return cmdflag.Failure
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" || len(pw) > 72 {
		return cmdflag.Fail(stderr, "serve hash", "want a password of 1 to 72 bytes on standard input")
	}
	h, err := server.HashPassword(pw)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot serve hash: %v\n", err)
		return cmdflag.Failure
	}
	fmt.Fprintln(stdout, h)
	return cmdflag.OK
}
