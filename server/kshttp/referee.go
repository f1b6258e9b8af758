package kshttp

import (
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// The referee as the site shows it: each umpire answer projected as a
// move reply, a player's scoresheet and referee log, the board a player
// sees. Pure functions of the umpire's record; ksapi spells the words.

func strp(s string) *string { return &s }

// ColorWord is the site's name of a colour.
func ColorWord(c chess.Color) string {
	if c == chess.White {
		return ksapi.White
	}
	return ksapi.Black
}

// ISOTime is the site's form of a time, in UTC to the millisecond.
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// siteEnding is the site's name for how a move by mover ended the game,
// and the winner ("" for a draw); ksapi spells it.
func siteEnding(e umpire.Ending, mover chess.Color) (ksapi.Ending, string) {
	switch e {
	case umpire.Checkmate:
		return ksapi.Checkmate, ColorWord(mover)
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

// MoveReply projects an umpire answer as MoveResponse (the clock and
// turn are added by the caller).
func MoveReply(a umpire.Answer) ksapi.MoveResult {
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
			checks = append(checks, ksapi.CheckOf(k).Code())
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
	e := &ksapi.Entry{Kind: ksapi.EntryMove, Actor: ksapi.ActorOpponent, Prompt: ksapi.PromptOpponent, QuestionType: ksapi.QuestionCommon}
	if own {
		e.Actor, e.Prompt, e.MoveUCI = ksapi.ActorSelf, ksapi.PromptOwn, strp(a.Attempt.String())
	}
	switch {
	case !a.Legal:
		e.Kind = ksapi.EntryIllegal
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextIllegal}.String()}
	case a.Capture.Kind != umpire.NoCapture:
		e.Kind = ksapi.EntryCapture
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
					e.Messages = append(e.Messages, ksapi.CheckOf(k).Text())
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
	actor := ksapi.ActorOpponent
	if a.Mover.Other() == viewer {
		actor = ksapi.ActorSelf
	}
	return &ksapi.Entry{Kind: ksapi.EntryStatus, Actor: actor, Message: msg, Messages: []string{msg}}
}

// Scoresheet builds viewer's scoresheet turns and the flat referee log
// made from them (ply = 2*(turn-1) + 1 for White's column, + 2 for
// Black's; announcement = the entry's message).
func Scoresheet(answers []umpire.Answer, viewer chess.Color) ([]ksapi.Turn, []ksapi.LogEntry) {
	turns := []ksapi.Turn{}
	at := func(t int) *ksapi.Turn {
		for len(turns) == 0 || turns[len(turns)-1].Turn < t {
			turns = append(turns, ksapi.Turn{Turn: turns0(turns) + 1, White: []ksapi.Entry{}, Black: []ksapi.Entry{}})
		}
		return &turns[t-1]
	}
	ply := 0
	for _, a := range answers {
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

// OwnFEN is the site's your_fen before the end: only viewer's men,
// "<board> w|b - - 0 1".
func OwnFEN(pos *chess.Position, viewer chess.Color) string {
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

// Material is the site's material summary: the men each side has left.
func Material(pos *chess.Position) *ksapi.MaterialSummary {
	side := func(c chess.Color) ksapi.SideMaterial {
		return ksapi.SideMaterial{PiecesRemaining: pos.ByColor(c).Count()}
	}
	return &ksapi.MaterialSummary{White: side(chess.White), Black: side(chess.Black)}
}

// EmptyReserve is the reserve summary of a variant without drops.
func EmptyReserve() *ksapi.ReserveSummary { return &ksapi.ReserveSummary{} }
