package server

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/server/internal/wiretest"
)

// Hostile guests: each test here is the regression test of one way a
// client could hurt others (docs/robustness.md).

// smallBuffers gives every accepted connection a 4 KiB send buffer, so
// that the writer of a client that does not read blocks soon, whatever the
// machine's loopback buffers (with dialSmallWindow on the client side).
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return nc, err
}

// startSmallBuffers is startServer with smallBuffers.
func startSmallBuffers(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(smallBuffers{ln})
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

// reader drains a connection at full speed in the background.
type reader struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  strings.Builder
	err  error
}

func readAll(c *wiretest.RawClient) *reader {
	r := &reader{}
	r.cond = sync.NewCond(&r.mu)
	c.Conn.SetReadDeadline(time.Time{})
	go func() {
		b := make([]byte, 64<<10)
		for {
			n, err := c.Reader.Read(b)
			r.mu.Lock()
			r.buf.Write(b[:n])
			if err != nil {
				r.err = err
			}
			r.mu.Unlock()
			r.cond.Broadcast()
			if err != nil {
				return
			}
		}
	}()
	return r
}

// waitFor waits until want has been read, or the connection ended; it
// reports what was read and whether want was in it.
func (r *reader) waitFor(want string) (string, bool) { return r.waitCount(want, 1) }

// waitCount waits until want has been read n times.
func (r *reader) waitCount(want string, n int) (string, bool) {
	stop := time.AfterFunc(wait, func() {
		r.mu.Lock()
		if r.err == nil {
			r.err = fmt.Errorf("no %q within %v", want, wait)
		}
		r.mu.Unlock()
		r.cond.Broadcast()
	})
	defer stop.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for strings.Count(r.buf.String(), want) < n && r.err == nil {
		r.cond.Wait()
	}
	return r.buf.String(), strings.Count(r.buf.String(), want) >= n
}

// TestFloodDoesNotDropTheVictim: a guest's lines of 235 tells to one
// player (or 250 "seek 1 0;unseek" pairs, which reach everyone with DG 50
// on) filled the victim's output queue, and the server dropped the
// victim, who lost by disconnection. The flooder is throttled instead,
// and the victim stays, whether it reads at full speed or not at all
// while the flood lasts.
func TestFloodDoesNotDropTheVictim(t *testing.T) {
	dg50 := "level2settings=" + strings.Repeat("0", 50) + "11\r\n"
	tells := func(v string) string { return strings.TrimSuffix(strings.Repeat("tell "+v+" x;", 235), ";") }
	for _, tc := range []struct {
		name    string
		cfg     Config
		victim  string // login lines before "g"
		reading bool
		line    func(victim string) string
		told    string // what the flooder is told
		paced   bool   // the flooder reads its answers to a line before the next
	}{
		{"tells, victim not reading", Config{}, "", false, tells, "sending too much", false},
		{"seeks, bystander not reading", Config{}, dg50, false, func(string) string {
			return strings.TrimSuffix(strings.Repeat("seek 1 0;unseek;", 250), ";")
		}, "sending too much", false},
		{"tells, victim reading", Config{}, "", true, tells, "sending too much", false},
		// Many flooders at once, each within its budget: what others send
		// stops at half the victim's queue.
		{"tells within a large budget", Config{FanoutBurst: 1 << 20, MaxOutput: 64 << 10}, "", false, tells, "your tell was not delivered", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, addr := startSmallBuffers(t, tc.cfg)
			v := dialSmallWindow(t, addr)
			victim := v.GuestHandle(tc.victim)
			var vr *reader
			if tc.reading {
				vr = readAll(v)
			}
			a := wiretest.DialRaw(t, addr)
			a.GuestHandle("")
			ar := readAll(a)
			line := tc.line(victim)
			for i := 0; i < 20; i++ {
				if tc.paced {
					a.Send(line + ";date\r\n")
					if _, ok := ar.waitCount("Server time:", i+1); !ok {
						break
					}
				} else {
					a.Send(line + "\r\n")
				}
			}
			a.Send("date\r\n")
			dates := 1
			if tc.paced {
				dates = 21
			}
			out, ok := ar.waitCount("Server time:", dates)
			if !strings.Contains(strings.Join(srv.Users(), " "), victim) {
				t.Fatalf("the victim %s was dropped", victim)
			}
			if !ok {
				t.Fatalf("the flooder's commands did not all run: %q", wiretest.Tail(out, 300))
			}
			if !strings.Contains(out, tc.told) {
				t.Errorf("the flooder was not told %q", tc.told)
			}
			v.Send("who\r\n")
			if vr != nil {
				if out, ok := vr.waitFor("players displayed"); !ok {
					t.Fatalf("the victim lost its connection: %q", wiretest.Tail(out, 300))
				}
				return
			}
			v.Expect("players displayed", wait)
		})
	}
}

