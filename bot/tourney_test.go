package bot

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/tddoor"
)

// The tournament tests script a TD on the wire: tdWire sits between the
// daemon and a real server (which logs it in and plays its games), records
// every line the daemon sends, and injects what a TD's server would send
// (DG 63, 103 and 104, the TD text lines) into the daemon's stream.

// tdWire is the scripted TD's proxy.
type tdWire struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	lines  []string // every line the daemon sent, in order, over all connections
	links  []*tdLink
	deaf   bool // the server's output is dropped (a server that died without a word)
}

type tdLink struct {
	c, s   net.Conn
	inject chan []byte
}

func startTDWire(t *testing.T, target string) *tdWire {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &tdWire{ln: ln, target: target}
	go w.serve()
	t.Cleanup(func() { ln.Close(); w.cut() })
	return w
}

func (w *tdWire) addr() string { return w.ln.Addr().String() }

func (w *tdWire) serve() {
	for {
		c, err := w.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", w.target)
		if err != nil {
			c.Close()
			continue
		}
		l := &tdLink{c: c, s: s, inject: make(chan []byte, 64)}
		w.mu.Lock()
		w.links = append(w.links, l)
		w.mu.Unlock()
		go w.up(l)
		go w.down(l)
	}
}

// up copies the daemon's lines to the server, recording each.
func (w *tdWire) up(l *tdLink) {
	defer l.s.Close()
	r := bufio.NewReader(l.c)
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			w.mu.Lock()
			w.lines = append(w.lines, strings.TrimRight(line, "\r\n"))
			w.mu.Unlock()
			if _, err := l.s.Write([]byte(line)); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// down copies the server's output to the daemon; injected bytes go out
// between two chunks (the server writes whole units, so they never land
// inside one).
func (w *tdWire) down(l *tdLink) {
	ch := make(chan []byte, 1024)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := l.s.Read(buf)
			if n > 0 {
				ch <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				close(ch)
				return
			}
		}
	}()
	defer l.c.Close()
	for {
		var b []byte
		select {
		case c, ok := <-ch:
			if !ok {
				return
			}
			w.mu.Lock()
			deaf := w.deaf
			w.mu.Unlock()
			if deaf {
				continue
			}
			b = c
		case b = <-l.inject:
		}
		if _, err := l.c.Write(b); err != nil {
			return
		}
	}
}

// send injects b into the current connection's server output.
func (w *tdWire) send(t *testing.T, b []byte) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.links) == 0 {
		t.Fatal("no connection to inject into")
	}
	w.links[len(w.links)-1].inject <- b
}

// text injects a server text line (a TD's line as the server prints it).
func (w *tdWire) text(t *testing.T, line string) { w.send(t, []byte(line+"\r\n")) }

// dg injects a datagram.
func (w *tdWire) dg(t *testing.T, d interface {
	Number() int
	Fields() []string
}) {
	w.send(t, protocol.AppendDatagram(nil, d.Number(), d.Fields()...))
}

// tell injects a personal tell (DG 31) from name.
func (w *tdWire) tell(t *testing.T, name, text string) {
	w.send(t, protocol.AppendDatagram(nil, protocol.DGPersonalTell, name, "", text, "1"))
}

func (w *tdWire) cut() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range w.links {
		l.c.Close()
		l.s.Close()
	}
	w.links = nil
}

// setDeaf drops (or forwards again) the server's output.
func (w *tdWire) setDeaf(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deaf = on
}

// sent returns the lines the daemon sent so far.
func (w *tdWire) sent() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

// count counts the lines sent equal to line.
func (w *tdWire) count(line string) int {
	n := 0
	for _, l := range w.sent() {
		if l == line {
			n++
		}
	}
	return n
}

// prefixed counts the lines sent that start with p.
func (w *tdWire) prefixed(p string) int {
	n := 0
	for _, l := range w.sent() {
		if strings.HasPrefix(l, p) {
			n++
		}
	}
	return n
}

// waitLine waits until the daemon has sent line n times in all.
func (w *tdWire) waitLine(t *testing.T, line string, n int) {
	t.Helper()
	for deadline := time.Now().Add(wait); w.count(line) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never sent %q (%d times); it sent:\n%s", line, n, strings.Join(w.sent(), "\n"))
		}
	}
}

