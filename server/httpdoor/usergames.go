package httpdoor

import (
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/protocol/handle"
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
	name, _, ok := web.userName(lowerASCII(req.param))
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

// userName is the name and site role of a user GET /user/{name} knows
// (a bot, a telnet player logged in, an account, or a player of a kept
// game), under the table's lock.
func (web *Door) userName(lname string) (name, role string, ok bool) {
	if b := web.bots[lname]; b != nil {
		return b.Username, "bot", true
	}
	name, titles, ok := web.s.Player(lname)
	return name, siteRole(name, titles), ok
}

// siteRole is how kriegspiel.org would show a player of the table: a
// computer (titled C: every HTTP bot, a telnet computer account) is a
// "bot", a guest login a "guest", anyone else a person, a "user".
func siteRole(name, titles string) string {
	switch {
	case server.IsComputer(titles):
		return "bot"
	case handle.IsGuest(name):
		return "guest"
	}
	return "user"
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

// userGame is g as an item of name's archive, with the opponent's role.
func userGame(g *server.Game, name string) ksapi.UserGame {
	col, _ := seatOfName(g, name)
	res := resultOf(g)
	row := ksapi.UserGame{GameID: g.ID(), GameCode: g.Code(), RuleVariant: g.Variant(), Opponent: g.Name(col.Other()),
		OpponentRole: siteRole(g.Name(col.Other()), g.Title(col.Other())), PlayAs: kshttp.ColorWord(col), Result: "draw", Reason: res.Reason,
		MoveCount: g.Umpire().Plies(), TurnCount: (g.Umpire().Plies() + 1) / 2, PlayedAt: kshttp.ISOTime(g.Updated())}
	if res.Winner != nil {
		row.Result = "loss"
		if *res.Winner == kshttp.ColorWord(col) {
			row.Result = "win"
		}
	}
	return row
}
