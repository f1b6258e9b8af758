package telnetdoor

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/telnet"
)

// How the telnet door tells its users the table's events (it is the
// table's server.PlayerDoor): ICC text lines and datagrams.

// GameStarted tells both players of g, which has just started, the
// creation lines and everything they may see of the game.
func (tel *Door) GameStarted(ev server.Events, g *server.Game) {
	for col := chess.White; col <= chess.Black; col++ {
		if c := user(g.Player(col)); c != nil {
			c.game = g
		}
	}
	kind := "unrated"
	if g.Rated() {
		kind = "rated"
	}
	minutes, inc := g.Terms()
	for col := chess.White; col <= chess.Black; col++ {
		c := g.Player(col)
		if c == nil {
			continue
		}
		ev.Text(c, fmt.Sprintf("Creating: %s (%d) %s (%d) %s wild 16 %d %d", g.Name(0), g.Rating(0), g.Name(1), g.Rating(1), kind, minutes, inc))
		ev.Text(c, fmt.Sprintf("{Game %d (%s vs. %s) Creating %s wild 16 (Kriegspiel) match.}", g.Number(), g.Name(0), g.Name(1), kind))
		tel.gameState(ev, g, col)
	}
}

// gameState tells the player of colour col everything about the game as
// that player may see it: at the start, and again when a player comes back.
func (tel *Door) gameState(ev server.Events, g *server.Game, col chess.Color) {
	c := g.Player(col)
	if c == nil {
		return
	}
	n := strconv.Itoa(g.Number())
	rated := "0"
	if g.Rated() {
		rated = "1"
	}
	minutes, inc := g.Terms()
	mins, incs := strconv.Itoa(minutes), strconv.Itoa(inc)
	ev.DG(c, protocol.DGMyGameStarted, n, g.Name(0), g.Name(1), "16", "Wild", rated, mins, incs, mins, incs,
		"1", "", strconv.Itoa(g.Rating(0)), strconv.Itoa(g.Rating(1)), n, g.Title(0), g.Title(1),
		"0", "0", "0", "", "0")
	sym := "PW"
	if col == chess.Black {
		sym = "PB"
	}
	ev.DG(c, protocol.DGMyRelationToGame, n, sym)
	ev.DG(c, protocol.DGFlip, n, boolField(col == chess.Black))
	tel.moveList(ev, user(c), g, col, false)
	now := tel.s.Now()
	ev.DG(c, protocol.DGSetClock, n, strconv.Itoa(int(g.Remaining(chess.White, now)/time.Second)), strconv.Itoa(int(g.Remaining(chess.Black, now)/time.Second)))
	tel.gameClocks(ev, c, g, now)
	if !c.DGOn(protocol.DGSendMoves) {
		for _, l := range telnet.Board(ptr(g.Umpire().Position()), col) {
			ev.Text(c, l)
		}
	}
	if g.Umpire().Side() == col {
		tel.yourTurn(ev, g, col)
	}
}

func ptr(p chess.Position) *chess.Position { return &p }

