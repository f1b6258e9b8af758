package server

import (
	"crypto/rand"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server/kshttp"
)

// The game table's API for the doors in packages of their own (the HTTP
// door, server/httpdoor). doc.go says how doors and table meet; every
// method here but Lock and ServeTourney expects the lock held.

// Lock takes the table's one lock; a door holds it around each use of the
// table, as the telnet door's commands do.
func (s *Server) Lock() { s.mu.Lock() }

// Unlock lets the table's lock go.
func (s *Server) Unlock() { s.mu.Unlock() }

// Now is the table's clock (Config.Now).
func (s *Server) Now() time.Time { return s.cfg.Now() }

// Note starts a log line of a door's notable event, at the table's level
// for them (Config.DebugEvents); Warn one of a failure the door goes on
// after (a file not written).
func (s *Server) Note() *zerolog.Event { return s.note() }
func (s *Server) Warn() *zerolog.Event { return s.warn() }

// Closed reports whether Close has begun.
func (s *Server) Closed() bool { return s.closed }

// ConnLimits are Config.MaxConns and MaxConnsPerHost, which a door holds
// its own connections to.
func (s *Server) ConnLimits() (total, perHost int) { return s.cfg.MaxConns, s.cfg.MaxConnsPerHost }

// Rating is handle's rating (1500 for a handle that has none).
func (s *Server) Rating(handle string) int { return s.rating(handle) }

// LoggedIn returns the handle of the telnet user whose lower-case handle
// is lname, if logged in.
func (s *Server) LoggedIn(lname string) (string, bool) {
	if c := s.users[lname]; c != nil {
		return c.handle, true
	}
	return "", false
}

// HasAccount reports whether lname is a registered handle.
func (s *Server) HasAccount(lname string) bool {
	return s.cfg.Accounts != nil && s.cfg.Accounts.Has(lname)
}

// IsTD reports whether name is the tournament director's handle.
func (s *Server) IsTD(name string) bool { return s.td.isTD(name) }

// ServeTourney answers the TD's event pages (/tourney/N.html, .txt,
// .pgn), taking the lock itself. allow spends one request of the asking
// host's budget; it is called with the lock held.
func (s *Server) ServeTourney(w http.ResponseWriter, r *http.Request, allow func() (bool, time.Duration)) {
	s.td.serveTourney(w, r, allow)
}

// GamesInProgress returns the games being played, in no order.
func (s *Server) GamesInProgress() []*Game {
	out := make([]*Game, 0, len(s.games))
	for _, g := range s.games {
		out = append(out, g)
	}
	return out
}

// GamesFinished returns the finished games kept (Config.MaxGames),
// oldest first. The slice is the table's: read it, keep it no longer than
// the lock.
func (s *Server) GamesFinished() []*Game { return s.finished }

// SeekAds returns the seek ads posted, by index.
func (s *Server) SeekAds() []*Seek { return s.sortedSeeks() }

// HasSeek reports whether sk is still posted.
func (s *Server) HasSeek(sk *Seek) bool { return s.seeks[sk.index] == sk }

// FindKey finds the seek ad or game (in progress or kept) whose game_id
// (byCode false) or game_code (byCode true) is key.
func (s *Server) FindKey(key string, byCode bool) (*Seek, *Game) {
	match := func(id, code string) bool {
		return !byCode && id == key || byCode && code == key
	}
	for _, sk := range s.seeks {
		if match(sk.id, sk.code) {
			return sk, nil
		}
	}
	for _, g := range s.games {
		if match(g.id, g.code) {
			return nil, g
		}
	}
	for i := len(s.finished) - 1; i >= 0; i-- {
		if g := s.finished[i]; match(g.id, g.code) {
			return nil, g
		}
	}
	return nil, nil
}

// newGameID returns a game_id (24 hex) and a game_code (6 characters)
// that no seek or game kept has: the names the HTTP door shows.
func (s *Server) newGameID() (id, code string) {
	for {
		id = kshttp.RandomHex(24)
		var b [kshttp.CodeLen]byte
		rand.Read(b[:])
		for i := range b {
			b[i] = kshttp.CodeAlphabet[int(b[i])%len(kshttp.CodeAlphabet)]
		}
		code = string(b[:])
		if sk, g := s.FindKey(id, false); sk == nil && g == nil {
			if sk, g := s.FindKey(code, true); sk == nil && g == nil {
				return id, code
			}
		}
	}
}

// NewEvents starts collecting the output of one use of the table; Flush
// sends it.
func (s *Server) NewEvents() *Events { return s.newEvents() }

// Flush sends what ev collected.
func (ev *Events) Flush() { ev.flush() }

// PostBotSeek posts bot's waiting lobby game as a seek ad everybody sees.
func (s *Server) PostBotSeek(ev *Events, bot Bot, minutes, inc int, color string) *Seek {
	sk := &Seek{bot: bot, minutes: minutes, inc: inc, color: color, posted: s.cfg.Now()}
	s.postSeek(ev, sk)
	return sk
}

// RemoveSeek takes sk down; reason is DG 51's (2 taken, 3 withdrawn).
func (s *Server) RemoveSeek(ev *Events, sk *Seek, reason int) { s.removeSeek(ev, sk, reason) }

// TakeSeek starts the game of ad sk with bot in the other seat.
func (s *Server) TakeSeek(ev *Events, sk *Seek, bot Bot) *Game {
	return s.takeSeek(ev, sk, seat{bot: bot})
}

