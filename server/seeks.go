package server

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kriegbot/protocol"
)

// Seek ads: seek, unseek, sought and play, and the terms they share with match.

// Seek is a seek ad: a telnet client's, or an HTTP bot's waiting lobby
// game (owner nil, bot set), which telnet users see and `play` like any
// other. Every ad has the game_id and game_code the HTTP door shows.
type Seek struct {
	index         int
	owner         *Client
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
}

// terms are the words of a seek or match, as parseTerms reads them.
type terms struct {
	rated           bool
	color           string
	manual, formula bool
	minR, maxR      int
	minutes, inc    int
	numbers         int    // how many numbers (time, increment) were given
	badWild         string // a wild other than 16
	unknown         string // a word not understood
}

func parseTerms(args []string) terms {
	t := terms{minutes: 2, inc: 12, maxR: 9999}
	for _, a := range args {
		la := strings.ToLower(a)
		switch {
		case la == "r" || la == "rated":
			t.rated = true
		case la == "u" || la == "unrated":
			t.rated = false
		case la == "white" || la == "black":
			t.color = la
		case la == "a":
			t.manual = false
		case la == "m":
			t.manual = true
		case la == "f":
			t.formula = true
		case la == "w16" || la == "wild16" || la == "kriegspiel" || la == "16" && t.numbers >= 2:
		case strings.HasPrefix(la, "w") && len(la) > 1 && la[1] >= '0' && la[1] <= '9':
			t.badWild = a
		case strings.Contains(la, "-"):
			lo, hi, _ := strings.Cut(la, "-")
			l, e1 := strconv.Atoi(lo)
			h, e2 := strconv.Atoi(hi)
			if e1 != nil || e2 != nil || l < 0 || h < l {
				t.unknown = a
			} else {
				t.minR, t.maxR = l, h
			}
		default:
			n, err := strconv.Atoi(la)
			if err != nil || n < 0 || n > 999 || t.numbers >= 2 {
				t.unknown = a
				continue
			}
			if t.numbers == 0 {
				t.minutes = n
			} else {
				t.inc = n
			}
			t.numbers++
		}
	}
	if t.numbers == 1 {
		t.inc = 0
	}
	return t
}

func (t terms) problem() string {
	if t.badWild != "" {
		return fmt.Sprintf("This server plays only wild 16 (Kriegspiel), not %s.", t.badWild)
	}
	if t.unknown != "" {
		return fmt.Sprintf("I do not understand %q.", t.unknown)
	}
	if t.minutes == 0 && t.inc == 0 {
		return "Untimed games are not offered: give a time or an increment."
	}
	return ""
}

func (s *Server) canPlayRated(c *Client, rated bool) bool { return !rated || !c.guest }

// seat is the owner of the ad, as a side of the game it leads to.
func (sk *Seek) seat() seat { return seat{c: sk.owner, bot: sk.bot} }

// ownedBy reports whether c posted the ad.
func (sk *Seek) ownedBy(c *Client) bool { return sk.owner != nil && sk.owner == c }

