package iccserver

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
)

// healthy checks that a fresh guest can still log in and get an answer.
func healthy(t *testing.T, addr string) {
	t.Helper()
	c := dialRaw(t, addr)
	c.loginGuest()
	c.send("who\r\n")
	c.expect("players displayed", 5*time.Second)
}

func TestGarbageBytes(t *testing.T) {
	_, addr := startServer(t, Config{})
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 5; i++ {
		c := dialRaw(t, addr)
		c.expect("login:", 5*time.Second)
		junk := make([]byte, 64<<10)
		for j := range junk {
			junk[j] = byte(rng.Uint32())
		}
		// Salt with the bytes that matter: telnet IAC, ^Y markers, line ends.
		for j := 0; j < len(junk); j += 97 {
			junk[j] = []byte{0xff, 0x19, '\r', '\n', 0, 0xfa}[j%6]
		}
		c.nc.Write(junk)
		if i%2 == 0 {
			c.send("\r\ng\r\nwho\r\n")
		}
	}
	healthy(t, addr)
}

func TestOneMegabyteLine(t *testing.T) {
	_, addr := startServer(t, Config{})
	c := dialRaw(t, addr)
	c.loginGuest()
	c.send(strings.Repeat("x", 1<<20) + "\r\n")
	c.expect("too long", 5*time.Second)
	c.send("who\r\n") // the same client goes on
	c.expect("players displayed", 5*time.Second)
	healthy(t, addr)
}

func TestSlowClientDoesNotBlockOthers(t *testing.T) {
	_, addr := startServer(t, Config{})
	slow := dialRaw(t, addr)
	slow.expect("login:", 5*time.Second)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // one byte per second, as a trickling client would
		defer wg.Done()
		for _, b := range []byte("guest\r\nwho\r\n") {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			slow.nc.Write([]byte{b})
		}
	}()
	start := time.Now()
	healthy(t, addr)
	healthy(t, addr)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("other clients took %v while a slow client trickled", d)
	}
	time.Sleep(2500 * time.Millisecond) // the slow client is mid-login now
	healthy(t, addr)
	close(stop)
	wg.Wait()
}

func TestClientThatNeverReadsIsDropped(t *testing.T) {
	_, addr := startServer(t, Config{MaxOutput: 64 << 10})
	c := dialRaw(t, addr)
	c.loginGuest()
	// Ask for far more output than the queue holds and never read it.
	var flood bytes.Buffer
	for i := 0; i < 4000; i++ {
		flood.WriteString("help\r\n")
	}
	go c.nc.Write(flood.Bytes())
	time.Sleep(500 * time.Millisecond)
	healthy(t, addr)
}

func TestLoginTimeout(t *testing.T) {
	_, addr := startServer(t, Config{LoginTimeout: 300 * time.Millisecond})
	idle := dialRaw(t, addr)
	idle.expect("Auto-logout", 3*time.Second)
	healthy(t, addr)
}

func TestLoginRateLimit(t *testing.T) {
	_, addr := startServer(t, Config{LoginFailures: 3, Accounts: testAccounts(t, map[string]string{"alice": "wonderland"})})
	c := dialRaw(t, addr)
	c.expect("login:", 5*time.Second)
	for i := 0; i < 4; i++ {
		c.send("alice wrong\r\n")
	}
	c.expect("Too many failed logins", 5*time.Second)
	// The same address is refused for a minute, even with the right password.
	d := dialRaw(t, addr)
	d.expect("login:", 5*time.Second)
	d.send("alice wonderland\r\n")
	d.expect("Too many failed logins", 5*time.Second)
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
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := protocol.Dial(ctx, protocol.SessionConfig{Addr: addr, Dial: plainDial, KeepAlive: -1, DeadAfter: -1})
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
func startRawGame(t *testing.T, addr string) (white, black *rawClient, whiteName, blackName string) {
	a := dialRaw(t, addr)
	a.loginGuest()
	b := dialRaw(t, addr)
	b.expect("login:", 5*time.Second)
	b.send("g\r\n")
	out := b.expect("Starting session as", 5*time.Second)
	bName := strings.Fields(out[strings.Index(out, "Starting session as")+len("Starting session as"):])[0]
	a.send("match " + bName + " 5 0\r\n")
	b.expect("Challenge:", 5*time.Second)
	b.send("accept\r\n")
	o := b.expect("Creating: ", 5*time.Second)
	a.expect("Creating: ", 5*time.Second)
	f := strings.Fields(o[strings.Index(o, "Creating:")+len("Creating:"):])
	if f[0] == bName {
		return b, a, f[0], f[2]
	}
	return a, b, f[0], f[2]
}

func TestVanishingClientLosesTheGame(t *testing.T) {
	srv, addr := startServer(t, Config{})
	w, b, wName, _ := startRawGame(t, addr)
	w.send("e2e4\r\n")
	b.expect("has moved", 5*time.Second)
	w.nc.Close() // vanishes mid-game
	b.expect(wName+" forfeits by disconnection} 0-1", 5*time.Second)
	fin := srv.Finished()
	if len(fin) != 1 || fin[0].Result != "0-1" || fin[0].Code != "Dis" {
		t.Fatalf("finished %+v", fin)
	}
	healthy(t, addr)
}

func TestGracePeriodResume(t *testing.T) {
	srv, addr := startServer(t, Config{DisconnectGrace: 5 * time.Second,
		Accounts: testAccounts(t, map[string]string{"alice": "a1", "bob": "b1"})})
	alice := dialRaw(t, addr)
	alice.expect("login:", 5*time.Second)
	alice.send("alice a1\r\n")
	alice.expect("Starting session", 5*time.Second)
	bob := dialRaw(t, addr)
	bob.expect("login:", 5*time.Second)
	bob.send("bob b1\r\n")
	bob.expect("Starting session", 5*time.Second)
	alice.send("match bob 5 0 white\r\n")
	bob.expect("Challenge:", 5*time.Second)
	bob.send("accept alice\r\n")
	alice.expect("it is your move", 5*time.Second)
	alice.send("e2e4\r\n")
	bob.expect("has moved", 5*time.Second)
	bob.nc.Close()
	alice.expect("has disconnected", 5*time.Second)
	bob2 := dialRaw(t, addr)
	bob2.expect("login:", 5*time.Second)
	bob2.send("bob b1\r\n")
	bob2.expect("Resuming game", 5*time.Second)
	bob2.expect("it is your move", 5*time.Second)
	bob2.send("e7e5\r\n")
	alice.expect("has moved", 5*time.Second)
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
	b.expect(wName+" forfeits on time} 0-1", 5*time.Second)
	if fin := srv.Finished(); len(fin) != 1 || fin[0].Code != "Fla" {
		t.Fatalf("finished %+v", fin)
	}
}

func TestServerRefusesWhenFull(t *testing.T) {
	_, addr := startServer(t, Config{MaxConns: 2})
	a := dialRaw(t, addr)
	a.expect("login:", 5*time.Second)
	b := dialRaw(t, addr)
	b.expect("login:", 5*time.Second)
	c := dialRaw(t, addr)
	c.expect("server is full", 5*time.Second)
}

func TestNewRefusesNobody(t *testing.T) {
	if _, err := New(Config{NoGuests: true}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("err %v", err)
	}
}
