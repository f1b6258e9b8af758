package httpdoor

import (
	"slices"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/kshttp"
)

// The HTTP door's views of games and lobby games: metadata, state,
// clocks and results in the JSON shapes kriegspiel.org shows them in.
// The referee's answers and scoresheets are projected by kshttp.

func strp(s string) *string { return &s }

// resultOf is the site's result of a finished game; nil while it runs.
func resultOf(g *server.Game) *ksapi.Result {
	if g.Result() == "" {
		return nil
	}
	r := &ksapi.Result{}
	switch g.Result() {
	case "1-0":
		r.Winner = strp("white")
	case "0-1":
		r.Winner = strp("black")
	}
	switch g.EndCode() {
	case "Mat":
		r.Reason = "checkmate"
	case "Sta":
		r.Reason = "stalemate"
	case "NM":
		r.Reason = "insufficient"
		if g.Umpire().Ending() == umpire.NotOver { // a flag fell, the winner had no mating material
			r.Reason = "timeout"
		}
	case "50":
		r.Reason = "too_many_reversible_moves"
	case "Res":
		r.Reason = "resignation"
	case "Fla":
		r.Reason = "timeout"
	case "Rep":
		r.Reason = "repetition"
	case "Dis":
		r.Reason = "disconnection"
	case "Agr":
		r.Reason = "agreement"
	case "Abo":
		r.Reason = "aborted"
	default: // "Adj": the server's adjudication
		r.Reason = "move_limit"
		if g.Umpire().Ending() == umpire.DeadMaterial {
			r.Reason = "insufficient"
		}
	}
	return r
}

func (web *Door) clockOf(g *server.Game) *ksapi.Clock {
	s := web.s
	now := s.Now()
	white, black := max(0, g.Remaining(chess.White, now).Seconds()), max(0, g.Remaining(chess.Black, now).Seconds())
	c := &ksapi.Clock{WhiteRemaining: &white, BlackRemaining: &black}
	if g.Result() == "" && !g.ClockIdle() {
		c.ActiveColor = strp(kshttp.ColorWord(g.Umpire().Side()))
	}
	return c
}

func gameState(g *server.Game) string {
	if g.Result() != "" {
		return "completed"
	}
	return "active"
}

func (web *Door) playerOf(g *server.Game, col chess.Color) *ksapi.Seat {
	return &ksapi.Seat{Username: g.Name(col), Connected: g.Connected(col),
		Role: siteRole(g.Name(col), g.Title(col)), Elo: g.Rating(col), Ratings: map[string]any{}}
}

func (web *Door) gameMeta(g *server.Game) ksapi.Metadata {
	m := ksapi.Metadata{GameID: g.ID(), GameCode: g.Code(), RuleVariant: g.Variant(), State: gameState(g), OpponentType: "human",
		White: web.playerOf(g, chess.White), Black: web.playerOf(g, chess.Black), MoveNumber: g.Umpire().Plies() + 1,
		CreatedAt: kshttp.ISOTime(g.Started()), UpdatedAt: kshttp.ISOTime(g.Updated()), Result: resultOf(g)}
	if g.Result() == "" {
		m.Turn = strp(kshttp.ColorWord(g.Umpire().Side()))
	}
	return m
}

func (web *Door) seekMeta(sk *server.Seek) ksapi.Metadata {
	s := web.s
	pl := &ksapi.Seat{Username: sk.OwnerName(), Connected: true, Role: siteRole(sk.OwnerName(), sk.OwnerTitles()), Elo: s.Rating(sk.OwnerName()), Ratings: map[string]any{}}
	m := ksapi.Metadata{GameID: sk.ID(), GameCode: sk.Code(), RuleVariant: sk.Variant(), State: "waiting", OpponentType: "human",
		MoveNumber: 1, CreatedAt: kshttp.ISOTime(sk.PostedAt()), UpdatedAt: kshttp.ISOTime(sk.PostedAt())}
	if sk.Color() == "black" {
		m.Black = pl
	} else {
		m.White = pl
	}
	return m
}

// gameStateFor is GET /state's answer for the player of colour col.
func (web *Door) gameStateFor(g *server.Game, col chess.Color) ksapi.State {
	pos := g.Umpire().Position()
	turns, logs := kshttp.Scoresheet(g.Answers(), col)
	st := ksapi.State{GameID: g.ID(), State: gameState(g), MoveNumber: g.Umpire().Plies() + 1, YourColor: kshttp.ColorWord(col),
		AllowedMoves: []string{}, PossibleActions: []string{}, Result: resultOf(g), Clock: web.clockOf(g),
		Scoresheet:   ksapi.Scoresheet{ViewerColor: kshttp.ColorWord(col), LastMoveNumber: g.Umpire().Plies()/2 + 1, Turns: turns},
		RefereeTurns: turns, RefereeLog: logs, Reserve: kshttp.Reserve(g.Umpire().Pockets()), Material: kshttp.Material(&pos)}
	if g.Result() == "" {
		st.Turn = strp(kshttp.ColorWord(g.Umpire().Side()))
		st.YourFEN = kshttp.OwnFEN(&pos, col)
		if g.Umpire().Side() == col {
			st.AllowedMoves = allowedMoves(g)
			st.PossibleActions = []string{"move"}
			if g.Umpire().CanAskAny() {
				st.PossibleActions = append(st.PossibleActions, "ask_any")
			}
		}
	} else {
		st.YourFEN = pos.FEN()
	}
	return st
}

// allowedMoves lists the attempts the side to move may make: the
// umpire's askable list, less the attempts refused this turn, sorted; in
// the variants but wild16, as the umpire keeps it for the turn (under the
// obligation of a "has pawn captures" only pawn captures, drops "N@e4").
func allowedMoves(g *server.Game) []string {
	u := g.Umpire()
	pos := u.Position()
	var l chess.MoveList
	var drops []chess.Move
	if u.Rules().Variant.IsWild16() {
		umpire.Askable(&pos, u.PawnTries(), u.Refused(), &l)
	} else {
		u.Askable(&l)
		drops = u.AskableDrops(nil)
	}
	out := make([]string, 0, l.N+len(drops))
	for _, m := range l.Slice() {
		out = append(out, m.String())
	}
	for _, m := range drops {
		out = append(out, umpire.MoveText(m))
	}
	slices.Sort(out)
	return out
}

// waitingStateFor is GET /state's answer for a bot's waiting game.
func waitingStateFor(sk *server.Seek) ksapi.State {
	col := chess.White
	if sk.Color() == "black" {
		col = chess.Black
	}
	pos := chess.StartPosition()
	return ksapi.State{GameID: sk.ID(), State: "waiting", Turn: strp("white"), MoveNumber: 1, YourColor: kshttp.ColorWord(col),
		YourFEN: kshttp.OwnFEN(&pos, col), AllowedMoves: []string{}, PossibleActions: []string{}, Material: kshttp.Material(&pos),
		Reserve: kshttp.EmptyReserve(), Scoresheet: ksapi.Scoresheet{ViewerColor: kshttp.ColorWord(col), Turns: []ksapi.Turn{}},
		RefereeTurns: []ksapi.Turn{}, RefereeLog: []ksapi.LogEntry{},
		Clock: &ksapi.Clock{WhiteRemaining: new(float64(sk.Minutes() * 60)), BlackRemaining: new(float64(sk.Minutes() * 60))}}
}