// sync makes sure the daemon has read everything injected so far: it asks
// its owner's status (an injected tell) and waits for the reply, which the
// daemon writes only after handling all that came before.
func (w *tdWire) sync(t *testing.T) {
	t.Helper()
	before := w.prefixed("tell owner ")
	w.tell(t, "owner", "tourney")
	for deadline := time.Now().Add(wait); w.prefixed("tell owner ") <= before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no reply to the owner; the daemon sent:\n%s", strings.Join(w.sent(), "\n"))
		}
	}
}

// lastTell returns the last tell the daemon sent to owner.
func (w *tdWire) lastTell() string {
	s := w.sent()
	for i := len(s) - 1; i >= 0; i-- {
		if r, ok := strings.CutPrefix(s[i], "tell owner "); ok {
			return r
		}
	}
	return ""
}

// tourneyDaemon starts a server, the scripted TD's wire and a daemon
// (owner "owner", seeking when idle, refusing games over 3 minutes) with
// change applied to its configuration; it returns the daemon running.
type tourneyRig struct {
	addr    string // the server
	w       *tdWire
	d       *Daemon
	dir     string
	console *lockedBuffer
	done    chan int
	ctx     context.Context
	clock   *readCounter // the daemon's clock
}

// readCounter is a daemon's clock that counts the reads made by the bot's
// own code (not its session's watchdog): the daemon's loop reads the clock
// on each tick of its timers, so a test waits for ticks rather than
// sleeping through some. The bot's reads can be put ahead of real time
// (ahead, in nanoseconds) to pass its own waits; the session's keep real
// time, so its watchdog does not cut the line.
type readCounter struct{ reads, ahead atomic.Int64 }

func (c *readCounter) now() time.Time {
	if pc, _, _, ok := runtime.Caller(1); ok && strings.HasPrefix(runtime.FuncForPC(pc).Name(), "kriegbot/bot") {
		c.reads.Add(1)
		return time.Now().Add(time.Duration(c.ahead.Load()))
	}
	return time.Now()
}

// ticks waits until at least k whole ticks of the daemon's timers and
// policy ran after a sync (nothing left to handle). A pass of the daemon's
// loop reads the clock at most twice (a tick's timers, then the drivers),
// so 2k+1 more reads will do; a line handled meanwhile only shortens the
// wait. Sync again before looking at the wire.
func (r *tourneyRig) ticks(t *testing.T, k int64) {
	t.Helper()
	want := r.clock.reads.Load() + 2*k + 1
	waitFor(t, func() bool { return r.clock.reads.Load() >= want })
}

func startTourneyRig(t *testing.T, change func(*config.Config)) *tourneyRig {
	t.Helper()
	// The server's own TD goes by another name: "TD" is the scripted one
	// alone, so that the server's answers to our joins do not mix in.
	_, addr := startTestServerTD(t, server.Config{}, tddoor.Config{Handle: "ServerTD"})
	w := startTDWire(t, addr)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Owner.Handles = []string{"owner"}
	cfg.Policy.Seek = true
	cfg.Policy.MaxBase = 3
	cfg.Policy.AnswerSeeks = false
	if change != nil {
		change(&cfg)
	}
	con := &lockedBuffer{}
	d, dir := newTestDaemon(t, cfg, w.addr(), "heuristic", con)
	clock := &readCounter{}
	d.opt.Now = clock.now
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	r := &tourneyRig{addr: addr, w: w, d: d, dir: dir, console: con, done: make(chan int, 1), ctx: ctx, clock: clock}
	go func() { r.done <- d.Run(ctx) }()
	t.Cleanup(func() {
		d.HardQuit()
		select {
		case <-r.done:
		case <-time.After(wait):
			t.Error("the daemon did not stop")
		}
		cancel()
	})
	// Logged in once the level2 and settings lines went out and the
	// daemon answers its owner.
	w.waitLine(t, "set-2 103 1", 1)
	w.sync(t)
	return r
}

