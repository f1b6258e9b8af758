package search

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// men is our side's men by type, what attempt generation needs.
type men struct {
	us    chess.Color
	by    [chess.King + 1]chess.Bitboard // by[0] all
	at    [64]chess.PieceType
	tries int // pawn tries announced to us; negative: unknown
}

func (m *men) fromBelief(s *belief.State) {
	m.us = s.Color()
	m.by[0] = 0
	m.at = [64]chess.PieceType{}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		b := s.Own(pt)
		m.by[pt] = b
		m.by[0] |= b
		for x := b; x != 0; {
			m.at[x.PopFirst()] = pt
		}
	}
	m.tries, _ = s.PawnTries()
}

// play sets after to our men once attempt mv, a move or a drop, is played
// (castling's rook left where it stands: no caller needs it).
func (m *men) play(mv chess.Move, after *men) {
	from, to := mv.From(), mv.To()
	pt := m.at[from]
	*after = *m
	after.by[pt] &^= from.Bit()
	after.at[from] = chess.NoPieceType
	npt := pt
	switch {
	case umpire.IsDrop(mv):
		npt = mv.Promotion()
	case pt == chess.Pawn && mv.Promotion() != chess.NoPieceType:
		npt = mv.Promotion()
	}
	after.by[npt] |= to.Bit()
	after.at[to] = npt
	after.by[0] = m.by[0]&^from.Bit() | to.Bit()
}

// attacks is every square our men attack, through our own men only (the
// opponent's are unseen).
func (m *men) attacks() chess.Bitboard {
	var att chess.Bitboard
	for b := m.by[0]; b != 0; {
		sq := b.PopFirst()
		att |= chess.Attacks(m.us, m.at[sq], sq, m.by[0])
	}
	return att
}

// remove takes our man on sq off the board (a man the opponent may take).
func (m *men) remove(sq chess.Square) {
	m.by[m.at[sq]] &^= sq.Bit()
	m.by[0] &^= sq.Bit()
	m.at[sq] = chess.NoPieceType
}

func (m *men) fromPosition(p *chess.Position, us chess.Color) {
	m.us = us
	m.by[0] = 0
	m.at = [64]chess.PieceType{}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		b := p.Pieces(us, pt)
		m.by[pt] = b
		m.by[0] |= b
		for x := b; x != 0; {
			m.at[x.PopFirst()] = pt
		}
	}
	m.tries = -1
	if p.Side() == us {
		m.tries = p.PawnTries()
	}
}

// attempts lists the attempts worth asking below the root: the umpire's rule
// (umpire.Men) over our men, the opponent's men unseen, with pawn captures
// whenever pawn tries may be announced (tries ≠ 0, unknown included),
// promotions to a queen only and no castling or en passant step (the root's
// list, from the player, has them), minus refused.
func (m *men) attempts(refused []chess.Move, out *chess.MoveList) {
	u := umpire.Men{Color: m.us, Own: m.by[0], Types: &m.at, Castling: chess.NoCastling, EnPassant: chess.NoSquare, Tries: m.tries}
	u.Askable(umpire.PromoteQueen, refused, out)
}
