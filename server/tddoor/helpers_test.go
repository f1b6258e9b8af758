package tddoor

import (
	"net"
	"testing"

	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// wait bounds every wait for something that must happen (wiretest.Wait).
const wait = wiretest.Wait

// house is a test's whole server: the table with its telnet door, and
// the TD.
type house struct {
	*server.Server
	td *Door
}

// newHouse opens a table with the TD on it, not yet listening.
func newHouse(cfg server.Config, tcfg Config) (*house, error) {
	s, err := server.New(cfg)
	if err != nil {
		return nil, err
	}
	d, err := New(s, tcfg)
	if err != nil {
		s.Close()
		return nil, err
	}
	return &house{Server: s, td: d}, nil
}

// startTD runs a table with the TD on a loopback port for one test.
func startTD(t testing.TB, cfg server.Config, tcfg Config) (*house, string) {
	t.Helper()
	if cfg.Rules == (umpire.Rules{}) {
		cfg.Rules = umpire.Olympiad() // random games end by the draw rules
	}
	s, err := newHouse(cfg, tcfg)
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