func (tel *telnetDoor) cmdSeek(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	t := parseTerms(args)
	if p := t.problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !s.canPlayRated(c, t.rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	if s.refusedByTD(ev, c, "") {
		return
	}
	n := 0
	for _, sk := range s.seeks {
		if sk.owner == c {
			n++
		}
	}
	if n >= 3 {
		ev.text(c, "You may have at most 3 seek ads.")
		return
	}
	sk := &Seek{index: s.nextSeek, owner: c, minutes: t.minutes, inc: t.inc, rated: t.rated, color: t.color,
		manual: t.manual, minR: t.minR, maxR: t.maxR, posted: s.cfg.Now(), formulaScreen: t.formula}
	ev.text(c, fmt.Sprintf("Your seek has been posted with index %d.", sk.index))
	s.postSeek(ev, sk)
}

// postSeek numbers a new ad, names it for the HTTP door and shows it to
// everyone.
func (s *Server) postSeek(ev *Events, sk *Seek) {
	sk.index = s.nextSeek
	s.nextSeek++
	sk.id, sk.code = s.newGameID()
	s.seeks[sk.index] = sk
	for _, u := range s.users {
		if sk.ownedBy(u) || !u.congested() { // see client.congested
			s.seekDG(ev, u, sk)
		}
	}
}

func (s *Server) seekDG(ev *Events, u *Client, sk *Seek) {
	col := "-1"
	switch sk.color {
	case "white":
		col = "1"
	case "black":
		col = "0"
	}
	auto := "1"
	if sk.manual {
		auto = "0"
	}
	p := sk.seat()
	ev.dg(u, protocol.DGSeek, strconv.Itoa(sk.index), p.name(), p.titles(), strconv.Itoa(s.rating(p.name())), "0",
		"16", "Wild", strconv.Itoa(sk.minutes), strconv.Itoa(sk.inc), boolField(sk.rated), col,
		strconv.Itoa(sk.minR), strconv.Itoa(sk.maxR), auto, boolField(sk.formulaScreen), "")
}

func (s *Server) removeSeek(ev *Events, sk *Seek, reason int) {
	delete(s.seeks, sk.index)
	if sk.expiry != nil {
		sk.expiry.Stop()
	}
	for _, u := range s.users {
		if sk.ownedBy(u) || !u.congested() {
			ev.dg(u, protocol.DGSeekRemoved, strconv.Itoa(sk.index), strconv.Itoa(reason))
		}
	}
}

func (tel *telnetDoor) cmdUnseek(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	n := 0
	for _, sk := range s.sortedSeeks() {
		if sk.ownedBy(c) && (len(args) == 0 || args[0] == strconv.Itoa(sk.index)) {
			s.removeSeek(ev, sk, 3)
			n++
		}
	}
	ev.text(c, fmt.Sprintf("%d seek ads removed.", n))
}

func (s *Server) sortedSeeks() []*Seek {
	out := make([]*Seek, 0, len(s.seeks))
	for _, sk := range s.seeks {
		out = append(out, sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

func (tel *telnetDoor) cmdSought(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	for _, sk := range s.sortedSeeks() {
		r := "u"
		if sk.rated {
			r = "r"
		}
		name := sk.seat().name()
		ev.text(c, fmt.Sprintf("%3d %4d %-20s %3d %3d %s wild 16 %s", sk.index, s.rating(name), name, sk.minutes, sk.inc, r, sk.color))
	}
	ev.text(c, fmt.Sprintf("%d ads displayed.", len(s.seeks)))
}

func (tel *telnetDoor) cmdPlay(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	if len(args) != 1 {
		ev.text(c, "Usage: play <index>")
		return
	}
	n, _ := strconv.Atoi(args[0])
	sk := s.seeks[n]
	switch {
	case sk == nil:
		ev.text(c, "That seek is not available.")
	case sk.ownedBy(c):
		ev.text(c, "You cannot play your own seek.")
	case c.game != nil || sk.seat().busy():
		ev.text(c, "One of you is already playing.")
	case s.refusedByTD(ev, c, sk.seat().name()):
	case !s.canPlayRated(c, sk.rated):
		ev.text(c, "Guests can play unrated games only.")
	case sk.rated && (s.rating(c.handle) < sk.minR || s.rating(c.handle) > sk.maxR):
		ev.text(c, "Your rating is outside the seek's range.")
	case sk.manual:
		s.offer(ev, c, sk.owner, sk.minutes, sk.inc, sk.rated, oppositeColor(sk.color))
	default:
		s.takeSeek(ev, sk, seat{c: c})
	}
}

// takeSeek starts the game of ad sk against taker, under the ad's
// game_id and game_code.
func (s *Server) takeSeek(ev *Events, sk *Seek, taker seat) *Game {
	white, black := s.colors(sk.seat(), taker, sk.color)
	ev.touch(sk.owner)
	if sk.bot != nil {
		s.removeSeek(ev, sk, 2)
	}
	return s.startGame(ev, white, black, sk.minutes, sk.inc, sk.rated, sk.id, sk.code)
}

func oppositeColor(col string) string {
	switch col {
	case "white":
		return "black"
	case "black":
		return "white"
	}
	return ""
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