// log returns the daemon's log so far.
func (r *tourneyRig) log(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The three pairing forms are each answered once, with the form's own
// answer, even when the same pairing comes again or in a second form.
func TestTourneyPairingForms(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{7} })
	w := r.w
	w.waitLine(t, "tell TD join 7", 1)
	w.text(t, ":You have joined tourney #7.")

	// DG 63, twice, then the same pairing as the tourney-set line: the
	// suggestion's command goes out once, and nothing for the line.
	sug := protocol.SuggestionDG{Command: "match fan01 5 0 u w16", Text: "round 1", Priority: 1, Suggester: "TD", Subject: "fan01", ID: 1}
	w.dg(t, sug)
	w.dg(t, sug)
	w.text(t, `tourney set to "TD KS1 * fan01 5 0 5 0 u w16 white 1" by TD.`)
	w.sync(t)
	if n := w.count("match fan01 5 0 u w16"); n != 1 {
		t.Errorf("the suggestion was answered %d times, want once", n)
	}
	if n := w.prefixed("match fan01!"); n != 0 {
		t.Errorf("the same pairing's tourney-set line was answered too")
	}

	// The tourney-set line alone (a new round, a new opponent): "match X!".
	set := `tourney set to "TD KS1 * fan02 5 0 5 0 u w16 black 2" by TD.`
	w.text(t, set)
	w.text(t, set)
	w.sync(t)
	if n := w.count("match fan02!"); n != 1 {
		t.Errorf("the tourney-set line was answered %d times, want once", n)
	}

	// The mamer line: "td play N".
	w.text(t, ":You play white against fan03 in this round of tourney #7.")
	w.text(t, ":You play white against fan03 in this round of tourney #7.")
	w.sync(t)
	if n := w.count("td play 7"); n != 1 {
		t.Errorf("the mamer line was answered %d times, want once", n)
	}
	if n := w.prefixed("seek"); n != 0 {
		t.Errorf("the daemon sought while in an event: %d seek lines", n)
	}
	waitFor(t, func() bool { return strings.Contains(r.console.String(), "paired with fan03") }) // shown at the next tick
	for _, want := range []string{"tourney: joined tourney #7 (TD)", "paired with fan01", "paired with fan02 (we play black)", "paired with fan03 (we play white)"} {
		if !strings.Contains(r.console.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, r.console.String())
		}
	}
}

// challenge sends a challenge from s to the daemon and waits for the
// daemon's answer ("accept" or "decline").
func challengeDaemon(t *testing.T, r *tourneyRig, from string, s interface{ Send(string) error }, min, inc int) string {
	t.Helper()
	acc, dec := r.w.count("accept "+from), r.w.count("decline "+from)
	if err := s.Send(fmt.Sprintf("match kriegbot %d %d u", min, inc)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		switch {
		case r.w.count("accept "+from) > acc:
			return "accept"
		case r.w.count("decline "+from) > dec:
			return "decline"
		case time.Now().After(deadline):
			t.Fatalf("no answer to %s's challenge; the daemon sent:\n%s", from, strings.Join(r.w.sent(), "\n"))
		}
	}
}

