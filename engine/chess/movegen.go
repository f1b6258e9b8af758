package chess

// GenerateLegal appends every legal move of the side to move to l.
func (p *Position) GenerateLegal(l *MoveList) { p.generate(l, ^Bitboard(0)) }

// GenerateLegalFrom appends the legal moves of the men on the squares in from.
func (p *Position) GenerateLegalFrom(l *MoveList, from Bitboard) { p.generate(l, from) }

// IsLegal reports whether m is a legal move in p. Any value is accepted: an
// attempt that makes no sense on the board (wrong piece, wrong geometry, missing
// or spurious promotion letter) is simply not legal.
func (p *Position) IsLegal(m Move) bool {
	from := m.From()
	if p.board[from] == NoPiece || p.board[from].Color() != p.side {
		return false
	}
	var l MoveList
	p.generate(&l, from.Bit())
	return l.Contains(m)
}

// HasLegalMove reports whether the side to move has any legal move. Out of
// check, a man other than the king that is not pinned may make any move its
// kind allows (en passant aside), and in check the king's steps come first:
// one such move answers at once, and only positions without one pay for the
// full generation. The mate counts ask it for every root attempt on
// every board, where it was nearly half their time.
func (p *Position) HasLegalMove() bool {
	if p.hasFreeMove() {
		return true
	}
	var l MoveList
	p.generate(&l, ^Bitboard(0))
	return l.N > 0
}

