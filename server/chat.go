package server

import (
	"fmt"
	"strconv"
	"strings"

	"kriegbot/protocol"
)

// Talk: tell (and xtell) to any player, say to the opponent.

func (tel *telnetDoor) cmdTell(ev *Events, c *Client, in cmdInput) {
	to := in.args[0]
	tel.tell(ev, c, to, strings.TrimSpace(in.rest[len(to):]), 1)
}

func (tel *telnetDoor) cmdSay(ev *Events, c *Client, in cmdInput) {
	g := c.game
	tel.tell(ev, c, g.names[1-g.colorOf(c)], in.rest, 0)
}

func (tel *telnetDoor) tell(ev *Events, c *Client, to, text string, typ int) {
	s := tel.s
	if typ == 1 && s.isTD(to) {
		s.director.Tell(ev, c, text)
		return
	}
	dest := s.users[strings.ToLower(to)]
	if dest == nil {
		ev.text(c, fmt.Sprintf("%s is not logged in.", to))
		return
	}
	text = protocol.CleanText(text)
	if text == "" {
		return
	}
	if dest != c && dest.congested() {
		ev.text(c, fmt.Sprintf("%s is not reading; your tell was not delivered.", dest.handle))
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

// cmdTD is the "td" command: "xtell TD ...".
func (tel *telnetDoor) cmdTD(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	if s.director == nil {
		ev.text(c, "There is no tournament director here.")
		return
	}
	s.director.Tell(ev, c, in.rest)
}
