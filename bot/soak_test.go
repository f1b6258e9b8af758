package bot

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	"kriegbot/config"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/pgnread"
	"kriegbot/record"
	"kriegbot/server"
)

// The fault soak: pairs of daemons play complete games on one server, each
// daemon through its own fault-injecting proxy, while faults are injected
// at random: the daemons must keep playing, and every game must end for a
// reason that is not ours and leave a whole record.
//
// CI plays a short version (two pairs, two 1+0 games each, every fault
// kind once). KRIEGBOT_LONG=1 plays KRIEGBOT_SOAK_GAMES games (default 50)
// with every fault kind, again and again, and prints a summary table:
//
//	KRIEGBOT_LONG=1 KRIEGBOT_SOAK_GAMES=500 go test -run Soak -timeout 3h -v ./bot
//
// KRIEGBOT_SOAK_SEED replays a schedule of faults (the seed is logged).
//
// The faults, each on one daemon's link unless said otherwise:
//
//	cut       the proxy closes the daemon's connection (both sides)
//	delay     the proxy delays every chunk by 50-300 ms each way, for 2-5 s
//	stall     the proxy forwards nothing either way for a while (CI 1-2 s;
//	          long 1-8 s, past the daemon's dead_after of 5 s), then the held
//	          bytes in order
//	garbage   1-512 random bytes in the server→client stream, between two chunks
//	oversize  a 1 MiB line in the server→client stream, between two chunks
//	restart   the server is closed (its games end aborted) and a new one
//	          starts on the same address; every daemon's outage
//	flood     a third party (fan00, directly on the server) sends lines of
//	          200 tells and of 100 "seek 1 0;unseek" pairs at one of the
//	          accepting daemons for 2 s, reading its answers
//	guess     30 connections from 127.0.0.2 guess kriegbot's password in
//	          parallel (another address than the daemons': the server's
//	          login limit is per address, and on one address it would lock
//	          the daemon out as well, see docs/robustness.md)
//
// The assertions, each a hard failure:
//   - no panic (nothing recovers one: it ends the test binary);
//   - every challenging daemon plays its games and exits; every daemon
//     leaves when told;
//   - no forfeit on time caused by our side. A daemon's outages are the
//     times its link could not carry its moves: a stall (its length), a cut
//     or a server restart (until the proxy's next connection for that
//     daemon, plus 1 s for the login), an injection of garbage or of an
//     oversize line (one watchdog period, pollEvery: the daemon may only
//     notice a lost datagram then). A "Fla" loss of a daemon is excused only
//     if its outages that began during the game (from the record's game line
//     to its last line) add up to at least its own clock as last reported to
//     it before the first of them (the record's last clock line; the base
//     time if none): an outage of L costs at most L of the clock. Delays,
//     floods and guesses excuse nothing;
//   - no game lost by disconnection ("Dis") unless one of the daemon's
//     outages during the game was longer than the server's grace for
//     coming back (disconnectGrace): in particular the flood's target never
//     loses by disconnection;
//   - no lost or truncated record: every game the server ended with a
//     daemon as player has exactly one JSON Lines record under that
//     daemon's games/ folder (the same number and players, started while
//     that server ran), record.Read reads every record there, every record
//     has its result line, its result is the server's, and each game that
//     ended with a result has its revealed moves (as many as the server's
//     legal moves) and a PGN that reads back. The one excuse is a server
//     restart less than restartWindow after the record's last line: the
//     new server knows nothing of the old one's games, so a daemon that
//     had not heard the end may only record "*" (for games the old server
//     aborted at the restart, "aborted" or "*"), and one that had not got
//     the moves has none (both counted in the summary). A daemon never
//     records a result the server did not give;
//   - bounded memory: the test process's HeapInuse after the games (after a
//     GC) stays within the given bound of the one before (logged, with RSS);
//   - no password in any file the daemons or the server wrote (testDir).
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real-time games")
	}
	long := os.Getenv("KRIEGBOT_LONG") != ""
	sc := soakConfig{pairs: 2, games: 2, every: [2]time.Duration{time.Second, 1500 * time.Millisecond},
		stall: [2]time.Duration{time.Second, 2 * time.Second}, timeout: 150 * time.Second, heapBound: 256 << 20,
		kinds: allFaults, once: true}
	if long {
		total := 50
		if s := os.Getenv("KRIEGBOT_SOAK_GAMES"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 2 {
				t.Fatalf("KRIEGBOT_SOAK_GAMES=%q: want a number of games, at least 2", s)
			}
			total = n
		}
		sc.games = (total + sc.pairs - 1) / sc.pairs
		sc.every = [2]time.Duration{2 * time.Second, 6 * time.Second}
		sc.stall = [2]time.Duration{time.Second, 8 * time.Second}
		sc.timeout = time.Duration(sc.games) * 90 * time.Second
		sc.heapBound = 512 << 20
		sc.once = false
	}
	sc.seed = uint64(time.Now().UnixNano())
	if s := os.Getenv("KRIEGBOT_SOAK_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("KRIEGBOT_SOAK_SEED=%q: %v", s, err)
		}
		sc.seed = n
	}
	sc.challenger = "heuristic"
	if p := os.Getenv("KRIEGBOT_SOAK_PLAYER"); p != "" {
		sc.challenger = p
	}
	runSoak(t, sc)
}

