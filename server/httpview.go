package server

import (
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// The HTTP door's views: the referee's answers, scoresheets, clocks
// and games projected into the JSON shapes kriegspiel.org shows them in.

func strp(s string) *string { return &s }

func colorWord(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// siteCheck is the site's name for a check kind; ksapi spells it.
func siteCheck(k chess.CheckKind) ksapi.Check {
	switch k {
	case chess.CheckRank:
		return ksapi.CheckRank
	case chess.CheckFile:
		return ksapi.CheckFile
	case chess.CheckLongDiagonal:
		return ksapi.CheckLongDiagonal
	case chess.CheckShortDiagonal:
		return ksapi.CheckShortDiagonal
	case chess.CheckKnight:
		return ksapi.CheckKnight
	}
	return ksapi.NoCheck
}

// siteEnding is the site's name for how a move by mover ended the game,
// and the winner ("" for a draw); ksapi spells it.
func siteEnding(e umpire.Ending, mover chess.Color) (ksapi.Ending, string) {
	switch e {
	case umpire.Checkmate:
		return ksapi.Checkmate, colorWord(mover)
	case umpire.Stalemate:
		return ksapi.Stalemate, ""
	case umpire.InsufficientMaterial, umpire.DeadMaterial:
		return ksapi.Insufficient, ""
	case umpire.FiftyMoves, umpire.TooManyReversible:
		return ksapi.TooManyReversible, ""
	case umpire.Repetition:
		return ksapi.Repetition, ""
	}
	return ksapi.NotOver, ""
}

// endingText is the scoresheet's text of a game-ending move ("" for an
// ending the site has no words for).
func endingText(e umpire.Ending, mover chess.Color) string {
	end, winner := siteEnding(e, mover)
	switch end {
	case ksapi.NotOver:
		return ""
	case ksapi.Checkmate:
		return ksapi.Text{Kind: ksapi.TextEnd, Ending: end, Winner: winner}.String()
	}
	return ksapi.Text{Kind: ksapi.TextDraw, Ending: end}.String()
}

// answerJSON projects an umpire answer as MoveResponse (the clock and
// turn are added by the caller).
func answerJSON(a umpire.Answer) ksapi.MoveResult {
	r := ksapi.MoveResult{Checks: []string{}}
	if !a.Legal {
		r.Announcement = ksapi.IllegalMove
		return r
	}
	r.MoveDone = true
	r.Announcement = ksapi.RegularMove
	if a.Capture.Kind != umpire.NoCapture {
		r.Announcement = ksapi.CaptureDone
		r.CaptureSquare = strp(a.Capture.Square.String())
		r.CapturedPiece = strp(ksapi.CapturedPiece)
		if a.Capture.Kind == umpire.PawnCaptured {
			r.CapturedPiece = strp(ksapi.CapturedPawn)
		}
	}
	var checks []string
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			checks = append(checks, siteCheck(k).Code())
		}
	}
	// ks-game fills check_1 and check_2, which become "checks", for a
	// double check only: a single check is named by the special alone,
	// and a mate by its ending.
	switch {
	case a.Ending != umpire.NotOver:
		end, winner := siteEnding(a.Ending, a.Mover)
		if sp := (ksapi.Special{Ending: end, Winner: winner}).Code(); sp != "" {
			r.SpecialAnnouncement = strp(sp)
		}
		r.GameOver = true
	case len(checks) == 2:
		r.SpecialAnnouncement = strp(ksapi.Special{Double: true}.Code())
		r.Checks = checks
	case len(checks) == 1:
		r.SpecialAnnouncement = strp(checks[0])
	}
	if a.Ending == umpire.NotOver && a.PawnTries >= 0 {
		n := a.PawnTries
		r.NextTurnPawnTries = &n
	}
	return r
}

// entry is what viewer's scoresheet shows of answer a, as ks-backend's
// state projection words it (prompt "Move attempt" or "Opponent move",
// the main announcement, then the special ones); nil for the opponent's
// illegal attempt, which wild16 hides.
func entry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	own := a.Mover == viewer
	if !a.Legal && !own {
		return nil
	}
	e := &ksapi.Entry{Kind: "move", Actor: "opponent", Prompt: "Opponent move", QuestionType: "COMMON"}
	if own {
		e.Actor, e.Prompt, e.MoveUCI = "self", "Move attempt", strp(a.Attempt.String())
	}
	switch {
	case !a.Legal:
		e.Kind = "illegal_move"
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextIllegal}.String()}
	case a.Capture.Kind != umpire.NoCapture:
		e.Kind = "capture"
		piece := ksapi.CapturedPiece
		if a.Capture.Kind == umpire.PawnCaptured {
			piece = ksapi.CapturedPawn
		}
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextCapture, Square: a.Capture.Square.String(), Piece: piece}.String()}
	default:
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextMoveComplete}.String()}
	}
	if a.Legal {
		if a.Ending != umpire.NotOver {
			if t := endingText(a.Ending, a.Mover); t != "" {
				e.Messages = append(e.Messages, t)
			}
		} else if a.NumChecks() > 0 {
			if a.NumChecks() == 2 {
				e.Messages = append(e.Messages, ksapi.Text{Kind: ksapi.TextDoubleCheck}.String())
			}
			for _, k := range a.Checks {
				if k != chess.NoCheck {
					e.Messages = append(e.Messages, siteCheck(k).Text())
				}
			}
		}
	}
	e.Message = e.Prompt + " — " + strings.Join(e.Messages, " · ")
	return e
}

