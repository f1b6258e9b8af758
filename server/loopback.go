package server

import (
	"fmt"
	"net"
	"time"

	"kriegbot/engine/umpire"
)

// Loopback is a server started for one program's own use (kriegbot run's
// embedded server): registered throw-away accounts, no guests, listening
// on one address.
type Loopback struct {
	*Server
	addr      string
	passwords map[string]string
}

// StartLoopback starts a server on addr ("127.0.0.1:0" for any port) with
// one registered computer account per handle, whose passwords are fresh
// random strings, so that its players go through the real login path with
// a masked password. recordDir ("" for none) receives each game's records;
// logf (nil discards) its notable events. A player who drops out of a game
// has two minutes to come back.
func StartLoopback(rules umpire.Rules, handles []string, recordDir, addr string, logf func(format string, args ...any)) (*Loopback, error) {
	accounts, passwords, err := ThrowAwayAccounts("C", handles...)
	if err != nil {
		return nil, err
	}
	srv, err := New(Config{Rules: rules, Accounts: accounts, NoGuests: true, RecordDir: recordDir,
		DisconnectGrace: 2 * time.Minute, Log: logf})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	go srv.Serve(ln)
	return &Loopback{Server: srv, addr: ln.Addr().String(), passwords: passwords}, nil
}

// Addr is the address the telnet door listens on.
func (l *Loopback) Addr() string { return l.addr }

// Password is the throw-away password of handle ("" if it has no account).
func (l *Loopback) Password(handle string) string { return l.passwords[handle] }
