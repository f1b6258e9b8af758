package telnetdoor

import (
	"fmt"
	"strconv"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/telnet"
)

// The commands of a player in a game (moves themselves are refereed in
// game.go): resign, draw, abort, board, and moves, which also shows
// finished games to anyone.

func (tel *Door) cmdResign(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.ColorOf(c)
	s.Resign(ev, g, col) // "<handle> resigns": c's handle is its seat's name
}

// cmdDraw offers a draw, or accepts the opponent's offer.
func (tel *Door) cmdDraw(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.ColorOf(c)
	o := tel.offersIn(g)
	if o.draw[1-col] {
		s.EndGame(ev, g, "Agr", "1/2-1/2", "Game drawn by mutual agreement")
		return
	}
	o.draw[col] = true
	ev.text(c, "You offer a draw.")
	ev.text(user(g.Player(1-col)), "Your opponent offers you a draw.")
	ev.dg(user(g.Player(1-col)), protocol.DGGameMessage, strconv.Itoa(g.Number()), "Your opponent offers you a draw.")
	tel.offersDG(ev, g)
}

func (tel *Door) cmdAbort(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.ColorOf(c)
	if g.Tourney() != nil {
		// A TD game counts: it is won, lost or drawn, never aborted.
		ev.text(c, "A tourney game cannot be aborted: play on or resign.")
		return
	}
	// As on ICC, either player may abort alone before both have moved.
	o := tel.offersIn(g)
	if sans, _ := g.Moves(); len(sans) < 2 || o.abort[1-col] {
		s.EndGame(ev, g, "Abo", "aborted", "Game aborted")
		return
	}
	o.abort[col] = true
	ev.text(c, "You request an abort.")
	ev.text(user(g.Player(1-col)), "Your opponent requests to abort the game.")
	tel.offersDG(ev, g)
}

// gameOffers are the draw and abort offers pending in one game, by
// colour; a legal move withdraws them (AttemptJudged).
type gameOffers struct{ draw, abort [2]bool }

// offersIn returns g's offers, to read or change.
func (tel *Door) offersIn(g *server.Game) *gameOffers {
	o := tel.offers[g]
	if o == nil {
		o = &gameOffers{}
		tel.offers[g] = o
	}
	return o
}

func (tel *Door) offersDG(ev *Events, g *server.Game) {
	o := tel.offersIn(g)
	for col := chess.White; col <= chess.Black; col++ {
		p := user(g.Player(col))
		ev.dg(p, protocol.DGOffersInMyGame, strconv.Itoa(g.Number()), boolField(o.draw[0]), boolField(o.draw[1]),
			"0", "0", boolField(o.abort[0]), boolField(o.abort[1]), "0", "0")
	}
}

// cmdBoard draws the player's own men and both clocks.
func (tel *Door) cmdBoard(ev *Events, c *Client, _ cmdInput) {
	g := c.game
	for _, l := range telnet.Board(ptr(g.Umpire().Position()), g.ColorOf(c)) {
		ev.text(c, l)
	}
	now := tel.table.Now()
	ev.text(c, fmt.Sprintf("Clocks: White %s, Black %s.", telnet.Clock(g.Remaining(0, now)), telnet.Clock(g.Remaining(1, now))))
}

func (tel *Door) cmdMoves(ev *Events, c *Client, in cmdInput) {
	s := tel.s
	args := in.args
	g := c.game
	if g == nil {
		g = c.lastGame // right after one's game: that game, all of it
	}
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			ev.usage(c, in)
			return
		}
		g = s.GameByNumber(n)
	}
	if g == nil {
		ev.text(c, "No such game.")
		return
	}
	col := chess.Color(2) // a spectator sees nothing hidden only once it is over
	switch {
	case user(g.Player(chess.White)) == c:
		col = chess.White
	case user(g.Player(chess.Black)) == c:
		col = chess.Black
	case g.Result() == "":
		ev.text(c, "Kriegspiel games in progress cannot be observed.")
		return
	}
	tel.moveList(ev, c, g, col, true)
}
