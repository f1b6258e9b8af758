package server

import (
	"sort"
	"strings"
	"time"

	"kriegbot/engine/umpire"
)

// Seek ads, posted by the telnet door's users and the HTTP door's bots,
// and the start of a game between two seats.

// Seek is a seek ad: a telnet client's, or an HTTP bot's waiting lobby
// game (owner nil, bot set), which telnet users see and `play` like any
// other. Every ad has the game_id and game_code the HTTP door shows.
type Seek struct {
	index         int
	owner         Client
	bot           Bot
	id, code      string
	minutes, inc  int
	rated         bool
	color         string // "", "white", "black"
	manual        bool
	minR, maxR    int
	posted        time.Time
	formulaScreen bool
	expiry        *time.Timer // a bot's waiting game: its expiry, stopped when the ad goes
	// variant is the game's rule variant: wild 16 (the zero Variant) for
	// every telnet ad; a bot's lobby game may be any of the site's.
	variant umpire.Variant
}

// telnet reports whether telnet users see the ad: ICC has no Kriegspiel
// but wild 16, so a lobby game of another variant is the HTTP door's alone.
func (sk *Seek) telnet() bool { return sk.variant.IsWild16() }

// seat is the owner of the ad, as a side of the game it leads to.
func (sk *Seek) seat() seat { return seat{c: sk.owner, bot: sk.bot} }

// postSeek numbers a new ad, names it for the HTTP door and shows it to
// everyone.
func (s *Server) postSeek(ev Events, sk *Seek) {
	sk.index = s.nextSeek
	s.nextSeek++
	sk.id, sk.code = s.newGameID()
	s.seeks[sk.index] = sk
	if sk.telnet() {
		s.door.SeekPosted(ev, sk)
	}
}

func (s *Server) removeSeek(ev Events, sk *Seek, reason int) {
	delete(s.seeks, sk.index)
	if sk.expiry != nil {
		sk.expiry.Stop()
	}
	if sk.telnet() {
		s.door.SeekRemoved(ev, sk, reason)
	}
}

// sortedSeeks returns the ads by index: all of them, or (telnet) only
// those telnet users see.
func (s *Server) sortedSeeks(telnet bool) []*Seek {
	out := make([]*Seek, 0, len(s.seeks))
	for _, sk := range s.seeks {
		if !telnet || sk.telnet() {
			out = append(out, sk)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

// takeSeek starts the game of ad sk against taker, under the ad's
// game_id and game_code.
func (s *Server) takeSeek(ev Events, sk *Seek, taker seat) *Game {
	white, black := s.colors(sk.seat(), taker, sk.color)
	if sk.bot != nil {
		s.removeSeek(ev, sk, 2)
	}
	return s.startGame(ev, white, black, sk.minutes, sk.inc, sk.rated, sk.id, sk.code, sk.variant)
}

// colors decides who is White: first's colour request if any, else
// alternating by game number so neither side always starts.
func (s *Server) colors(first, second seat, firstWants string) (white, black seat) {
	switch firstWants {
	case "white":
		return first, second
	case "black":
		return second, first
	}
	if s.nextGame%2 == 1 {
		return first, second
	}
	return second, first
}

// SeekTerms are the terms of a telnet user's seek ad.
type SeekTerms struct {
	Minutes, Inc    int // seconds
	Rated           bool
	Color           string // "", "white" or "black": the owner's
	Manual, Formula bool   // accept each taker by hand; screen takers by formula
	MinR, MaxR      int    // the takers' rating range
}

// NextSeekIndex is the index the next ad posted will have.
func (s *Server) NextSeekIndex() int { return s.nextSeek }

// PostUserSeek posts c's seek ad on terms t.
func (s *Server) PostUserSeek(ev Events, c Client, t SeekTerms) *Seek {
	sk := &Seek{owner: c, minutes: t.Minutes, inc: t.Inc, rated: t.Rated, color: t.Color,
		manual: t.Manual, minR: t.MinR, maxR: t.MaxR, posted: s.cfg.Now(), formulaScreen: t.Formula}
	s.postSeek(ev, sk)
	return sk
}

// TakeUserSeek starts the game of ad sk with the telnet user c in the
// other seat.
func (s *Server) TakeUserSeek(ev Events, sk *Seek, c Client) *Game {
	return s.takeSeek(ev, sk, seat{c: c})
}

// Seat is one side of a game a door starts: a telnet user or a bot.
type Seat struct {
	User Client
	Bot  Bot
}

// Match starts a game between first and second, first getting the colour
// it wants ("", "white" or "black"; else they alternate by game number).
func (s *Server) Match(ev Events, first, second Seat, firstWants string, minutes, inc int, rated bool) *Game {
	white, black := s.colors(seat{c: first.User, bot: first.Bot}, seat{c: second.User, bot: second.Bot}, firstWants)
	return s.startGame(ev, white, black, minutes, inc, rated, "", "", umpire.Variant{})
}

// removeOffersOf withdraws a player's seeks and challenges (game start,
// logout, bare `match`).
func (s *Server) removeOffersOf(ev Events, handle string) {
	for _, sk := range s.sortedSeeks(true) {
		if sk.owner != nil && strings.EqualFold(sk.owner.Handle(), handle) {
			s.removeSeek(ev, sk, 2)
		}
	}
	s.door.WithdrawOffers(ev, handle)
}
