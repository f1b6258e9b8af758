package server

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/protocol/handle"
)

// Login: the name line, the password, the refusals and the start of a session.

func (tel *telnetDoor) loginLine(c *Client, line string) bool {
	s := tel.s
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
	if tel.loginBlocked(c.host) {
		c.sendRaw([]byte(tooManyFailures))
		return false
	}
	fields := strings.Fields(line)
	name := fields[0]
	if strings.EqualFold(name, "g") || strings.EqualFold(name, "guest") {
		if s.cfg.NoGuests {
			return tel.refuse(c, 1, "This server does not accept guests.")
		}
		tel.nextGuest++
		for s.users[strings.ToLower(fmt.Sprintf("Guest%04d", tel.nextGuest))] != nil || s.cfg.Accounts.Has(fmt.Sprintf("Guest%04d", tel.nextGuest)) {
			tel.nextGuest++
		}
		return tel.loggedIn(c, fmt.Sprintf("Guest%04d", tel.nextGuest), "U", true)
	}
	if !handle.Valid(name) {
		return tel.refuse(c, 1, fmt.Sprintf("%q is not a valid handle.", name))
	}
	if s.isTD(name) {
		// The TD's lines must come from the server alone.
		return tel.refuse(c, 1, fmt.Sprintf("%s is the server's tournament director; nobody logs in as %s.", s.director.Handle(), name))
	}
	acct, ok := s.cfg.Accounts.Lookup(name)
	if !ok {
		return tel.refuse(c, 6, fmt.Sprintf("%q is not a registered name. Log in as \"g\" for a guest account.", name))
	}
	if len(fields) == 1 {
		c.state = stPassword
		c.pending = acct.Handle
		c.sendRaw(tel.loginDG(c, 5, fmt.Sprintf("%q is a registered name. If it is yours, type the password.", acct.Handle)))
		c.sendRaw([]byte(fmt.Sprintf("\"%s\" is a registered name.  If it is yours, type the password.\r\npassword: ", acct.Handle)))
		return true
	}
	return tel.checkPassword(c, acct.Handle, fields[1])
}

func (tel *telnetDoor) passwordLine(c *Client, line string) bool {
	name := c.pending
	c.pending = ""
	c.state = stLogin
	return tel.checkPassword(c, name, line)
}

// checkPassword checks a password for a registered handle. Its place
// under the address's failed-login limit is taken first (reserveLogin), so
// parallel guesses cannot all be checked before the first failure counts.
func (tel *telnetDoor) checkPassword(c *Client, handle, password string) bool {
	s := tel.s
	acct, known := s.cfg.Accounts.Lookup(handle)
	at, ok := tel.reserveLogin(c.host)
	if !ok {
		c.sendRaw([]byte(tooManyFailures))
		return false
	}
	good := false
	if known {
		// bcrypt takes tens of milliseconds by design: never hold the
		// server lock that long. Only this client's reader handles its
		// login, so nothing of c changes meanwhile.
		s.mu.Unlock()
		good = acct.Check(password)
		s.mu.Lock()
		if s.closed || c.closed() {
			return false
		}
	}
	if !good {
		s.note().Msgf("login failed for %s from %s", handle, c.host)
		if tel.loginBlocked(c.host) {
			c.sendRaw(tel.loginDG(c, 9, "Invalid password."))
			c.sendRaw([]byte("Invalid password.\r\n" + tooManyFailures))
			return false
		}
		return tel.refuse(c, 9, "Invalid password.")
	}
	tel.releaseLogin(c.host, at)
	if s.users[strings.ToLower(acct.Handle)] != nil {
		return tel.refuse(c, 14, fmt.Sprintf("%s is already logged in.", acct.Handle))
	}
	return tel.loggedIn(c, acct.Handle, acct.Titles, false)
}

const tooManyFailures = "Too many failed logins from your address; try again in a minute.\r\n"

// loginDG renders DG 69 if the client enabled it.
func (tel *telnetDoor) loginDG(c *Client, code int, text string) []byte {
	if !c.dgOn(protocol.DGLoginFailed) {
		return nil
	}
	return protocol.AppendDatagram(nil, protocol.DGLoginFailed, strconv.Itoa(code), text)
}

// refuse answers a failed login and prompts again.
func (tel *telnetDoor) refuse(c *Client, code int, text string) bool {
	c.sendRaw(tel.loginDG(c, code, text))
	c.sendRaw([]byte(text + "\r\nlogin: "))
	return true
}

func (tel *telnetDoor) loggedIn(c *Client, handle, titles string, guest bool) bool {
	s := tel.s
	c.state, c.handle, c.titles, c.guest = stOnline, handle, titles, guest
	c.lastActive = s.cfg.Now()
	s.users[strings.ToLower(handle)] = c
	s.note().Msgf("login %s from %s (level1=%d)", handle, c.host, c.level1)
	ev := s.newEvents()
	ev.cn = cnOther
	ev.issuer = c
	ev.dg(c, protocol.DGWhoAmI, handle, titles)
	ev.text(c, fmt.Sprintf("**** Starting session as %s ****", handle))
	if !c.dgOn(protocol.DGWhoAmI) {
		ev.text(c, "Type \"help\" for the commands. This server plays only wild 16 (Kriegspiel).")
	}
	// The seek ads already posted, as ICC lists them to a client that
	// turns DG 50 on.
	if c.dgOn(protocol.DGSeek) {
		for _, sk := range s.sortedSeeks() {
			s.seekDG(ev, c, sk)
		}
	}
	// A player who comes back inside the grace period gets the game back.
	for _, g := range s.games {
		for col := chess.White; col <= chess.Black; col++ {
			if g.players[col] == nil && g.bots[col] == nil && strings.EqualFold(g.names[col], handle) {
				g.players[col] = c
				g.absent[col] = time.Time{}
				c.game = g
				s.resume(g)
				ev.text(c, fmt.Sprintf("Resuming game %d.", g.number))
				ev.text(g.players[1-col], fmt.Sprintf("Your opponent %s has come back.", handle))
				if g.tourney != nil { // the clocks run again
					s.sendClocks(ev, g.players[1-col], g, s.cfg.Now())
				}
				s.sendGameState(ev, g, col)
			}
		}
	}
	if s.director != nil {
		s.director.Login(ev, c)
	}
	ev.flush()
	return true
}
