package server

import (
	"context"
	"net"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccclient"
	"kriegbot/server/internal/wiretest"
)

// wait bounds every wait for something that must happen (wiretest.Wait).
const wait = wiretest.Wait

// startServer runs a server on a loopback port for one test.
func startServer(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	if cfg.Rules == (umpire.Rules{}) {
		cfg.Rules = umpire.Olympiad() // random games end by the draw rules
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

func testAccounts(t testing.TB, pw map[string]string) *Accounts {
	t.Helper()
	a, err := NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func dialSession(t testing.TB, addr, handle, password string) *iccclient.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	s, err := iccclient.Dial(ctx, iccclient.Config{
		Addr: addr, Handle: handle, Password: password, Dial: wiretest.PlainDial,
		LinesPerSecond: 5000, Burst: 5000, KeepAlive: -1, DeadAfter: -1,
	})
	if err != nil {
		t.Fatalf("login %s: %v", handle, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
