package telnetdoor

import (
	"fmt"
	"strconv"
	"strings"

	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/telnet"
)

// Challenges: match, accept, decline, and the withdrawal of a player's offers.

// challenge is a pending match offer.
type challenge struct {
	from, to     *Client
	minutes, inc int
	rated        bool
	color        string // the challenger's requested colour
}

func (tel *Door) cmdMatch(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	if len(args) < 1 {
		s.RemoveOffersOf(ev, c.handle)
		ev.text(c, "All your offers are withdrawn.")
		return
	}
	// "match <opponent>!" (the tourney-set line's answer, and DG 63's
	// command) or a match at the paired terms answers a TD pairing.
	name := strings.TrimSuffix(args[0], "!")
	if s.Director() != nil {
		if minutes, inc, event, ok := s.Director().Pairing(c.handle, name); ok {
			if t := telnet.ParseTerms(args[1:]); len(args) > 1 && (t.Minutes != minutes || t.Inc != inc || t.Rated || t.Problem() != "") {
				ev.text(c, fmt.Sprintf("You are paired with %s in %s at %d %d unrated: send \"match %s!\".", name, event, minutes, inc, name))
				return
			}
			s.Director().Answer(ev, c, name)
			return
		}
	}
	if strings.HasSuffix(args[0], "!") {
		// The "!" form answers pairings only: a late or repeated answer
		// must not become a challenge for a game nobody paired.
		ev.text(c, fmt.Sprintf("You have no tourney game to play with %s now.", name))
		return
	}
	dest := tel.users[strings.ToLower(args[0])]
	if dest == nil {
		if bot := s.FindBot(strings.ToLower(args[0])); bot != nil {
			tel.matchBot(ev, c, bot, telnet.ParseTerms(args[1:]))
			return
		}
		ev.text(c, fmt.Sprintf("%s is not logged in.", args[0]))
		return
	}
	if dest == c {
		ev.text(c, "You cannot challenge yourself.")
		return
	}
	t := telnet.ParseTerms(args[1:])
	if p := t.Problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !canPlayRated(c, t.Rated) || !canPlayRated(dest, t.Rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	// The same terms as a pending challenge from dest accept it, as on ICC.
	for _, ch := range tel.challenges {
		if ch.from == dest && ch.to == c && ch.minutes == t.Minutes && ch.inc == t.Inc && ch.rated == t.Rated {
			tel.acceptChallenge(ev, ch)
			return
		}
	}
	tel.offer(ev, c, dest, t.Minutes, t.Inc, t.Rated, t.Color)
}

func (tel *Door) offer(ev *Events, from, to *Client, minutes, inc int, rated bool, color string) {
	s := tel.s
	if from.game != nil || to.game != nil {
		ev.text(from, "One of you is already playing.")
		return
	}
	if s.RefusedByTD(ev, from, to.handle) {
		return
	}
	if to.congested() {
		ev.text(from, fmt.Sprintf("%s is not reading at the moment; try again later.", to.handle))
		return
	}
	for i, ch := range tel.challenges {
		if ch.from == from && ch.to == to {
			tel.challenges = append(tel.challenges[:i], tel.challenges[i+1:]...)
			break
		}
	}
	if len(tel.challenges) >= 10000 {
		ev.text(from, "The server has too many pending challenges; try later.")
		return
	}
	ch := &challenge{from: from, to: to, minutes: minutes, inc: inc, rated: rated, color: color}
	tel.challenges = append(tel.challenges, ch)
	kind := "unrated"
	if rated {
		kind = "rated"
	}
	desc := fmt.Sprintf("%s (%d) %s (%d) %s wild 16 %d %d", from.handle, s.Rating(from.handle), to.handle, s.Rating(to.handle), kind, minutes, inc)
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
		ev.dg(u, protocol.DGMatch, from.handle, strconv.Itoa(s.Rating(from.handle)), "0", from.titles,
			to.handle, strconv.Itoa(s.Rating(to.handle)), "0", to.titles, "16", "Wild", boolField(rated), "0",
			strconv.Itoa(minutes), strconv.Itoa(inc), strconv.Itoa(minutes), strconv.Itoa(inc), colReq, "")
	}
}

