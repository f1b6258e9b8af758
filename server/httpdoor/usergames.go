package httpdoor

import (
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/kshttp"
)

// apiUserGames answers GET /user/{name}/games?page=&per_page=: the user's
// finished games the table still holds, newest first, paged as the site
// pages them. It needs no token, like the site's.
func (web *Door) apiUserGames(req *request) *kshttp.Error {
	page, perPage, e := kshttp.ParsePaging(req.r.URL.Query())
	if e != nil {
		return e
	}
	s := web.s
	s.Lock()
	defer s.Unlock()
	name, ok := web.userName(lowerASCII(req.param))
	if !ok {
		return kshttp.DetailError(404, "User not found")
	}
	var mine []*server.Game
	done := s.GamesFinished()
	for i := len(done) - 1; i >= 0; i-- {
		if _, ok := seatOfName(done[i], name); ok {
			mine = append(mine, done[i])
		}
	}
	lo, hi, pages := kshttp.Page(len(mine), page, perPage)
	rows := make([]ksapi.UserGame, 0, hi-lo)
	for _, g := range mine[lo:hi] {
		rows = append(rows, userGame(g, name))
	}
	kshttp.WriteJSON(req.w, 200, ksapi.UserGames{Games: rows,
		Pagination: ksapi.Pagination{Page: page, PerPage: perPage, Total: len(mine), Pages: pages}})
	return nil
}

// userName is the name of a user GET /user/{name} knows (a bot, a telnet
// player logged in, or an account), under the table's lock.
func (web *Door) userName(lname string) (string, bool) {
	if b := web.bots[lname]; b != nil {
		return b.Username, true
	}
	if h, ok := web.s.LoggedIn(lname); ok {
		return h, true
	}
	if web.s.HasAccount(lname) {
		return lname, true
	}
	return "", false
}

// seatOfName is the colour name played in g.
func seatOfName(g *server.Game, name string) (chess.Color, bool) {
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if strings.EqualFold(g.Name(c), name) {
			return c, true
		}
	}
	return chess.White, false
}

// userGame is g as an item of name's archive. Every player is a bot to the
// HTTP door (as GET /user says), so the opponent's role is "bot".
func userGame(g *server.Game, name string) ksapi.UserGame {
	col, _ := seatOfName(g, name)
	res := resultOf(g)
	row := ksapi.UserGame{GameID: g.ID(), GameCode: g.Code(), RuleVariant: "wild16", Opponent: g.Name(col.Other()),
		OpponentRole: "bot", PlayAs: kshttp.ColorWord(col), Result: "draw", Reason: res.Reason,
		MoveCount: g.Umpire().Plies(), TurnCount: (g.Umpire().Plies() + 1) / 2, PlayedAt: kshttp.ISOTime(g.Updated())}
	if res.Winner != nil {
		row.Result = "loss"
		if *res.Winner == kshttp.ColorWord(col) {
			row.Result = "win"
		}
	}
	return row
}