// In an event, the paired opponent's challenge is accepted at the paired
// time control though the policy refuses that control; a stranger's is
// declined though the policy would accept it; a pairing for the game in
// progress is ignored; a soft quit finishes the game, then leaves the event,
// then the server.
func TestTourneyPairedGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{5} })
	w := r.w
	w.waitLine(t, "tell TD join 5", 1)
	opp := dialAs(t, r.ctx, r.addr, "sparring")
	stranger := dialAs(t, r.ctx, r.addr, "stranger")

	// Before the pairing: 5 0 is outside max_base, and in an event nobody
	// unpaired is accepted, whatever the time control.
	if got := challengeDaemon(t, r, "sparring", opp, 5, 0); got != "decline" {
		t.Fatalf("unpaired 5 0 challenge: %s", got)
	}
	if got := challengeDaemon(t, r, "stranger", stranger, 2, 1); got != "decline" {
		t.Fatalf("a stranger's challenge in the policy's range, while in an event: %s", got)
	}

	w.text(t, `tourney set to "TD KS1 * sparring 5 0 5 0 u w16 black 1" by TD.`)
	w.waitLine(t, "match sparring!", 1)
	if got := challengeDaemon(t, r, "sparring", opp, 4, 0); got != "decline" {
		t.Fatalf("the paired opponent at another time control: %s", got)
	}
	if got := challengeDaemon(t, r, "sparring", opp, 5, 0); got != "accept" {
		t.Fatalf("the paired challenge: %s", got)
	}
	waitFor(t, func() bool { return r.d.Playing() == 1 })

	// The same pairing again, while its game runs: ignored.
	w.dg(t, protocol.SuggestionDG{Command: "match sparring 5 0 u w16", Suggester: "TD", Subject: "sparring"})
	w.text(t, `tourney set to "TD KS1 * sparring 5 0 5 0 u w16 black 1" by TD.`)
	w.sync(t)
	if n, m := w.count("match sparring 5 0 u w16"), w.count("match sparring!"); n != 0 || m != 1 {
		t.Errorf("pairing for the game in progress answered: %d suggestion answers, %d tourney-set answers (want 0, 1)", n, m)
	}

	// The next round's pairing, early: kept until the game is over.
	w.text(t, `tourney set to "TD KS1 * fan01 5 0 5 0 u w16 white 2" by TD.`)
	w.sync(t)
	r.d.SoftQuit()
	w.sync(t)
	if n := w.count("tell TD leave !"); n != 0 {
		t.Fatal("left the event before the game in progress was over")
	}
	if err := opp.Send("resign"); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-r.done:
		r.done <- code
		if code != ExitDone {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(wait):
		t.Fatal("the soft quit never ended the daemon")
	}
	if n := w.count("tell TD leave !"); n != 1 {
		t.Fatalf("left the event %d times, want once; the daemon sent:\n%s", n, strings.Join(w.sent(), "\n"))
	}
	if n := w.count("match fan01!"); n != 0 {
		t.Errorf("a quitting bot answered the next round's pairing")
	}
	if n := w.prefixed("seek"); n != 0 {
		t.Errorf("sought in an event: %d seek lines", n)
	}
	con := r.console.String()
	if !strings.Contains(con, "tourney: tourney #5 (TD) round 1: 0-1 vs sparring") && !strings.Contains(con, "tourney: tourney #5 (TD) round 1: 1-0 vs sparring") {
		t.Errorf("no result line on the console:\n%s", con)
	}
	if !strings.Contains(con, "our score 1/1") {
		t.Errorf("the event score is not on the console:\n%s", con)
	}
	if strings.Contains(con, "back to normal play") {
		t.Errorf("a quitting bot says it goes back to normal play:\n%s", con)
	}
	if !strings.Contains(con, "1 game +") || !strings.Contains(con, ", 1 point\n") {
		t.Errorf("the event's end line counts in the plural:\n%s", con)
	}
}

// Each end of an event (aborted, forfeited, the tourney variable set to
// OFF, DG 104) returns the bot to its normal play: it seeks again.
func TestTourneyEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, w *tdWire)
	}{
		{"aborted", func(t *testing.T, w *tdWire) { w.text(t, ":Tourney #5 has been aborted!") }},
		{"forfeited", func(t *testing.T, w *tdWire) { w.text(t, ":You have been forfeited from tourney #5.") }},
		{"variable off", func(t *testing.T, w *tdWire) { w.text(t, "TD has set your tourney variable to OFF.") }},
		{"removed", func(t *testing.T, w *tdWire) { w.dg(t, protocol.RemoveTourneyDG{ID: 5}) }},
		{"silence", func(t *testing.T, w *tdWire) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startTourneyRig(t, func(c *config.Config) {
				c.Tournament.Join = []int{5}
				if tc.name == "silence" {
					c.Tournament.Silence = config.Duration{Duration: time.Second}
				}
			})
			w := r.w
			w.waitLine(t, "tell TD join 5", 1)
			// The end of another event, and an end from a stranger, change nothing.
			w.text(t, ":Tourney #6 has been aborted!")
			w.text(t, "Mallory has set your tourney variable to OFF.")
			w.dg(t, protocol.RemoveTourneyDG{ID: 6})
			w.tell(t, "stranger", "Tourney #5 has been aborted!")
			if tc.name != "silence" { // the silent TD's second may be over
				w.sync(t)
				r.ticks(t, 2)
				w.sync(t)
				if n := w.prefixed("seek"); n != 0 {
					t.Fatalf("sought while in the event: %d seek lines", n)
				}
			}
			tc.end(t, w)
			w.waitLine(t, "seek 2 1 u w16 m", 1)
			if !strings.Contains(r.console.String(), "back to normal play") {
				t.Errorf("the console was not told:\n%s", r.console.String())
			}
		})
	}
}

