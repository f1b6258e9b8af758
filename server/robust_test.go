package server

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/server/internal/wiretest"
)

// healthy checks that a fresh guest can still log in and get an answer.
func healthy(t *testing.T, addr string) {
	t.Helper()
	c := wiretest.DialRaw(t, addr)
	c.LoginGuest()
	c.Send("who\r\n")
	c.Expect("players displayed", wait)
}

func TestGarbageBytes(t *testing.T) {
	_, addr := startServer(t, Config{})
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 5; i++ {
		c := wiretest.DialRaw(t, addr)
		c.Expect("login:", wait)
		junk := make([]byte, 64<<10)
		for j := range junk {
			junk[j] = byte(rng.Uint32())
		}
		// Salt with the bytes that matter: telnet IAC, ^Y markers, line ends.
		for j := 0; j < len(junk); j += 97 {
			junk[j] = []byte{0xff, 0x19, '\r', '\n', 0, 0xfa}[j%6]
		}
		c.Conn.Write(junk)
		if i%2 == 0 {
			c.Send("\r\ng\r\nwho\r\n")
		}
	}
	healthy(t, addr)
}

func TestOneMegabyteLine(t *testing.T) {
	_, addr := startServer(t, Config{})
	c := wiretest.DialRaw(t, addr)
	c.LoginGuest()
	c.Send(strings.Repeat("x", 1<<20) + "\r\n")
	c.Expect("too long", wait)
	c.Send("who\r\n") // the same client goes on
	c.Expect("players displayed", wait)
	healthy(t, addr)
}

// TestSlowClientDoesNotBlockOthers: a client stuck in the middle of its
// login line does not hold up the others (a server that waited for its
// line would keep them waiting until their wait ran out, whatever the
// machine's speed), and it is served once its line is whole.
func TestSlowClientDoesNotBlockOthers(t *testing.T) {
	_, addr := startServer(t, Config{})
	slow := wiretest.DialRaw(t, addr)
	slow.Expect("login:", wait)
	slow.Send("g") // half a login line, then silence
	healthy(t, addr)
	healthy(t, addr)
	for _, b := range []byte("\r\nwho\r\n") { // the rest, trickled
		slow.Send(string(b))
		time.Sleep(10 * time.Millisecond)
	}
	slow.Expect("Starting session as", wait)
	slow.Expect("players displayed", wait)
	healthy(t, addr)
}

// TestClientThatNeverReadsIsDropped: a client that asks for far more
// output than its queue and the sockets' buffers hold, and never reads it,
// is dropped, and the server goes on serving the others.
func TestClientThatNeverReadsIsDropped(t *testing.T) {
	var mu sync.Mutex
	var drops []string
	logf := func(format string, args ...any) {
		if l := fmt.Sprintf(format, args...); strings.HasPrefix(l, "drop ") {
			mu.Lock()
			drops = append(drops, l)
			mu.Unlock()
		}
	}
	_, addr := startServer(t, Config{MaxOutput: 64 << 10, Log: wiretest.LogTo(func(m string) { logf("%s", m) })})
	c := wiretest.DialRaw(t, addr)
	c.LoginGuest()
	// About 60 MB of help text: more than any kernel buffers on loopback.
	var flood bytes.Buffer
	for i := 0; i < 40000; i++ {
		flood.WriteString("help\r\n")
	}
	go c.Conn.Write(flood.Bytes())
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(drops)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client that never reads was not dropped within %v", wait)
		}
	}
	healthy(t, addr)
}

func TestLoginTimeout(t *testing.T) {
	_, addr := startServer(t, Config{LoginTimeout: 300 * time.Millisecond})
	idle := wiretest.DialRaw(t, addr)
	idle.Expect("Auto-logout", wait)
	healthy(t, addr)
}

func TestLoginRateLimit(t *testing.T) {
	_, addr := startServer(t, Config{LoginFailures: 3, Accounts: testAccounts(t, map[string]string{"alice": "wonderland"})})
	c := wiretest.DialRaw(t, addr)
	c.Expect("login:", wait)
	for i := 0; i < 4; i++ {
		c.Send("alice wrong\r\n")
	}
	c.Expect("Too many failed logins", wait)
	// The same address is refused for a minute, even with the right password.
	d := wiretest.DialRaw(t, addr)
	d.Expect("login:", wait)
	d.Send("alice wonderland\r\n")
	d.Expect("Too many failed logins", wait)
}

