package telnetdoor

import (
	"fmt"
	"strconv"

	"kriegbot/server"
	"kriegbot/server/telnet"
)

// Seek ads: seek, unseek, sought and play (their terms, shared with match,
// are telnet.ParseTerms).

func (tel *Door) cmdSeek(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	t := telnet.ParseTerms(args)
	if p := t.Problem(); p != "" {
		ev.text(c, p)
		return
	}
	if !canPlayRated(c, t.Rated) {
		ev.text(c, "Guests can play unrated games only.")
		return
	}
	if s.RefusedByTD(ev, c, "") {
		return
	}
	n := 0
	for _, sk := range s.SeekAds() {
		if sk.Owner() == c {
			n++
		}
	}
	if n >= 3 {
		ev.text(c, "You may have at most 3 seek ads.")
		return
	}
	ev.text(c, fmt.Sprintf("Your seek has been posted with index %d.", s.NextSeekIndex()))
	s.PostUserSeek(ev, c, server.SeekTerms{Minutes: t.Minutes, Inc: t.Inc, Rated: t.Rated, Color: t.Color,
		Manual: t.Manual, Formula: t.Formula, MinR: t.MinR, MaxR: t.MaxR})
}

func (tel *Door) cmdUnseek(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	n := 0
	for _, sk := range s.SeekAds() {
		if (sk.Owner() == c) && (len(args) == 0 || args[0] == strconv.Itoa(sk.Index())) {
			s.RemoveSeek(ev, sk, 3)
			n++
		}
	}
	ev.text(c, fmt.Sprintf("%d seek ads removed.", n))
}

func (tel *Door) cmdSought(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	for _, sk := range s.SeekAds() {
		r := "u"
		if sk.Rated() {
			r = "r"
		}
		name := sk.OwnerName()
		ev.text(c, fmt.Sprintf("%3d %4d %-20s %3d %3d %s wild 16 %s", sk.Index(), s.Rating(name), name, sk.Minutes(), sk.Inc(), r, sk.Color()))
	}
	ev.text(c, fmt.Sprintf("%d ads displayed.", len(s.SeekAds())))
}

func (tel *Door) cmdPlay(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	if len(args) != 1 {
		ev.text(c, "Usage: play <index>")
		return
	}
	n, _ := strconv.Atoi(args[0])
	var sk *server.Seek
	for _, ad := range s.SeekAds() {
		if ad.Index() == n {
			sk = ad
		}
	}
	switch {
	case sk == nil:
		ev.text(c, "That seek is not available.")
	case (sk.Owner() == c):
		ev.text(c, "You cannot play your own seek.")
	case c.game != nil || sk.OwnerBusy():
		ev.text(c, "One of you is already playing.")
	case s.RefusedByTD(ev, c, sk.OwnerName()):
	case !canPlayRated(c, sk.Rated()):
		ev.text(c, "Guests can play unrated games only.")
	case sk.Rated() && outside(s.Rating(c.handle), sk):
		ev.text(c, "Your rating is outside the seek's range.")
	case sk.Manual():
		tel.offer(ev, c, user(sk.Owner()), sk.Minutes(), sk.Inc(), sk.Rated(), oppositeColor(sk.Color()))
	default:
		ev.touch(user(sk.Owner()))
		s.TakeUserSeek(ev, sk, c)
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

// outside reports whether rating is outside the range of ad sk.
func outside(rating int, sk *server.Seek) bool {
	lo, hi := sk.RatingRange()
	return rating < lo || rating > hi
}
