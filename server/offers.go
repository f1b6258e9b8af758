package server

import (
	"fmt"
	"strconv"
	"strings"

	"kriegbot/protocol"
)

// Challenges: match, accept, decline, and the withdrawal of a player's offers.

// challenge is a pending match offer.
type challenge struct {
	from, to     *Client
	minutes, inc int
	rated        bool
	color        string // the challenger's requested colour
}

func (tel *telnetDoor) cmdMatch(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	if len(args) < 1 {
		s.removeOffersOf(ev, c.handle)
		ev.text(c, "All your offers are withdrawn.")
		return
	}
	// "match <opponent>!" (the tourney-set line's answer, and DG 63's
	// command) or a match at the paired terms answers a TD pairing.
	name := strings.TrimSuffix(args[0], "!")
	if s.director != nil {
		if minutes, inc, event, ok := s.director.Pairing(c.handle, name); ok {
			if t := parseTerms(args[1:]); len(args) > 1 && (t.minutes != minutes || t.inc != inc || t.rated || t.problem() != "") {
				ev.text(c, fmt.Sprintf("You are paired with %s in %s at %d %d unrated: send \"match %s!\".", name, event, minutes, inc, name))
				return
			}
			s.director.Answer(ev, c, name)
			return
		}
	}
	if strings.HasSuffix(args[0], "!") {
		// The "!" form answers pairings only: a late or repeated answer
		// must not become a challenge for a game nobody paired.
		ev.text(c, fmt.Sprintf("You have no tourney game to play with %s now.", name))
		return
	}
	dest := s.users[strings.ToLower(args[0])]
	if dest == nil {
		if bot := s.findBot(strings.ToLower(args[0])); bot != nil {
			s.matchBot(ev, c, bot, parseTerms(args[1:]))
			return
		}
		ev.text(c, fmt.Sprintf("%s is not logged in.", args[0]))
		return
	}
	if dest == c {
		ev.text(c, "You cannot challenge yourself.")
		return
	}
	t := parseTerms(args[1:])
	if p := t.problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !s.canPlayRated(c, t.rated) || !s.canPlayRated(dest, t.rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	// The same terms as a pending challenge from dest accept it, as on ICC.
	for _, ch := range s.challenges {
		if ch.from == dest && ch.to == c && ch.minutes == t.minutes && ch.inc == t.inc && ch.rated == t.rated {
			s.acceptChallenge(ev, ch)
			return
		}
	}
	s.offer(ev, c, dest, t.minutes, t.inc, t.rated, t.color)
}

func (s *Server) offer(ev *Events, from, to *Client, minutes, inc int, rated bool, color string) {
	if from.game != nil || to.game != nil {
		ev.text(from, "One of you is already playing.")
		return
	}
	if s.refusedByTD(ev, from, to.handle) {
		return
	}
	if to.congested() {
		ev.text(from, fmt.Sprintf("%s is not reading at the moment; try again later.", to.handle))
		return
	}
	for i, ch := range s.challenges {
		if ch.from == from && ch.to == to {
			s.challenges = append(s.challenges[:i], s.challenges[i+1:]...)
			break
		}
	}
	if len(s.challenges) >= 10000 {
		ev.text(from, "The server has too many pending challenges; try later.")
		return
	}
	ch := &challenge{from: from, to: to, minutes: minutes, inc: inc, rated: rated, color: color}
	s.challenges = append(s.challenges, ch)
	kind := "unrated"
	if rated {
		kind = "rated"
	}
	desc := fmt.Sprintf("%s (%d) %s (%d) %s wild 16 %d %d", from.handle, s.rating(from.handle), to.handle, s.rating(to.handle), kind, minutes, inc)
	if color != "" {
		desc += " (" + color + ")"
	}
	ev.text(from, "Issuing: "+desc+".")
	ev.touch(to)
	ev.text(to, "Challenge: "+desc+".")
	ev.text(to, fmt.Sprintf("You may accept this with \"accept %s\", decline it with \"decline %s\", or propose different parameters.", from.handle, from.handle))
	colReq := "-1"
	switch color {
	case "white":
		colReq = "1"
	case "black":
		colReq = "0"
	}
	for _, u := range []*Client{from, to} {
		ev.dg(u, protocol.DGMatch, from.handle, strconv.Itoa(s.rating(from.handle)), "0", from.titles,
			to.handle, strconv.Itoa(s.rating(to.handle)), "0", to.titles, "16", "Wild", boolField(rated), "0",
			strconv.Itoa(minutes), strconv.Itoa(inc), strconv.Itoa(minutes), strconv.Itoa(inc), colReq, "")
	}
}

func (tel *telnetDoor) findChallenge(c *Client, args []string) *challenge {
	s := tel.s
	var found *challenge
	for _, ch := range s.challenges {
		if ch.to != c {
			continue
		}
		if len(args) > 0 && !strings.EqualFold(ch.from.handle, args[0]) {
			continue
		}
		if found != nil && len(args) == 0 {
			return nil // ambiguous
		}
		found = ch
	}
	return found
}

func (tel *telnetDoor) cmdAccept(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	ch := tel.findChallenge(c, args)
	if ch == nil {
		ev.text(c, "There is no such offer to accept (name the challenger if there are several).")
		return
	}
	s.acceptChallenge(ev, ch)
}

func (s *Server) acceptChallenge(ev *Events, ch *challenge) {
	s.dropChallenge(ev, ch, fmt.Sprintf("%s accepts the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.to, fmt.Sprintf("You accept the challenge of %s.", ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s accepts your challenge.", ch.to.handle))
	if ch.from.game != nil || ch.to.game != nil {
		ev.text(ch.to, "One of you is already playing.")
		return
	}
	if s.refusedByTD(ev, ch.to, ch.from.handle) {
		return
	}
	white, black := s.colors(seat{c: ch.from}, seat{c: ch.to}, ch.color)
	s.startGame(ev, white, black, ch.minutes, ch.inc, ch.rated, "", "")
}

func (tel *telnetDoor) cmdDecline(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	if len(args) > 0 && strings.EqualFold(args[0], "draw") {
		if g := c.game; g != nil {
			col := g.colorOf(c)
			if g.drawOffer[1-col] {
				g.drawOffer[1-col] = false
				ev.text(g.players[1-col], fmt.Sprintf("%s declines your draw offer.", c.handle))
				ev.text(c, "You decline the draw offer.")
				s.offersDG(ev, g)
				return
			}
		}
		ev.text(c, "There is no draw offer to decline.")
		return
	}
	ch := tel.findChallenge(c, args)
	if ch == nil {
		ev.text(c, "There is no such offer to decline.")
		return
	}
	s.dropChallenge(ev, ch, fmt.Sprintf("%s declines the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s declines your challenge.", ch.to.handle))
	ev.text(ch.to, fmt.Sprintf("You decline the challenge of %s.", ch.from.handle))
}

func (s *Server) dropChallenge(ev *Events, ch *challenge, why string) {
	for i, x := range s.challenges {
		if x == ch {
			s.challenges = append(s.challenges[:i], s.challenges[i+1:]...)
			break
		}
	}
	for _, u := range []*Client{ch.from, ch.to} {
		ev.dg(u, protocol.DGMatchRemoved, ch.from.handle, ch.to.handle, why)
	}
}

// removeOffersOf withdraws a player's seeks and challenges (game start,
// logout, bare `match`).
func (s *Server) removeOffersOf(ev *Events, handle string) {
	for _, sk := range s.sortedSeeks() {
		if sk.owner != nil && strings.EqualFold(sk.owner.handle, handle) {
			s.removeSeek(ev, sk, 2)
		}
	}
	for _, ch := range append([]*challenge(nil), s.challenges...) {
		if strings.EqualFold(ch.from.handle, handle) || strings.EqualFold(ch.to.handle, handle) {
			s.dropChallenge(ev, ch, "The offer is withdrawn.")
		}
	}
}

// matchBot answers `match <bot>` for a bot of the HTTP door. The API has no
// challenge to accept: on kriegspiel.org a person who picks a bot starts
// an active game with it at once (create with opponent_type "bot"), and
// the bot finds it in /game/mine/active. So here: the challenge is issued
// and accepted in one step, when the bot plays wild16, is connected (made
// a request within botPresent), and has room for another game.
func (s *Server) matchBot(ev *Events, c *Client, bot Bot, t terms) {
	if p := t.problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !s.canPlayRated(c, t.rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	now := s.cfg.Now()
	switch {
	case c.game != nil:
		ev.text(c, "You are already playing.")
		return
	}
	if why := s.bots.Unavailable(bot, now); why != "" {
		ev.text(c, why)
		return
	}
	kind := "unrated"
	if t.rated {
		kind = "rated"
	}
	desc := fmt.Sprintf("%s (%d) %s (%d) %s wild 16 %d %d", c.handle, s.rating(c.handle), bot.Handle(), s.rating(bot.Handle()), kind, t.minutes, t.inc)
	if t.color != "" {
		desc += " (" + t.color + ")"
	}
	colReq := "-1"
	switch t.color {
	case "white":
		colReq = "1"
	case "black":
		colReq = "0"
	}
	// The same lines and datagrams as an offer a telnet player accepts at
	// once, so that ICC clients (kriegbot's policy.challenge among them)
	// see a challenge issued, then accepted, then the game.
	ev.text(c, "Issuing: "+desc+".")
	ev.dg(c, protocol.DGMatch, c.handle, strconv.Itoa(s.rating(c.handle)), "0", c.titles,
		bot.Handle(), strconv.Itoa(s.rating(bot.Handle())), "0", "C", "16", "Wild", boolField(t.rated), "0",
		strconv.Itoa(t.minutes), strconv.Itoa(t.inc), strconv.Itoa(t.minutes), strconv.Itoa(t.inc), colReq, "")
	ev.dg(c, protocol.DGMatchRemoved, c.handle, bot.Handle(), fmt.Sprintf("%s accepts the challenge of %s.", bot.Handle(), c.handle))
	ev.text(c, fmt.Sprintf("%s accepts your challenge.", bot.Handle()))
	white, black := s.colors(seat{c: c}, seat{bot: bot}, t.color)
	s.startGame(ev, white, black, t.minutes, t.inc, t.rated, "", "")
	s.note().Msgf("http: %s challenged bot %s", c.handle, bot.Handle())
}

// findBot returns the bot of another door named lname, or nil.
func (s *Server) findBot(lname string) Bot {
	if s.bots == nil {
		return nil
	}
	return s.bots.FindBot(lname)
}