// A join the TD refuses (as a tell, ICC style, or a qtell line, FICS
// style) is dropped at once: the bot plays normally again (it seeks)
// instead of waiting, idle, for tournament.silence. Refusals from a
// stranger, or of another event, change nothing.
func TestTourneyJoinRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		refuse func(t *testing.T, w *tdWire)
		why    string
	}{
		{"tell", func(t *testing.T, w *tdWire) {
			w.tell(t, "TD", protocol.TDLine{Kind: protocol.TDJoinRefused, Event: 5, Tag: "KS5", Reason: "it is full (4 players)"}.String())
		}, "it is full (4 players)"},
		{"qtell", func(t *testing.T, w *tdWire) { w.text(t, ":You cannot join tourney #5: it is done.") }, "it is done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{5} })
			w := r.w
			w.waitLine(t, "tell TD join 5", 1)
			w.tell(t, "stranger", "You cannot join tourney #5: it is full.")
			w.text(t, ":You cannot join tourney #6: it is full.")
			w.sync(t)
			r.ticks(t, 2)
			w.sync(t)
			if n := w.prefixed("seek"); n != 0 {
				t.Fatalf("sought while joining: %d seek lines:\n%s", n, strings.Join(w.sent(), "\n"))
			}
			tc.refuse(t, w)
			w.waitLine(t, "seek 2 1 u w16 m", 1)
			con := r.console.String()
			for _, want := range []string{"tourney: tourney #5 (TD) refused our join: " + tc.why, "tourney: back to normal play"} {
				if !strings.Contains(con, want) {
					t.Errorf("console lacks %q:\n%s", want, con)
				}
			}
			if log := r.log(t); !strings.Contains(log, "the TD refused our join") || !strings.Contains(log, "a refused join of an event we are not joining") {
				t.Errorf("the log lacks the refusal or the ignored ones:\n%s", log)
			}
			w.sync(t)
			if got := w.lastTell(); got != "In no tournament." {
				t.Errorf("status after the refusal: %q", got)
			}
		})
	}
}

// Pairings and ends from handles that are not trusted TDs, and pairings in
// events we are not in, are ignored and logged.
func TestTourneyUntrustedTD(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{5} })
	w := r.w
	w.waitLine(t, "tell TD join 5", 1)
	w.text(t, `tourney set to "Mallory KS1 * fan01 5 0 5 0 u w16 white 1" by Mallory.`)
	w.dg(t, protocol.SuggestionDG{Command: "match fan02 5 0 u w16", Suggester: "Mallory", Subject: "fan02"})
	w.tell(t, "stranger", "You play white against fan03 in this round of tourney #5.")
	w.text(t, ":You play white against fan04 in this round of tourney #9.")
	w.dg(t, protocol.SuggestionDG{Command: "quit", Suggester: "TD", Subject: "fan05"})
	w.sync(t)
	for _, l := range w.sent() {
		if strings.HasPrefix(l, "match fan0") && l != "match fan05" || strings.HasPrefix(l, "td play") || l == "quit" {
			t.Errorf("obeyed an untrusted pairing: %q", l)
		}
	}
	if w.count("match fan05") != 1 {
		t.Errorf("a trusted suggestion whose command is no match command: want \"match fan05\"; sent:\n%s", strings.Join(w.sent(), "\n"))
	}
	log := r.log(t)
	for _, want := range []string{"not set by a trusted TD", "not a trusted TD: ignored", "the teller is not a trusted TD", "a pairing in an event we are not in"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if strings.Contains(r.console.String(), "Mallory") {
		t.Errorf("the console shows an untrusted pairing:\n%s", r.console.String())
	}
}

