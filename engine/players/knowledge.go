package players

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Knowledge is what a player learns from the referee during a game about its
// own side and the current turn: its men, the pawn tries and checks announced
// to it, the attempts refused this turn, and where the last captures happened.
// The simple kinds decide from it alone; a search keeps it beside its belief.
type Knowledge struct {
	Board OwnBoard
	// Tries is the pawn-try count announced to us for this turn.
	Tries int
	// Checks holds the checks on our king announced after the opponent's move.
	Checks [2]chess.CheckKind
	// Refused lists our attempts refused this turn.
	Refused chess.MoveList
	// PrevRefused lists our attempts refused in our previous turn.
	PrevRefused chess.MoveList
	// TheirCapture is where the opponent captured with its last move, or
	// NoSquare: the square to recapture on.
	TheirCapture chess.Square
	// OurCapture is where our last move captured, or NoSquare.
	OurCapture chess.Square
	// OurCheck holds the checks our last move gave.
	OurCheck [2]chess.CheckKind
	// Plies counts the legal moves of the game so far (both sides).
	Plies int
	// pending is the attempt awaiting the referee's answer.
	pending chess.Move
}

// Reset starts a game as colour us.
func (k *Knowledge) Reset(us chess.Color) {
	*k = Knowledge{TheirCapture: chess.NoSquare, OurCapture: chess.NoSquare}
	k.Board.Reset(us) // no pawn can capture in the initial position: Tries is 0
}

// ResetFrom starts a game as colour us from the known position pos: our men
// as they stand there and, when we are to move, the pawn tries and checks the
// position holds (the referee announces nothing before the first move).
func (k *Knowledge) ResetFrom(us chess.Color, pos *chess.Position) {
	*k = Knowledge{TheirCapture: chess.NoSquare, OurCapture: chess.NoSquare}
	k.Board.ResetFrom(us, pos)
	if pos.Side() == us {
		k.Tries = pos.PawnTries()
		k.Checks[0], k.Checks[1] = pos.CheckKinds()
	}
}

// InCheck reports whether the referee announced a check on our king.
func (k *Knowledge) InCheck() bool { return k.Checks[0] != chess.NoCheck }

// Asked records the attempt just proposed, so that its answer can be applied.
func (k *Knowledge) Asked(m chess.Move) { k.pending = m }

// Askable lists the attempts worth asking now.
func (k *Knowledge) Askable(out *chess.MoveList) {
	k.Board.Askable(k.Tries, k.Refused.Slice(), out)
}

// Hear applies one answer heard from our side.
func (k *Knowledge) Hear(v umpire.View) {
	switch {
	case !v.Heard:
	case v.Own && v.Illegal:
		if !k.Refused.Contains(k.pending) && k.Refused.N < chess.MaxMoves {
			k.Refused.Add(k.pending)
		}
	case v.Own:
		m := v.Move
		if m == chess.NullMove {
			m = k.pending
		}
		k.Board.Play(m)
		k.PrevRefused = k.Refused
		k.Refused.N = 0
		k.Checks = [2]chess.CheckKind{}
		k.OurCapture = chess.NoSquare
		if v.Capture.Kind != umpire.NoCapture {
			k.OurCapture = v.Capture.Square
		}
		k.OurCheck = v.Checks
		k.Tries = 0
		k.Plies++
	default: // the opponent's move
		k.TheirCapture = chess.NoSquare
		if v.Capture.Kind != umpire.NoCapture {
			k.Board.Lose(v.Capture.Square)
			k.TheirCapture = v.Capture.Square
		}
		k.Checks = v.Checks
		k.Tries = max(v.PawnTries, 0)
		k.Plies++
	}
}
