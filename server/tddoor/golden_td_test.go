package tddoor

import (
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
)

// TestGoldenTDTranscript plays a scripted round robin of the tournament
// director over telnet: two registered players join (one by the ICC
// form "tell TD", one by the FICS form "td"), a manager starts the event,
// the players answer their pairing, play a short game and ask for the
// standings; one drops out mid-game and comes back. The bytes each client
// received and the event's files must be those in
// testdata/td-session.golden.
func TestGoldenTDTranscript(t *testing.T) {
	clock := wiretest.NewFakeClock()
	accts, err := server.NewAccounts(map[string]string{"carol": "chess", "dave": "pawn", "erin": "rook"}, "", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv, addr := startTD(t, server.Config{Now: clock.Now, Accounts: accts}, Config{Dir: dir, AbsentGrace: time.Hour, GameGrace: time.Hour, Managers: []string{"carol"},
		Events: []td.EventSpec{mustSpec(t, "name=GoldenRR,system=rr,tc=5+0,start=manual")}})
	s := wiretest.NewSession(t)
	login := func(name, password string, bot bool) *wiretest.TapClient {
		c := wiretest.DialTap(t, addr, name)
		c.WaitFor("login:", 1)
		if bot {
			c.Send("level1=5")
			c.Send(protocol.Level2Line(protocol.BotDatagrams))
		}
		c.Send(name + " " + password)
		c.WaitFor("Starting session as", 1)
		s.Clients = append(s.Clients, c)
		s.Barrier(c)
		return c
	}
	carol := login("carol", "chess", false)
	dave := login("dave", "pawn", true)
	erin := login("erin", "rook", false)

	s.Run(dave, "`j1`tell TD join", "")
	s.Run(erin, "td join 1", "")
	s.Run(erin, "td pairings", "")
	s.Run(carol, "tell TD start 1", "")
	s.Run(dave, "`p1`tell TD status", "")
	s.Run(erin, "td status", "")
	s.Run(dave, "`a1`match erin!", "")
	s.Run(erin, "match dave!", "")
	clock.Advance(5 * time.Second)
	s.Run(dave, "`m1`e2e4", "")
	clock.Advance(5 * time.Second)
	s.Run(erin, "e7e5", "")
	s.Run(carol, "tell TD games 1", "")
	s.Run(erin, "td pairings 1", "")

	// erin's connection drops: the TD game waits for her, clocks stopped.
	erin.Conn.Close()
	erin.WaitFor("", 0)
	s.Gone[erin] = true
	dave.WaitFor("has disconnected", 1)
	s.Barrier(dave)
	clock.Advance(30 * time.Second)
	s.Run(dave, "`m2`f1c4", "") // refused: the game waits
	erin2 := login("erin", "rook", false)
	clock.Advance(4 * time.Second)
	s.Run(erin2, "board", "")
	s.Run(erin2, "a7a6", "") // not Black's turn
	s.Run(dave, "`m3`f1c4", "")
	clock.Advance(2 * time.Second)
	s.Run(erin2, "d7d6", "")
	clock.Advance(2 * time.Second)
	s.Run(dave, "`m4`d1h5", "")
	clock.Advance(3 * time.Second)
	s.Run(erin2, "g8f6", "")
	clock.Advance(time.Second)
	s.Run(dave, "`m5`h5f7", "")
	s.Run(erin2, "td standings", "")
	s.Run(dave, "`s1`tell TD standings 1", "")
	s.Run(carol, "tell TD list", "")
	s.Quit(erin2)
	s.Quit(dave)
	s.Quit(carol)
	srv.Close() // writes the event's files that are due
	wiretest.CompareGolden(t, "td-session.golden", wiretest.GoldenTranscript(t, s.Clients, dir), *update)
}
