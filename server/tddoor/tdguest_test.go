package tddoor

import (
	"testing"
	"time"

	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
)

// TestTDRefusesBadNumbers: an event number that is no number the TD
// knows (0, negative, a fraction, too long) is refused with a line saying
// so; it used to read as "no number" and join the one open event.
func TestTDRefusesBadNumbers(t *testing.T) {
	s, addr := startTD(t, server.Config{}, Config{AbsentGrace: wait, Burst: 100,
		Events: []td.EventSpec{mustSpec(t, "name=Open,system=swiss,rounds=3,tc=1+0,start=8")}})
	c := wiretest.DialRaw(t, addr)
	c.LoginGuest()
	for _, bad := range []string{"0", "-5", "1.5", "99999999999999999999", "#0", "+1"} {
		for _, cmd := range []string{"join", "info", "standings"} {
			c.Send("tell TD " + cmd + " " + bad + "\r\n")
			c.Expect("TD(TD) tells you: \""+bad+"\" is not an event number", wait)
		}
	}
	c.Send("tell TD join 1\r\n")
	c.Expect("You have joined tourney #1.", wait)
	if te := tdSnap(t, s, 1); len(te.Event.Players) != 1 {
		t.Errorf("%d players; the bad numbers must join nobody", len(te.Event.Players))
	}
}

// waitPlayers waits until event id's players satisfy ok.
func waitPlayers(t *testing.T, s *house, id int, what string, ok func(te *tdEvent) bool) *tdEvent {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		te := tdSnap(t, s, id)
		if ok(te) {
			return te
		}
		if time.Now().After(deadline) {
			t.Fatalf("event %d: never %s; players %+v", id, what, te.Event.Players)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTDGuestLeavesAtLogout: a guest cannot come back under its name, so
// a guest who logs out is out of its events at once: struck from an open
// event, withdrawn from a running one (it used to stay in and get a bye).
func TestTDGuestLeavesAtLogout(t *testing.T) {
	s, addr := startTD(t, server.Config{}, Config{AbsentGrace: wait,
		Events: []td.EventSpec{mustSpec(t, "name=Guests,system=swiss,rounds=3,tc=1+0,start=4")}})
	join := func() (*wiretest.RawClient, string) {
		c := wiretest.DialRaw(t, addr)
		h := c.GuestHandle("")
		c.Send("tell TD join\r\n")
		c.Expect("You have joined tourney #1.", wait)
		return c, h
	}
	first, firstName := join()
	first.Conn.Close()
	waitPlayers(t, s, 1, "without the open event's departed guest", func(te *tdEvent) bool { return len(te.Event.Players) == 0 })

	var names []string
	var conns []*wiretest.RawClient
	for range 4 {
		c, h := join()
		conns, names = append(conns, c), append(names, h)
	}
	waitStatus(t, s, 1, tdRunning)
	conns[3].Conn.Close()
	te := waitPlayers(t, s, 1, names[3]+" withdrawn", func(te *tdEvent) bool {
		i, ok := te.Event.Find(names[3])
		return ok && te.Event.Players[i].Withdrawn()
	})
	if _, ok := te.Event.Find(firstName); ok {
		t.Errorf("%s, who left before the start, is in the event", firstName)
	}
}

// TestTDRestartWithdrawsGuests: after a restart the guests of a running
// event are withdrawn (their names go to new guests, who must not inherit
// their places) and those of an open one struck out.
func TestTDRestartWithdrawsGuests(t *testing.T) {
	dir := t.TempDir()
	cfg, tcfg := server.Config{Accounts: tdAccounts(t, "Alpha")}, Config{Dir: dir, AbsentGrace: wait,
		Events: []td.EventSpec{mustSpec(t, "name=Before,system=swiss,rounds=3,tc=1+0,start=2")}}
	s1, addr1 := startTD(t, cfg, tcfg)
	alpha := newTDBot(t, addr1, "Alpha", map[string]int{})
	alpha.set(func(b *tdBot) { b.hold = true })
	alpha.Send("tell TD join")
	g := wiretest.DialRaw(t, addr1)
	guest := g.GuestHandle("")
	g.Send("tell TD join\r\n")
	waitStatus(t, s1, 1, tdRunning)
	s1.Close()
	s2, _ := startTD(t, cfg, tcfg)
	te := tdSnap(t, s2, 1)
	i, ok := te.Event.Find(guest)
	if !ok || !te.Event.Players[i].Withdrawn() {
		t.Errorf("after the restart %s is in the event: %+v", guest, te.Event.Players)
	}
	if j, _ := te.Event.Find("Alpha"); te.Event.Players[j].Withdrawn() {
		t.Errorf("Alpha, a registered player, was withdrawn")
	}
}
