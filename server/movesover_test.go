package server

import (
	"strings"
	"testing"

	"kriegbot/server/internal/wiretest"
)

// TestMovesRightAfterGameEnds (issue 44 item 10): "moves" with no number
// right after one's game ends answered "No such game." though help says
// "the move list as you may see it (all once it is over)": the game it
// means is the one just played, shown whole.
func TestMovesRightAfterGameEnds(t *testing.T) {
	_, addr := startServer(t, Config{})
	white, black := wiretest.DialRaw(t, addr), wiretest.DialRaw(t, addr)
	white.LoginGuest()
	black.LoginGuest()
	white.Send("seek 3 0 u white\r\n")
	white.Expect("Your seek has been posted", wait) // before black may play it
	black.Send("play 1\r\n")
	white.Expect("Creating:", wait)
	black.Expect("Creating:", wait)
	white.Send("e2e4\r\n")
	black.Expect("White has moved", wait)
	black.Send("resign\r\n")
	for _, c := range []*wiretest.RawClient{white, black} {
		c.Expect("No rating adjustment.", wait)
		// A bogus command after it marks the end of the answer with a
		// whole line.
		c.Send("moves\r\nbogus\r\n")
		got := c.Expect("No such command (bogus).", wait)
		if strings.Contains(got, "No such game.") || !strings.Contains(got, "Movelist for game 1:") || !strings.Contains(got, "1. e4") {
			t.Errorf("moves after the game: %q, want game 1's whole move list", got)
		}
	}
}
