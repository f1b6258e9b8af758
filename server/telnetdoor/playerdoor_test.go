package telnetdoor

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// doorLog records, under the table's lock, what the table publishes to
// its server.PlayerDoor (passing it on to the telnet door, so that the players
// still hear it) and to a door following its games, in one order.
type doorLog struct {
	server.PlayerDoor
	got []string
}

func (l *doorLog) GameStarted(ev server.Events, g *server.Game) {
	l.got = append(l.got, "door started")
	l.PlayerDoor.GameStarted(ev, g)
}

func (l *doorLog) AttemptRefused(ev server.Events, g *server.Game, col chess.Color, text string, why server.Refusal) {
	l.got = append(l.got, fmt.Sprintf("door refused %s %d", text, why))
	l.PlayerDoor.AttemptRefused(ev, g, col, text, why)
}

func (l *doorLog) AttemptJudged(ev server.Events, g *server.Game, col chess.Color, text string, a umpire.Answer, now time.Time) {
	l.got = append(l.got, fmt.Sprintf("door judged %s legal=%v", text, a.Legal))
	l.PlayerDoor.AttemptJudged(ev, g, col, text, a, now)
}

func (l *doorLog) GameEnded(ev server.Events, g *server.Game, now time.Time) {
	l.got = append(l.got, "door ended "+g.Result())
	l.PlayerDoor.GameEnded(ev, g, now)
}

func (l *doorLog) SeekPosted(ev server.Events, sk *server.Seek) {
	l.got = append(l.got, fmt.Sprintf("door seek %d posted", sk.Index()))
	l.PlayerDoor.SeekPosted(ev, sk)
}

func (l *doorLog) SeekRemoved(ev server.Events, sk *server.Seek, reason int) {
	l.got = append(l.got, fmt.Sprintf("door seek %d removed %d", sk.Index(), reason))
	l.PlayerDoor.SeekRemoved(ev, sk, reason)
}

func (l *doorLog) WithdrawOffers(ev server.Events, handle string) {
	l.got = append(l.got, "door withdraw "+handle)
	l.PlayerDoor.WithdrawOffers(ev, handle)
}

// watchLog is a GameWatcher writing into a doorLog.
type watchLog struct{ l *doorLog }

func (w watchLog) GameStarted(*server.Game) { w.l.got = append(w.l.got, "watch started") }
func (w watchLog) GameChanged(*server.Game) { w.l.got = append(w.l.got, "watch changed") }
func (w watchLog) GameEnded(_ server.Events, _ *server.Game) {
	w.l.got = append(w.l.got, "watch ended")
}

// TestTableTellsGameEvents: the table publishes the events of its games
// and seek ads to its server.PlayerDoor where it used to render them itself,
// before the doors that follow games hear of them: the ad and its
// removal, the players' offers withdrawn, the start, each refusal and
// answer, the end.
func TestTableTellsGameEvents(t *testing.T) {
	s, addr := startServer(t, server.Config{})
	log := &doorLog{}
	s.Lock()
	log.PlayerDoor = s.door
	s.SetPlayerDoor(log)
	s.Subscribe(watchLog{log})
	s.Unlock()

	white, black := wiretest.DialRaw(t, addr), wiretest.DialRaw(t, addr)
	white.LoginGuest()
	black.LoginGuest()
	white.Send("seek 3 0 u white\r\n")
	white.Expect("Your seek has been posted", wait)
	black.Send("play 1\r\n")
	white.Expect("Creating:", wait)
	black.Expect("Creating:", wait)
	black.Send("e7e5\r\n")
	black.Expect("It is not your move.", wait)
	white.Send("e2e5\r\n")
	white.Expect("Illegal move (e2e5).", wait)
	white.Send("e2e4\r\n")
	black.Expect("White has moved", wait)
	black.Send("resign\r\n")
	white.Expect("No rating adjustment.", wait)
	black.Expect("No rating adjustment.", wait)

	s.Lock()
	got := slices.Clone(log.got)
	s.Unlock()
	want := []string{
		"door seek 1 posted",
		"door seek 1 removed 2", "door withdraw Guest0001", "door withdraw Guest0002", "door started", "watch started",
		fmt.Sprintf("door refused e7e5 %d", server.RefusedNotTurn),
		"door judged e2e5 legal=false", "watch changed",
		"door judged e2e4 legal=true", "watch changed",
		"door ended 1-0", "watch ended",
	}
	if !slices.Equal(got, want) {
		t.Errorf("published\n %q\nwant\n %q", got, want)
	}
}
