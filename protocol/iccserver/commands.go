package iccserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/protocol/handle"
)

// Command numbers in level-1 unit headers. ICC's own CN_* values are not in
// our notes; these are ours, documented in docs/iccserver.md. 0 marks
// output the server sends on its own (clocks, disconnections).
const (
	cnServer = 0
	cnMove   = 1
	cnOther  = 2
)

var commandNumbers = map[string]int{
	"abort": 10, "accept": 11, "decline": 12, "draw": 13, "games": 14, "help": 15, "match": 16,
	"moves": 17, "play": 18, "quit": 19, "resign": 20, "say": 21, "seek": 22, "set": 23,
	"set-2": 24, "sought": 25, "tell": 26, "unseek": 27, "who": 28, "board": 29, "refresh": 29,
	"set-quietly": 23, "exit": 19, "multi": 30, "xtell": 26, "date": 31, "z": 32,
}

// seek is a seek ad.
type seek struct {
	index         int
	owner         *client
	minutes, inc  int
	rated         bool
	color         string // "", "white", "black"
	manual        bool
	minR, maxR    int
	posted        time.Time
	formulaScreen bool
}

// challenge is a pending match offer.
type challenge struct {
	from, to     *client
	minutes, inc int
	rated        bool
	color        string // the challenger's requested colour
}

// handleLine runs one input line; false means the client quit.
func (s *Server) handleLine(c *client, raw []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	c.lastSeen = s.cfg.Now()
	line := strings.TrimSpace(string(raw))
	switch c.state {
	case stLogin:
		return s.loginLine(c, line)
	case stPassword:
		return s.passwordLine(c, line)
	}
	if line == "" {
		return true
	}
	tag := ""
	if strings.HasPrefix(line, "`") {
		if end := strings.IndexByte(line[1:], '`'); end >= 0 && end <= 99 {
			tag, line = line[1:1+end], strings.TrimSpace(line[2+end:])
		}
	}
	if c.level1&4 == 0 {
		tag = ""
	}
	if strings.HasPrefix(strings.ToLower(line), "multi ") {
		line = strings.TrimSpace(line[len("multi "):])
	}
	for _, part := range strings.Split(line, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !s.command(c, part, tag) {
			return false
		}
	}
	return true
}

func (s *Server) loginLine(c *client, line string) bool {
	lower := strings.ToLower(line)
	switch {
	case line == "":
		return true
	case strings.HasPrefix(lower, "level1="):
		n, err := strconv.Atoi(line[len("level1="):])
		if err == nil && n >= 0 && n <= 15 {
			c.level1 = n
		}
		return true
	case strings.HasPrefix(lower, "level2settings="):
		bits := line[len("level2settings="):]
		for i := 0; i < len(bits) && i < len(c.dgs); i++ {
			c.dgs[i] = bits[i] == '1'
		}
		return true
	}
	if s.loginBlocked(c.host) {
		c.sendRaw([]byte("Too many failed logins from your address; try again in a minute.\r\n"))
		return false
	}
	fields := strings.Fields(line)
	name := fields[0]
	if strings.EqualFold(name, "g") || strings.EqualFold(name, "guest") {
		if s.cfg.NoGuests {
			return s.refuse(c, 1, "This server does not accept guests.")
		}
		s.nextGuest++
		for s.users[strings.ToLower(fmt.Sprintf("Guest%04d", s.nextGuest))] != nil || s.cfg.Accounts.Has(fmt.Sprintf("Guest%04d", s.nextGuest)) {
			s.nextGuest++
		}
		return s.loggedIn(c, fmt.Sprintf("Guest%04d", s.nextGuest), "U", true)
	}
	if !handle.Valid(name) {
		return s.refuse(c, 1, fmt.Sprintf("%q is not a valid handle.", name))
	}
	acct, ok := s.cfg.Accounts.Lookup(name)
	if !ok {
		return s.refuse(c, 6, fmt.Sprintf("%q is not a registered name. Log in as \"g\" for a guest account.", name))
	}
	if len(fields) == 1 {
		c.state = stPassword
		c.pending = acct.Handle
		c.sendRaw(s.loginDG(c, 5, fmt.Sprintf("%q is a registered name. If it is yours, type the password.", acct.Handle)))
		c.sendRaw([]byte(fmt.Sprintf("\"%s\" is a registered name.  If it is yours, type the password.\r\npassword: ", acct.Handle)))
		return true
	}
	return s.checkPassword(c, acct.Handle, fields[1])
}