func TestTwoHundredConnections(t *testing.T) {
	_, addr := startServer(t, Config{})
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
			defer cancel()
			s, err := iccclient.Dial(ctx, iccclient.Config{Addr: addr, Dial: wiretest.PlainDial, KeepAlive: -1, DeadAfter: -1})
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			if err := s.Send("who"); err != nil {
				errs <- err
				return
			}
			for {
				m, err := s.Next(ctx)
				if err != nil {
					errs <- fmt.Errorf("%s: %w", s.Handle(), err)
					return
				}
				if m.Kind == protocol.MsgText && strings.Contains(m.Text, "players displayed") {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	healthy(t, addr)
}

// startRawGame logs two raw text clients in and starts a game between them.
func startRawGame(t *testing.T, addr string) (white, black *wiretest.RawClient, whiteName, blackName string) {
	a := wiretest.DialRaw(t, addr)
	a.LoginGuest()
	b := wiretest.DialRaw(t, addr)
	b.Expect("login:", wait)
	b.Send("g\r\n")
	out := b.Expect("Starting session as", wait)
	bName := strings.Fields(out[strings.Index(out, "Starting session as")+len("Starting session as"):])[0]
	a.Send("match " + bName + " 5 0\r\n")
	b.Expect("Challenge:", wait)
	b.Send("accept\r\n")
	o := b.Expect("Creating: ", wait)
	a.Expect("Creating: ", wait)
	f := strings.Fields(o[strings.Index(o, "Creating:")+len("Creating:"):])
	if f[0] == bName {
		return b, a, f[0], f[2]
	}
	return a, b, f[0], f[2]
}

func TestVanishingClientLosesTheGame(t *testing.T) {
	srv, addr := startServer(t, Config{})
	w, b, wName, _ := startRawGame(t, addr)
	w.Send("e2e4\r\n")
	b.Expect("has moved", wait)
	w.Conn.Close() // vanishes mid-game
	b.Expect(wName+" forfeits by disconnection} 0-1", wait)
	fin := srv.Finished()
	if len(fin) != 1 || fin[0].Result != "0-1" || fin[0].Code != "Dis" {
		t.Fatalf("finished %+v", fin)
	}
	healthy(t, addr)
}

func TestGracePeriodResume(t *testing.T) {
	// A grace far longer than a reconnection takes on any machine.
	srv, addr := startServer(t, Config{DisconnectGrace: 2 * wait,
		Accounts: testAccounts(t, map[string]string{"alice": "a1", "bob": "b1"})})
	alice := wiretest.DialRaw(t, addr)
	alice.Expect("login:", wait)
	alice.Send("alice a1\r\n")
	alice.Expect("Starting session", wait)
	bob := wiretest.DialRaw(t, addr)
	bob.Expect("login:", wait)
	bob.Send("bob b1\r\n")
	bob.Expect("Starting session", wait)
	alice.Send("match bob 5 0 white\r\n")
	bob.Expect("Challenge:", wait)
	bob.Send("accept alice\r\n")
	alice.Expect("it is your move", wait)
	alice.Send("e2e4\r\n")
	bob.Expect("has moved", wait)
	bob.Conn.Close()
	alice.Expect("has disconnected", wait)
	bob2 := wiretest.DialRaw(t, addr)
	bob2.Expect("login:", wait)
	bob2.Send("bob b1\r\n")
	bob2.Expect("Resuming game", wait)
	bob2.Expect("it is your move", wait)
	bob2.Send("e7e5\r\n")
	alice.Expect("has moved", wait)
	if p, _ := srv.GameCount(); p != 1 {
		t.Fatalf("%d games in progress after resume", p)
	}
}

func TestFlagFall(t *testing.T) {
	srv, addr := startServer(t, Config{})
	w, b, wName, _ := startRawGame(t, addr)
	_ = w
	// 0 minutes + 1 s increment gets the server's 10 s floor; rather than
	// wait, shorten the clock through the game itself.
	srv.mu.Lock()
	for _, g := range srv.games {
		g.clock[0] = 200 * time.Millisecond
		srv.armClock(g)
	}
	srv.mu.Unlock()
	b.Expect(wName+" forfeits on time} 0-1", wait)
	if fin := srv.Finished(); len(fin) != 1 || fin[0].Code != "Fla" {
		t.Fatalf("finished %+v", fin)
	}
}

func TestServerRefusesWhenFull(t *testing.T) {
	_, addr := startServer(t, Config{MaxConns: 2})
	a := wiretest.DialRaw(t, addr)
	a.Expect("login:", wait)
	b := wiretest.DialRaw(t, addr)
	b.Expect("login:", wait)
	c := wiretest.DialRaw(t, addr)
	c.Expect("server is full", wait)
}

func TestNewRefusesNobody(t *testing.T) {
	if _, err := New(Config{NoGuests: true}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("err %v", err)
	}
}