// answer reads what the server says to a login attempt: up to the next
// login prompt, the start of a session, or the end of the connection.
func answer(c *wiretest.RawClient) string {
	c.Conn.SetReadDeadline(time.Now().Add(wait))
	buf := make([]byte, 4096)
	for {
		for _, end := range []string{"login:", "Starting session"} {
			if i := strings.Index(c.Pending, end); i >= 0 {
				out := c.Pending[:i+len(end)]
				c.Pending = c.Pending[i+len(end):]
				return out
			}
		}
		n, err := c.Reader.Read(buf)
		c.Pending += string(buf[:n])
		if err != nil {
			out := c.Pending
			c.Pending = ""
			return out
		}
	}
}

// TestLoginLimitHoldsInParallel: 150 guesses at once from one address were
// all checked, and the right one logged in. Every check now reserves its
// place under the limit first, at every step, so one address gets
// LoginFailures+1 checks a minute however it spreads them.
func TestLoginLimitHoldsInParallel(t *testing.T) {
	const limit = 3
	var logMu sync.Mutex
	var logs []string
	logf := func(format string, args ...any) {
		logMu.Lock()
		logs = append(logs, fmt.Sprintf(format, args...))
		logMu.Unlock()
	}
	_, addr := startServer(t, Config{LoginFailures: limit, Log: wiretest.LogTo(func(m string) { logf("%s", m) }),
		Accounts: testAccounts(t, map[string]string{"alice": "wonderland"})})
	// Twelve connections reach the password prompt before any guess.
	const n = 12
	conns := make([]*wiretest.RawClient, n)
	for i := range conns {
		conns[i] = wiretest.DialRaw(t, addr)
		conns[i].Expect("login:", wait)
		conns[i].Send("alice\r\n")
		conns[i].Expect("password:", wait)
	}
	// Eleven wrong guesses at once.
	answers := make([]string, n-1)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conns[i].Send(fmt.Sprintf("guess%d\r\n", i))
			answers[i] = answer(conns[i])
		}()
	}
	wg.Wait()
	checked := 0
	for _, a := range answers {
		if strings.Contains(a, "Invalid password") {
			checked++
		}
	}
	if checked > limit+1 {
		t.Errorf("%d of %d parallel guesses were checked; the limit allows %d", checked, len(answers), limit+1)
	}
	// Then the right password, from a connection already at its prompt.
	conns[n-1].Send("wonderland\r\n")
	if a := answer(conns[n-1]); strings.Contains(a, "Starting session") || !strings.Contains(a, "Too many failed logins") {
		t.Errorf("the right password after the limit got %q", a)
	}
	logMu.Lock()
	defer logMu.Unlock()
	for _, l := range logs {
		if strings.Contains(l, "guess") || strings.Contains(l, "wonderland") {
			t.Errorf("a password in the log: %q", l)
		}
	}
}