func (s *Server) passwordLine(c *client, line string) bool {
	name := c.pending
	c.pending = ""
	c.state = stLogin
	return s.checkPassword(c, name, line)
}

func (s *Server) checkPassword(c *client, handle, password string) bool {
	acct, ok := s.cfg.Accounts.Lookup(handle)
	if ok {
		// bcrypt takes tens of milliseconds by design: never hold the
		// server lock that long. Only this client's reader handles its
		// login, so nothing of c changes meanwhile.
		s.mu.Unlock()
		ok = acct.Check(password)
		s.mu.Lock()
		if s.closed {
			return false
		}
	}
	if !ok {
		over := s.loginFailed(c.host)
		s.cfg.Log("login failed for %s from %s", handle, c.host)
		if over {
			c.sendRaw(s.loginDG(c, 9, "Invalid password."))
			c.sendRaw([]byte("Invalid password.\r\nToo many failed logins from your address; try again in a minute.\r\n"))
			return false
		}
		return s.refuse(c, 9, "Invalid password.")
	}
	if s.users[strings.ToLower(acct.Handle)] != nil {
		return s.refuse(c, 14, fmt.Sprintf("%s is already logged in.", acct.Handle))
	}
	return s.loggedIn(c, acct.Handle, acct.Titles, false)
}

// loginDG renders DG 69 if the client enabled it.
func (s *Server) loginDG(c *client, code int, text string) []byte {
	if !c.dgOn(protocol.DGLoginFailed) {
		return nil
	}
	return protocol.AppendDatagram(nil, protocol.DGLoginFailed, strconv.Itoa(code), text)
}

// refuse answers a failed login and prompts again.
func (s *Server) refuse(c *client, code int, text string) bool {
	c.sendRaw(s.loginDG(c, code, text))
	c.sendRaw([]byte(text + "\r\nlogin: "))
	return true
}

func (s *Server) loggedIn(c *client, handle, titles string, guest bool) bool {
	c.state, c.handle, c.titles, c.guest = stOnline, handle, titles, guest
	s.users[strings.ToLower(handle)] = c
	s.cfg.Log("login %s from %s (level1=%d)", handle, c.host, c.level1)
	ev := s.newEvents()
	ev.cn = cnOther
	ev.issuer = c
	ev.dg(c, protocol.DGWhoAmI, handle, titles)
	ev.text(c, fmt.Sprintf("**** Starting session as %s ****", handle))
	if !c.dgOn(protocol.DGWhoAmI) {
		ev.text(c, "Type \"help\" for the commands. This server plays only wild 16 (Kriegspiel).")
	}
	// A player who comes back inside the grace period gets the game back.
	for _, g := range s.games {
		for col := chess.White; col <= chess.Black; col++ {
			if g.players[col] == nil && strings.EqualFold(g.names[col], handle) {
				g.players[col] = c
				g.absent[col] = time.Time{}
				c.game = g
				ev.text(c, fmt.Sprintf("Resuming game %d.", g.number))
				ev.text(g.players[1-col], fmt.Sprintf("Your opponent %s has come back.", handle))
				s.sendGameState(ev, g, col)
			}
		}
	}
	ev.flush()
	return true
}

