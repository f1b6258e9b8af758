package telnetdoor

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"kriegbot/server"
)

// Door is the telnet door: its listeners and connections, its users
// logged in, its commands and logins, the offers it keeps, and how it
// tells its users the table's games (view.go). Its state is guarded by
// the table's lock.
type Door struct {
	s     *server.Server
	table server.Config // the table's: connections, accounts, guests, clock
	cfg   Config

	cmds       commandSet             // the command table, by name
	nextGuest  int                    // the last guest number given
	failures   map[string][]time.Time // failed logins per remote host
	challenges []*challenge           // the pending match offers
	offers     map[*server.Game]*gameOffers

	listeners []net.Listener
	conns     map[*Client]struct{}
	perHost   map[string]int     // connections by remote host
	users     map[string]*Client // logged in, by lower-case handle
	wg        sync.WaitGroup
}

// New opens the telnet door of table s, with the limits in cfg: its
// users sit at s's games (it is s's PlayerDoor). It listens once Serve is
// called.
func New(s *server.Server, cfg Config) *Door {
	cfg.fill()
	d := &Door{
		s:        s,
		table:    s.Config(),
		cfg:      cfg,
		cmds:     newCommandSet(),
		failures: map[string][]time.Time{},
		offers:   map[*server.Game]*gameOffers{},
		conns:    map[*Client]struct{}{},
		perHost:  map[string]int{},
		users:    map[string]*Client{},
	}
	s.Lock()
	s.SetPlayerDoor(d)
	s.Unlock()
	return d
}

// ListenAndServe listens on addr (loopback by default: "127.0.0.1:5000") and
// serves until ctx ends or the table is closed.
func (tel *Door) ListenAndServe(ctx context.Context, addr string) error {
	if addr == "" {
		addr = "127.0.0.1:5000"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { tel.s.Close() })
	defer stop()
	return tel.Serve(ln)
}

// Serve accepts connections on ln until the table is closed. It returns
// nil after Close.
func (tel *Door) Serve(ln net.Listener) error {
	s := tel.s
	s.Lock()
	if s.Closed() {
		s.Unlock()
		ln.Close()
		return nil
	}
	tel.listeners = append(tel.listeners, ln)
	s.Unlock()
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.Lock()
			closed := s.Closed()
			s.Unlock()
			if closed {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		tel.accept(nc)
	}
}

// Addr is the address of the first listener, or nil.
func (tel *Door) Addr() net.Addr {
	tel.s.Lock()
	defer tel.s.Unlock()
	if len(tel.listeners) == 0 {
		return nil
	}
	return tel.listeners[0].Addr()
}

// Users returns the handles logged in, for tests and the serve command.
func (tel *Door) Users() []string {
	tel.s.Lock()
	defer tel.s.Unlock()
	out := make([]string, 0, len(tel.users))
	for _, c := range tel.users {
		out = append(out, c.handle)
	}
	return out
}

// Closing stops listening, as the table closes.
func (tel *Door) Closing() {
	for _, ln := range tel.listeners {
		ln.Close()
	}
}

// Hangup disconnects everybody, once the table has said its last.
func (tel *Door) Hangup() {
	for c := range tel.conns {
		c.close()
	}
}

// Closed waits for the connections' goroutines to finish.
func (tel *Door) Closed() { tel.wg.Wait() }

// User is the user of lower-case handle lname logged in, or nil.
func (tel *Door) User(lname string) server.Client {
	if c := tel.users[lname]; c != nil {
		return c
	}
	return nil
}

// Online returns the users logged in, in no order.
func (tel *Door) Online() []server.Client {
	out := make([]server.Client, 0, len(tel.users))
	for _, c := range tel.users {
		out = append(out, c)
	}
	return out
}

func (tel *Door) accept(nc net.Conn) {
	s := tel.s
	c := newClient(tel, nc)
	s.Lock()
	if s.Closed() || len(tel.conns) >= tel.table.MaxConns {
		s.Unlock()
		nc.SetWriteDeadline(tel.table.Now().Add(time.Second))
		io.WriteString(nc, "The server is full; please try again later.\r\n")
		nc.Close()
		return
	}
	if tel.perHost[c.host] >= tel.table.MaxConnsPerHost {
		s.Unlock()
		nc.SetWriteDeadline(tel.table.Now().Add(time.Second))
		io.WriteString(nc, "Too many connections from your address; please try again later.\r\n")
		nc.Close()
		return
	}
	tel.conns[c] = struct{}{}
	tel.perHost[c.host]++
	tel.wg.Add(2)
	s.Unlock()
	go c.writeLoop()
	go c.readLoop()
	c.sendRaw([]byte(banner))
	c.sendRaw([]byte("login: "))
}

const banner = "\r\nWelcome to kriegbot serve, an ICC-compatible Kriegspiel (wild 16) server.\r\n" +
	"Log in as \"g\" for a guest account. Type \"help\" once logged in.\r\n\r\n"

// dropped is called by a connection's reader when it ends.
func (tel *Door) dropped(c *Client, reason string) {
	s := tel.s
	s.Lock()
	defer s.Unlock()
	delete(tel.conns, c)
	if tel.perHost[c.host]--; tel.perHost[c.host] <= 0 {
		delete(tel.perHost, c.host)
	}
	if c.handle == "" || tel.users[strings.ToLower(c.handle)] != c {
		return
	}
	delete(tel.users, strings.ToLower(c.handle))
	s.Note().Msgf("logout %s (%s)", c.handle, reason)
	ev := tel.newEvents()
	s.Leave(ev, c)
	ev.flush()
}