// The owner's tells: join (of a trusted TD only), status, leave.
func TestTourneyOwnerTells(t *testing.T) {
	r := startTourneyRig(t, nil)
	w := r.w
	owner := func(text string) string {
		before := w.prefixed("tell owner ")
		w.tell(t, "owner", text)
		for deadline := time.Now().Add(wait); w.prefixed("tell owner ") <= before; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no reply to %q", text)
			}
		}
		return w.lastTell()
	}
	if got := owner("tourney"); got != "In no tournament." {
		t.Errorf("status: %q", got)
	}
	if got := owner("tourney join 12 Mallory"); !strings.Contains(got, "not a trusted TD") || w.prefixed("tell Mallory") != 0 {
		t.Errorf("join with an untrusted TD: %q", got)
	}
	if got := owner("tourney join x"); !strings.HasPrefix(got, "Usage") {
		t.Errorf("bad join: %q", got)
	}
	if got := owner("tourney join 12"); got != "Joining tourney #12 (TD)." || w.count("tell TD join 12") != 1 {
		t.Errorf("join: %q", got)
	}
	if got := owner("tourney join 12"); got != "Already in tourney #12 (TD)." || w.count("tell TD join 12") != 1 {
		t.Errorf("join twice: %q", got)
	}
	if got := owner("tourney"); !strings.Contains(got, "tourney #12 (TD): joining") {
		t.Errorf("status in an event: %q", got)
	}
	if got := owner("status"); !strings.Contains(got, "tourney: tourney #12 (TD)") {
		t.Errorf("status: %q", got)
	}
	if got := owner("tourney leave"); !strings.HasPrefix(got, "Left") || w.count("tell TD leave !") != 1 {
		t.Errorf("leave: %q", got)
	}
	if got := owner("tourney"); got != "In no tournament." {
		t.Errorf("status after leaving: %q", got)
	}
	w.waitLine(t, "seek 2 1 u w16 m", 1)
}

// Auto-join takes a wild 16 event announced (DG 103) with a join command
// to a trusted TD, and nothing else.
func TestTourneyAutoJoin(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.AutoJoin = true })
	w := r.w
	w.dg(t, protocol.TourneyDG{ID: 8, Description: "Blitz 5 0 chess", Join: "tell TD join 8"})
	w.dg(t, protocol.TourneyDG{ID: 9, Description: "Kriegspiel w16 2 1 Swiss", Join: "tell Mallory join 9"})
	w.dg(t, protocol.TourneyDG{ID: 10, Description: "Kriegspiel w16 2 1 Swiss", Join: "tell TD join 10&quit"})
	w.sync(t)
	if n := w.prefixed("tell TD join") + w.prefixed("tell Mallory") + w.count("quit"); n != 0 {
		t.Fatalf("joined an event it should not: %s", strings.Join(w.sent(), "\n"))
	}
	w.dg(t, protocol.TourneyDG{ID: 11, Description: "Kriegspiel w16 2 1 Swiss", Join: "tell TD join 11"})
	w.waitLine(t, "tell TD join 11", 1)
	w.dg(t, protocol.TourneyDG{ID: 12, Description: "Kriegspiel w16 2 1 Swiss", Join: "tell TD join 12"})
	w.sync(t)
	if w.count("tell TD join 12") != 0 {
		t.Error("joined a second event while in one")
	}
	// Event 11 ends for us; announced again (as after a reconnection, while
	// others still play it), it is not joined again; a new one is.
	w.text(t, "TD has set your tourney variable to OFF.")
	w.dg(t, protocol.TourneyDG{ID: 11, Description: "Kriegspiel w16 2 1 Swiss, running", Join: "tell TD latejoin 11"})
	w.dg(t, protocol.TourneyDG{ID: 13, Description: "Kriegspiel w16 2 1 Swiss", Join: "tell TD join 13"})
	w.waitLine(t, "tell TD join 13", 1)
	if w.count("tell TD latejoin 11") != 0 {
		t.Error("joined again an event that was over for us")
	}
}

// After a reconnection inside an event the daemon joins again.
func TestTourneyRejoinAfterReconnect(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{5} })
	w := r.w
	w.waitLine(t, "tell TD join 5", 1)
	w.cut()
	w.waitLine(t, "tell TD join 5", 2)
	w.waitLine(t, "set-2 103 1", 2)
	w.sync(t)
	if n := w.prefixed("seek"); n != 0 {
		t.Errorf("sought after the reconnection, still in the event: %d", n)
	}
}