// hasFreeMove reports whether the side to move has a move found cheaply: in
// check, a king's step; out of check, a move of a man other than its king and
// not pinned: a knight's, a slider's onto an empty or enemy square, a pawn's
// step onto an empty square or capture of an enemy man (each is legal).
// False says nothing: the caller generates.
func (p *Position) hasFreeMove() bool {
	us := p.side
	own := p.byColor[us]
	occ := p.byType[0]
	if p.InCheck() {
		// A mate-in-one search asks this of every check it finds.
		var l MoveList
		p.generate(&l, p.KingSquare(us).Bit())
		return l.N > 0
	}
	free := own &^ p.Pinned(us)
	for b := p.byType[Knight] & free; b != 0; {
		if tab.knight[b.PopFirst()]&^own != 0 {
			return true
		}
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & free; b != 0; {
		if BishopAttacks(b.PopFirst(), occ)&^own != 0 {
			return true
		}
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & free; b != 0; {
		if RookAttacks(b.PopFirst(), occ)&^own != 0 {
			return true
		}
	}
	pawns := p.byType[Pawn] & free
	steps := pawns << 8
	if us == Black {
		steps = pawns >> 8
	}
	if steps&^occ != 0 {
		return true
	}
	enemy := p.byColor[us.Other()]
	for b := pawns; b != 0; {
		if tab.pawn[us][b.PopFirst()]&enemy != 0 {
			return true
		}
	}
	return false
}

// Pinned returns colour c's men pinned to their own king.
func (p *Position) Pinned(c Color) Bitboard {
	ksq := p.KingSquare(c)
	enemy := p.byColor[c.Other()]
	occ := p.byType[0]
	snipers := ((RookAttacks(ksq, 0) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(ksq, 0) & (p.byType[Bishop] | p.byType[Queen]))) & enemy
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopFirst()
		b := tab.between[ksq][s] & occ
		if b != 0 && !b.More() {
			pinned |= b & p.byColor[c]
		}
	}
	return pinned
}

// addPawnMove adds a pawn move, expanded into the four promotions on the last rank.
func addPawnMove(l *MoveList, from, to Square) {
	if to >= A8 || to <= H1 {
		base := Move(from) | Move(to)<<6
		l.Moves[l.N] = base | Move(Queen)<<12
		l.Moves[l.N+1] = base | Move(Rook)<<12
		l.Moves[l.N+2] = base | Move(Bishop)<<12
		l.Moves[l.N+3] = base | Move(Knight)<<12
		l.N += 4
		return
	}
	l.Moves[l.N] = Move(from) | Move(to)<<6
	l.N++
}

// generate appends the legal moves of the men on fromMask.
func (p *Position) generate(l *MoveList, fromMask Bitboard) {
	us := p.side
	them := us.Other()
	occ := p.byType[0]
	own := p.byColor[us]
	enemy := p.byColor[them]
	ksq := p.KingSquare(us)
	checkers := p.AttackersTo(ksq, occ) & enemy

	if fromMask.Has(ksq) {
		occNoKing := occ ^ ksq.Bit()
		for t := tab.king[ksq] &^ own; t != 0; {
			to := t.PopFirst()
			if !p.attackedWith(to, them, occNoKing) {
				l.Moves[l.N] = Move(ksq) | Move(to)<<6
				l.N++
			}
		}
		if checkers == 0 && p.castle != 0 {
			p.genCastling(l, us, ksq, occ)
		}
	}
	if checkers.More() {
		return // double check: only the king may move
	}
	target := ^own
	if checkers != 0 {
		c := checkers.First()
		target &= tab.between[ksq][c] | c.Bit()
	}
	pinned := p.Pinned(us)

	for b := p.byType[Knight] & own &^ pinned & fromMask; b != 0; {
		s := b.PopFirst()
		for t := tab.knight[s] & target; t != 0; {
			l.Moves[l.N] = Move(s) | Move(t.PopFirst())<<6
			l.N++
		}
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & own & fromMask; b != 0; {
		s := b.PopFirst()
		t := BishopAttacks(s, occ) & target
		if pinned.Has(s) {
			t &= tab.line[ksq][s]
		}
		for t != 0 {
			l.Moves[l.N] = Move(s) | Move(t.PopFirst())<<6
			l.N++
		}
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & own & fromMask; b != 0; {
		s := b.PopFirst()
		t := RookAttacks(s, occ) & target
		if pinned.Has(s) {
			t &= tab.line[ksq][s]
		}
		for t != 0 {
			l.Moves[l.N] = Move(s) | Move(t.PopFirst())<<6
			l.N++
		}
	}

	pawns := p.byType[Pawn] & own & fromMask
	if pawns == 0 {
		return
	}
	empty := ^occ
	// Pawns step up the board for White, down for Black.
	up, startRank := 8, Rank2
	if us == Black {
		up, startRank = -8, Rank7
	}
	for b := pawns; b != 0; {
		s := b.PopFirst()
		allowed := target
		if pinned.Has(s) {
			allowed &= tab.line[ksq][s]
		}
		one := Square(int(s) + up)
		if empty.Has(one) {
			if allowed.Has(one) {
				addPawnMove(l, s, one)
			}
			if two := Square(int(one) + up); startRank.Has(s) && empty.Has(two) && allowed.Has(two) {
				l.Moves[l.N] = Move(s) | Move(two)<<6
				l.N++
			}
		}
		for t := tab.pawn[us][s] & enemy & allowed; t != 0; {
			addPawnMove(l, s, t.PopFirst())
		}
		if p.ep != NoSquare && tab.pawn[us][s].Has(p.ep) && p.epLegal(s, ksq, checkers) {
			l.Moves[l.N] = Move(s) | Move(p.ep)<<6
			l.N++
		}
	}
}

// epLegal decides an en passant capture by the pawn on s: it must answer any check
// (by taking the checking pawn or blocking on the en passant square) and must not
// expose the king along a line once both pawns have left their squares.
func (p *Position) epLegal(s, ksq Square, checkers Bitboard) bool {
	capsq := p.ep ^ 8
	if p.board[capsq] != MakePiece(p.side.Other(), Pawn) || p.board[p.ep] != NoPiece {
		return false
	}
	if checkers != 0 && checkers != capsq.Bit() && !tab.between[ksq][checkers.First()].Has(p.ep) {
		return false
	}
	occ := p.byType[0] ^ s.Bit() ^ capsq.Bit() | p.ep.Bit()
	enemy := p.byColor[p.side.Other()]
	if RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&enemy != 0 {
		return false
	}
	return BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&enemy == 0
}

// genCastling adds the castling moves; the king is known not to be in check.
func (p *Position) genCastling(l *MoveList, us Color, ksq Square, occ Bitboard) {
	them := us.Other()
	ks, qs := WhiteKingside, WhiteQueenside
	if us == Black {
		ks, qs = BlackKingside, BlackQueenside
	}
	if p.castle&ks != 0 && occ&(Bitboard(3)<<(ksq+1)) == 0 &&
		!p.attackedWith(ksq+1, them, occ) && !p.attackedWith(ksq+2, them, occ) {
		l.Moves[l.N] = Move(ksq) | Move(ksq+2)<<6
		l.N++
	}
	if p.castle&qs != 0 && occ&(Bitboard(7)<<(ksq-3)) == 0 &&
		!p.attackedWith(ksq-1, them, occ) && !p.attackedWith(ksq-2, them, occ) {
		l.Moves[l.N] = Move(ksq) | Move(ksq-2)<<6
		l.N++
	}
}
