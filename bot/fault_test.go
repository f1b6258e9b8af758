package bot

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/config"
	"kriegbot/engine/umpire"
	"kriegbot/server"
)

// proxy sits between a daemon and the server: it can delay every chunk by
// a fixed lag (in both directions, order kept) and cut every connection.
type proxy struct {
	ln     net.Listener
	target string
	lag    time.Duration
	// drop, when set, is asked about every chunk from the server; true
	// loses it (as an overflowing server or a broken middlebox would).
	drop func([]byte) bool
	mu   sync.Mutex
	// life, when set (setLife), closes each connection that long after it
	// began (a server that takes the login and drops us); under mu, as the
	// test sets it while serve runs.
	life     time.Duration
	conns    []net.Conn
	accepted []time.Time
}

func startProxy(t *testing.T, target string, lag time.Duration, drop func([]byte) bool) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, lag: lag, drop: drop}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.cut() })
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

// setLife makes every later connection close d after it began.
func (p *proxy) setLife(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.life = d
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.accepted = append(p.accepted, time.Now())
		life := p.life
		p.mu.Unlock()
		if life > 0 {
			time.AfterFunc(life, func() { c.Close(); s.Close() })
		}
		go p.pump(c, s, nil)
		go p.pump(s, c, p.drop)
	}
}

// pump copies src to dst, each chunk delivered lag after it was read.
func (p *proxy) pump(src, dst net.Conn, drop func([]byte) bool) {
	type chunk struct {
		at time.Time
		b  []byte
	}
	ch := make(chan chunk, 4096)
	go func() {
		defer dst.Close()
		for c := range ch {
			time.Sleep(time.Until(c.at))
			if _, err := dst.Write(c.b); err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && (drop == nil || !drop(buf[:n])) {
			ch <- chunk{time.Now().Add(p.lag), append([]byte(nil), buf[:n]...)}
		}
		if err != nil {
			close(ch)
			return
		}
	}
}

// cut closes every connection through the proxy (a network failure).
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestReconnectResumesGame cuts the daemon's connection in the middle of a
// game; it reconnects, the server (with a grace period) gives the game back,
// and the game is played to its end.
func TestReconnectResumesGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 30*time.Second)
	px := startProxy(t, addr, 0, nil)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = 1
	a, _ := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	cutMidGame(t, srv, px, 150*time.Millisecond)
	awaitExit(t, ctx, done, "the game never finished after the cut")
	fin := srv.Finished()
	if len(fin) != 1 || fin[0].Code == "Dis" || fin[0].Code == "Fla" {
		t.Fatalf("finished %+v", fin)
	}
	if a.connections < 2 {
		t.Fatalf("%d connections: the cut was not noticed", a.connections)
	}
}

// TestBackoffAfterShortSessions: a server that accepts the login and drops
// the connection 300 ms later, again and again. The delays must grow while
// sessions stay short (they used to start again from reconnect_min at every
// login: 35 connections in 25 s, never spaced out).
func TestBackoffAfterShortSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	_, addr := startTestServer(t, 0)
	px := startProxy(t, addr, 0, nil)
	px.setLife(300 * time.Millisecond)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Connection.ReconnectMin = config.Duration{Duration: 200 * time.Millisecond}
	cfg.Connection.ReconnectMax = config.Duration{Duration: 30 * time.Second}
	d, _ := newTestDaemon(t, cfg, px.addr(), "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	d.Run(ctx)
	px.mu.Lock()
	n := len(px.accepted)
	px.mu.Unlock()
	// Growing delays (0.1-0.2, 0.2-0.4, 0.4-0.8, 0.8-1.6, 1.6-3.2 s, each
	// after a 0.3 s session) allow at most 7 connections in 6 s; delays that
	// start again from 0.2 s allow about 15. A slow machine only lowers n.
	if n > 7 {
		t.Fatalf("%d connections in 6 s to a server that drops every session at once: the backoff does not grow", n)
	}
	if n < 2 {
		t.Fatalf("%d connections: the daemon did not reconnect at all", n)
	}
}