// The tournament DGs are turned on only when a TD is trusted.
func TestTourneyDatagrams(t *testing.T) {
	cfg := testConfig(t, "kriegbot", "127.0.0.1:5000")
	d, _ := newTestDaemon(t, cfg, "127.0.0.1:5000", "heuristic", nil)
	tdg := []int{protocol.DGSuggestion, protocol.DGTourney, protocol.DGRemoveTourney}
	for _, n := range tdg {
		if !slices.Contains(d.sessionConfig(cfg, "x").Datagrams, n) {
			t.Errorf("DG %d off with a trusted TD", n)
		}
	}
	cfg.Tournament.TD = []string{}
	for _, n := range tdg {
		if slices.Contains(d.sessionConfig(cfg, "x").Datagrams, n) {
			t.Errorf("DG %d on without a TD", n)
		}
	}
}

// tournament.td not set trusts "TD" on our own server only (on ICC "TD"
// is whoever holds the handle): on an outside server neither the handle
// nor the tournament DGs are taken (cli/runcmd checks what -check shows).
func TestTourneyTDDefault(t *testing.T) {
	cfg := testConfig(t, "kriegbot", "127.0.0.1:5000")
	cfg.Server.Host = "chessclub.com"
	d := New(cfg, Options{})
	if d.trustedTD("TD") {
		t.Error(`"TD" trusted on an outside server by default`)
	}
	if dgs := d.sessionConfig(cfg, "x").Datagrams; slices.Contains(dgs, protocol.DGSuggestion) {
		t.Error("the tournament DGs on an outside server with no TD trusted")
	}
	cfg.Tournament.TD = []string{"TD"}
	if d := New(cfg, Options{}); !d.trustedTD("TD") {
		t.Error(`"TD" listed in tournament.td is not trusted`)
	}
}

// Standings, from tells (ICC style) or qtell lines (FICS style), reach the
// log and the console row by row, also when they come after the event
// ended for us; a stranger's do not.
func TestTourneyStandings(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{5} })
	w := r.w
	w.waitLine(t, "tell TD join 5", 1)
	w.tell(t, "TD", "Tourney #5's standings:")
	w.tell(t, "TD", " 1  kriegbot 1.0")
	w.tell(t, "TD", "Total: round 1 of 3, running.")
	w.tell(t, "TD", "Round 2 starts soon.")
	w.text(t, "TD has set your tourney variable to OFF.")
	w.text(t, ":Tourney #5's standings:")
	w.text(t, ":| 1 | kriegbot | 2.5 |")
	w.text(t, ":Total:")
	w.text(t, ":| 1 | mallory | 9 |")
	w.tell(t, "stranger", "Tourney #5's standings:")
	w.tell(t, "stranger", "1. stranger 9.0")
	w.sync(t)
	con := r.console.String()
	for _, want := range []string{"tourney #5 standings:  1  kriegbot 1.0", "tourney #5 standings: Total: round 1 of 3, running.",
		"tourney #5 standings: | 1 | kriegbot | 2.5 |", "tourney #5 standings: Total:"} {
		if !strings.Contains(con, want) {
			t.Errorf("console lacks %q:\n%s", want, con)
		}
	}
	for _, not := range []string{"Round 2 starts", "mallory", "stranger"} {
		if strings.Contains(con, not) {
			t.Errorf("console shows %q:\n%s", not, con)
		}
	}
	if !strings.Contains(r.log(t), `"row":"| 1 | kriegbot | 2.5 |"`) {
		t.Error("the standings are not in the log")
	}
}

