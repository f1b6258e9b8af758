package replay

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// checkMen follows our men through a record's answers before anything is
// fed to a player: an answer that cannot belong to the game so far (our
// king or an empty square captured, our move from an empty square or onto
// our own man, as when two games were written into one record) is an
// error naming its line. The players trust what the referee said and are
// not made to check it on every move of a live game.
func checkMen(rec *Record) error {
	g := rec.Game
	var men players.OwnBoard
	if g.Setup != nil {
		men.ResetFrom(g.Us, g.Setup)
	} else {
		men.Reset(g.Us)
	}
	bad := func(line int, format string, args ...any) error {
		return &LineError{Name: rec.Name, Line: line, Err: fmt.Errorf("not one game: "+format, args...)}
	}
	for _, s := range rec.Steps {
		v := s.View
		if s.Kind != StepAnswer || !players.Moved(v) {
			continue
		}
		if !v.Own {
			if v.Capture.Kind == umpire.NoCapture {
				continue
			}
			sq := players.CapturedSquare(v, g.Us.Other())
			switch {
			case sq >= 64:
				return bad(s.Line, "a capture on no square")
			case men.At(sq) == chess.NoPieceType:
				return bad(s.Line, "the opponent captured on %s, where we had no man", sq)
			case men.At(sq) == chess.King:
				return bad(s.Line, "the opponent captured our king on %s", sq)
			}
			men.Lose(sq)
			continue
		}
		m := v.Move
		if umpire.IsDrop(m) {
			if men.Men().Has(m.To()) {
				return bad(s.Line, "our drop %s lands on our own man", umpire.MoveText(m))
			}
			men.Drop(m)
			continue
		}
		switch {
		case men.At(m.From()) == chess.NoPieceType:
			return bad(s.Line, "our move %s starts where we had no man", m)
		case m.From() == m.To() || men.Men().Has(m.To()):
			return bad(s.Line, "our move %s lands on our own man", m)
		}
		men.Play(m)
	}
	return nil
}
