package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Config sets up a Server. Zero fields take the defaults in their comments.
type Config struct {
	// Rules is the referee's rule set (umpire.ICC() by default).
	Rules umpire.Rules
	// Accounts holds the registered handles; nil allows guests only.
	Accounts *Accounts
	// NoGuests refuses guest logins.
	NoGuests bool
	// DisconnectGrace is how long a player who drops out of a game may take
	// to come back before losing it. 0, as on ICC, loses at once.
	DisconnectGrace time.Duration
	// RecordDir, when set, receives a PGN and a JSON Lines record per game.
	RecordDir string
	// MaxConns bounds simultaneous connections (default 1000).
	MaxConns int
	// MaxConnsPerHost bounds the connections from one address, so that one
	// host cannot take them all (default a quarter of MaxConns, at least
	// 50 or MaxConns if that is less).
	MaxConnsPerHost int
	// MaxLine bounds one input line (default 4096 bytes); longer lines are
	// refused and skipped.
	MaxLine int
	// MaxOutput bounds the bytes queued for one client (default 256 KiB,
	// about ICC's 122,000-byte buffer twice over); a client that lets it
	// fill is disconnected. Once half of it is taken, what other clients'
	// commands would send it (tells, seek ads, challenges) is held back, so
	// only its own commands and games can fill it.
	MaxOutput int
	// FanoutBurst and FanoutRate are each client's budget for what its
	// commands send to others (tells, says, seeks, offers), in bytes: a
	// command costs the most it sends to any one other client; the budget
	// holds FanoutBurst (default 32 KiB) and refills at FanoutRate per
	// second (default 4 KiB). A client out of budget is told so and its
	// commands that reach others are refused until it refills.
	FanoutBurst int
	FanoutRate  int
	// LoginTimeout bounds the time from connect to a finished login
	// (default 60 s). IdleTimeout logs out a client silent that long
	// outside a game (default 2 h; negative disables).
	LoginTimeout time.Duration
	IdleTimeout  time.Duration
	// LoginFailures is how many failed logins one address may make per
	// minute before it is cut off (default 10).
	LoginFailures int
	// MaxGames bounds finished games kept for `moves` (default 1000).
	MaxGames int
	// Log receives one line per notable server event (logins, games,
	// the TD's and the HTTP door's doings) at info level, and the
	// failures it goes on after (a record or a file not written) as
	// warnings. The zero Logger discards. DebugEvents logs the notable
	// events at debug level instead (a server embedded in a program with
	// its own log).
	Log         zerolog.Logger
	DebugEvents bool
	// Now is the clock (default time.Now).
	Now func() time.Time
}