// faultKind is one kind of fault.
type faultKind string

const (
	fCut      faultKind = "cut"
	fDelay    faultKind = "delay"
	fStall    faultKind = "stall"
	fGarbage  faultKind = "garbage"
	fOversize faultKind = "oversize"
	fRestart  faultKind = "restart"
	fFlood    faultKind = "flood"
	fGuess    faultKind = "guess"
)

var allFaults = []faultKind{fDelay, fGarbage, fStall, fFlood, fCut, fOversize, fGuess, fRestart}

type soakConfig struct {
	pairs, games int              // pairs of daemons; games each challenger plays
	every        [2]time.Duration // time between two faults, drawn in this range
	stall        [2]time.Duration // length of a stall
	timeout      time.Duration    // bound on the whole run (not a speed assertion)
	heapBound    uint64           // allowed HeapInuse growth
	kinds        []faultKind
	once         bool   // each kind once, in order, and no more (CI)
	challenger   string // the challengers' player spec
	seed         uint64
}

// baseLag is every link's delay each way outside a delay fault: it makes a
// game of the quick players last some seconds (a round trip per attempt,
// charged to the mover's clock), so that faults find games in progress.
const baseLag = 20 * time.Millisecond

// disconnectGrace is the server's grace for a player who dropped out of a
// game: a cut daemon comes back well within it.
const disconnectGrace = 20 * time.Second

// soakAccounts are the pairs: challenger (heuristic) and acceptor (random).
var soakAccounts = [][2]string{{"kriegbot", "sparring"}, {"owner", "stranger"}}

// soakServer is the server across restarts, on one address.
type soakServer struct {
	t      *testing.T
	addr   string
	log    *lockedWriter
	mu     sync.Mutex
	epochs []*soakEpoch
}

type soakEpoch struct {
	srv        *telnetServer
	start, end time.Time
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, time.Now().UTC().Format("15:04:05.000 ")+format+"\n", args...)
}

func startSoakServer(t *testing.T) *soakServer {
	dir := testDir(t)
	f, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	s := &soakServer{t: t, log: &lockedWriter{w: f}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(func() { s.current().Close() })
	return s
}

func (s *soakServer) serve(ln net.Listener) {
	pw := map[string]string{}
	for h, p := range testPasswords {
		pw[h] = p
	}
	pw["fan00"] = "fan-pw"
	acc, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		s.t.Fatal(err)
	}
	srv, err := newTelnetServer(server.Config{Rules: umpire.Olympiad(), Accounts: acc, DisconnectGrace: disconnectGrace,
		Log: zerolog.New(zerolog.ConsoleWriter{Out: io.Discard, FormatMessage: func(m any) string { s.log.printf("%s", m); return "" }})})
	if err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	s.epochs = append(s.epochs, &soakEpoch{srv: srv, start: time.Now()})
	s.mu.Unlock()
	go srv.Serve(ln)
}

func (s *soakServer) current() *telnetServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epochs[len(s.epochs)-1].srv
}

// restart closes the server (its games end aborted) and starts a new one
// on the same address.
func (s *soakServer) restart() error {
	s.mu.Lock()
	e := s.epochs[len(s.epochs)-1]
	e.end = time.Now()
	s.mu.Unlock()
	e.srv.Close()
	s.log.printf("soak: server restarted")
	var ln net.Listener
	var err error
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return err
		}
	}
	s.serve(ln)
	return nil
}