// TestFirstSignalWhileLoggingIn: with no game in progress, the first
// SoftQuit (the first SIGINT) ends the daemon at once, even while it
// retries a login against an unreachable server (it used to go on retrying
// until a second signal).
func TestFirstSignalWhileLoggingIn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // connection refused from now on
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Connection.ReconnectMin = config.Duration{Duration: 20 * time.Second}
	cfg.Connection.ReconnectMax = config.Duration{Duration: 40 * time.Second}
	d, dir := newTestDaemon(t, cfg, addr, "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- d.Run(ctx) }()
	waitFor(t, func() bool { // logged just before its first backoff sleep
		log, _ := os.ReadFile(filepath.Join(dir, "daemon.log"))
		return bytes.Contains(log, []byte("cannot log in"))
	})
	d.SoftQuit()
	select {
	case code := <-done:
		if code != ExitDone {
			t.Fatalf("exit %d, want %d", code, ExitDone)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("one SoftQuit with no game in progress did not end the daemon within 10 s")
	}
}

// TestGarbageServer: a "server" that answers with garbage and hangs up. The
// daemon keeps retrying with backoff, never panics, and leaves when told.
func TestGarbageServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 100)
	go func() {
		junk := []byte("\x19(\x19[\x19]\xff\xfb\x01login\x00:\x19)\x1a garbage \x19(0\r\n")
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Write(junk)
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Connection.LoginTimeout = config.Duration{Duration: 300 * time.Millisecond}
	d, _ := newTestDaemon(t, cfg, ln.Addr().String(), "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- d.Run(ctx) }()
	for i := 0; i < 3; i++ {
		select {
		case <-accepted:
		case <-ctx.Done():
			t.Fatal("the daemon stopped retrying")
		}
	}
	d.HardQuit()
	if code := <-done; code != ExitDone {
		t.Fatalf("exit %d", code)
	}
}

// TestBadPasswordIsFinal: a refused password ends the daemon with the
// bad-configuration code instead of hammering the server.
func TestBadPasswordIsFinal(t *testing.T) {
	_, addr := startTestServer(t, 0)
	d, _ := newTestDaemon(t, testConfig(t, "kriegbot", addr), addr, "heuristic", nil)
	d.opt.Password = "wrong"
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	if code := d.Run(ctx); code != ExitBadConfig {
		t.Fatalf("exit %d", code)
	}
}

// TestNoTimeForfeitsWithLag plays 1+0 games through 150 ms of injected
// lag (round trip: 75 ms each way, so every attempt costs the mover's clock
// 150 ms more than its thinking; the server, like ICC without timestamp,
// does not compensate). CI plays one game with the heuristic player;
// KRIEGBOT_LONG=1 plays the fifty with the mcts player, the bot's
// default engine.
func TestNoTimeForfeitsWithLag(t *testing.T) {
	games, player := 1, "heuristic"
	if os.Getenv("KRIEGBOT_LONG") != "" {
		games, player = 50, "mcts:approach=c"
	}
	if testing.Short() {
		t.Skip("plays real-time games")
	}
	srv, addr := startTestServer(t, 0)
	px := startProxy(t, addr, 75*time.Millisecond, nil)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = games
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 1, 0
	var console lockedBuffer
	a, _ := newTestDaemon(t, ac, px.addr(), player, &console)
	defer func() { t.Logf("games:\n%s", console.String()) }()
	bc := testConfig(t, "sparring", addr)
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(games)*150*time.Second)
	defer cancel()
	runInBackground(t, ctx, b)
	code := a.Run(ctx)
	var ends []string
	for _, g := range srv.Finished() {
		ends = append(ends, g.Code+" "+g.Result+" "+g.Description)
	}
	if code != ExitDone {
		t.Fatalf("exit %d; games: %q", code, ends)
	}
	flags := 0
	for _, g := range srv.Finished() {
		if g.Code == "Fla" && (g.White == "kriegbot" && g.Result == "0-1" || g.Black == "kriegbot" && g.Result == "1-0") {
			flags++
		}
	}
	if f, _, _, _ := a.Score(); f != games || flags != 0 {
		t.Fatalf("%d games, %d lost on time; games: %q", f, flags, ends)
	}
}

// TestServerRestart stops the server under a logged-in daemon and starts a
// new one on the same address: the daemon logs in again and plays there.
func TestServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv1, addr := startTestServer(t, 0)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Policy.Challenge = "sparring"
	cfg.Policy.Games = 1
	a, adir := newTestDaemon(t, cfg, addr, "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	// The daemon's own login must be complete, not only the server's side
	// of it: a server closed in between makes that login fail, and the
	// retry is then the daemon's first connection.
	waitFor(t, func() bool { return loggedIn(t, adir) == 1 && len(srv1.Users()) == 1 })
	srv1.Close()
	srv2 := restartServerAt(t, addr)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	runInBackground(t, ctx, b)
	awaitExit(t, ctx, done, "no game after the restart")
	if fin := srv2.Finished(); len(fin) != 1 || a.connections < 2 {
		t.Fatalf("%d games on the new server, %d connections", len(fin), a.connections)
	}
}