// statusEntry is the pawn-try status that follows a legal move not
// ending the game, in the column of the side to move next.
func statusEntry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	if !a.Legal || a.Ending != umpire.NotOver || a.PawnTries < 0 {
		return nil
	}
	msg := ksapi.Text{Kind: ksapi.TextTries, Tries: a.PawnTries}.String()
	actor := "opponent"
	if a.Mover.Other() == viewer {
		actor = "self"
	}
	return &ksapi.Entry{Kind: "status", Actor: actor, Message: msg, Messages: []string{msg}}
}

// scoresheet builds viewer's scoresheet turns and the flat referee log
// made from them (ply = 2*(turn-1) + 1 for White's column, + 2 for
// Black's; announcement = the entry's message).
func scoresheet(g *game, viewer chess.Color) ([]ksapi.Turn, []ksapi.LogEntry) {
	turns := []ksapi.Turn{}
	at := func(t int) *ksapi.Turn {
		for len(turns) == 0 || turns[len(turns)-1].Turn < t {
			turns = append(turns, ksapi.Turn{Turn: turns0(turns) + 1, White: []ksapi.Entry{}, Black: []ksapi.Entry{}})
		}
		return &turns[t-1]
	}
	ply := 0
	for _, a := range g.answers {
		t := ply/2 + 1
		if e := entry(a, viewer); e != nil {
			col := at(t)
			if a.Mover == chess.White {
				col.White = append(col.White, *e)
			} else {
				col.Black = append(col.Black, *e)
			}
		}
		if e := statusEntry(a, viewer); e != nil {
			if a.Mover == chess.White {
				at(t).Black = append(at(t).Black, *e)
			} else {
				at(t + 1).White = append(at(t+1).White, *e)
			}
		}
		if a.Legal {
			ply++
		}
	}
	kept := turns[:0]
	for _, t := range turns {
		if len(t.White)+len(t.Black) > 0 {
			kept = append(kept, t)
		}
	}
	logs := []ksapi.LogEntry{}
	for _, t := range kept {
		for i, col := range [2][]ksapi.Entry{t.White, t.Black} {
			for _, e := range col {
				logs = append(logs, ksapi.LogEntry{Ply: 2*(t.Turn-1) + 1 + i, Announcement: e.Message})
			}
		}
	}
	return kept, logs
}

// turns0 is the number of the last turn in turns (0 for none).
func turns0(turns []ksapi.Turn) int {
	if len(turns) == 0 {
		return 0
	}
	return turns[len(turns)-1].Turn
}

// ownFEN is the site's your_fen before the end: only viewer's men,
// "<board> w|b - - 0 1".
func ownFEN(pos *chess.Position, viewer chess.Color) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := pos.PieceAt(chess.NewSquare(file, rank))
			if p == chess.NoPiece || p.Color() != viewer {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(p.Letter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + string(pos.Side().Letter()) + " - - 0 1")
	return b.String()
}

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
		c.ActiveColor = strp(colorWord(g.ump.Side()))
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
		CreatedAt: isoTime(g.started), UpdatedAt: isoTime(g.updated), Result: resultOf(g)}
	if g.result == "" {
		m.Turn = strp(colorWord(g.ump.Side()))
	}
	return m
}

func (web *httpDoor) seekMeta(sk *seek) ksapi.Metadata {
	s := web.s
	p := sk.seat()
	pl := &ksapi.Seat{Username: p.name(), Connected: true, Role: "bot", Elo: s.rating(p.name()), Ratings: map[string]any{}}
	m := ksapi.Metadata{GameID: sk.id, GameCode: sk.code, RuleVariant: "wild16", State: "waiting", OpponentType: "human",
		MoveNumber: 1, CreatedAt: isoTime(sk.posted), UpdatedAt: isoTime(sk.posted)}
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
	turns, logs := scoresheet(g, col)
	st := ksapi.State{GameID: g.id, State: gameState(g), MoveNumber: g.ump.Plies() + 1, YourColor: colorWord(col),
		AllowedMoves: []string{}, PossibleActions: []string{}, Result: resultOf(g), Clock: web.clockOf(g),
		Scoresheet:   ksapi.Scoresheet{ViewerColor: colorWord(col), LastMoveNumber: g.ump.Plies()/2 + 1, Turns: turns},
		RefereeTurns: turns, RefereeLog: logs, Reserve: emptyReserve(), Material: material(&pos)}
	if g.result == "" {
		st.Turn = strp(colorWord(g.ump.Side()))
		st.YourFEN = ownFEN(&pos, col)
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

func material(pos *chess.Position) *ksapi.MaterialSummary {
	side := func(c chess.Color) ksapi.SideMaterial {
		return ksapi.SideMaterial{PiecesRemaining: pos.ByColor(c).Count()}
	}
	return &ksapi.MaterialSummary{White: side(chess.White), Black: side(chess.Black)}
}

func emptyReserve() *ksapi.ReserveSummary { return &ksapi.ReserveSummary{} }

// waitingStateFor is GET /state's answer for a bot's waiting game.
func waitingStateFor(sk *seek) ksapi.State {
	col := chess.White
	if sk.color == "black" {
		col = chess.Black
	}
	pos := chess.StartPosition()
	return ksapi.State{GameID: sk.id, State: "waiting", Turn: strp("white"), MoveNumber: 1, YourColor: colorWord(col),
		YourFEN: ownFEN(&pos, col), AllowedMoves: []string{}, PossibleActions: []string{}, Material: material(&pos),
		Reserve: emptyReserve(), Scoresheet: ksapi.Scoresheet{ViewerColor: colorWord(col), Turns: []ksapi.Turn{}},
		RefereeTurns: []ksapi.Turn{}, RefereeLog: []ksapi.LogEntry{},
		Clock: &ksapi.Clock{WhiteRemaining: new(float64(sk.minutes * 60)), BlackRemaining: new(float64(sk.minutes * 60))}}
}