// soakGame is a game the server finished, with the server run it was on.
type soakGame struct {
	server.FinishedGame
	epoch      int
	start, end time.Time // the server run's
	// until bounds the records that may be this game's: the next server
	// run's start (or now). Not end: a game the closing server started may
	// be heard after end, from bytes already in flight.
	until time.Time
}

func (s *soakServer) finished() []soakGame {
	s.mu.Lock()
	epochs := append([]*soakEpoch(nil), s.epochs...)
	s.mu.Unlock()
	var out []soakGame
	for i, e := range epochs {
		end := e.end
		if end.IsZero() {
			end = time.Now()
		}
		until := time.Now()
		if i+1 < len(epochs) {
			until = epochs[i+1].start
		}
		for _, g := range e.srv.Finished() {
			out = append(out, soakGame{FinishedGame: g, epoch: i, start: e.start, end: end, until: until})
		}
	}
	return out
}

// outage is a time one daemon's link could not carry its moves.
type outage struct {
	kind       faultKind
	start, end time.Time
}

// soakLink is one daemon and its proxy.
type soakLink struct {
	handle string
	px     *faultProxy
	d      *Daemon
	dir    string
	mu     sync.Mutex
	cuts   []time.Time // cut or restart times, ended by the next connection
	out    []outage    // outages of known length
}

func (l *soakLink) addOutage(o outage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.out = append(l.out, o)
}

func (l *soakLink) addCut(at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cuts = append(l.cuts, at)
}

// outages returns every outage, cuts ended at the proxy's next connection
// plus a second for the login (or at end, when none came).
func (l *soakLink) outages(end time.Time) []outage {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]outage(nil), l.out...)
	for _, c := range l.cuts {
		e := end
		if a := l.px.acceptedAfter(c); !a.IsZero() {
			e = a.Add(time.Second)
		}
		out = append(out, outage{kind: fCut, start: c, end: e})
	}
	return out
}

// soakStats counts what happened.
type soakStats struct {
	mu      sync.Mutex
	faults  map[faultKind]int
	floods  int // lines the flooder sent
	guesses int // guesses sent
	logins  int // guesses that logged in (must stay 0)
}

func (s *soakStats) add(k faultKind) {
	s.mu.Lock()
	s.faults[k]++
	s.mu.Unlock()
}