func boolField(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (tel *Door) yourTurn(ev server.Events, g *server.Game, col chess.Color) {
	c := g.Player(col)
	if c == nil {
		return
	}
	ev.DG(c, protocol.DGMyTurn, strconv.Itoa(g.Number()))
	if !c.DGOn(protocol.DGSendMoves) {
		ev.Text(c, fmt.Sprintf("Game %d: it is your move (%s).", g.Number(), strings.ToLower(server.ColorName(col))))
	}
}

// gameClocks sends c DG 56 for both sides of g, as of now.
func (tel *Door) gameClocks(ev server.Events, c server.Client, g *server.Game, now time.Time) {
	n := strconv.Itoa(g.Number())
	for _, side := range []chess.Color{chess.White, chess.Black} {
		running := g.ClockRuns() && g.Umpire().Side() == side
		ms := g.Remaining(side, now).Milliseconds()
		ev.DG(c, protocol.DGMsec, n, "WB"[side:side+1], strconv.FormatInt(ms, 10), boolField(running))
	}
}

// moveList sends DG 25 (and a text list when asked) as col sees it; col
// -1 or a finished game reveals every move.
func (tel *Door) moveList(ev server.Events, c *Client, g *server.Game, col chess.Color, asText bool) {
	if c == nil {
		return
	}
	reveal := g.Result() != "" || col > chess.Black
	mf := c.moveFields()
	fields := []string{strconv.Itoa(g.Number()), "*"}
	var text []string
	leg := 0
	minutes, inc := g.Terms()
	sans, used := g.Moves()
	clockAfter := [2]time.Duration{}
	base := time.Duration(minutes) * time.Minute
	clockAfter[0], clockAfter[1] = base, base
	for _, a := range g.Answers() {
		if !a.Legal {
			continue
		}
		side := a.Mover
		clockAfter[side] += -used[leg] + time.Duration(inc)*time.Second
		hidden := !reveal && side != col
		fields = append(fields, strings.Join(telnet.MoveFields(mf, sans[leg], a, hidden, used[leg], clockAfter[side]), " "))
		shown := sans[leg]
		if hidden {
			shown = telnet.HiddenMove(a)
		}
		if side == chess.White {
			text = append(text, fmt.Sprintf("%3d. %s", leg/2+1, shown))
		} else if len(text) > 0 && leg%2 == 1 {
			text[len(text)-1] += "   " + shown
		}
		leg++
	}
	ev.DG(c, protocol.DGMoveList, fields...)
	if asText {
		ev.Text(c, protocol.MoveListHeader{Game: g.Number(), White: g.Name(0), Black: g.Name(1), Minutes: minutes, Inc: inc}.String())
		for _, l := range text {
			ev.Text(c, l)
		}
		if g.Result() != "" {
			ev.Text(c, protocol.MoveListResult(g.Description(), g.Result()))
		}
	}
}

// AttemptRefused tells the player of colour col in g why its attempt
// text was not refereed.
func (tel *Door) AttemptRefused(ev server.Events, g *server.Game, col chess.Color, text string, why server.Refusal) {
	c := g.Player(col)
	switch why {
	case server.RefusedOver:
		ev.Text(c, "The game is over.")
	case server.RefusedPaused:
		ev.Text(c, "The game waits for your opponent to come back; the clocks are stopped.")
	case server.RefusedNotTurn:
		ev.DG(c, protocol.DGIllegalMove, strconv.Itoa(g.Number()), text, "4")
		ev.Text(c, "It is not your move.")
	}
}

// AttemptJudged tells the players of g the umpire's answer a to the
// attempt text of the player of colour col: the mover alone of an
// illegal one; both of a legal one, each as it may see it, and then
// whose turn it is if the game goes on.
func (tel *Door) AttemptJudged(ev server.Events, g *server.Game, col chess.Color, text string, a umpire.Answer, now time.Time) {
	n := strconv.Itoa(g.Number())
	if a.Legal {
		delete(tel.offers, g) // a move withdraws the offers
	} else {
		c := g.Player(col)
		ev.DG(c, protocol.DGIllegalMove, n, text, "2")
		ev.Text(c, protocol.IllegalLine(text))
		return
	}
	sans, used := g.Moves()
	san, spent := sans[len(sans)-1], used[len(used)-1]
	left := g.Clocks()[col]
	for viewer := chess.White; viewer <= chess.Black; viewer++ {
		p := g.Player(viewer)
		if p == nil {
			continue
		}
		f := telnet.MoveFields(user(p).moveFields(), san, a, viewer != col, spent, left)
		ev.DG(p, protocol.DGSendMoves, append([]string{n}, f...)...)
		if !p.DGOn(protocol.DGSendMoves) {
			if viewer == col {
				ev.Text(p, fmt.Sprintf("Game %d: you played %s.", g.Number(), san))
			} else {
				ev.Text(p, fmt.Sprintf("Game %d: %s has moved.", g.Number(), server.ColorName(col)))
			}
		}
		for _, line := range protocol.RefereeLines(g.Number(), a) {
			ev.Text(p, line)
		}
		tel.gameClocks(ev, p, g, now)
		if !p.DGOn(protocol.DGSendMoves) && a.Ending == umpire.NotOver {
			for _, l := range telnet.Board(ptr(g.Umpire().Position()), viewer) {
				ev.Text(p, l)
			}
		}
	}
	if a.Ending == umpire.NotOver {
		tel.yourTurn(ev, g, 1-col)
	}
}

// GameEnded tells the players of g, which has just ended, how, with the
// clocks as of now.
func (tel *Door) GameEnded(ev server.Events, g *server.Game, now time.Time) {
	delete(tel.offers, g)
	score := g.Result()
	if score == "aborted" {
		score = "*"
	}
	n := strconv.Itoa(g.Number())
	for col := chess.White; col <= chess.Black; col++ {
		p := g.Player(col)
		if p == nil {
			continue
		}
		ev.Text(p, fmt.Sprintf("{Game %d (%s vs. %s) %s} %s", g.Number(), g.Name(0), g.Name(1), g.Description(), score))
		ev.DG(p, protocol.DGMyGameResult, n, "0", g.EndCode(), g.Result(), g.Description(), "{}")
		tel.gameClocks(ev, p, g, now)
		ev.DG(p, protocol.DGMyRelationToGame, n, "X")
		if !g.Rated() {
			ev.Text(p, "Game was not rated.  No rating adjustment.")
		}
	}
	for col := chess.White; col <= chess.Black; col++ {
		if p := user(g.Player(col)); p != nil {
			p.game, p.lastGame = nil, g
			p.lastActive = now // idle time counts from the end of the game
		}
	}
}

// SeekPosted shows the new ad sk to every user (but those congested: see
// Client.congested, its owner excepted).
func (tel *Door) SeekPosted(ev server.Events, sk *server.Seek) {
	for _, u := range tel.users {
		if sk.Owner() == u || !u.congested() {
			tel.seekDG(ev, u, sk)
		}
	}
}

// SeekRemoved tells every user (as SeekPosted) that sk is down.
func (tel *Door) SeekRemoved(ev server.Events, sk *server.Seek, reason int) {
	for _, u := range tel.users {
		if sk.Owner() == u || !u.congested() {
			ev.DG(u, protocol.DGSeekRemoved, strconv.Itoa(sk.Index()), strconv.Itoa(reason))
		}
	}
}

// seekDG sends u DG 50 of ad sk.
func (tel *Door) seekDG(ev server.Events, u *Client, sk *server.Seek) {
	col := "-1"
	switch sk.Color() {
	case "white":
		col = "1"
	case "black":
		col = "0"
	}
	auto := "1"
	if sk.Manual() {
		auto = "0"
	}
	name := sk.OwnerName()
	minR, maxR := sk.RatingRange()
	ev.DG(u, protocol.DGSeek, strconv.Itoa(sk.Index()), name, sk.OwnerTitles(), strconv.Itoa(tel.s.Rating(name)), "0",
		"16", "Wild", strconv.Itoa(sk.Minutes()), strconv.Itoa(sk.Inc()), boolField(sk.Rated()), col,
		strconv.Itoa(minR), strconv.Itoa(maxR), auto, boolField(sk.Formula()), "")
}

// PlayerAway tells the opponent of the player of colour col, who left g
// at left, how long it has to come back, with the clocks of a TD game,
// which stopped.
func (tel *Door) PlayerAway(ev server.Events, g *server.Game, col chess.Color, grace time.Duration, left time.Time) {
	opp := g.Player(1 - col)
	if g.Tourney() != nil {
		tel.gameClocks(ev, opp, g, left)
	}
	ev.Text(opp, fmt.Sprintf("Your opponent %s has disconnected; they have %s to come back.", g.Name(col), grace))
}

// PlayerBack gives the player of colour col, back in g, the game again,
// and tells its opponent, with the clocks of a TD game, which run again.
func (tel *Door) PlayerBack(ev server.Events, g *server.Game, col chess.Color) {
	user(g.Player(col)).game = g
	ev.Text(g.Player(col), fmt.Sprintf("Resuming game %d.", g.Number()))
	opp := g.Player(1 - col)
	ev.Text(opp, fmt.Sprintf("Your opponent %s has come back.", g.Player(col).Handle()))
	if g.Tourney() != nil {
		tel.gameClocks(ev, opp, g, tel.s.Now())
	}
	tel.gameState(ev, g, col)
}
