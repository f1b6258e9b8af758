package chess

// CheckOrigins returns a superset of the squares of the side to move's men
// that have a legal move checking the king on king: men on a line through
// king (a discovered check, or a direct one along it), knights, bishops,
// rooks and queens that reach a square attacking it, pawns that push or
// capture onto one, pawns that promote or may take en passant, and the king
// while castling rights remain (the rook may check). A mate-in-one search
// generates only these men's moves (GenerateLegalFrom): a mate is a check,
// and most of the side's moves cannot be one.
func (p *Position) CheckOrigins(king Square) Bitboard {
	us := p.side
	own := p.byColor[us]
	occ := p.byType[0]
	// On a line through king: any man of ours may discover a check, a
	// slider may give one along it; the king itself only discovers.
	origins := own & (RookAttacks(king, 0) | BishopAttacks(king, 0))
	for b := p.byType[Knight] & own &^ origins; b != 0; {
		s := b.PopFirst()
		if tab.knight[s]&tab.knight[king] != 0 {
			origins |= s.Bit()
		}
	}
	// Off those lines a slider does not stand between king and a square
	// that attacks it, so the rays from king with the board's men are the
	// ones after its move.
	diagonal, straight := BishopAttacks(king, occ), RookAttacks(king, occ)
	for b := p.byType[Bishop] & own &^ origins; b != 0; {
		s := b.PopFirst()
		if BishopAttacks(s, occ)&diagonal != 0 {
			origins |= s.Bit()
		}
	}
	for b := p.byType[Rook] & own &^ origins; b != 0; {
		s := b.PopFirst()
		if RookAttacks(s, occ)&straight != 0 {
			origins |= s.Bit()
		}
	}
	// A queen reaches either kind of line's square along either kind.
	for b := p.byType[Queen] & own &^ origins; b != 0; {
		s := b.PopFirst()
		if QueenAttacks(s, occ)&(diagonal|straight) != 0 {
			origins |= s.Bit()
		}
	}
	pawns := p.byType[Pawn] & own
	if pawns != 0 {
		// The squares from which a pawn of ours attacks king, and the
		// squares a pawn steps or captures onto them from.
		targets := tab.pawn[us.Other()][king]
		var from Bitboard
		for t := targets; t != 0; {
			from |= tab.pawn[us.Other()][t.PopFirst()]
		}
		seventh := Rank7
		if us == White {
			from |= targets>>8 | targets>>16
		} else {
			from |= targets<<8 | targets<<16
			seventh = Rank2
		}
		if p.ep != NoSquare {
			from |= pawns
		}
		origins |= pawns & (from | seventh)
	}
	if p.castle != 0 {
		origins |= p.byType[King] & own
	}
	return origins
}
