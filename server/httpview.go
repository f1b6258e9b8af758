package server

import (
	"slices"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
	"kriegbot/server/kshttp"
)

// The HTTP door's views of games and lobby games: metadata, state,
// clocks and results in the JSON shapes kriegspiel.org shows them in.
// The referee's answers and scoresheets are projected by kshttp.

func strp(s string) *string { return &s }

// resultOf is the site's result of a finished game; nil while it runs.
func resultOf(g *game) *ksapi.Result {
	if g.result == "" {
		return nil
	}
	r := &ksapi.Result{}
	switch g.result {
	case "1-0":
		r.Winner = strp("white")
	case "0-1":
		r.Winner = strp("black")
	}
	switch g.endCode {
	case "Mat":
		r.Reason = "checkmate"
	case "Sta":
		r.Reason = "stalemate"
	case "NM":
		r.Reason = "insufficient"
		if g.ump.Ending() == umpire.NotOver { // a flag fell, the winner had no mating material
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
		if g.ump.Ending() == umpire.DeadMaterial {
			r.Reason = "insufficient"
		}
	}
	return r
}

func (web *httpDoor) clockOf(g *game) *ksapi.Clock {
	s := web.s
	now := s.cfg.Now()
	white, black := max(0, g.remaining(chess.White, now).Seconds()), max(0, g.remaining(chess.Black, now).Seconds())
	c := &ksapi.Clock{WhiteRemaining: &white, BlackRemaining: &black}
	if g.result == "" && !g.idleClock {
		c.ActiveColor = strp(kshttp.ColorWord(g.ump.Side()))
	}
	return c
}

func gameState(g *game) string {
	if g.result != "" {
		return "completed"
	}
	return "active"
}

func (web *httpDoor) playerOf(g *game, col chess.Color) *ksapi.Seat {
	return &ksapi.Seat{Username: g.names[col], Connected: g.bots[col] != nil || g.players[col] != nil,
		Role: "bot", Elo: g.ratings[col], Ratings: map[string]any{}}
}

func (web *httpDoor) gameMeta(g *game) ksapi.Metadata {
	m := ksapi.Metadata{GameID: g.id, GameCode: g.code, RuleVariant: "wild16", State: gameState(g), OpponentType: "human",
		White: web.playerOf(g, chess.White), Black: web.playerOf(g, chess.Black), MoveNumber: g.ump.Plies() + 1,
		CreatedAt: kshttp.ISOTime(g.started), UpdatedAt: kshttp.ISOTime(g.updated), Result: resultOf(g)}
	if g.result == "" {
		m.Turn = strp(kshttp.ColorWord(g.ump.Side()))
	}
	return m
}

func (web *httpDoor) seekMeta(sk *seek) ksapi.Metadata {
	s := web.s
	p := sk.seat()
	pl := &ksapi.Seat{Username: p.name(), Connected: true, Role: "bot", Elo: s.rating(p.name()), Ratings: map[string]any{}}
	m := ksapi.Metadata{GameID: sk.id, GameCode: sk.code, RuleVariant: "wild16", State: "waiting", OpponentType: "human",
		MoveNumber: 1, CreatedAt: kshttp.ISOTime(sk.posted), UpdatedAt: kshttp.ISOTime(sk.posted)}
	if sk.color == "black" {
		m.Black = pl
	} else {
		m.White = pl
	}
	return m
}

// gameStateFor is GET /state's answer for the player of colour col.
func (web *httpDoor) gameStateFor(g *game, col chess.Color) ksapi.State {
	pos := g.ump.Position()
	turns, logs := kshttp.Scoresheet(g.answers, col)
	st := ksapi.State{GameID: g.id, State: gameState(g), MoveNumber: g.ump.Plies() + 1, YourColor: kshttp.ColorWord(col),
		AllowedMoves: []string{}, PossibleActions: []string{}, Result: resultOf(g), Clock: web.clockOf(g),
		Scoresheet:   ksapi.Scoresheet{ViewerColor: kshttp.ColorWord(col), LastMoveNumber: g.ump.Plies()/2 + 1, Turns: turns},
		RefereeTurns: turns, RefereeLog: logs, Reserve: kshttp.EmptyReserve(), Material: kshttp.Material(&pos)}
	if g.result == "" {
		st.Turn = strp(kshttp.ColorWord(g.ump.Side()))
		st.YourFEN = kshttp.OwnFEN(&pos, col)
		if g.ump.Side() == col {
			st.AllowedMoves = allowedMoves(g)
			st.PossibleActions = []string{"move"}
		}
	} else {
		st.YourFEN = pos.FEN()
	}
	return st
}

// allowedMoves lists the attempts the side to move may make: the
// umpire's askable list, less the attempts refused this turn, sorted.
func allowedMoves(g *game) []string {
	pos := g.ump.Position()
	var l chess.MoveList
	umpire.Askable(&pos, g.ump.PawnTries(), g.ump.Refused(), &l)
	out := make([]string, 0, l.N)
	for _, m := range l.Slice() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// waitingStateFor is GET /state's answer for a bot's waiting game.
func waitingStateFor(sk *seek) ksapi.State {
	col := chess.White
	if sk.color == "black" {
		col = chess.Black
	}
	pos := chess.StartPosition()
	return ksapi.State{GameID: sk.id, State: "waiting", Turn: strp("white"), MoveNumber: 1, YourColor: kshttp.ColorWord(col),
		YourFEN: kshttp.OwnFEN(&pos, col), AllowedMoves: []string{}, PossibleActions: []string{}, Material: kshttp.Material(&pos),
		Reserve: kshttp.EmptyReserve(), Scoresheet: ksapi.Scoresheet{ViewerColor: kshttp.ColorWord(col), Turns: []ksapi.Turn{}},
		RefereeTurns: []ksapi.Turn{}, RefereeLog: []ksapi.LogEntry{},
		Clock: &ksapi.Clock{WhiteRemaining: new(float64(sk.minutes * 60)), BlackRemaining: new(float64(sk.minutes * 60))}}
}
