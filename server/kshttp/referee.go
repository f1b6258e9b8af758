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

// siteEnding is the site's name for how a move by mover ended the game
// with result, and the winner ("" for a draw); ksapi spells it. A
// stalemate that is won (rand) names its winner.
func siteEnding(e umpire.Ending, mover chess.Color, result string) (ksapi.Ending, string) {
	switch e {
	case umpire.Checkmate:
		return ksapi.Checkmate, ColorWord(mover)
	case umpire.Stalemate:
		switch result {
		case "1-0":
			return ksapi.Stalemate, ksapi.White
		case "0-1":
			return ksapi.Stalemate, ksapi.Black
		}
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
func endingText(a umpire.Answer) string {
	end, winner := siteEnding(a.Ending, a.Mover, a.Result)
	switch {
	case end == ksapi.NotOver:
		return ""
	case end == ksapi.Checkmate || winner != "":
		return ksapi.Text{Kind: ksapi.TextEnd, Ending: end, Winner: winner}.String()
	}
	return ksapi.Text{Kind: ksapi.TextDraw, Ending: end}.String()
}

// capturedPiece is the captured_piece_announcement of capture kind k:
// PAWN or PIECE (typed), a man's name (exact), nil (untyped).
func capturedPiece(k umpire.CaptureKind) *string {
	switch k {
	case umpire.NoCapture, umpire.ManCaptured:
		return nil
	case umpire.PawnCaptured:
		return strp(ksapi.CapturedPawn)
	case umpire.PieceCaptured:
		return strp(ksapi.CapturedPiece)
	}
	return strp(strings.ToUpper(k.String()))
}

// trySquares are the squares of b, lower case, in the order of the board.
func trySquares(b chess.Bitboard) []string {
	out := []string{}
	for b != 0 {
		out = append(out, b.PopFirst().String())
	}
	return out
}

// MoveReply projects an umpire answer as MoveResponse (the clock and
// turn are added by the caller): a move, a refusal in the variant's word,
// or the answer to "Any?" (with has_any).
func MoveReply(a umpire.Answer) ksapi.MoveResult {
	r := ksapi.MoveResult{Checks: []string{}}
	if !a.Legal {
		r.Announcement = a.Verdict.String() // ILLEGAL_MOVE, IMPOSSIBLE_TO_ASK, NONSENSE, HAS_ANY, NO_ANY
		if a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny {
			has := a.Verdict == umpire.HasAny
			r.HasAny = &has
		}
		return r
	}
	r.MoveDone = true
	r.Announcement = ksapi.RegularMove
	if a.Capture.Kind != umpire.NoCapture {
		r.Announcement = ksapi.CaptureDone
		r.CaptureSquare = strp(a.Capture.Square.String())
		r.CapturedPiece = capturedPiece(a.Capture.Kind)
	}
	if a.Drop != chess.NoPieceType {
		r.DroppedPiece = strp(strings.ToUpper(a.Drop.String()))
	}
	if a.EnPassant {
		r.EnPassant = new(true)
	}
	if a.Promotion {
		r.Promotion = new(true)
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
		end, winner := siteEnding(a.Ending, a.Mover, a.Result)
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
	if a.Ending != umpire.NotOver {
		return r
	}
	switch a.PawnNews {
	case umpire.PawnCount:
		if a.PawnTries >= 0 {
			n := a.PawnTries
			r.NextTurnPawnTries = &n
		}
	case umpire.PawnHas:
		has := a.HasPawnCapture
		r.NextTurnHasPawnCapture = &has
	case umpire.PawnSquares:
		r.NextTurnPawnTrySquares = trySquares(a.TrySquares)
	}
	return r
}

// entry is what viewer's scoresheet shows of answer a, as ks-backend's
// state projection words it (prompt "Move attempt" or "Opponent move",
// "Ask any pawn captures" or "Opponent asked any pawn captures"; the main
// announcement, then the special ones, the drop and the promotion); nil
// for what viewer does not hear: the opponent's illegal attempt in wild16,
// a refusal off the list (the site keeps no word of it).
func entry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	own := a.Mover == viewer
	switch {
	case !a.Legal && !own && !a.Public,
		!a.Legal && a.Verdict != umpire.IllegalMove && a.Verdict != umpire.HasAny && a.Verdict != umpire.NoAny:
		return nil
	}
	e := &ksapi.Entry{Kind: ksapi.EntryMove, Actor: ksapi.ActorOpponent, Prompt: ksapi.PromptOpponent, QuestionType: ksapi.QuestionCommon}
	if own {
		e.Actor, e.Prompt, e.MoveUCI = ksapi.ActorSelf, ksapi.PromptOwn, strp(umpire.MoveText(a.Attempt))
	}
	switch {
	case a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny:
		e.Kind, e.QuestionType, e.MoveUCI, e.Prompt = ksapi.EntryAskAny, ksapi.QuestionAskAny, nil, ksapi.PromptOpponentAskAny
		if own {
			e.Prompt = ksapi.PromptOwnAskAny
		}
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextTries}.String()} // "No pawn captures"
		if a.Verdict == umpire.HasAny {
			e.Messages = []string{ksapi.Text{Kind: ksapi.TextHasAny}.String()}
		}
	case !a.Legal:
		e.Kind = ksapi.EntryIllegal
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextIllegal}.String()}
	case a.Capture.Kind != umpire.NoCapture:
		e.Kind = ksapi.EntryCapture
		piece := ""
		if p := capturedPiece(a.Capture.Kind); p != nil {
			piece = *p
		}
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextCapture, Square: a.Capture.Square.String(), Piece: piece}.String()}
		if a.EnPassant { // english: "En passant capture at D6", on the destination
			e.Messages = []string{ksapi.Text{Kind: ksapi.TextEnPassant, Square: a.Capture.Square.String()}.String()}
		}
	default:
		e.Messages = []string{ksapi.Text{Kind: ksapi.TextMoveComplete}.String()}
	}
	if a.Legal {
		if a.Ending != umpire.NotOver {
			if t := endingText(a); t != "" {
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
		if a.Drop != chess.NoPieceType {
			e.Messages = append(e.Messages, ksapi.Text{Kind: ksapi.TextDropped, Piece: strings.ToUpper(a.Drop.String())}.String())
		}
		if a.Promotion {
			e.Messages = append(e.Messages, ksapi.Text{Kind: ksapi.TextPromotion}.String())
		}
	}
	e.Message = e.Prompt + " — " + strings.Join(e.Messages, " · ")
	return e
}

// statusText is the next mover's pawn news after a legal move not ending
// the game, as the site words it ("" for none): "2 pawn tries" (wild16),
// "Has pawn capture" (cincinnati), "Pawn tries from E4, G4" (rand), or
// "No pawn captures".
func statusText(a umpire.Answer) string {
	if !a.Legal || a.Ending != umpire.NotOver {
		return ""
	}
	switch a.PawnNews {
	case umpire.PawnCount:
		if a.PawnTries >= 0 {
			return ksapi.Text{Kind: ksapi.TextTries, Tries: a.PawnTries}.String()
		}
	case umpire.PawnHas:
		if a.HasPawnCapture {
			return ksapi.Text{Kind: ksapi.TextHasPawnCapture}.String()
		}
		return ksapi.Text{Kind: ksapi.TextTries}.String()
	case umpire.PawnSquares:
		if a.TrySquares == 0 {
			return ksapi.Text{Kind: ksapi.TextTries}.String()
		}
		from := trySquares(a.TrySquares)
		for i := range from {
			from[i] = strings.ToUpper(from[i])
		}
		return ksapi.Text{Kind: ksapi.TextTriesFrom, From: from}.String()
	}
	return ""
}

// statusEntry is the pawn news that follows a legal move not ending the
// game, in the column of the side to move next.
func statusEntry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	msg := statusText(a)
	if msg == "" {
		return nil
	}
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

// Reserve is the reserve summary of pockets (crazykrieg; empty in the
// other variants).
func Reserve(p umpire.Pockets) *ksapi.ReserveSummary {
	side := func(c chess.Color) ksapi.Reserve {
		n := func(pt chess.PieceType) int { return int(p[c][pt]) }
		return ksapi.Reserve{Pawns: n(chess.Pawn), Knights: n(chess.Knight), Bishops: n(chess.Bishop), Rooks: n(chess.Rook), Queens: n(chess.Queen)}
	}
	return &ksapi.ReserveSummary{White: side(chess.White), Black: side(chess.Black)}
}
