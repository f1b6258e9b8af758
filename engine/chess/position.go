package chess

// CastleRights is a set of castling rights.
type CastleRights uint8

// Castling rights, one bit each.
const (
	WhiteKingside CastleRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside

	NoCastling  CastleRights = 0
	AllCastling              = WhiteKingside | WhiteQueenside | BlackKingside | BlackQueenside
)

// Position is a full chess position. It is a plain value of about 170 bytes:
// copy it to keep a position (copy-make), there are no pointers inside.
//
// The en passant square is set after every double pawn push, whether or not a
// capture is possible (the PGN-standard FEN convention, which the Kriegspiel
// rules for askable attempts depend on); the Zobrist key counts it only when an
// enemy pawn stands ready to capture.
type Position struct {
	byType   [7]Bitboard // index 0 holds all occupied squares
	byColor  [2]Bitboard
	board    [64]Piece
	hash     uint64
	side     Color
	castle   CastleRights
	ep       Square
	halfmove uint16
	fullmove uint16
}

// Side returns the colour to move.
func (p *Position) Side() Color { return p.side }

// Castling returns the castling rights.
func (p *Position) Castling() CastleRights { return p.castle }

// EnPassant returns the en passant square or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of half-moves since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the FEN move number (starts at 1, incremented after Black moves).
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash returns the Zobrist key of the position (pieces, side, castling, and en
// passant file when a capture there is possible).
func (p *Position) Hash() uint64 { return p.hash }

// PieceAt returns the man on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Occupied returns all occupied squares.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor returns the squares of colour c's men.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType returns the squares of all men of type pt, both colours.
func (p *Position) ByType(pt PieceType) Bitboard { return p.byType[pt] }

// Pieces returns the squares of colour c's men of type pt.
func (p *Position) Pieces(c Color, pt PieceType) Bitboard { return p.byType[pt] & p.byColor[c] }

// KingSquare returns the square of colour c's king.
func (p *Position) KingSquare(c Color) Square { return (p.byType[King] & p.byColor[c]).First() }

// put places pc on the empty square s, updating the key.
func (p *Position) put(pc Piece, s Square) {
	b := s.Bit()
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.hash ^= tab.zobristPiece[pc][s]
}

// remove clears the man on s, updating the key.
func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := s.Bit()
	p.board[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.hash ^= tab.zobristPiece[pc][s]
}

// AttackersTo returns the men of both colours attacking s given occupancy occ.
func (p *Position) AttackersTo(s Square, occ Bitboard) Bitboard {
	rq := p.byType[Rook] | p.byType[Queen]
	bq := p.byType[Bishop] | p.byType[Queen]
	return (tab.pawn[White][s] & p.byType[Pawn] & p.byColor[Black]) |
		(tab.pawn[Black][s] & p.byType[Pawn] & p.byColor[White]) |
		(tab.knight[s] & p.byType[Knight]) |
		(tab.king[s] & p.byType[King]) |
		(RookAttacks(s, occ) & rq) |
		(BishopAttacks(s, occ) & bq)
}

// IsAttacked reports whether colour by attacks s in the current position.
func (p *Position) IsAttacked(s Square, by Color) bool {
	return p.attackedWith(s, by, p.byType[0])
}

func (p *Position) attackedWith(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if tab.pawn[by.Other()][s]&p.byType[Pawn]&them != 0 ||
		tab.knight[s]&p.byType[Knight]&them != 0 ||
		tab.king[s]&p.byType[King]&them != 0 {
		return true
	}
	if RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0 {
		return true
	}
	return BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0
}

// AttackMap returns every square attacked by colour c (pawn captures, not pushes).
func (p *Position) AttackMap(c Color) Bitboard {
	occ := p.byType[0]
	us := p.byColor[c]
	var a Bitboard
	pawns := p.byType[Pawn] & us
	if c == White {
		a |= (pawns&^FileA)<<7 | (pawns&^FileH)<<9
	} else {
		a |= (pawns&^FileA)>>9 | (pawns&^FileH)>>7
	}
	for b := p.byType[Knight] & us; b != 0; {
		a |= tab.knight[b.PopFirst()]
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & us; b != 0; {
		a |= BishopAttacks(b.PopFirst(), occ)
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & us; b != 0; {
		a |= RookAttacks(b.PopFirst(), occ)
	}
	return a | tab.king[p.KingSquare(c)]
}

// Checkers returns the enemy men giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.AttackersTo(p.KingSquare(p.side), p.byType[0]) & p.byColor[p.side.Other()]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attackedWith(p.KingSquare(p.side), p.side.Other(), p.byType[0])
}

// epKey returns the key contribution of en passant square ep for the side to move
// (zero unless one of its pawns could capture there).
func (p *Position) epKey(ep Square) uint64 {
	if ep == NoSquare || tab.pawn[p.side.Other()][ep]&p.byType[Pawn]&p.byColor[p.side] == 0 {
		return 0
	}
	return tab.zobristEP[ep.File()]
}

// Make plays m, which must be legal in p (use IsLegal or a generated list).
// It changes p in place; copy p first to keep the old position (copy-make).
func (p *Position) Make(m Move) {
	from, to := m.From(), m.To()
	pc := p.board[from]
	pt := pc.Type()
	us := p.side
	captured := p.board[to]

	p.hash ^= p.epKey(p.ep) ^ tab.zobristCastle[p.castle]
	p.ep = NoSquare
	p.halfmove++
	if captured != NoPiece {
		p.remove(to)
		p.halfmove = 0
	}
	p.remove(from)
	switch pt {
	case Pawn:
		p.halfmove = 0
		switch {
		case to == from+16 || to+16 == from:
			p.ep = (from + to) / 2
		case captured == NoPiece && (from^to)&7 != 0:
			// A diagonal step onto an empty square is en passant.
			p.remove(to ^ 8)
		}
		if promo := m.Promotion(); promo != NoPieceType {
			pc = MakePiece(us, promo)
		}
	case King:
		if rookFrom, rookTo, ok := CastleRook(from, to); ok {
			p.remove(rookFrom)
			p.put(MakePiece(us, Rook), rookTo)
		}
	}
	p.put(pc, to)
	p.castle &= tab.castleMask[from] & tab.castleMask[to]
	if us == Black {
		p.fullmove++
	}
	p.side = us.Other()
	p.hash ^= tab.zobristSide ^ tab.zobristCastle[p.castle] ^ p.epKey(p.ep)
}

// Drop puts a man of type pt of the side to move on the empty square s and
// passes the turn (a crazyhouse drop): the en passant chance goes, the
// half-move clock runs on (a drop is neither capture nor pawn move), the
// castling rights stay. Like Make it checks nothing: the caller knows the
// drop is legal (s empty, no pawn on a back rank, our king not left in
// check). It allocates nothing.
func (p *Position) Drop(pt PieceType, s Square) {
	us := p.side
	p.hash ^= p.epKey(p.ep)
	p.ep = NoSquare
	p.halfmove++
	p.put(MakePiece(us, pt), s)
	if us == Black {
		p.fullmove++
	}
	p.side = us.Other()
	p.hash ^= tab.zobristSide
}

// MakeNull passes the turn without moving (for search heuristics); it clears en passant.
func (p *Position) MakeNull() {
	p.hash ^= p.epKey(p.ep)
	p.ep = NoSquare
	p.halfmove++
	if p.side == Black {
		p.fullmove++
	}
	p.side = p.side.Other()
	p.hash ^= tab.zobristSide
}

// IsCapture reports whether legal move m captures (en passant included).
func (p *Position) IsCapture(m Move) bool {
	return p.board[m.To()] != NoPiece || p.IsEnPassant(m)
}

// IsEnPassant reports whether m is an en passant capture in p.
func (p *Position) IsEnPassant(m Move) bool {
	return m.To() == p.ep && p.board[m.From()].Type() == Pawn && (m.From()^m.To())&7 != 0
}

// CapturedSquare returns where the man taken by m stands (the pawn's square for
// en passant), or NoSquare if m captures nothing.
func (p *Position) CapturedSquare(m Move) Square {
	if p.board[m.To()] != NoPiece {
		return m.To()
	}
	if p.IsEnPassant(m) {
		return m.To() ^ 8
	}
	return NoSquare
}

// computeHash rebuilds the key from scratch (used after FEN parsing and in tests).
func (p *Position) computeHash() uint64 {
	var h uint64
	for b := p.byType[0]; b != 0; {
		s := b.PopFirst()
		h ^= tab.zobristPiece[p.board[s]][s]
	}
	if p.side == Black {
		h ^= tab.zobristSide
	}
	return h ^ tab.zobristCastle[p.castle] ^ p.epKey(p.ep)
}
