package loopback

import (
	"fmt"
	"net"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/httpdoor"
	"kriegbot/server/tddoor"
)

// Server is a server started for one program's own use (kriegbot run's
// embedded server): registered throw-away accounts, no guests, the telnet
// door listening on one address, and the HTTP door ready to serve.
type Server struct {
	*server.Server
	door      *httpdoor.Door
	addr      string
	passwords map[string]string
}

// Start starts a server on addr ("127.0.0.1:0" for any port) with
// one registered computer account per handle, whose passwords are fresh
// random strings, so that its players go through the real login path with
// a masked password. recordDir ("" for none) receives each game's records;
// log its notable events (at debug level: the program has its own log).
// A player who drops out of a game has two
// minutes to come back.
func Start(rules umpire.Rules, handles []string, recordDir, addr string, log zerolog.Logger) (*Server, error) {
	accounts, passwords, err := server.ThrowAwayAccounts("C", handles...)
	if err != nil {
		return nil, err
	}
	srv, err := server.New(server.Config{Rules: rules, Accounts: accounts, NoGuests: true, RecordDir: recordDir,
		DisconnectGrace: 2 * time.Minute, Log: log, DebugEvents: true})
	if err != nil {
		return nil, err
	}
	director, err := tddoor.New(srv, tddoor.Config{})
	if err != nil {
		srv.Close()
		return nil, err
	}
	door, err := httpdoor.New(srv, httpdoor.Config{Pages: director.ServeTourney})
	if err != nil {
		srv.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	go srv.Serve(ln)
	return &Server{Server: srv, door: door, addr: ln.Addr().String(), passwords: passwords}, nil
}

// Addr is the address the telnet door listens on.
func (l *Server) Addr() string { return l.addr }

// Password is the throw-away password of handle ("" if it has no account).
func (l *Server) Password(handle string) string { return l.passwords[handle] }

// ServeAPI serves the HTTP door (the kriegspiel.org bot API) on ln until
// the server's Close.
func (l *Server) ServeAPI(ln net.Listener) error { return l.door.ServeAPI(ln) }
