package server

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
)

// The commands of a player in a game (moves themselves are refereed in
// game.go): resign, draw, abort, board, and moves, which also shows
// finished games to anyone.

// parseMoveWord recognises a coordinate move: e2e4, e7e8q, e7e8Q, e7e8=Q.
func parseMoveWord(s string) (chess.Move, bool) {
	if len(s) < 4 || len(s) > 6 {
		return chess.NullMove, false
	}
	t := strings.ToLower(strings.Replace(s, "=", "", 1))
	if len(t) > 5 {
		return chess.NullMove, false
	}
	m, err := chess.ParseUCI(t)
	if err != nil {
		return chess.NullMove, false
	}
	return m, true
}

func (tel *telnetDoor) cmdResign(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.colorOf(c)
	s.endGame(ev, g, "Res", scoreFor(1-col), fmt.Sprintf("%s resigns", c.handle))
}

// cmdDraw offers a draw, or accepts the opponent's offer.
func (tel *telnetDoor) cmdDraw(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.colorOf(c)
	if g.drawOffer[1-col] {
		s.endGame(ev, g, "Agr", "1/2-1/2", "Game drawn by mutual agreement")
		return
	}
	g.drawOffer[col] = true
	ev.text(c, "You offer a draw.")
	ev.text(g.players[1-col], "Your opponent offers you a draw.")
	ev.dg(g.players[1-col], protocol.DGGameMessage, strconv.Itoa(g.number), "Your opponent offers you a draw.")
	s.offersDG(ev, g)
}

func (tel *telnetDoor) cmdAbort(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	col := g.colorOf(c)
	if g.tourney != nil {
		// A TD game counts: it is won, lost or drawn, never aborted.
		ev.text(c, "A tourney game cannot be aborted: play on or resign.")
		return
	}
	// As on ICC, either player may abort alone before both have moved.
	if len(g.sans) < 2 || g.abortOffer[1-col] {
		s.endGame(ev, g, "Abo", "aborted", "Game aborted")
		return
	}
	g.abortOffer[col] = true
	ev.text(c, "You request an abort.")
	ev.text(g.players[1-col], "Your opponent requests to abort the game.")
	s.offersDG(ev, g)
}

func (s *Server) offersDG(ev *Events, g *Game) {
	for _, p := range g.players {
		ev.dg(p, protocol.DGOffersInMyGame, strconv.Itoa(g.number), boolField(g.drawOffer[0]), boolField(g.drawOffer[1]),
			"0", "0", boolField(g.abortOffer[0]), boolField(g.abortOffer[1]), "0", "0")
	}
}

// cmdBoard draws the player's own men and both clocks.
func (tel *telnetDoor) cmdBoard(ev *Events, c *Client, _ cmdInput) {
	s := tel.s
	g := c.game
	for _, l := range boardText(ptr(g.ump.Position()), g.colorOf(c)) {
		ev.text(c, l)
	}
	now := s.cfg.Now()
	ev.text(c, fmt.Sprintf("Clocks: White %s, Black %s.", fmtClock(g.remaining(0, now)), fmtClock(g.remaining(1, now))))
}

func fmtClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

func (tel *telnetDoor) cmdMoves(ev *Events, c *Client, in cmdInput) {
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
		g = s.games[n]
		if g == nil {
			for _, f := range s.finished {
				if f.number == n {
					g = f
				}
			}
		}
	}
	if g == nil {
		ev.text(c, "No such game.")
		return
	}
	col := chess.Color(2) // a spectator sees nothing hidden only once it is over
	switch {
	case g.players[chess.White] == c:
		col = chess.White
	case g.players[chess.Black] == c:
		col = chess.Black
	case g.result == "":
		ev.text(c, "Kriegspiel games in progress cannot be observed.")
		return
	}
	s.sendMoveList(ev, c, g, col, true)
}