// TestConnectionsPerHost: one address cannot take every connection.
func TestConnectionsPerHost(t *testing.T) {
	_, addr := startServer(t, Config{MaxConns: 20, MaxConnsPerHost: 3})
	for i := 0; i < 3; i++ {
		wiretest.DialRaw(t, addr).Expect("login:", wait)
	}
	wiretest.DialRaw(t, addr).Expect("Too many connections from your address", wait)
	// Another loopback address still gets in.
	d := net.Dialer{Timeout: wait, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	if nc, err := d.Dial("tcp", addr); err != nil {
		t.Logf("no second loopback address here (%v): that half is skipped", err)
	} else {
		nc.Close()
		wiretest.DialRawWith(t, d, addr).Expect("login:", wait)
	}
}

// TestTrickleCannotHoldOffIdleLogout: each byte used to push the idle
// deadline back, so one byte a second kept a connection forever. Only a
// whole command line counts as activity now.
func TestTrickleCannotHoldOffIdleLogout(t *testing.T) {
	_, addr := startServer(t, Config{IdleTimeout: 300 * time.Millisecond})
	c := wiretest.DialRaw(t, addr)
	c.LoginGuest()
	buf := make([]byte, 4096)
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); {
		c.Conn.Write([]byte("x")) // never a line end
		c.Conn.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		n, err := c.Reader.Read(buf)
		c.Pending += string(buf[:n])
		if strings.Contains(c.Pending, "Auto-logout") {
			return
		}
		if err != nil && !isTimeout(err) {
			t.Fatalf("connection ended without the logout notice: %v, %q", err, wiretest.Tail(c.Pending, 200))
		}
	}
	t.Fatalf("a one-byte trickle kept an idle client for %v", wait)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestIdleLimitSparesPlayers: a seeker whose seek is taken while it waits
// is in a game, where only its clock limits it; its idle deadline, set
// before the game began, used to log it out (and forfeit the game).
func TestIdleLimitSparesPlayers(t *testing.T) {
	const idle = time.Second
	srv, addr := startServer(t, Config{IdleTimeout: idle})
	seeker := wiretest.DialRaw(t, addr)
	seeker.LoginGuest()
	opp := wiretest.DialRaw(t, addr)
	opp.LoginGuest()
	t0 := time.Now()
	seeker.Send("seek 5 0\r\n")
	seeker.Expect("posted with index 1", wait)
	opp.Send("play 1\r\n")
	opp.Expect("Creating:", wait)
	if time.Since(t0) > idle/2 {
		t.Skipf("the game took %v to start; the test needs it well inside the %v idle limit", time.Since(t0), idle)
	}
	time.Sleep(time.Until(t0.Add(idle + idle/2)))
	seeker.Send("who\r\n")
	seeker.Expect("players displayed", wait)
	if p, _ := srv.GameCount(); p != 1 {
		t.Fatalf("%d games in progress", p)
	}
}

// TestDropIsLoggedOnce: a client dropped for not reading used to log one
// line for every message still addressed to it (thousands a second).
func TestDropIsLoggedOnce(t *testing.T) {
	var mu sync.Mutex
	var drops []string
	logf := func(format string, args ...any) {
		if l := fmt.Sprintf(format, args...); strings.HasPrefix(l, "drop ") {
			mu.Lock()
			drops = append(drops, l)
			mu.Unlock()
		}
	}
	srv, addr := startSmallBuffers(t, Config{MaxOutput: 16 << 10, Log: wiretest.LogTo(func(m string) { logf("%s", m) })})
	c := dialSmallWindow(t, addr)
	handle := c.GuestHandle("")
	go c.Conn.Write([]byte(strings.Repeat("help\r\n", 4000)))
	for deadline := time.Now().Add(wait); strings.Contains(strings.Join(srv.Users(), " "), handle); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the client that never reads was not dropped within %v", wait)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(drops) != 1 {
		t.Fatalf("%d drop lines for one client, want 1: %q", len(drops), drops[:min(len(drops), 3)])
	}
}

// TestCloseDoesNotWaitForNonReaders: clients that stop reading with
// output queued used to hold Close for 30 s (a write's deadline); what is
// left now gets a fraction of a second. The bound is 50 times that, so a
// loaded machine does not matter.
func TestCloseDoesNotWaitForNonReaders(t *testing.T) {
	srv, addr := startSmallBuffers(t, Config{})
	for i := 0; i < 3; i++ {
		c := dialSmallWindow(t, addr)
		c.GuestHandle("")
		c.Send(strings.Repeat("help\r\n", 100)) // ~180 KB of answers, never read
		c.Send("date\r\n")
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(5 * time.Millisecond) {
		srv.mu.Lock()
		n := 0
		for c := range srv.conns {
			if c.queued.Load() > 64<<10 {
				n++
			}
		}
		srv.mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clients' output did not queue up")
		}
	}
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited more than 10 s for clients that do not read")
	}
}