// CheckFlag ends g if the side to move has run out of time.
func (s *Server) CheckFlag(ev *Events, g *Game) bool { return s.checkFlag(ev, g) }

// Resign ends g: the player of colour col resigns.
func (s *Server) Resign(ev *Events, g *Game, col chess.Color) {
	s.endGame(ev, g, "Res", scoreFor(1-col), g.names[col]+" resigns")
}

// Attempt referees the attempt m (text as the player wrote it) of the
// player of colour col in g.
func (s *Server) Attempt(ev *Events, g *Game, col chess.Color, m chess.Move, text string) (umpire.Answer, AttemptOutcome) {
	return s.attemptIn(ev, g, col, m, text)
}

// Changed tells the doors following games that g changed (an attempt a
// door refused itself, which the umpire never saw).
func (s *Server) Changed(g *Game) { s.changed(g) }

// Subscribe adds a door that follows the table's games, after those
// already there (New subscribes the TD first).
func (s *Server) Subscribe(w GameWatcher) { s.watchers = append(s.watchers, w) }

// SetBots names the door whose bots telnet users may `match`.
func (s *Server) SetBots(d BotDoor) { s.bots = d }

// Bot is a player of another door seated at the table (the HTTP door's
// bots): the table knows its names only.
type Bot interface {
	// Name is the bot's name in its seat and seek ads (lower case).
	Name() string
	// Handle is its name as registered, for lines told to a challenger.
	Handle() string
}

// BotDoor is the door whose bots telnet users challenge with
// `match <bot>`, and whose games wait for White's first move.
type BotDoor interface {
	// FindBot returns the bot of lower-case name lname, or nil.
	FindBot(lname string) Bot
	// Unavailable says why bot cannot start a game now ("" if it can).
	Unavailable(bot Bot, now time.Time) string
	// IdleGame is how long a game with a bot waits for White's first
	// move before it is aborted.
	IdleGame() time.Duration
}

// DoorCloser is a subscribed door that the table tells when it closes:
// Closing with the lock held, before the table's games end; Closed
// after, without the lock, before Close returns.
type DoorCloser interface {
	Closing()
	Closed()
}

// Game accessors, for the doors. Each reads g under the table's lock.

// Number is g's number on the table.
func (g *Game) Number() int { return g.number }

// ID and Code are g's game_id and game_code.
func (g *Game) ID() string   { return g.id }
func (g *Game) Code() string { return g.code }

// Name and Rating are the player of colour col's name and rating.
func (g *Game) Name(col chess.Color) string { return g.names[col] }
func (g *Game) Rating(col chess.Color) int  { return g.ratings[col] }

// Connected reports whether col's seat is taken by a bot or a client
// (not a player away in a grace period).
func (g *Game) Connected(col chess.Color) bool { return g.bots[col] != nil || g.players[col] != nil }

// Bots are the bots in g's seats (nil for a telnet seat).
func (g *Game) Bots() [2]Bot { return g.bots }

// SeatOf returns the colour bot plays in g.
func (g *Game) SeatOf(bot Bot) (chess.Color, bool) {
	for col, b := range g.bots {
		if b != nil && b == bot {
			return chess.Color(col), true
		}
	}
	return 0, false
}

// Result is "" while g runs, then "1-0", "0-1", "1/2-1/2" or "aborted";
// EndCode is DG 16's code of how it ended (Mat, Res, Fla, ...).
func (g *Game) Result() string  { return g.result }
func (g *Game) EndCode() string { return g.endCode }

// Umpire is g's referee, to read (the table alone makes attempts).
func (g *Game) Umpire() *umpire.Umpire { return g.ump }

// Answers are the umpire's answers to every attempt, in order.
func (g *Game) Answers() []umpire.Answer { return g.answers }

// Started and Updated are when g started and last changed.
func (g *Game) Started() time.Time { return g.started }
func (g *Game) Updated() time.Time { return g.updated }

// ClockIdle reports whether g's clocks wait for White's first move.
func (g *Game) ClockIdle() bool { return g.idleClock }

// Remaining is side's clock at now.
func (g *Game) Remaining(side chess.Color, now time.Time) time.Duration {
	return g.remaining(side, now)
}

// Seek accessors, for the doors.

// ID and Code are the game_id and game_code of the game sk would start.
func (sk *Seek) ID() string   { return sk.id }
func (sk *Seek) Code() string { return sk.code }

// Bot is the bot whose waiting game sk is, or nil for a telnet user's ad.
func (sk *Seek) Bot() Bot { return sk.bot }

// OwnerName is the name of who posted sk; OwnerBusy reports whether a
// telnet owner is playing already.
func (sk *Seek) OwnerName() string { return sk.seat().name() }
func (sk *Seek) OwnerBusy() bool   { return sk.seat().busy() }

// Color is the colour sk's owner asked for: "", "white" or "black".
func (sk *Seek) Color() string { return sk.color }

// Manual reports whether the owner accepts each taker by hand (no lobby
// game).
func (sk *Seek) Manual() bool { return sk.manual }

// Rated reports whether sk is rated, and its takers' rating range.
func (sk *Seek) Rated() bool                 { return sk.rated }
func (sk *Seek) RatingRange() (lo, hi int)   { return sk.minR, sk.maxR }
func (sk *Seek) Minutes() int                { return sk.minutes }
func (sk *Seek) PostedAt() time.Time         { return sk.posted }
func (sk *Seek) SetExpiry(timer *time.Timer) { sk.expiry = timer }