func (c *Config) fill() {
	if c.Rules == (umpire.Rules{}) {
		c.Rules = umpire.ICC()
	}
	if c.MaxConns == 0 {
		c.MaxConns = 1000
	}
	if c.MaxConnsPerHost == 0 {
		c.MaxConnsPerHost = max(c.MaxConns/4, min(c.MaxConns, 50))
	}
	if c.FanoutBurst == 0 {
		c.FanoutBurst = 32 << 10
	}
	if c.FanoutRate == 0 {
		c.FanoutRate = 4 << 10
	}
	if c.MaxLine == 0 {
		c.MaxLine = 4096
	}
	if c.MaxOutput == 0 {
		c.MaxOutput = 256 << 10
	}
	if c.LoginTimeout == 0 {
		c.LoginTimeout = 60 * time.Second
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 2 * time.Hour
	}
	if c.LoginFailures == 0 {
		c.LoginFailures = 10
	}
	if c.MaxGames == 0 {
		c.MaxGames = 1000
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// note starts a log line of a notable event (Config.Log, DebugEvents).
func (s *Server) note() *zerolog.Event {
	if s.cfg.DebugEvents {
		return s.cfg.Log.Debug()
	}
	return s.cfg.Log.Info()
}

// warn starts a log line of a failure the server goes on after.
func (s *Server) warn() *zerolog.Event { return s.cfg.Log.Warn() }

// Server is the wild 16 server. Create it with New, run it with Serve.
type Server struct {
	cfg Config

	mu         sync.Mutex
	closed     bool
	listeners  []net.Listener
	conns      map[*Client]struct{}
	perHost    map[string]int     // connections by remote host
	users      map[string]*Client // logged in, by lower-case handle
	seeks      map[int]*Seek
	nextSeek   int
	challenges []*challenge
	games      map[int]*Game // in progress
	finished   []*Game       // most recent last, bounded by MaxGames
	nextGame   int
	ratings    map[string]int
	watchers   []GameWatcher // the doors following games (game.go)
	bots       BotDoor       // the door whose bots telnet users match, or nil
	telnet     telnetDoor    // the telnet door's commands and logins
	director   Director      // the tournament director (server/tddoor), or nil
	wg         sync.WaitGroup
}

// New checks cfg and returns a server that is not yet listening.
func New(cfg Config) (*Server, error) {
	cfg.fill()
	if cfg.Accounts == nil && cfg.NoGuests {
		return nil, errors.New("server: no accounts and no guests: nobody could log in")
	}
	// Game numbers go on from the records of earlier runs: a restart
	// never gives a new game an old game's number (or record name).
	recorded, err := highestRecord(cfg.RecordDir)
	if cfg.RecordDir != "" && err != nil {
		return nil, fmt.Errorf("server: records: %w", err)
	}
	s := &Server{
		cfg:      cfg,
		telnet:   telnetDoor{cmds: newCommandSet(), failures: map[string][]time.Time{}},
		conns:    map[*Client]struct{}{},
		perHost:  map[string]int{},
		users:    map[string]*Client{},
		seeks:    map[int]*Seek{},
		nextSeek: 1,
		games:    map[int]*Game{},
		nextGame: recorded + 1,
		ratings:  map[string]int{},
	}
	s.telnet.s = s
	return s, nil
}

// ListenAndServe listens on addr (loopback by default: "127.0.0.1:5000") and
// serves until ctx ends or Close is called.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	if addr == "" {
		addr = "127.0.0.1:5000"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { s.Close() })
	defer stop()
	return s.Serve(ln)
}

// Serve accepts connections on ln until Close. It returns nil after Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.listeners = append(s.listeners, ln)
	s.mu.Unlock()
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
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
		s.accept(nc)
	}
}

// Close stops listening, ends every game as aborted and disconnects
// everybody. It waits for the connection goroutines to finish.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.wg.Wait()
		return nil
	}
	s.closed = true
	for _, ln := range s.listeners {
		ln.Close()
	}
	for _, w := range s.watchers {
		if d, ok := w.(DoorCloser); ok {
			d.Closing()
		}
	}
	ev := s.newEvents()
	for _, g := range s.games {
		s.endGame(ev, g, "Abo", "aborted", "Game aborted: the server is shutting down")
	}
	if s.director != nil {
		s.director.Flush()
	}
	ev.flush()
	for c := range s.conns {
		c.close()
	}
	s.mu.Unlock()
	for _, w := range s.watchers {
		if d, ok := w.(DoorCloser); ok {
			d.Closed()
		}
	}
	s.wg.Wait()
	return nil
}

// Addr is the address of the first listener, or nil.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.listeners) == 0 {
		return nil
	}
	return s.listeners[0].Addr()
}

