package server

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kriegbot/protocol"
)

// Lists and settings: who, games, date, z; set and set-2.

func (tel *telnetDoor) cmdWho(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	names := make([]string, 0, len(s.users))
	for _, u := range s.users {
		mark := ""
		if u.game != nil {
			mark = "^"
		}
		names = append(names, fmt.Sprintf("%4d %s%s(%s)", s.rating(u.handle), mark, u.handle, u.titles))
	}
	sort.Strings(names)
	// The TD is always here, so that "who" shows whom to tell.
	if s.director != nil {
		names = append(names, fmt.Sprintf("%4s %s(TD)", "----", s.director.Handle()))
	}
	for _, n := range names {
		ev.text(c, n)
	}
	ev.text(c, fmt.Sprintf("%d players displayed.", len(names)))
}

func (tel *telnetDoor) cmdGames(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
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
}

func (tel *telnetDoor) cmdDate(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	ev.text(c, "Server time: "+s.cfg.Now().UTC().Format(time.RFC1123))
}

func (tel *telnetDoor) cmdZ(ev *Events, c *Client, _ cmdInput) {
	ev.text(c, "Present company: none on your notify list.")
}

func (tel *telnetDoor) cmdSet(ev *Events, c *Client, in cmdInput) {
	args := in.args
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
	if in.word == "set" { // set-quietly says nothing
		ev.text(c, fmt.Sprintf("%s set to %s.", args[0], val))
	}
}

// cmdSet2 turns one datagram off or on, and confirms with DG 124.
func (tel *telnetDoor) cmdSet2(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	n, err := strconv.Atoi(in.args[0])
	if err != nil || n < 0 || n >= len(c.dgs) || (in.args[1] != "0" && in.args[1] != "1") {
		ev.usage(c, in)
		return
	}
	was := c.dgs[n]
	c.dgs[n] = in.args[1] == "1"
	ev.dg(c, protocol.DGSet2, in.args[0], in.args[1])
	if n == protocol.DGSeek && c.dgs[n] && !was {
		for _, sk := range s.sortedSeeks() { // the ads already posted
			s.seekDG(ev, c, sk)
		}
	}
	if n == protocol.DGTourney && c.dgs[n] && !was && s.director != nil {
		s.director.ListEvents(ev, c) // the events already open
	}
}
