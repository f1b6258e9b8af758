package server

import (
	"crypto/rand"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server/kshttp"
	"kriegbot/tourney"
)

// The game table's API for the doors in packages of their own (the HTTP
// door, server/httpdoor). doc.go says how doors and table meet; every
// method here but Lock expects the lock held.

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
	if c := s.door.User(lname); c != nil {
		return c.Handle(), true
	}
	return "", false
}

// HasAccount reports whether lname is a registered handle.
func (s *Server) HasAccount(lname string) bool {
	return s.cfg.Accounts != nil && s.cfg.Accounts.Has(lname)
}

// Player finds who plays or played here as lname (lower case): a telnet
// user logged in, a registered account, or a player of a finished game
// still kept (a guest who left). It returns the handle as spelled and its
// titles ("C" for a computer). HTTP bots are the HTTP door's to know.
func (s *Server) Player(lname string) (name, titles string, ok bool) {
	if c := s.door.User(lname); c != nil {
		return c.Handle(), c.Titles(), true
	}
	if a, ok := s.cfg.Accounts.Lookup(lname); ok {
		return a.Handle, a.Titles, true
	}
	for i := len(s.finished) - 1; i >= 0; i-- {
		g := s.finished[i]
		for col, n := range g.names {
			if strings.ToLower(n) == lname {
				return n, g.titles[col], true
			}
		}
	}
	return "", "", false
}

// IsTD reports whether name is the tournament director's handle.
func (s *Server) IsTD(name string) bool { return s.isTD(name) }

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

// SeekAds returns the seek ads telnet users see (the wild 16 ones), by
// index; LobbyAds all of them, the lobby games of every variant too.
func (s *Server) SeekAds() []*Seek  { return s.sortedSeeks(true) }
func (s *Server) LobbyAds() []*Seek { return s.sortedSeeks(false) }

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
func (s *Server) NewEvents() Events { return s.door.NewEvents() }

// PostBotSeek posts bot's waiting lobby game of variant v as a seek ad:
// everybody sees a wild 16 one, the HTTP door's bots alone the others.
func (s *Server) PostBotSeek(ev Events, bot Bot, minutes, inc int, color string, v umpire.Variant) *Seek {
	sk := &Seek{bot: bot, minutes: minutes, inc: inc, color: color, posted: s.cfg.Now(), variant: v}
	s.postSeek(ev, sk)
	return sk
}

// RemoveSeek takes sk down; reason is DG 51's (2 taken, 3 withdrawn).
func (s *Server) RemoveSeek(ev Events, sk *Seek, reason int) { s.removeSeek(ev, sk, reason) }

// TakeSeek starts the game of ad sk with bot in the other seat.
func (s *Server) TakeSeek(ev Events, sk *Seek, bot Bot) *Game {
	return s.takeSeek(ev, sk, seat{bot: bot})
}

// CheckFlag ends g if the side to move has run out of time.
func (s *Server) CheckFlag(ev Events, g *Game) bool { return s.checkFlag(ev, g) }

// Resign ends g: the player of colour col resigns.
func (s *Server) Resign(ev Events, g *Game, col chess.Color) {
	s.endGame(ev, g, "Res", scoreFor(1-col), g.names[col]+" resigns")
}

// Attempt referees the attempt m (text as the player wrote it) of the
// player of colour col in g.
func (s *Server) Attempt(ev Events, g *Game, col chess.Color, m chess.Move, text string) (umpire.Answer, AttemptOutcome) {
	return s.attemptIn(ev, g, col, m, text)
}

// Changed tells the doors following games that g changed (an attempt a
// door refused itself, which the umpire never saw).
func (s *Server) Changed(g *Game) { s.changed(g) }

// Subscribe adds a door that follows the table's games, after those
// already there (the composition opens the TD first).
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

// Variant is g's rule variant, as the site names it ("wild16", "berkeley", ...).
func (g *Game) Variant() string { return variantName(g.ump.Rules().Variant) }

// variantName is v's name on the site: the zero Variant is wild 16.
func variantName(v umpire.Variant) string {
	if v.IsWild16() {
		return umpire.Wild16().Name
	}
	return v.Name
}

// Umpire is g's referee, to read (the table alone makes attempts).
func (g *Game) Umpire() *umpire.Umpire { return g.ump }

// Answers are the umpire's answers to every attempt, in order.
func (g *Game) Answers() []umpire.Answer { return g.answers }

