package selfplay

import (
	"math/rand/v2"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Heard is what a player was told about the opponent's last move, plus
// what it remembers of its own: all a Kriegspiel player knows beyond its own
// men.
type Heard struct {
	// Lost is the square where the opponent just captured one of our men, or
	// chess.NoSquare.
	Lost chess.Square
	// Checks are the check kinds announced on our king (NoCheck-padded).
	Checks [2]chess.CheckKind
	// Tries is our pawn-try count.
	Tries int
	// Took is the square where our own last move captured, or chess.NoSquare:
	// the man that took there is likely to be taken back, so it is worth
	// supporting.
	Took chess.Square
	// LastFrom and LastTo are our own last move, to avoid shuffling back.
	LastFrom, LastTo chess.Square
}

// Policy picks attempts the way Kriegspiel players are observed to play
// (paper, section 5.2 and the simulations of approach A): take back at once
// on the square where a man was lost, exploit announced pawn tries, answer a
// check by moving the king or acting on the announced line, develop knights
// and bishops and castle early, push centre pawns, move pieces to squares
// their own men protect, push passed-on pawns toward promotion (to a queen),
// probe with long-range pieces later, and keep the king home until the
// endgame. Weights multiply; one attempt is drawn in proportion to them,
// and with chance Noise uniformly instead, so play stays varied. It sees
// only its own men (read from the true position by colour) and what it
// heard; never the opponent's men.
type Policy struct {
	// Noise is the chance of a uniform draw among the askable attempts.
	Noise float64
}

// DefaultPolicy is the policy the default model's games are played with.
func DefaultPolicy() Policy { return Policy{Noise: 0.1} }

// pieceValue is the usual material scale (the king 0: it is never traded).
func pieceValue(pt chess.PieceType) float64 {
	switch pt {
	case chess.Pawn:
		return 1
	case chess.Knight, chess.Bishop:
		return 3
	case chess.Rook:
		return 5
	case chess.Queen:
		return 9
	}
	return 0
}

// Pick draws one of the askable attempts of side in pos (only side's own men
// are read) given what the player heard. askable must not be empty; weights
// is scratch space of at least askable.N entries.
func (p Policy) Pick(rng *rand.Rand, pos *chess.Position, side chess.Color, h *Heard, askable *chess.MoveList, weights []float64) chess.Move {
	if rng.Float64() < p.Noise {
		return askable.Moves[rng.IntN(askable.N)]
	}
	total := 0.0
	for i, m := range askable.Moves[:askable.N] {
		w := p.weight(pos, side, h, m)
		weights[i] = w
		total += w
	}
	x := rng.Float64() * total
	for i := range askable.N {
		x -= weights[i]
		if x < 0 {
			return askable.Moves[i]
		}
	}
	return askable.Moves[askable.N-1]
}

func (p Policy) weight(pos *chess.Position, side chess.Color, h *Heard, m chess.Move) float64 {
	from, to := m.From(), m.To()
	pt := pos.PieceAt(from).Type()
	own := pos.ByColor(side)
	king := pos.KingSquare(side)
	move := pos.FullmoveNumber()
	relRank := to.Rank()
	fromRel := from.Rank()
	if side == chess.Black {
		relRank, fromRel = 7-relRank, 7-fromRel
	}
	pieces := (own &^ pos.Pieces(side, chess.Pawn) &^ pos.Pieces(side, chess.King)).Count()
	endgame := pieces <= 2
	// Squares our own men protect, judged with our men only (all we know).
	ownOcc := own
	protected := chess.Bitboard(0)
	for bb := own &^ from.Bit(); bb != 0; {
		s := bb.PopFirst()
		protected |= chess.Attacks(side, pos.PieceAt(s).Type(), s, ownOcc)
	}

	w := 1.0
	isPawnDiag := pt == chess.Pawn && from.File() != to.File()
	isCastle := pt == chess.King && (int(to.File())-int(from.File()) == 2 || int(from.File())-int(to.File()) == 2)

	// Promotions: queen, almost never anything else.
	if promo := m.Promotion(); promo != chess.NoPieceType {
		if promo == chess.Queen {
			w *= 30
		} else {
			w *= 0.02
		}
	}
	// In check: the king steps away or something acts on the announced line.
	if h.Checks[0] != chess.NoCheck {
		switch {
		case pt == chess.King && !isCastle:
			w *= 6
		case onCheckLine(king, to, h.Checks):
			w *= 10
		default:
			w *= 0.1 // almost surely illegal; a player would not bother
		}
		return w
	}
	// Take back where we just lost a man, cheapest man first.
	if h.Lost != chess.NoSquare && to == h.Lost {
		w *= 60 / (1 + pieceValue(pt)/3)
		if pt == chess.King {
			w *= 0.3
		}
	}
	// Announced pawn tries: try the captures.
	if isPawnDiag {
		if h.Tries > 0 {
			w *= 25
		} else {
			w *= 0.01 // refused for sure unless en passant; not askable anyway
		}
	}
	// Support the man that just captured: it is likely to be taken back.
	if h.Took != chess.NoSquare && pt != chess.King && chess.Attacks(side, pt, to, ownOcc&^from.Bit()).Has(h.Took) {
		w *= 3
	}
	switch pt {
	case chess.Pawn:
		switch {
		case move <= 10 && (to.File() >= 2 && to.File() <= 5):
			w *= 3 // centre pawns in the opening
		case move <= 10:
			w *= 0.7
		default:
			w *= 1.5 // pawns are the attacking force of Kriegspiel
		}
		if relRank >= 5 {
			w *= 2.5 // close to promotion
		}
	case chess.Knight, chess.Bishop:
		if fromRel == 0 && move <= 15 {
			w *= 4 // develop
		}
		if relRank == 0 {
			w *= 0.3 // undeveloping
		}
	case chess.Queen:
		if move <= 8 {
			w *= 0.3
		}
	case chess.Rook:
		if move <= 10 && !isCastle {
			w *= 0.5
		}
	case chess.King:
		switch {
		case isCastle:
			w *= 12
		case endgame:
			w *= 2 // the king is a fighting piece when few men are left
		default:
			w *= 0.15 // keep it home
		}
	}
	if pt != chess.Pawn && pt != chess.King {
		if protected.Has(to) {
			w *= 2.5 // humans keep their men protected
		} else if relRank >= 4 {
			w *= 0.4 * 9 / (pieceValue(pt) + 6) // an unprotected raid, worse for big pieces
		}
		if (pt == chess.Queen || pt == chess.Bishop || pt == chess.Rook) && move > 10 && relRank >= 5 {
			w *= 1.5 // probe the enemy camp with long moves
		}
	}
	if from == h.LastTo && to == h.LastFrom {
		w *= 0.2 // do not shuffle back and forth
	}
	return w
}

// onCheckLine reports whether a man arriving on to could capture or block
// a check of one of the announced kinds on the king.
func onCheckLine(king, to chess.Square, checks [2]chess.CheckKind) bool {
	for _, k := range checks {
		if k == chess.NoCheck {
			continue
		}
		if k == chess.CheckKnight {
			if chess.KnightAttacks(king).Has(to) {
				return true
			}
			continue
		}
		if chess.Line(king, to) == 0 || to == king {
			continue
		}
		if chess.ClassifyCheck(king, to) == k {
			return true
		}
	}
	return false
}

// heardFrom updates what side knows after an answer of the umpire.
func heardFrom(h *Heard, a *umpire.Answer, side chess.Color) {
	if a.Mover == side {
		h.LastFrom, h.LastTo = a.Attempt.From(), a.Attempt.To()
		h.Took = chess.NoSquare
		if a.Capture.Kind != umpire.NoCapture {
			h.Took = a.Attempt.To()
		}
		h.Lost, h.Checks = chess.NoSquare, [2]chess.CheckKind{}
		return
	}
	h.Lost = chess.NoSquare
	if a.Capture.Kind != umpire.NoCapture {
		h.Lost = a.Capture.Square
	}
	h.Checks = a.Checks
	h.Tries = a.PawnTries
}
