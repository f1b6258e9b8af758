package kep

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// refereeEvent passes one of the referee's answers, already checked against
// the game's phase, to the player as the umpire.View the umpire gives that
// side (umpire.Answer.For), so that the player hears in KEP exactly what it
// hears in kriegbot match. Lines that the game's variant cannot produce are
// logged and not passed on.
func (e *engine) refereeEvent(n int, c Line) {
	switch c.Kind {
	case Illegal:
		e.hear(e.refusal(n, c.Verdict)) // the turn goes on
		e.phase = ourTurn
	case Any:
		if !e.askingAny {
			e.log.Warn().Int("line", n).Msg("any: our attempt was not \"Any?\": ignored")
			return
		}
		e.hear(umpire.View{Heard: true, Own: true, Verdict: c.Verdict, PawnTries: -1}) // the turn goes on
		e.phase = ourTurn
	case Legal:
		if e.askingAny || e.pending == chess.NullMove { // "Any?", or a failed search found nothing to ask
			e.log.Warn().Int("line", n).Msg("legal for the null attempt: ignored")
			return
		}
		a := c.Heard
		if umpire.IsDrop(e.pending) && a.Drop == chess.NoPieceType {
			a.Drop = e.pending.Promotion() // the umpire tells the dropper too
		}
		if err := e.plausibleOurs(a); err != nil {
			e.log.Warn().Int("line", n).Msgf("legal: %v: ignored", err)
			return
		}
		e.hear(a.View(e.variant, true, e.pending)) // the turn is over
		e.plies++
		e.phase = theirTurn
	case Opponent:
		if err := e.plausibleTheirs(c.Heard); err != nil {
			e.log.Warn().Int("line", n).Msgf("opponent: %v: ignored", err)
			return
		}
		e.hear(c.Heard.View(e.variant, false, chess.NullMove))
		e.plies++
		e.phase = ourTurn
	case OpponentIllegal, OpponentAny:
		v := umpire.View{Heard: true, Illegal: true, PawnTries: -1}
		public := e.variant.PublicIllegal
		if c.Kind == OpponentAny {
			v = umpire.View{Heard: true, Verdict: c.Verdict, PawnTries: -1}
			public = e.variant.AskAny
		}
		if !public {
			e.log.Warn().Int("line", n).Msgf("%s: %s does not tell it: ignored", c.Kind, variantName(e.variant))
			return
		}
		e.hear(v) // the opponent's turn goes on
		if e.ponderGo != nil {
			e.game.Ponder(e.ponderGo.Nodes) // hearing it ended the ponder: on with it
		}
	}
}

// refusal is the view of our refused attempt in the words the driver gave:
// "Illegal move", or a refusal of an attempt off the askable list where the
// variant words it so (impossible, nonsense). A word the variant does not
// use is taken as "Illegal move" (logged): the attempt is refused either
// way, and an attempt off the list is illegal on the true board too. "Any?"
// refused is always impossible to ask: the umpire's only refusal of it.
func (e *engine) refusal(n int, w umpire.Verdict) umpire.View {
	if e.askingAny {
		return umpire.View{Heard: true, Own: true, Verdict: umpire.ImpossibleToAsk, PawnTries: -1}
	}
	v := umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1}
	ok := w == umpire.IllegalMove ||
		w == umpire.ImpossibleToAsk && (e.variant.OffList == w || e.variant.AskAny) || // AskAny: the obligation's word
		w == umpire.NonsenseMove && e.variant.OffList == w
	switch {
	case !ok:
		e.log.Warn().Int("line", n).Msgf("illegal %s: not a word of %s: taken as illegal", refusalWord(w), variantName(e.variant))
	case w != umpire.IllegalMove:
		v.Illegal, v.Verdict = false, w
	}
	return v
}

// refusalWord is the word after illegal for verdict w.
func refusalWord(w umpire.Verdict) string {
	for k, v := range refusalWords {
		if v == w {
			return k
		}
	}
	return w.String()
}

// plausibleOurs checks what a legal line announced against our attempt and
// our men: the players assume a real referee, and a driver's mistake must
// not reach them as an impossible event.
func (e *engine) plausibleOurs(a Announcement) error {
	if err := a.fits(e.variant); err != nil {
		return err
	}
	m := e.pending
	if umpire.IsDrop(m) {
		if a.Drop != m.Promotion() || a.Capture.Kind != umpire.NoCapture {
			return fmt.Errorf("a drop %s announced for our drop %s", a, umpire.MoveText(m))
		}
		return nil
	}
	if a.Drop != chess.NoPieceType {
		return fmt.Errorf("a drop announced for our move %v", m)
	}
	if a.Capture.Kind == umpire.NoCapture {
		return nil
	}
	from, to, sq := m.From(), m.To(), a.Capture.Square
	mover := e.know.Board.At(from)
	if a.Capture.Kind == umpire.PawnCaptured && (sq.Rank() == 0 || sq.Rank() == 7) && e.variant.Captures != umpire.CaptureExact {
		// An exact capture names a promoted man a pawn (crazykrieg).
		return fmt.Errorf("a pawn captured on %v, a last rank", sq)
	}
	pawnKind := a.Capture.Kind == umpire.PawnCaptured || a.Capture.Kind == umpire.ManCaptured
	switch {
	case mover == chess.King && chess.Castles(from, to):
		return fmt.Errorf("a capture by castling %v", m)
	case mover == chess.Pawn && to.File() == from.File():
		return fmt.Errorf("a capture by the pawn push %v", m)
	case a.EnPassant:
		if mover == chess.Pawn && sq == to && (to.Rank() == 5 || to.Rank() == 2) {
			return nil // english: en passant, on the destination
		}
		return fmt.Errorf("en passant on %v by %v", sq, m)
	case sq == to:
		return nil
	case mover == chess.Pawn && pawnKind && sq == chess.NewSquare(to.File(), from.Rank()):
		return nil // en passant
	}
	return fmt.Errorf("a capture on %v by %v", sq, m)
}

// plausibleTheirs checks what an opponent line announced against our men.
func (e *engine) plausibleTheirs(a Announcement) error {
	if err := a.fits(e.variant); err != nil {
		return err
	}
	if a.Capture.Kind == umpire.NoCapture {
		return nil
	}
	sq := players.CapturedSquare(umpire.View{Capture: a.Capture, EnPassant: a.EnPassant}, e.color.Other())
	pt := e.know.Board.At(sq)
	switch k := a.Capture.Kind; {
	case pt == chess.NoPieceType:
		return fmt.Errorf("a capture on %v, where we have no man", sq)
	case pt == chess.King:
		return fmt.Errorf("a capture of our king on %v", sq)
	case a.EnPassant && pt != chess.Pawn:
		return fmt.Errorf("en passant of our %v on %v", pt, sq)
	case k == umpire.ManCaptured:
	case k == umpire.PieceCaptured && pt == chess.Pawn, k == umpire.PawnCaptured && e.variant.Captures == umpire.CaptureTyped && pt != chess.Pawn:
		return fmt.Errorf("a %v captured on %v, where our man is a %v", k, sq, pt)
	case k >= umpire.KnightCaptured && exactType(k) != pt:
		// An exact pawn may be a promoted man of ours, whatever it is now.
		return fmt.Errorf("a %v captured on %v, where our man is a %v", k, sq, pt)
	}
	return nil
}

// exactType is the type of man an exact capture names (crazykrieg).
func exactType(k umpire.CaptureKind) chess.PieceType {
	return chess.Knight + chess.PieceType(k-umpire.KnightCaptured)
}
