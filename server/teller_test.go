package server

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server/internal/wiretest"
)

// tellerLog records, under the table's lock, what the table publishes to
// its GameTeller (passing it on to the telnet door, so that the players
// still hear it) and to a door following its games, in one order.
type tellerLog struct {
	next GameTeller
	got  []string
}

func (l *tellerLog) GameStarted(ev *Events, g *Game) {
	l.got = append(l.got, "tell started")
	l.next.GameStarted(ev, g)
}

func (l *tellerLog) AttemptRefused(ev *Events, g *Game, col chess.Color, text string, why Refusal) {
	l.got = append(l.got, fmt.Sprintf("tell refused %s %d", text, why))
	l.next.AttemptRefused(ev, g, col, text, why)
}

func (l *tellerLog) AttemptJudged(ev *Events, g *Game, col chess.Color, text string, a umpire.Answer, now time.Time) {
	l.got = append(l.got, fmt.Sprintf("tell judged %s legal=%v", text, a.Legal))
	l.next.AttemptJudged(ev, g, col, text, a, now)
}

func (l *tellerLog) GameEnded(ev *Events, g *Game, now time.Time) {
	l.got = append(l.got, "tell ended "+g.Result())
	l.next.GameEnded(ev, g, now)
}

func (l *tellerLog) GameClocks(ev *Events, c *Client, g *Game, now time.Time) {
	l.got = append(l.got, "tell clocks")
	l.next.GameClocks(ev, c, g, now)
}

func (l *tellerLog) watch(what string)          { l.got = append(l.got, what) }
func (w watchLog) GameStarted(*Game)            { w.l.watch("watch started") }
func (w watchLog) GameChanged(*Game)            { w.l.watch("watch changed") }
func (w watchLog) GameEnded(_ *Events, _ *Game) { w.l.watch("watch ended") }

// watchLog is a GameWatcher writing into the same log.
type watchLog struct{ l *tellerLog }

// TestTableTellsGameEvents: the table publishes each game's events to its
// GameTeller where it used to render them itself, before the doors that
// follow games hear of them: the start, each refusal and answer, the end.
func TestTableTellsGameEvents(t *testing.T) {
	s, addr := startServer(t, Config{})
	log := &tellerLog{}
	s.Lock()
	log.next = s.teller
	s.teller = log
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
		"tell started", "watch started",
		fmt.Sprintf("tell refused e7e5 %d", RefusedNotTurn),
		"tell judged e2e5 legal=false", "watch changed",
		"tell judged e2e4 legal=true", "watch changed",
		"tell ended 1-0", "watch ended",
	}
	if !slices.Equal(got, want) {
		t.Errorf("published\n %q\nwant\n %q", got, want)
	}
}