func (s *Server) accept(nc net.Conn) {
	c := newClient(s, nc)
	s.mu.Lock()
	if s.closed || len(s.conns) >= s.cfg.MaxConns {
		s.mu.Unlock()
		nc.SetWriteDeadline(s.cfg.Now().Add(time.Second))
		io.WriteString(nc, "The server is full; please try again later.\r\n")
		nc.Close()
		return
	}
	if s.perHost[c.host] >= s.cfg.MaxConnsPerHost {
		s.mu.Unlock()
		nc.SetWriteDeadline(s.cfg.Now().Add(time.Second))
		io.WriteString(nc, "Too many connections from your address; please try again later.\r\n")
		nc.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.perHost[c.host]++
	s.wg.Add(2)
	s.mu.Unlock()
	go c.writeLoop()
	go c.readLoop()
	c.sendRaw([]byte(banner))
	c.sendRaw([]byte("login: "))
}

const banner = "\r\nWelcome to kriegbot serve, an ICC-compatible Kriegspiel (wild 16) server.\r\n" +
	"Log in as \"g\" for a guest account. Type \"help\" once logged in.\r\n\r\n"

// dropped is called by a connection's reader when it ends.
func (s *Server) dropped(c *Client, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	if s.perHost[c.host]--; s.perHost[c.host] <= 0 {
		delete(s.perHost, c.host)
	}
	if c.handle == "" || s.users[strings.ToLower(c.handle)] != c {
		return
	}
	delete(s.users, strings.ToLower(c.handle))
	s.note().Msgf("logout %s (%s)", c.handle, reason)
	ev := s.newEvents()
	s.removeOffersOf(ev, c.handle)
	if s.director != nil {
		s.director.Left(ev, c)
	}
	if g := c.game; g != nil && g.result == "" {
		col := g.colorOf(c)
		grace, why := s.cfg.DisconnectGrace, "forfeits by disconnection"
		if g.tourney != nil && !s.closed {
			// A TD game waits for its player, as CCT's rules have it,
			// up to the disconnection that forfeits; a guest never
			// comes back under its name.
			if c.guest {
				grace = 0
			} else if wait, forfeitsAt := s.director.Disconnect(g, col); wait == 0 {
				grace, why = 0, fmt.Sprintf("forfeits by disconnection (%d in this game)", forfeitsAt)
			} else {
				grace = wait
			}
		}
		if grace > 0 && !s.closed {
			left := s.cfg.Now()
			g.absent[col] = left
			g.players[col] = nil
			if g.tourney != nil {
				s.pause(g)
				s.sendClocks(ev, g.players[1-col], g, left)
			}
			ev.text(g.players[1-col], fmt.Sprintf("Your opponent %s has disconnected; they have %s to come back.", c.handle, grace))
			time.AfterFunc(grace, func() { s.graceOver(g, col, left) })
		} else {
			s.endGame(ev, g, "Dis", scoreFor(1-col), fmt.Sprintf("%s %s", c.handle, why))
		}
	}
	ev.flush()
}

// graceOver forfeits the game of a player who left at left and has not
// come back.
func (s *Server) graceOver(g *Game, col chess.Color, left time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.result != "" || g.players[col] != nil || !g.absent[col].Equal(left) {
		return
	}
	ev := s.newEvents()
	s.endGame(ev, g, "Dis", scoreFor(1-col), fmt.Sprintf("%s forfeits by disconnection", g.names[col]))
	ev.flush()
}

// HostOf is the host of a connection's remote address: the key of the
// limits per address.
func HostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

func (s *Server) rating(handle string) int {
	if r, ok := s.ratings[strings.ToLower(handle)]; ok {
		return r
	}
	return 1500
}

// Users returns the handles logged in, for tests and the serve command.
func (s *Server) Users() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.users))
	for _, c := range s.users {
		out = append(out, c.handle)
	}
	return out
}

// GameCount returns the numbers of games in progress and finished.
func (s *Server) GameCount() (playing, finished int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games), len(s.finished)
}

// FinishedGame is a finished game's public record, for tests and tools.
type FinishedGame struct {
	Number       int
	White, Black string
	Result       string // 1-0, 0-1, 1/2-1/2, aborted
	Code         string // DG 16 result code: Mat, Res, Fla, ...
	Description  string
	Answers      []umpire.Answer // every attempt in order, illegal ones too
}

// Finished returns the finished games kept, oldest first.
func (s *Server) Finished() []FinishedGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]FinishedGame, len(s.finished))
	for i, g := range s.finished {
		out[i] = FinishedGame{Number: g.number, White: g.names[0], Black: g.names[1], Result: g.result,
			Code: g.endCode, Description: g.description, Answers: append([]umpire.Answer(nil), g.answers...)}
	}
	return out
}

// Seeks returns the number of seek ads posted.
func (s *Server) Seeks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seeks)
}
