package telnetdoor

import (
	"context"
	"net"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccclient"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// wait bounds every wait for something that must happen (wiretest.Wait).
const wait = wiretest.Wait

// startServer runs a server on a loopback port for one test: the table
// on cfg, the door on door[0] if given.
func startServer(t testing.TB, cfg server.Config, door ...Config) (*house, string) {
	t.Helper()
	if cfg.Rules == (umpire.Rules{}) {
		cfg.Rules = umpire.Olympiad() // random games end by the draw rules
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveHouse(t, cfg, door, ln), ln.Addr().String()
}

// house is a table with its telnet door, serving one test.
type house struct {
	*server.Server
	door *Door
}

// Users are the handles logged in at the door.
func (h *house) Users() []string { return h.door.Users() }

// serveHouse opens a table on cfg with its telnet door (on door[0] if
// given) serving ln, and closes it when the test ends.
func serveHouse(t testing.TB, cfg server.Config, door []Config, ln net.Listener) *house {
	t.Helper()
	s, err := server.New(cfg)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	var dcfg Config
	if len(door) > 0 {
		dcfg = door[0]
	}
	h := &house{Server: s, door: New(s, dcfg)}
	go h.door.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return h
}

func testAccounts(t testing.TB, pw map[string]string) *server.Accounts {
	t.Helper()
	a, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
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