// command runs one command of a logged-in client.
func (s *Server) command(c *client, line, tag string) bool {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	word = strings.ToLower(word)
	ev := s.newEvents()
	ev.issuer, ev.tag = c, tag
	ev.cn = commandNumbers[word]
	if ev.cn == 0 {
		ev.cn = cnOther
	}
	ev.touch(c)
	defer ev.flush()

	// A move: coordinate form only, as wild 16 requires (e2e4, e7e8q, e7e8=Q).
	if m, ok := parseMoveWord(line); ok {
		ev.cn = cnMove
		if c.game == nil {
			ev.text(c, "You are not playing a game.")
			return true
		}
		s.attempt(ev, c, m, line)
		return true
	}
	args := strings.Fields(rest)
	switch word {
	case "quit", "exit":
		if c.game != nil && c.game.result == "" {
			ev.text(c, "You leave during a game: as on ICC, a Kriegspiel game is not adjourned.")
		}
		ev.text(c, "Thank you for using kriegbot serve.")
		ev.flush()
		c.sendRaw([]byte{0x19, ']'})
		return false
	case "help":
		for _, l := range helpText {
			ev.text(c, l)
		}
	case "set", "set-quietly":
		s.cmdSet(ev, c, args, word == "set")
	case "set-2":
		if len(args) != 2 {
			ev.text(c, "Usage: set-2 <dg> <0|1>")
			return true
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n >= len(c.dgs) || (args[1] != "0" && args[1] != "1") {
			ev.text(c, "Usage: set-2 <dg> <0|1>")
			return true
		}
		c.dgs[n] = args[1] == "1"
		ev.dg(c, protocol.DGSet2, args[0], args[1])
	case "who":
		names := make([]string, 0, len(s.users))
		for _, u := range s.users {
			mark := ""
			if u.game != nil {
				mark = "^"
			}
			names = append(names, fmt.Sprintf("%4d %s%s(%s)", s.rating(u.handle), mark, u.handle, u.titles))
		}
		sort.Strings(names)
		for _, n := range names {
			ev.text(c, n)
		}
		ev.text(c, fmt.Sprintf("%d players displayed.", len(names)))
	case "games":
		nums := make([]int, 0, len(s.games))
		for n := range s.games {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		for _, n := range nums {
			g := s.games[n]
			ev.text(c, fmt.Sprintf("%3d %s vs. %s  wild 16 %d %d  move %d", n, g.names[0], g.names[1], g.minutes, g.inc, len(g.sans)/2+1))
		}
		ev.text(c, fmt.Sprintf("%d games displayed.", len(nums)))
	case "tell", "xtell":
		if len(args) < 2 {
			ev.text(c, "Usage: tell <handle> <text>")
			return true
		}
		s.tell(ev, c, args[0], strings.TrimSpace(rest[len(args[0]):]), 1)
	case "say":
		if c.game == nil {
			ev.text(c, "You are not playing a game.")
			return true
		}
		g := c.game
		s.tell(ev, c, g.names[1-g.colorOf(c)], rest, 0)
	case "seek":
		s.cmdSeek(ev, c, args)
	case "unseek":
		s.cmdUnseek(ev, c, args)
	case "sought":
		s.cmdSought(ev, c)
	case "play":
		s.cmdPlay(ev, c, args)
	case "match":
		s.cmdMatch(ev, c, args)
	case "accept":
		s.cmdAccept(ev, c, args)
	case "decline":
		s.cmdDecline(ev, c, args)
	case "resign":
		if g := c.game; g != nil {
			col := g.colorOf(c)
			s.endGame(ev, g, "Res", scoreFor(1-col), fmt.Sprintf("%s resigns", c.handle))
		} else {
			ev.text(c, "You are not playing a game.")
		}
	case "draw":
		s.cmdDraw(ev, c)
	case "abort":
		s.cmdAbort(ev, c)
	case "moves":
		s.cmdMoves(ev, c, args)
	case "board", "refresh":
		if g := c.game; g != nil {
			for _, l := range boardText(ptr(g.ump.Position()), g.colorOf(c)) {
				ev.text(c, l)
			}
			now := s.cfg.Now()
			ev.text(c, fmt.Sprintf("Clocks: White %s, Black %s.", fmtClock(g.remaining(0, now)), fmtClock(g.remaining(1, now))))
		} else {
			ev.text(c, "You are not playing a game.")
		}
	case "date":
		ev.text(c, "Server time: "+s.cfg.Now().UTC().Format(time.RFC1123))
	case "z":
		ev.text(c, "Present company: none on your notify list.")
	default:
		ev.text(c, fmt.Sprintf("No such command (%s). Type \"help\" for the commands.", word))
	}
	return true
}

var helpText = []string{
	"kriegbot serve plays wild 16 (Kriegspiel): you see only your own men; the referee",
	"answers each attempt. Type moves in coordinate form: e2e4, e1g1 (castling), e7e8q.",
	"Commands:",
	"  seek <min> <inc> [r|u] [white|black] [a|m] [min-max]   advertise a game",
	"  unseek [n]           remove your seek ads       sought        list seek ads",
	"  play <n>             answer seek ad n",
	"  match <handle> <min> <inc> [r|u] [white|black]  challenge a player",
	"  accept [handle]      decline [handle]",
	"  moves [game]         your view of the move list (all moves once the game is over)",
	"  board                your men and the clocks",
	"  resign   draw   abort   say <text>   tell <handle> <text>",
	"  who   games   set <var> <value>   set-2 <dg> <0|1>   quit",
}

func fmtClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// parseMoveWord recognises a coordinate move: e2e4, e7e8q, e7e8Q, e7e8=Q.
func parseMoveWord(s string) (chess.Move, bool) {
	if len(s) < 4 || len(s) > 6 {
		return chess.NullMove, false
	}
	t := strings.ToLower(strings.Replace(s, "=", "", 1))
	if len(t) > 5 {
		return chess.NullMove, false
	}
	m, err := chess.ParseUCI(t)
	if err != nil {
		return chess.NullMove, false
	}
	return m, true
}

func (s *Server) cmdSet(ev *events, c *client, args []string, loud bool) {
	if len(args) < 1 {
		ev.text(c, "Usage: set <variable> <value>")
		return
	}
	val := ""
	if len(args) > 1 {
		val = args[1]
	}
	n, _ := strconv.Atoi(val)
	switch strings.ToLower(args[0]) {
	case "level1":
		if n >= 0 && n <= 15 {
			c.level1 = n
		}
	case "prompt":
		c.prompt = n != 0
	case "style":
		c.style = n
	}
	if loud {
		ev.text(c, fmt.Sprintf("%s set to %s.", args[0], val))
	}
}

func (s *Server) tell(ev *events, c *client, to, text string, typ int) {
	dest := s.users[strings.ToLower(to)]
	if dest == nil {
		ev.text(c, fmt.Sprintf("%s is not logged in.", to))
		return
	}
	text = protocol.CleanText(text)
	if text == "" {
		return
	}
	verb := "tells you"
	if typ == 0 {
		verb = "says"
	}
	ev.dg(dest, protocol.DGPersonalTell, c.handle, c.titles, text, strconv.Itoa(typ))
	if !dest.dgOn(protocol.DGPersonalTell) {
		ev.text(dest, fmt.Sprintf("%s(%s) %s: %s", c.handle, c.titles, verb, text))
	}
	ev.dg(c, protocol.DGPersonalTellEcho, dest.handle, strconv.Itoa(typ), text)
	if !c.dgOn(protocol.DGPersonalTellEcho) {
		ev.text(c, fmt.Sprintf("(told %s)", dest.handle))
	}
}

// parseTerms reads the optional words of seek and match.
type terms struct {
	rated                        bool
	color                        string
	manual, formula              bool
	minR, maxR                   int
	minutes, inc                 int
	numbers                      int
	badWild                      string
	unknown                      string
	hasRange                     bool
	explicitlyRated, explicitWld bool
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
				t.minR, t.maxR, t.hasRange = l, h, true
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

func (s *Server) canPlayRated(c *client, rated bool) bool { return !rated || !c.guest }

func (s *Server) cmdSeek(ev *events, c *client, args []string) {
	t := parseTerms(args)
	if p := t.problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !s.canPlayRated(c, t.rated) {
		ev.text(c, "Guests can play unrated games only.")
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
	sk := &seek{index: s.nextSeek, owner: c, minutes: t.minutes, inc: t.inc, rated: t.rated, color: t.color,
		manual: t.manual, minR: t.minR, maxR: t.maxR, posted: s.cfg.Now(), formulaScreen: t.formula}
	s.nextSeek++
	s.seeks[sk.index] = sk
	ev.text(c, fmt.Sprintf("Your seek has been posted with index %d.", sk.index))
	for _, u := range s.users {
		s.seekDG(ev, u, sk)
	}
}

func (s *Server) seekDG(ev *events, u *client, sk *seek) {
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
	ev.dg(u, protocol.DGSeek, strconv.Itoa(sk.index), sk.owner.handle, sk.owner.titles, strconv.Itoa(s.rating(sk.owner.handle)), "0",
		"16", "Wild", strconv.Itoa(sk.minutes), strconv.Itoa(sk.inc), boolField(sk.rated), col,
		strconv.Itoa(sk.minR), strconv.Itoa(sk.maxR), auto, boolField(sk.formulaScreen), "")
}

func (s *Server) removeSeek(ev *events, sk *seek, reason int) {
	delete(s.seeks, sk.index)
	for _, u := range s.users {
		ev.dg(u, protocol.DGSeekRemoved, strconv.Itoa(sk.index), strconv.Itoa(reason))
	}
}

func (s *Server) cmdUnseek(ev *events, c *client, args []string) {
	n := 0
	for _, sk := range s.sortedSeeks() {
		if sk.owner == c && (len(args) == 0 || args[0] == strconv.Itoa(sk.index)) {
			s.removeSeek(ev, sk, 3)
			n++
		}
	}
	ev.text(c, fmt.Sprintf("%d seek ads removed.", n))
}

func (s *Server) sortedSeeks() []*seek {
	out := make([]*seek, 0, len(s.seeks))
	for _, sk := range s.seeks {
		out = append(out, sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

func (s *Server) cmdSought(ev *events, c *client) {
	for _, sk := range s.sortedSeeks() {
		r := "u"
		if sk.rated {
			r = "r"
		}
		ev.text(c, fmt.Sprintf("%3d %4d %-20s %3d %3d %s wild 16 %s", sk.index, s.rating(sk.owner.handle), sk.owner.handle, sk.minutes, sk.inc, r, sk.color))
	}
	ev.text(c, fmt.Sprintf("%d ads displayed.", len(s.seeks)))
}

func (s *Server) cmdPlay(ev *events, c *client, args []string) {
	if len(args) != 1 {
		ev.text(c, "Usage: play <index>")
		return
	}
	n, _ := strconv.Atoi(args[0])
	sk := s.seeks[n]
	switch {
	case sk == nil:
		ev.text(c, "That seek is not available.")
	case sk.owner == c:
		ev.text(c, "You cannot play your own seek.")
	case c.game != nil || sk.owner.game != nil:
		ev.text(c, "One of you is already playing.")
	case !s.canPlayRated(c, sk.rated):
		ev.text(c, "Guests can play unrated games only.")
	case sk.rated && (s.rating(c.handle) < sk.minR || s.rating(c.handle) > sk.maxR):
		ev.text(c, "Your rating is outside the seek's range.")
	case sk.manual:
		s.offer(ev, c, sk.owner, sk.minutes, sk.inc, sk.rated, oppositeColor(sk.color))
	default:
		white, black := s.colors(sk.owner, c, sk.color)
		ev.touch(sk.owner)
		s.startGame(ev, white, black, sk.minutes, sk.inc, sk.rated)
	}
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
func (s *Server) colors(first, second *client, firstWants string) (white, black *client) {
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

func (s *Server) cmdMatch(ev *events, c *client, args []string) {
	if len(args) < 1 {
		s.removeOffersOf(ev, c.handle)
		ev.text(c, "All your offers are withdrawn.")
		return
	}
	dest := s.users[strings.ToLower(args[0])]
	if dest == nil {
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

func (s *Server) offer(ev *events, from, to *client, minutes, inc int, rated bool, color string) {
	if from.game != nil || to.game != nil {
		ev.text(from, "One of you is already playing.")
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
	for _, u := range []*client{from, to} {
		ev.dg(u, protocol.DGMatch, from.handle, strconv.Itoa(s.rating(from.handle)), "0", from.titles,
			to.handle, strconv.Itoa(s.rating(to.handle)), "0", to.titles, "16", "Wild", boolField(rated), "0",
			strconv.Itoa(minutes), strconv.Itoa(inc), strconv.Itoa(minutes), strconv.Itoa(inc), colReq, "")
	}
}

func (s *Server) findChallenge(c *client, args []string) *challenge {
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

func (s *Server) cmdAccept(ev *events, c *client, args []string) {
	ch := s.findChallenge(c, args)
	if ch == nil {
		ev.text(c, "There is no such offer to accept (name the challenger if there are several).")
		return
	}
	s.acceptChallenge(ev, ch)
}

func (s *Server) acceptChallenge(ev *events, ch *challenge) {
	s.dropChallenge(ev, ch, fmt.Sprintf("%s accepts the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.to, fmt.Sprintf("You accept the challenge of %s.", ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s accepts your challenge.", ch.to.handle))
	if ch.from.game != nil || ch.to.game != nil {
		ev.text(ch.to, "One of you is already playing.")
		return
	}
	white, black := s.colors(ch.from, ch.to, ch.color)
	s.startGame(ev, white, black, ch.minutes, ch.inc, ch.rated)
}

func (s *Server) cmdDecline(ev *events, c *client, args []string) {
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
	ch := s.findChallenge(c, args)
	if ch == nil {
		ev.text(c, "There is no such offer to decline.")
		return
	}
	s.dropChallenge(ev, ch, fmt.Sprintf("%s declines the challenge of %s.", ch.to.handle, ch.from.handle))
	ev.text(ch.from, fmt.Sprintf("%s declines your challenge.", ch.to.handle))
	ev.text(ch.to, fmt.Sprintf("You decline the challenge of %s.", ch.from.handle))
}

func (s *Server) dropChallenge(ev *events, ch *challenge, why string) {
	for i, x := range s.challenges {
		if x == ch {
			s.challenges = append(s.challenges[:i], s.challenges[i+1:]...)
			break
		}
	}
	for _, u := range []*client{ch.from, ch.to} {
		ev.dg(u, protocol.DGMatchRemoved, ch.from.handle, ch.to.handle, why)
	}
}

// removeOffersOf withdraws a player's seeks and challenges (game start,
// logout, bare `match`).
func (s *Server) removeOffersOf(ev *events, handle string) {
	for _, sk := range s.sortedSeeks() {
		if strings.EqualFold(sk.owner.handle, handle) {
			s.removeSeek(ev, sk, 2)
		}
	}
	for _, ch := range append([]*challenge(nil), s.challenges...) {
		if strings.EqualFold(ch.from.handle, handle) || strings.EqualFold(ch.to.handle, handle) {
			s.dropChallenge(ev, ch, "The offer is withdrawn.")
		}
	}
}

func (s *Server) offersDG(ev *events, g *game) {
	for _, p := range g.players {
		ev.dg(p, protocol.DGOffersInMyGame, strconv.Itoa(g.number), boolField(g.drawOffer[0]), boolField(g.drawOffer[1]),
			"0", "0", boolField(g.abortOffer[0]), boolField(g.abortOffer[1]), "0", "0")
	}
}

func (s *Server) cmdDraw(ev *events, c *client) {
	g := c.game
	if g == nil {
		ev.text(c, "You are not playing a game.")
		return
	}
	col := g.colorOf(c)
	if g.drawOffer[1-col] {
		s.endGame(ev, g, "Agr", "1/2-1/2", "Game drawn by mutual agreement")
		return
	}
	g.drawOffer[col] = true
	ev.text(c, "You offer a draw.")
	ev.text(g.players[1-col], "Your opponent offers you a draw.")
	ev.dg(g.players[1-col], protocol.DGGameMessage, strconv.Itoa(g.number), "Your opponent offers you a draw.")
	s.offersDG(ev, g)
}

func (s *Server) cmdAbort(ev *events, c *client) {
	g := c.game
	if g == nil {
		ev.text(c, "You are not playing a game.")
		return
	}
	col := g.colorOf(c)
	// As on ICC, either player may abort alone before both have moved.
	if len(g.sans) < 2 || g.abortOffer[1-col] {
		s.endGame(ev, g, "Abo", "aborted", "Game aborted")
		return
	}
	g.abortOffer[col] = true
	ev.text(c, "You request an abort.")
	ev.text(g.players[1-col], "Your opponent requests to abort the game.")
	s.offersDG(ev, g)
}

func (s *Server) cmdMoves(ev *events, c *client, args []string) {
	g := c.game
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			ev.text(c, "Usage: moves [game number]")
			return
		}
		g = s.games[n]
		if g == nil {
			for _, f := range s.finished {
				if f.number == n {
					g = f
				}
			}
		}
	}
	if g == nil {
		ev.text(c, "No such game.")
		return
	}
	col := chess.Color(2) // a spectator sees nothing hidden only once it is over
	switch {
	case g.players[chess.White] == c:
		col = chess.White
	case g.players[chess.Black] == c:
		col = chess.Black
	case g.result == "":
		ev.text(c, "Kriegspiel games in progress cannot be observed.")
		return
	}
	s.sendMoveList(ev, c, g, col, true)
}