func runSoak(t *testing.T, sc soakConfig) {
	began := time.Now()
	runtime.GC()
	heap0, rss0 := memNow()
	rng := rand.New(rand.NewPCG(sc.seed, 0x736f616b))
	t.Logf("soak: %d pairs x %d games, %s vs random, faults %v, seed %d (KRIEGBOT_SOAK_SEED)", sc.pairs, sc.games, sc.challenger, sc.kinds, sc.seed)

	ss := startSoakServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), sc.timeout)
	defer cancel()
	var links []*soakLink
	var challengers, acceptors []*soakLink
	for p := 0; p < sc.pairs; p++ {
		for side, h := range soakAccounts[p] {
			l := &soakLink{handle: h, px: startFaultProxy(t, ss.addr)}
			l.px.setLag(baseLag)
			cfg := testConfig(t, h, ss.addr)
			cfg.Policy.SeekBase, cfg.Policy.SeekIncrement = 1, 0
			cfg.Policy.AbortAfter = config.Duration{Duration: 30 * time.Second}
			player := "random"
			if side == 0 {
				player = sc.challenger
				cfg.Policy.Challenge = soakAccounts[p][1]
				cfg.Policy.Games = sc.games // the limit, not a soft quit from here: see below
				challengers = append(challengers, l)
			} else {
				acceptors = append(acceptors, l)
			}
			l.d, l.dir = newTestDaemon(t, cfg, l.px.addr(), player, nil)
			links = append(links, l)
		}
	}
	stats := &soakStats{faults: map[faultKind]int{}}

	// The daemons.
	var running sync.WaitGroup
	exits := make([]int, len(links))
	for i, l := range links {
		running.Add(1)
		go func() { defer running.Done(); exits[i] = l.d.Run(ctx) }()
	}
	t.Cleanup(func() { // a failed test still stops every daemon before its folder goes
		for _, l := range links {
			l.d.HardQuit()
		}
		running.Wait()
	})

	// The faults, until the challengers are done.
	var challengersDone atomic.Bool
	faultsDone := make(chan struct{})
	var side sync.WaitGroup // floods and guesses in flight
	go func() {
		defer close(faultsDone)
		for i := 0; ; i++ {
			d := sc.every[0] + time.Duration(rng.Int64N(int64(sc.every[1]-sc.every[0])+1))
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
			if sc.once && i >= len(sc.kinds) || !sc.once && challengersDone.Load() {
				return
			}
			k := sc.kinds[rng.IntN(len(sc.kinds))]
			if k == fRestart && rng.IntN(3) != 0 { // a restart aborts every game: a third as often
				k = sc.kinds[rng.IntN(len(sc.kinds))]
			}
			if sc.once && i < len(sc.kinds) {
				k = sc.kinds[i]
			}
			target := links[rng.IntN(len(links))]
			soakFault(t, ctx, k, target, links, acceptors[rng.IntN(len(acceptors))], ss, sc, rng, stats, &side)
		}
	}()

	// The challengers play their games and leave by their game limit. (A
	// soft quit crossing a challenge just sent is TestSoftQuitCrossesChallenge.)
	for _, l := range challengers {
		for finishedOf(l.d) < sc.games || l.d.Playing() > 0 {
			select {
			case <-ctx.Done():
				t.Fatalf("the soak did not end within %v: %s has %d of %d games; server games: %s",
					sc.timeout, l.handle, finishedOf(l.d), sc.games, describeGames(ss.finished()))
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	challengersDone.Store(true)
	<-faultsDone // CI: until each kind has been injected once
	side.Wait()
	// Everyone leaves: the challengers by their game limit, once their last
	// move list came (a second SoftQuit would make them leave at once,
	// without it); the acceptors by a soft quit, which waits for it too.
	for _, l := range acceptors {
		l.d.SoftQuit()
	}
	stopped := make(chan struct{})
	go func() { running.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(wait):
		t.Fatal("the daemons did not leave within 30 s of a soft quit")
	}
	for i, l := range links {
		if exits[i] != ExitDone {
			t.Errorf("%s exited with %d", l.handle, exits[i])
		}
	}
	elapsed := time.Since(began)

	games := ss.finished()
	forfeits, dis := checkSoakGames(t, games, links)
	excused := checkSoakRecords(t, games, links)

	runtime.GC()
	heap1, rss1 := memNow()
	reconnections := 0
	for _, l := range links {
		reconnections += l.d.connections - 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "soak summary (seed %d, %v):\n", sc.seed, elapsed.Round(time.Second))
	fmt.Fprintf(&b, "  %-26s %d (%s)\n", "games on the server", len(games), codeCounts(games))
	for _, k := range allFaults {
		fmt.Fprintf(&b, "  %-26s %d\n", "faults: "+string(k), stats.faults[k])
	}
	fmt.Fprintf(&b, "  %-26s %d lines, %d guesses, %d logged in\n", "flood lines / guesses", stats.floods, stats.guesses, stats.logins)
	fmt.Fprintf(&b, "  %-26s %d (excused by outages: %d), lost by disconnection %d\n", "time forfeits (daemons)", forfeits[0]+forfeits[1], forfeits[1], dis)
	fmt.Fprintf(&b, "  %-26s %d\n", "reconnections", reconnections)
	fmt.Fprintf(&b, "  %-26s %d result unknown (\"*\"), %d without moves\n", "server restarted first", excused.unknown, excused.noMoves)
	fmt.Fprintf(&b, "  %-26s %d\n", "resigned with no attempt", countLogLines(links, "the player has no attempt"))
	fmt.Fprintf(&b, "  %-26s %.1f MiB -> %.1f MiB\n", "HeapInuse before/after", mib(heap0), mib(heap1))
	fmt.Fprintf(&b, "  %-26s %.1f MiB -> %.1f MiB\n", "RSS before/after", mib(rss0), mib(rss1))
	t.Log(b.String())
	if t.Failed() {
		dumpSoakLogs(t, links)
	}
	if stats.logins != 0 {
		t.Errorf("%d password guesses logged in", stats.logins)
	}
	if heap1 > heap0+sc.heapBound {
		t.Errorf("HeapInuse grew from %.1f MiB to %.1f MiB (bound +%.0f MiB)", mib(heap0), mib(heap1), mib(sc.heapBound))
	}
}

func finishedOf(d *Daemon) int { f, _, _, _ := d.Score(); return f }

// soakFault injects one fault of kind k.
func soakFault(t *testing.T, ctx context.Context, k faultKind, target *soakLink, links []*soakLink, floodTarget *soakLink,
	ss *soakServer, sc soakConfig, rng *rand.Rand, stats *soakStats, side *sync.WaitGroup) {
	now := time.Now()
	stats.add(k)
	switch k {
	case fCut:
		target.addCut(now)
		target.px.cut()
	case fDelay:
		lag := time.Duration(50+rng.IntN(251)) * time.Millisecond
		d := time.Duration(2000+rng.IntN(3001)) * time.Millisecond
		target.px.setLag(baseLag + lag)
		time.AfterFunc(d, func() { target.px.setLag(baseLag) })
	case fStall:
		d := sc.stall[0] + time.Duration(rng.Int64N(int64(sc.stall[1]-sc.stall[0])+1))
		target.addOutage(outage{kind: fStall, start: now, end: now.Add(d)})
		target.px.stallFor(d)
	case fGarbage:
		junk := make([]byte, 1+rng.IntN(512))
		for i := range junk {
			junk[i] = byte(rng.UintN(256))
		}
		target.addOutage(outage{kind: fGarbage, start: now, end: now.Add(target.d.pollEvery())})
		target.px.injectToClient(junk)
	case fOversize:
		line := append(bytes.Repeat([]byte("oversize "), (1<<20)/9), '\r', '\n')
		target.addOutage(outage{kind: fOversize, start: now, end: now.Add(target.d.pollEvery())})
		target.px.injectToClient(line)
	case fRestart:
		for _, l := range links {
			l.addCut(now)
		}
		if err := ss.restart(); err != nil {
			t.Errorf("restart: %v", err)
		}
	case fFlood:
		side.Add(1)
		go func() { defer side.Done(); soakFlood(ctx, ss.addr, floodTarget.handle, 2*time.Second, stats) }()
	case fGuess:
		seed := rng.Uint64() // rng is the fault loop's: drawn here, not in the goroutine
		side.Add(1)
		go func() { defer side.Done(); soakGuess(t, ctx, ss.addr, "kriegbot", 30, seed, stats) }()
	}
}

// soakFlood logs in as fan00 directly on the server and floods target with
// tells and seek/unseek pairs for d, reading what comes back.
func soakFlood(ctx context.Context, addr, target string, d time.Duration, stats *soakStats) {
	var dl net.Dialer
	c, err := dl.DialContext(ctx, "tcp", addr)
	if err != nil {
		return // the server is restarting
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(d + 5*time.Second))
	go io.Copy(io.Discard, c)
	if _, err := io.WriteString(c, "fan00\r\nfan-pw\r\n"); err != nil {
		return
	}
	tells := strings.Repeat("tell "+target+" x;", 200)
	seeks := strings.Repeat("seek 90 0;unseek;", 100) // 90 minutes: no daemon's policy plays it
	w := bufio.NewWriter(c)
	for end, i := time.Now().Add(d), 0; time.Now().Before(end) && ctx.Err() == nil; i++ {
		line := tells
		if i%2 == 1 {
			line = seeks
		}
		if _, err := w.WriteString(line[:len(line)-1] + "\r\n"); err != nil {
			return
		}
		if w.Flush() != nil {
			return
		}
		stats.mu.Lock()
		stats.floods++
		stats.mu.Unlock()
	}
}

// soakGuess makes n connections from 127.0.0.2 that each try one wrong
// password of handle at once; none may log in.
func soakGuess(t *testing.T, ctx context.Context, addr, handle string, n int, seed uint64, stats *soakStats) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dl := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
			c, err := dl.DialContext(ctx, "tcp", addr)
			if err != nil {
				if !strings.Contains(err.Error(), "refused") {
					t.Errorf("guess: %v", err)
				}
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(c, "%s\r\nguess-%x-%d\r\n", handle, seed, i)
			stats.mu.Lock()
			stats.guesses++
			stats.mu.Unlock()
			out, _ := io.ReadAll(io.LimitReader(c, 64<<10))
			if bytes.Contains(out, []byte("Starting session")) {
				stats.mu.Lock()
				stats.logins++
				stats.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// readSoakRecords reads every record in a daemon's games folder.
func readSoakRecords(t *testing.T, l *soakLink) []*record.Record {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(l.dir, "games", "*.jsonl"))
	var out []*record.Record
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r, err := record.Read(f, name)
		f.Close()
		if err != nil {
			t.Errorf("%s: a record that does not read: %v", l.handle, err)
			continue
		}
		out = append(out, r)
	}
	return out
}

// lastT is the time of a record's last timed line.
func lastT(r *record.Record) time.Time {
	t := r.Game.Start
	for _, s := range r.Steps {
		if s.T.After(t) {
			t = s.T
		}
	}
	return t
}

// matchRecords returns the records of server game g in recs.
func matchRecords(g soakGame, recs []*record.Record) []*record.Record {
	var out []*record.Record
	for _, r := range recs {
		if r.Game.Number == g.Number && r.Game.White == g.White && r.Game.Black == g.Black &&
			!r.Game.Start.Before(g.start) && r.Game.Start.Before(g.until) {
			out = append(out, r)
		}
	}
	return out
}

// checkSoakGames checks how the server's games ended: forfeits on time are
// counted [ours, excused], losses by disconnection returned.
func checkSoakGames(t *testing.T, games []soakGame, links []*soakLink) (forfeits [2]int, dis int) {
	t.Helper()
	byHandle := map[string]*soakLink{}
	recs := map[string][]*record.Record{}
	for _, l := range links {
		byHandle[l.handle] = l
		recs[l.handle] = readSoakRecords(t, l)
	}
	end := time.Now()
	for _, g := range games {
		var loser string
		switch g.Result {
		case "1-0":
			loser = g.Black
		case "0-1":
			loser = g.White
		}
		l := byHandle[loser]
		if l == nil || g.Code != "Fla" && g.Code != "Dis" {
			continue
		}
		if g.Code == "Dis" {
			dis++
		}
		rs := matchRecords(g, recs[loser])
		if len(rs) == 0 {
			t.Errorf("game %d (run %d) %s-%s %s %s: no record of %s to judge it by", g.Number, g.epoch, g.White, g.Black, g.Result, g.Description, loser)
			continue
		}
		r := rs[len(rs)-1]
		from, to := rs[0].Game.Start, lastT(r)
		var during []outage
		for _, o := range l.outages(end) {
			if !o.start.Before(from) && !o.start.After(to) {
				during = append(during, o)
			}
		}
		sort.Slice(during, func(i, j int) bool { return during[i].start.Before(during[j].start) })
		switch g.Code {
		case "Fla":
			clock := time.Duration(r.Game.BaseMin) * time.Minute
			var sum time.Duration
			for _, o := range during {
				sum += o.end.Sub(o.start)
			}
			if len(during) > 0 {
				for _, rr := range rs {
					for _, s := range rr.Steps {
						if s.Kind == record.StepClock && !s.T.After(during[0].start) {
							clock = s.Clock.Ours
						}
					}
				}
			}
			if len(during) > 0 && sum >= clock {
				forfeits[1]++
				t.Logf("game %d (run %d): %s lost on time after %v of outages %v with %v on its clock: excused", g.Number, g.epoch, loser, sum, during, clock)
				continue
			}
			forfeits[0]++
			t.Errorf("game %d (run %d) %s-%s: %s lost on time (%s) with %v on its clock before outages totalling %v %v: our forfeit",
				g.Number, g.epoch, g.White, g.Black, loser, g.Description, clock, sum, during)
		case "Dis":
			excused := false
			for _, o := range during {
				excused = excused || o.end.Sub(o.start) > disconnectGrace
			}
			if !excused {
				t.Errorf("game %d (run %d) %s-%s: %s lost by disconnection (%s) with outages %v, none longer than the server's grace %v",
					g.Number, g.epoch, g.White, g.Black, loser, g.Description, during, disconnectGrace)
			}
		}
	}
	return forfeits, dis
}

// recordCounts counts the records the soak excuses: a game whose server
// restarted before the daemon heard its end (result "*") or got its moves.
type recordCounts struct{ unknown, noMoves int }

// restartWindow: a game's record that ends less than this before its
// server's restart may lack what only that server knew (the daemon asks
// again after reconnecting, to the new server, which does not know it).
const restartWindow = 30 * time.Second

func lastEpoch(games []soakGame) int {
	n := 0
	for _, g := range games {
		n = max(n, g.epoch)
	}
	return n
}

// checkSoakRecords checks that every server game of a daemon has its whole
// record, and that every record there is whole.
func checkSoakRecords(t *testing.T, games []soakGame, links []*soakLink) (c recordCounts) {
	t.Helper()
	for _, l := range links {
		recs := readSoakRecords(t, l)
		for _, r := range recs {
			if r.Result == nil {
				t.Errorf("%s: %s has no result line (game %d, %d lines read)", l.handle, filepath.Base(r.Name), r.Game.Number, len(r.Steps)+1)
			}
		}
		for _, g := range games {
			if g.White != l.handle && g.Black != l.handle {
				continue
			}
			rs := matchRecords(g, recs)
			what := fmt.Sprintf("%s: game %d (run %d) %s-%s %s %q", l.handle, g.Number, g.epoch, g.White, g.Black, g.Result, g.Description)
			if len(rs) != 1 {
				var names []string
				for _, r := range rs {
					names = append(names, filepath.Base(r.Name))
				}
				t.Errorf("%s: %d records, want 1: %v", what, len(rs), names)
				if len(rs) == 0 {
					continue
				}
			}
			r := rs[len(rs)-1]
			if r.Result == nil {
				continue // said above
			}
			// A server that restarted knows nothing of its games: a daemon
			// that did not hear the end before the restart records "*".
			restarted := !g.end.IsZero() && g.end.Sub(lastT(r)) < restartWindow && g.epoch < lastEpoch(games)
			if g.Result == "aborted" {
				if r.Result.Result != "aborted" && r.Result.Result != "*" {
					t.Errorf("%s: the record says %s %s %q", what, r.Result.Result, r.Result.Code, r.Result.Reason)
				}
				continue
			}
			if r.Result.Result == "*" && restarted {
				c.unknown++
				continue
			}
			if r.Result.Result != g.Result {
				t.Errorf("%s: the record says %s %s %q", what, r.Result.Result, r.Result.Code, r.Result.Reason)
			}
			legal := 0
			for _, a := range g.Answers {
				if a.Legal {
					legal++
				}
			}
			if r.Moves == nil && restarted {
				c.noMoves++ // the server that had the moves is gone
				continue
			}
			if len(r.Moves) != legal {
				t.Errorf("%s: %s has %d revealed moves, the server %d legal moves (last line %s, server run %s-%s)", what,
					filepath.Base(r.Name), len(r.Moves), legal, lastT(r).Format("15:04:05.000"), g.start.Format("15:04:05.000"), g.end.Format("15:04:05.000"))
				continue
			}
			pgn := strings.TrimSuffix(r.Name, ".jsonl") + ".pgn"
			data, err := os.ReadFile(pgn)
			if err != nil {
				t.Errorf("%s: no PGN: %v", what, err)
				continue
			}
			pg, err := pgnread.ParseGame(data)
			if err != nil || len(pg.Moves) != legal || pg.Result != g.Result {
				t.Errorf("%s: %s does not read back (%v)", what, filepath.Base(pgn), err)
			}
		}
	}
	return c
}

func describeGames(games []soakGame) string {
	var b strings.Builder
	for _, g := range games {
		fmt.Fprintf(&b, "\n  run %d game %d %s-%s %s %s %q", g.epoch, g.Number, g.White, g.Black, g.Result, g.Code, g.Description)
	}
	return b.String()
}

func codeCounts(games []soakGame) string {
	n := map[string]int{}
	for _, g := range games {
		n[g.Code]++
	}
	var parts []string
	for c, k := range n {
		parts = append(parts, fmt.Sprintf("%s %d", c, k))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// memNow returns the process's HeapInuse and resident set size (0 where
// /proc is not there).
func memNow() (heap, rss uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseUint(f[1], 10, 64)
				rss = kb << 10
			}
		}
	}
	return m.HeapInuse, rss
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// dumpSoakLogs logs the daemons' notable log lines (not the debug ones),
// the last 40 of each, for a failed run.
func dumpSoakLogs(t *testing.T, links []*soakLink) {
	for _, l := range links {
		data, _ := os.ReadFile(filepath.Join(l.dir, "daemon.log"))
		var lines []string
		for _, line := range strings.Split(string(data), "\n") {
			if line != "" && !strings.Contains(line, `"level":"debug"`) {
				lines = append(lines, line)
			}
		}
		t.Logf("%s's log, the last %d of %d lines:\n%s", l.handle, min(40, len(lines)), len(lines), strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
}

// countLogLines counts the daemons' log lines holding text.
func countLogLines(links []*soakLink, text string) int {
	n := 0
	for _, l := range links {
		data, _ := os.ReadFile(filepath.Join(l.dir, "daemon.log"))
		n += bytes.Count(data, []byte(text))
	}
	return n
}