// loggedIn counts the logins in the daemon log in dir.
func loggedIn(t *testing.T, dir string) int {
	t.Helper()
	log, err := os.ReadFile(filepath.Join(dir, "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(log, []byte(`"message":"logged in"`))
}

// restartServerAt starts a fresh server on addr (retrying while the old
// socket lets go of the port).
func restartServerAt(t *testing.T, addr string) *telnetServer {
	t.Helper()
	srv := newRestartServer(t)
	var ln net.Listener
	var err error
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	go srv.Serve(ln)
	return srv
}

// newRestartServer is a fresh server with the test accounts, not yet
// listening.
func newRestartServer(t *testing.T) *telnetServer {
	t.Helper()
	pw := map[string]string{}
	for h, p := range testPasswords {
		pw[h] = p
	}
	acc, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newTelnetServer(server.Config{Rules: umpire.Olympiad(), Accounts: acc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestDroppedOutput loses a whole burst of server output in mid-game (the
// opponent's move, its announcements, the clocks and DG 139). The daemon's
// watchdog notices the silence, asks for the move list, resyncs, and the game
// is played to its end without a forfeit.
func TestDroppedOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 0)
	var hidden atomic.Int32 // counted by the proxy's goroutine, which may outlive the daemon's Run
	px := startProxy(t, addr, 0, func(b []byte) bool {
		return bytes.Contains(b, []byte(" ? ?")) && hidden.Add(1) == 5
	})
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = 1
	a, adir := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	a.poll = 500 * time.Millisecond
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runInBackground(t, ctx, b)
	if code := a.Run(ctx); code != ExitDone {
		t.Fatalf("exit %d", code)
	}
	fin := srv.Finished()
	if hidden.Load() < 5 || len(fin) != 1 || fin[0].Code == "Fla" || fin[0].Code == "Dis" {
		t.Fatalf("hidden moves seen %d; finished %+v", hidden.Load(), fin)
	}
	log, _ := os.ReadFile(filepath.Join(adir, "daemon.log"))
	if !bytes.Contains(log, []byte("resyncing from the server's move list")) {
		t.Fatal("no resync in the log: the drop went unnoticed")
	}
}

// TestReconnectWithoutGrace: as on ICC, the server forfeits a game whose
// player dropped. The daemon reconnects, sees the game is not given back,
// counts it as lost, and goes on to the next game.
func TestReconnectWithoutGrace(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 0)
	px := startProxy(t, addr, 0, nil)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = 2
	a, _ := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	a.stale = 500 * time.Millisecond
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	cutMidGame(t, srv, px, 100*time.Millisecond)
	awaitExit(t, ctx, done, "stuck after the lost game")
	fin := srv.Finished()
	f, _, l, _ := a.Score()
	if len(fin) != 2 || fin[0].Code != "Dis" || f != 2 || l < 1 {
		t.Fatalf("server %d games (first %s); daemon %d games, %d lost", len(fin), fin[0].Code, f, l)
	}
}

// cutMidGame waits for a game to start on srv, lets it run for a few moves,
// then cuts every connection through px.
func cutMidGame(t *testing.T, srv *telnetServer, px *proxy, after time.Duration) {
	t.Helper()
	waitFor(t, func() bool { p, _ := srv.GameCount(); return p == 1 })
	time.Sleep(after)
	px.cut()
}

// awaitExit waits for a daemon's Run to return ExitDone, failing with stuck
// if ctx ends first.
func awaitExit(t *testing.T, ctx context.Context, done <-chan int, stuck string) {
	t.Helper()
	select {
	case code := <-done:
		if code != ExitDone {
			t.Fatalf("exit %d", code)
		}
	case <-ctx.Done():
		t.Fatal(stuck)
	}
}

// runInBackground runs a daemon (the sparring partner) for the rest of the
// test, and at cleanup makes it leave and waits for its Run to return, before
// its log file and folder are removed (the goroutine used to outlive the
// test: "TempDir RemoveAll cleanup: directory not empty" under -race).
func runInBackground(t *testing.T, ctx context.Context, d *Daemon) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() {
		d.HardQuit()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("a background daemon did not stop within 30 s of HardQuit")
		}
	})
}