// Started and Updated are when g started and last changed.
func (g *Game) Started() time.Time { return g.started }
func (g *Game) Updated() time.Time { return g.updated }

// Clocks are both clocks as of the start of the side to move's turn.
func (g *Game) Clocks() [2]time.Duration { return g.clock }

// Paused reports whether g's clocks stand still while a TD game waits
// for a player who left.
func (g *Game) Paused() bool { return g.paused }

// ClockIdle reports whether g's clocks wait for White's first move.
func (g *Game) ClockIdle() bool { return g.idleClock }

// Player is the telnet user in col's seat: nil for a bot, or while the
// player is away.
func (g *Game) Player(col chess.Color) Client { return g.players[col] }

// Title is the titles of the player of colour col ("C" for a bot).
func (g *Game) Title(col chess.Color) string { return g.titles[col] }

// Rated reports whether g is rated; Terms are its time control: minutes
// and increment in seconds.
func (g *Game) Rated() bool               { return g.rated }
func (g *Game) Terms() (minutes, inc int) { return g.minutes, g.inc }

// Description says how g ended ("" while it runs).
func (g *Game) Description() string { return g.description }

// Moves are the legal moves so far: each one's SAN and the time its mover
// used. The slices are g's: read them, keep them no longer than the lock.
func (g *Game) Moves() (sans []string, used []time.Duration) { return g.sans, g.used }

// ClockRuns reports whether the side to move's clock is running.
func (g *Game) ClockRuns() bool { return g.clockRuns() }

// Remaining is side's clock at now.
func (g *Game) Remaining(side chess.Color, now time.Time) time.Duration {
	return g.remaining(side, now)
}

// Seek accessors, for the doors.

// Index is sk's number (DG 50, "play <index>").
func (sk *Seek) Index() int { return sk.index }

// Owner is the telnet user who posted sk, or nil for a bot's ad.
func (sk *Seek) Owner() Client { return sk.owner }

// OwnerTitles are the titles of who posted sk ("C" for a bot).
func (sk *Seek) OwnerTitles() string { return sk.seat().titles() }

// Inc is sk's increment in seconds (Minutes its base time).
func (sk *Seek) Inc() int { return sk.inc }

// Formula reports whether sk's owner screens takers by its formula.
func (sk *Seek) Formula() bool { return sk.formulaScreen }

// ID and Code are the game_id and game_code of the game sk would start.
func (sk *Seek) ID() string   { return sk.id }
func (sk *Seek) Code() string { return sk.code }

// Variant is the rule variant of the game sk would start (wild 16's name
// for a telnet ad).
func (sk *Seek) Variant() string { return variantName(sk.variant) }

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

// The tournament director's door (server/tddoor) is the table's
// Director: the table consults it where it has a say over what telnet
// users do, and it speaks to them through the table.

// Director is the tournament director as the table consults it, with the
// lock held. It also follows games (GameWatcher: SetDirector subscribes it).
type Director interface {
	GameWatcher
	// Handle is the TD's name; nobody logs in as it.
	Handle() string
	// Tell runs a user's tell to the TD ("tell TD ...", "td ...").
	Tell(ev Events, c Client, text string)
	// Login greets a user who logged in (its pairings, its events).
	Login(ev Events, c Client)
	// Left is told when a logged-in user leaves.
	Left(ev Events, c Client)
	// ListEvents sends c the events open or running (DG 63 turned on).
	ListEvents(ev Events, c Client)
	// Refuse reports (and tells c) whether c may not start a game with
	// opponent ("" for a seek ad) because of a pairing.
	Refuse(ev Events, c Client, opponent string) bool
	// Pairing returns the terms of the TD game handle is paired to play
	// with opponent, if any; Answer answers that pairing.
	Pairing(handle, opponent string) (minutes, inc int, event string, ok bool)
	Answer(ev Events, c Client, opponent string)
	// Disconnect is how long the player of colour col in g, a TD game,
	// has to come back (0: the game is forfeited), and the disconnection
	// that forfeits.
	Disconnect(g *Game, col chess.Color) (grace time.Duration, forfeitsAt int)
	// Flush writes what the TD has not yet written, as the table closes
	// (its games ended).
	Flush()
}

// SetDirector makes d the table's TD and subscribes it to the games
// (before the doors subscribed after).
func (s *Server) SetDirector(d Director) {
	s.director = d
	s.Subscribe(d)
}

