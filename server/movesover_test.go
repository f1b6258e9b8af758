package server

import (
	"strings"
	"testing"
)

// TestMovesRightAfterGameEnds (issue 44 item 10): "moves" with no number
// right after one's game ends answered "No such game." though help says
// "the move list as you may see it (all once it is over)": the game it
// means is the one just played, shown whole.
func TestMovesRightAfterGameEnds(t *testing.T) {
	_, addr := startServer(t, Config{})
	white, black := dialRaw(t, addr), dialRaw(t, addr)
	white.loginGuest()
	black.loginGuest()
	white.send("seek 3 0 u white\r\n")
	white.expect("Your seek has been posted", wait) // before black may play it
	black.send("play 1\r\n")
	white.expect("Creating:", wait)
	black.expect("Creating:", wait)
	white.send("e2e4\r\n")
	black.expect("White has moved", wait)
	black.send("resign\r\n")
	for _, c := range []*rawClient{white, black} {
		c.expect("No rating adjustment.", wait)
		// A bogus command after it marks the end of the answer with a
		// whole line.
		c.send("moves\r\nbogus\r\n")
		got := c.expect("No such command (bogus).", wait)
		if strings.Contains(got, "No such game.") || !strings.Contains(got, "Movelist for game 1:") || !strings.Contains(got, "1. e4") {
			t.Errorf("moves after the game: %q, want game 1's whole move list", got)
		}
	}
}
