package server

import (
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
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
	clock := newFakeClock()
	accts, err := NewAccounts(map[string]string{"carol": "chess", "dave": "pawn", "erin": "rook"}, "", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv, addr := startServer(t, Config{
		Now: clock.Now, Accounts: accts,
		TD: TDConfig{Dir: dir, AbsentGrace: time.Hour, GameGrace: time.Hour, Managers: []string{"carol"},
			Events: []td.EventSpec{mustSpec(t, "name=GoldenRR,system=rr,tc=5+0,start=manual")}},
	})
	s := &session{t: t, dates: map[*tapClient]int{}, gone: map[*tapClient]bool{}}
	login := func(name, password string, bot bool) *tapClient {
		c := dialTap(t, addr, name)
		c.waitFor("login:", 1)
		if bot {
			c.send("level1=5")
			c.send(protocol.Level2Line(protocol.BotDatagrams))
		}
		c.send(name + " " + password)
		c.waitFor("Starting session as", 1)
		s.clients = append(s.clients, c)
		s.barrier(c)
		return c
	}
	carol := login("carol", "chess", false)
	dave := login("dave", "pawn", true)
	erin := login("erin", "rook", false)

	s.run(dave, "`j1`tell TD join", "")
	s.run(erin, "td join 1", "")
	s.run(erin, "td pairings", "")
	s.run(carol, "tell TD start 1", "")
	s.run(dave, "`p1`tell TD status", "")
	s.run(erin, "td status", "")
	s.run(dave, "`a1`match erin!", "")
	s.run(erin, "match dave!", "")
	clock.advance(5 * time.Second)
	s.run(dave, "`m1`e2e4", "")
	clock.advance(5 * time.Second)
	s.run(erin, "e7e5", "")
	s.run(carol, "tell TD games 1", "")
	s.run(erin, "td pairings 1", "")

	// erin's connection drops: the TD game waits for her, clocks stopped.
	erin.nc.Close()
	erin.waitFor("", 0)
	s.gone[erin] = true
	dave.waitFor("has disconnected", 1)
	s.barrier(dave)
	clock.advance(30 * time.Second)
	s.run(dave, "`m2`f1c4", "") // refused: the game waits
	erin2 := login("erin", "rook", false)
	clock.advance(4 * time.Second)
	s.run(erin2, "board", "")
	s.run(erin2, "a7a6", "") // not Black's turn
	s.run(dave, "`m3`f1c4", "")
	clock.advance(2 * time.Second)
	s.run(erin2, "d7d6", "")
	clock.advance(2 * time.Second)
	s.run(dave, "`m4`d1h5", "")
	clock.advance(3 * time.Second)
	s.run(erin2, "g8f6", "")
	clock.advance(time.Second)
	s.run(dave, "`m5`h5f7", "")
	s.run(erin2, "td standings", "")
	s.run(dave, "`s1`tell TD standings 1", "")
	s.run(carol, "tell TD list", "")
	s.quit(erin2)
	s.quit(dave)
	s.quit(carol)
	srv.Close() // writes the event's files that are due
	compareGolden(t, "td-session.golden", goldenTranscript(t, s.clients, dir))
}
