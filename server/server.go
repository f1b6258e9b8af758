package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
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
	// MaxConns bounds simultaneous connections, on each door (default
	// 1000). The telnet door's other limits are its own (telnetdoor.Config).
	MaxConns int
	// MaxConnsPerHost bounds the connections from one address, so that one
	// host cannot take them all (default a quarter of MaxConns, at least
	// 50 or MaxConns if that is less).
	MaxConnsPerHost int
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

// Server is the wild 16 server's game table. Create it with New; the
// telnet door (server/telnetdoor) seats its users at it and serves them.
type Server struct {
	cfg Config

	mu       sync.Mutex
	closed   bool
	seeks    map[int]*Seek
	nextSeek int
	games    map[int]*Game // in progress
	finished []*Game       // most recent last, bounded by MaxGames
	nextGame int
	ratings  map[string]int
	watchers []GameWatcher // the doors following games (game.go)
	bots     BotDoor       // the door whose bots telnet users match, or nil
	door     PlayerDoor    // the door whose users sit at the games (the telnet door)
	director Director      // the tournament director (server/tddoor), or nil
}

// New checks cfg and returns a table with no door yet.
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
		seeks:    map[int]*Seek{},
		nextSeek: 1,
		games:    map[int]*Game{},
		nextGame: recorded + 1,
		ratings:  map[string]int{},
		door:     noPlayers{},
	}
	return s, nil
}

// Close ends every game as aborted, has the doors disconnect everybody,
// and waits for them.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.door.Closed()
		return nil
	}
	s.closed = true
	s.door.Closing()
	for _, w := range s.watchers {
		if d, ok := w.(DoorCloser); ok {
			d.Closing()
		}
	}
	ev := s.door.NewEvents()
	for _, g := range s.games {
		s.endGame(ev, g, "Abo", "aborted", "Game aborted: the server is shutting down")
	}
	if s.director != nil {
		s.director.Flush()
	}
	ev.Flush()
	s.door.Hangup()
	s.mu.Unlock()
	for _, w := range s.watchers {
		if d, ok := w.(DoorCloser); ok {
			d.Closed()
		}
	}
	s.door.Closed()
	return nil
}

// Leave is told by the telnet door that c, logged in, has left: its
// offers are withdrawn, the TD told, and a game it plays waits for it
// (its grace: Config.DisconnectGrace, or the TD's) or is forfeited.
func (s *Server) Leave(ev Events, c Client) {
	s.removeOffersOf(ev, c.Handle())
	if s.director != nil {
		s.director.Left(ev, c)
	}
	g := s.gameOf(c)
	if g == nil || g.result != "" {
		return
	}
	col := g.colorOf(c)
	grace, why := s.cfg.DisconnectGrace, "forfeits by disconnection"
	if g.tourney != nil && !s.closed {
		// A TD game waits for its player, as CCT's rules have it,
		// up to the disconnection that forfeits; a guest never
		// comes back under its name.
		if c.Guest() {
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
		}
		s.door.PlayerAway(ev, g, col, grace, left)
		time.AfterFunc(grace, func() { s.graceOver(g, col, left) })
	} else {
		s.endGame(ev, g, "Dis", scoreFor(1-col), fmt.Sprintf("%s %s", c.Handle(), why))
	}
}

// gameOf is the game in progress c sits at, or nil.
func (s *Server) gameOf(c Client) *Game {
	for _, g := range s.games {
		if g.players[0] == c || g.players[1] == c {
			return g
		}
	}
	return nil
}

// graceOver forfeits the game of a player who left at left and has not
// come back.
func (s *Server) graceOver(g *Game, col chess.Color, left time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.result != "" || g.players[col] != nil || !g.absent[col].Equal(left) {
		return
	}
	ev := s.door.NewEvents()
	s.endGame(ev, g, "Dis", scoreFor(1-col), fmt.Sprintf("%s forfeits by disconnection", g.names[col]))
	ev.Flush()
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