// FuzzAnnouncedJoin: whatever a DG 103 carries, the commands the bot would
// send to join it are each one clean line telling one trusted TD, or none.
func FuzzAnnouncedJoin(f *testing.F) {
	for _, s := range []string{"tell TD join 3", "tell TD join 3&tell TD info 3", "tell Mallory join 1", "tell TD join 1&quit",
		`tell TD join 1\&quit`, "xtell td latejoin 2", "tell TD\x00 join", "tell TD join 1&tell Tomato join 1", "", "&&", "tell"} {
		f.Add(s)
	}
	cfg := config.Defaults()
	cfg.Tournament.TD = []string{"TD", "Tomato"}
	d := New(cfg, Options{})
	f.Fuzz(func(t *testing.T, join string) {
		cmds, td := announcedJoin(protocol.TourneyDG{ID: 1, Description: "w16", Join: join}, cfg.TrustedTDs())
		if cmds == nil {
			if td != "" {
				t.Fatalf("no commands but TD %q", td)
			}
			return
		}
		if !d.trustedTD(td) {
			t.Fatalf("TD %q is not trusted", td)
		}
		for _, c := range cmds {
			f := strings.Fields(c)
			if !cleanLine(c) || len(f) < 2 || !strings.EqualFold(f[1], td) || !strings.EqualFold(f[0], "tell") && !strings.EqualFold(f[0], "xtell") {
				t.Fatalf("join %q gives the command %q (TD %q)", join, c, td)
			}
		}
	})
}

// An opponent who never shows: after round_grace the pairing is given up,
// the bot stays in the event (no seek, no other game) and answers the next
// round's pairing.
func TestTourneyAbsentOpponent(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) {
		c.Tournament.Join = []int{5}
		c.Tournament.RoundGrace = config.Duration{Duration: 500 * time.Millisecond} // below the valid range, to keep the test short
	})
	w := r.w
	w.waitLine(t, "tell TD join 5", 1)
	w.text(t, ":You play white against fan01 in this round of tourney #5.")
	w.waitLine(t, "td play 5", 1)
	waitFor(t, func() bool { return strings.Contains(r.console.String(), "the game with fan01 never started") })
	stranger := dialAs(t, r.ctx, r.addr, "stranger")
	if got := challengeDaemon(t, r, "stranger", stranger, 2, 1); got != "decline" {
		t.Errorf("between rounds, a challenge: %s", got)
	}
	w.text(t, ":You play black against fan02 in this round of tourney #5.")
	w.waitLine(t, "td play 5", 2)
	if n := w.prefixed("seek"); n != 0 {
		t.Errorf("sought between rounds: %d", n)
	}
}

// The embedded sparring partner does not enter our events.
func TestTourneySparringStaysOut(t *testing.T) {
	c := config.Defaults()
	c.Tournament.Join, c.Tournament.AutoJoin = []int{3}, true
	if s := sparringConfig(c); len(s.Tournament.Join) != 0 || s.Tournament.AutoJoin {
		t.Errorf("the partner's tournament settings: %+v", s.Tournament)
	}
}

// Entering an event withdraws the challenge the bot had sent (policy.challenge).
func TestTourneyWithdrawsOffers(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Policy.Challenge, c.Policy.Seek = "fan01", false })
	w := r.w
	w.waitLine(t, "match fan01 2 1 u w16", 1)
	w.tell(t, "owner", "tourney join 3")
	w.waitLine(t, "match", 1)
	s := w.sent()
	if join := slices.Index(s, "tell TD join 3"); join < 0 || join+1 >= len(s) || s[join+1] != "match" {
		t.Fatalf("no withdrawal after the join:\n%s", strings.Join(s, "\n"))
	}
	r.clock.ahead.Store(int64(6 * time.Second)) // past the policy's 5 s between challenges
	w.sync(t)
	r.ticks(t, 2) // policy ticks: no new challenge
	w.sync(t)
	if n := w.prefixed("match fan01"); n != 1 {
		t.Errorf("challenged %d times, in an event", n)
	}
}

// A join the TD refuses is shown on the console (piped too); the TD's
// chatter is not.
func TestTourneyJoinRefusedShown(t *testing.T) {
	r := startTourneyRig(t, func(c *config.Config) { c.Tournament.Join = []int{7} })
	w := r.w
	w.waitLine(t, "tell TD join 7", 1)
	w.tell(t, "TD", "There is no tourney #7.")
	waitFor(t, func() bool { return strings.Contains(r.console.String(), "says: There is no tourney #7.") })
	w.tell(t, "TD", "Good luck!")
	w.sync(t)
	if con := r.console.String(); strings.Contains(con, "Good luck") {
		t.Errorf("the console shows the TD's chatter:\n%s", con)
	}
}
