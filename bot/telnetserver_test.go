package bot

import (
	"net"

	"kriegbot/server"
	"kriegbot/server/telnetdoor"
)

// telnetServer is a test's ICC server: the game table with its telnet
// door (and whichever doors the test adds on Server).
type telnetServer struct {
	*server.Server
	telnet *telnetdoor.Door
}

// newTelnetServer opens a table on cfg with its telnet door, not yet
// listening.
func newTelnetServer(cfg server.Config) (*telnetServer, error) {
	srv, err := server.New(cfg)
	if err != nil {
		return nil, err
	}
	return &telnetServer{Server: srv, telnet: telnetdoor.New(srv, telnetdoor.Config{})}, nil
}

// Serve runs the telnet door on ln; Users are the handles logged in there.
func (s *telnetServer) Serve(ln net.Listener) error { return s.telnet.Serve(ln) }
func (s *telnetServer) Users() []string             { return s.telnet.Users() }