func (tel *Door) findChallenge(c *Client, args []string) *challenge {
	var found *challenge
	for _, ch := range tel.challenges {
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

func (tel *Door) cmdAccept(ev *Events, c *Client, in cmdInput) {
	args := in.args
	ch := tel.findChallenge(c, args)
	if ch == nil {
		ev.text(c, "There is no such offer to accept (name the challenger if there are several).")
		return
	}
	tel.acceptChallenge(ev, ch)
}

func (tel *Door) acceptChallenge(ev *Events, ch *challenge) {
	s := tel.s
	tel.dropChallenge(ev, ch, fmt.Sprintf("%s accepts the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.to, fmt.Sprintf("You accept the challenge of %s.", ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s accepts your challenge.", ch.to.handle))
	if ch.from.game != nil || ch.to.game != nil {
		ev.text(ch.to, "One of you is already playing.")
		return
	}
	if s.RefusedByTD(ev, ch.to, ch.from.handle) {
		return
	}
	s.Match(ev, server.Seat{User: ch.from}, server.Seat{User: ch.to}, ch.color, ch.minutes, ch.inc, ch.rated)
}

func (tel *Door) cmdDecline(ev *Events, c *Client, in cmdInput) {
	args := in.args
	if len(args) > 0 && strings.EqualFold(args[0], "draw") {
		if g := c.game; g != nil {
			col := g.ColorOf(c)
			if o := tel.offersIn(g); o.draw[1-col] {
				o.draw[1-col] = false
				ev.text(user(g.Player(1-col)), fmt.Sprintf("%s declines your draw offer.", c.handle))
				ev.text(c, "You decline the draw offer.")
				tel.offersDG(ev, g)
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
	tel.dropChallenge(ev, ch, fmt.Sprintf("%s declines the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s declines your challenge.", ch.to.handle))
	ev.text(ch.to, fmt.Sprintf("You decline the challenge of %s.", ch.from.handle))
}

func (tel *Door) dropChallenge(ev server.Events, ch *challenge, why string) {
	for i, x := range tel.challenges {
		if x == ch {
			tel.challenges = append(tel.challenges[:i], tel.challenges[i+1:]...)
			break
		}
	}
	for _, u := range []*Client{ch.from, ch.to} {
		ev.DG(u, protocol.DGMatchRemoved, ch.from.handle, ch.to.handle, why)
	}
}

// WithdrawOffers drops the challenges from and to handle.
func (tel *Door) WithdrawOffers(ev server.Events, handle string) {
	for _, ch := range append([]*challenge(nil), tel.challenges...) {
		if strings.EqualFold(ch.from.handle, handle) || strings.EqualFold(ch.to.handle, handle) {
			tel.dropChallenge(ev, ch, "The offer is withdrawn.")
		}
	}
}

// matchBot answers `match <bot>` for a bot of the HTTP door. The API has no
// challenge to accept: on kriegspiel.org a person who picks a bot starts
// an active game with it at once (create with opponent_type "bot"), and
// the bot finds it in /game/mine/active. So here: the challenge is issued
// and accepted in one step, when the bot plays wild16, is connected (made
// a request within botPresent), and has room for another game.
func (tel *Door) matchBot(ev *Events, c *Client, bot server.Bot, t telnet.Terms) {
	s := tel.s
	if p := t.Problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !canPlayRated(c, t.Rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	now := tel.table.Now()
	switch {
	case c.game != nil:
		ev.text(c, "You are already playing.")
		return
	}
	if why := s.BotUnavailable(bot, now); why != "" {
		ev.text(c, why)
		return
	}
	kind := "unrated"
	if t.Rated {
		kind = "rated"
	}
	desc := fmt.Sprintf("%s (%d) %s (%d) %s wild 16 %d %d", c.handle, s.Rating(c.handle), bot.Handle(), s.Rating(bot.Handle()), kind, t.Minutes, t.Inc)
	if t.Color != "" {
		desc += " (" + t.Color + ")"
	}
	colReq := "-1"
	switch t.Color {
	case "white":
		colReq = "1"
	case "black":
		colReq = "0"
	}
	// The same lines and datagrams as an offer a telnet player accepts at
	// once, so that ICC clients (kriegbot's policy.challenge among them)
	// see a challenge issued, then accepted, then the game.
	ev.text(c, "Issuing: "+desc+".")
	ev.dg(c, protocol.DGMatch, c.handle, strconv.Itoa(s.Rating(c.handle)), "0", c.titles,
		bot.Handle(), strconv.Itoa(s.Rating(bot.Handle())), "0", "C", "16", "Wild", boolField(t.Rated), "0",
		strconv.Itoa(t.Minutes), strconv.Itoa(t.Inc), strconv.Itoa(t.Minutes), strconv.Itoa(t.Inc), colReq, "")
	ev.dg(c, protocol.DGMatchRemoved, c.handle, bot.Handle(), fmt.Sprintf("%s accepts the challenge of %s.", bot.Handle(), c.handle))
	ev.text(c, fmt.Sprintf("%s accepts your challenge.", bot.Handle()))
	s.Match(ev, server.Seat{User: c}, server.Seat{Bot: bot}, t.Color, t.Minutes, t.Inc, t.Rated)
	s.Note().Msgf("http: %s challenged bot %s", c.handle, bot.Handle())
}

// canPlayRated reports whether c may play a game so rated: guests play
// unrated games only.
func canPlayRated(c *Client, rated bool) bool { return !rated || !c.guest }