// isTD reports whether name is the TD's.
func (s *Server) isTD(name string) bool {
	return s.director != nil && strings.EqualFold(name, s.director.Handle())
}

// refusedByTD asks the TD whether c may start a game with opponent.
func (s *Server) refusedByTD(ev Events, c Client, opponent string) bool {
	return s.director != nil && s.director.Refuse(ev, c, opponent)
}

// Online returns the telnet users logged in, in no order.
func (s *Server) Online() []Client { return s.door.Online() }

// User returns the telnet user of that handle (any case) logged in, or nil.
func (s *Server) User(handle string) Client { return s.door.User(strings.ToLower(handle)) }

// RemoveOffersOf withdraws handle's offers and seek ads.
func (s *Server) RemoveOffersOf(ev Events, handle string) { s.removeOffersOf(ev, handle) }

// EndGame ends g with result ("1-0", "0-1", "1/2-1/2" or "aborted"),
// DG 16's code and a description.
func (s *Server) EndGame(ev Events, g *Game, code, result, description string) {
	s.endGame(ev, g, code, result, description)
}

// StartTourneyGame starts an unrated game between two telnet users for
// the TD's pairing tourney; odds are taken off each side's clock (a late
// arrival), leaving at least a second.
func (s *Server) StartTourneyGame(ev Events, white, black Client, odds [2]time.Duration, minutes, inc int, pairing any) *Game {
	g := s.startGame(ev, seat{c: white, odds: odds[0]}, seat{c: black, odds: odds[1]}, minutes, inc, false, "", "", umpire.Variant{})
	g.tourney = pairing
	return g
}

// The telnet door's uses of the table: its users' seats, logins and
// departures, and what their commands ask of the table.

// SetPlayerDoor makes d the table's door whose users sit at the games:
// the telnet door (telnetdoor.New).
func (s *Server) SetPlayerDoor(d PlayerDoor) { s.door = d }

// Config is the table's configuration, its defaults filled in (the
// telnet door's limits are there).
func (s *Server) Config() Config { return s.cfg }

// Director is the table's TD, or nil.
func (s *Server) Director() Director { return s.director }

// RefusedByTD reports (and tells c) whether the TD refuses c a game with
// opponent ("" for a seek ad) because of a pairing.
func (s *Server) RefusedByTD(ev Events, c Client, opponent string) bool {
	return s.refusedByTD(ev, c, opponent)
}

// Rejoin gives c, who has just logged in, back its seat in the games it
// left within their grace period.
func (s *Server) Rejoin(ev Events, c Client) { s.rejoin(ev, c) }

// GameByNumber is the game numbered n, in progress or kept, or nil.
func (s *Server) GameByNumber(n int) *Game {
	if g := s.games[n]; g != nil {
		return g
	}
	var found *Game
	for _, f := range s.finished {
		if f.number == n {
			found = f
		}
	}
	return found
}

// FindBot returns the bot of another door named lname, or nil;
// BotUnavailable says why bot cannot start a game now ("" if it can).
func (s *Server) FindBot(lname string) Bot {
	if s.bots == nil {
		return nil
	}
	return s.bots.FindBot(lname)
}
func (s *Server) BotUnavailable(bot Bot, now time.Time) string { return s.bots.Unavailable(bot, now) }

// ColorOf is the colour c plays in g.
func (g *Game) ColorOf(c Client) chess.Color { return g.colorOf(c) }

// Tourney is the TD's pairing g plays (set by StartTourneyGame), or nil;
// SetTourney changes it (nil: the game is the TD's no longer).
func (g *Game) Tourney() any           { return g.tourney }
func (g *Game) SetTourney(pairing any) { g.tourney = pairing }

// SetTags gives g's PGN record the TD's tags (the event's roster).
func (g *Game) SetTags(tags []tourney.Tag) { g.tdTags = tags }

// PGN is g's record in PGN.
func (g *Game) PGN() string { return gamePGN(g) }

// ColorName is "White" or "Black".
func ColorName(c chess.Color) string { return colorName(c) }

// WriteAtomic writes a file under a temporary name and renames it, so a
// crash never leaves half a file.
func WriteAtomic(name string, data []byte) error { return writeAtomic(name, data) }

// WriteWait is the time one write to a client may take, on every door
// (a telnet piece, an event stream's frame).
const WriteWait = 30 * time.Second
