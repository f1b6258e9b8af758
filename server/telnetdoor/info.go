package telnetdoor

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"kriegbot/protocol"
	"kriegbot/server"
)

// Lists and settings: who, games, date, z; set and set-2.

func (tel *Door) cmdWho(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	names := make([]string, 0, len(tel.users))
	for _, u := range tel.users {
		mark := ""
		if u.game != nil {
			mark = "^"
		}
		names = append(names, fmt.Sprintf("%4d %s%s(%s)", s.Rating(u.handle), mark, u.handle, u.titles))
	}
	sort.Strings(names)
	// The TD is always here, so that "who" shows whom to tell.
	if s.Director() != nil {
		names = append(names, fmt.Sprintf("%4s %s(TD)", "----", s.Director().Handle()))
	}
	for _, n := range names {
		ev.text(c, n)
	}
	ev.text(c, fmt.Sprintf("%d players displayed.", len(names)))
}

func (tel *Door) cmdGames(ev *Events, c *Client, _ cmdInput) {
	games := tel.s.GamesInProgress()
	slices.SortFunc(games, func(a, b *server.Game) int { return a.Number() - b.Number() })
	for _, g := range games {
		minutes, inc := g.Terms()
		sans, _ := g.Moves()
		ev.text(c, fmt.Sprintf("%3d %s vs. %s  wild 16 %d %d  move %d", g.Number(), g.Name(0), g.Name(1), minutes, inc, len(sans)/2+1))
	}
	ev.text(c, fmt.Sprintf("%d games displayed.", len(games)))
}

func (tel *Door) cmdDate(ev *Events, c *Client, _ cmdInput) {
	ev.text(c, "Server time: "+tel.table.Now().UTC().Format(time.RFC1123))
}

func (tel *Door) cmdZ(ev *Events, c *Client, _ cmdInput) {
	ev.text(c, "Present company: none on your notify list.")
}

func (tel *Door) cmdSet(ev *Events, c *Client, in cmdInput) {
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
func (tel *Door) cmdSet2(ev *Events, c *Client, in cmdInput) {
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
		for _, sk := range s.SeekAds() { // the ads already posted
			tel.seekDG(ev, c, sk)
		}
	}
	if n == protocol.DGTourney && c.dgs[n] && !was && s.Director() != nil {
		s.Director().ListEvents(ev, c) // the events already open
	}
}
