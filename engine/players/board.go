package players

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// OwnBoard is what a Kriegspiel player knows for certain: where its own men
// stand and which castling rights it keeps. The opponent's men are unknown.
type OwnBoard struct {
	us     chess.Color
	men    [64]chess.PieceType
	own    chess.Bitboard
	castle chess.CastleRights // ours only
}

// Reset sets up colour us's men on their initial squares.
func (b *OwnBoard) Reset(us chess.Color) {
	*b = OwnBoard{us: us}
	back := [8]chess.PieceType{chess.Rook, chess.Knight, chess.Bishop, chess.Queen, chess.King, chess.Bishop, chess.Knight, chess.Rook}
	first, pawns := 0, 1
	b.castle = chess.WhiteKingside | chess.WhiteQueenside
	if us == chess.Black {
		first, pawns = 7, 6
		b.castle = chess.BlackKingside | chess.BlackQueenside
	}
	for f := range 8 {
		b.put(chess.NewSquare(f, first), back[f])
		b.put(chess.NewSquare(f, pawns), chess.Pawn)
	}
}

// ResetFrom sets up colour us's men as they stand in pos, with our castling
// rights there.
func (b *OwnBoard) ResetFrom(us chess.Color, pos *chess.Position) {
	*b = OwnBoard{us: us}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		for s := pos.Pieces(us, pt); s != 0; {
			b.put(s.PopFirst(), pt)
		}
	}
	ours := chess.WhiteKingside | chess.WhiteQueenside
	if us == chess.Black {
		ours = chess.BlackKingside | chess.BlackQueenside
	}
	b.castle = pos.Castling() & ours
}

// Color returns the side whose men the board holds.
func (b *OwnBoard) Color() chess.Color { return b.us }

// Men returns the squares of our men.
func (b *OwnBoard) Men() chess.Bitboard { return b.own }

// At returns the type of our man on s, or NoPieceType.
func (b *OwnBoard) At(s chess.Square) chess.PieceType { return b.men[s] }

// Pieces returns the squares of our men of type pt.
func (b *OwnBoard) Pieces(pt chess.PieceType) chess.Bitboard {
	var out chess.Bitboard
	for s := b.own; s != 0; {
		sq := s.PopFirst()
		if b.men[sq] == pt {
			out |= sq.Bit()
		}
	}
	return out
}

// King returns our king's square.
func (b *OwnBoard) King() chess.Square { return b.Pieces(chess.King).First() }

// Castling returns our castling rights.
func (b *OwnBoard) Castling() chess.CastleRights { return b.castle }

func (b *OwnBoard) put(s chess.Square, pt chess.PieceType) {
	b.men[s] = pt
	b.own |= s.Bit()
}

func (b *OwnBoard) take(s chess.Square) chess.PieceType {
	pt := b.men[s]
	b.men[s] = chess.NoPieceType
	b.own &^= s.Bit()
	return pt
}

// Play moves our man for our accepted move m (castling moves the rook too,
// a promotion changes the man).
func (b *OwnBoard) Play(m chess.Move) {
	from, to := m.From(), m.To()
	pt := b.take(from)
	if pr := m.Promotion(); pr != chess.NoPieceType && pt == chess.Pawn {
		pt = pr
	}
	b.put(to, pt)
	if pt == chess.King {
		if rookFrom, rookTo, ok := chess.CastleRook(from, to); ok {
			b.put(rookTo, b.take(rookFrom))
		}
		b.castle = chess.NoCastling
	}
	b.dropRights(from)
}

// Drop puts our man of the drop m on its square (crazykrieg,
// umpire.DropMove).
func (b *OwnBoard) Drop(m chess.Move) { b.put(m.To(), m.Promotion()) }

// Lose removes our man captured on s (for en passant, the pawn's square).
func (b *OwnBoard) Lose(s chess.Square) {
	b.take(s)
	b.dropRights(s)
}

// dropRights clears the castling right of a rook that left or was taken on
// its corner.
func (b *OwnBoard) dropRights(s chess.Square) {
	switch s {
	case chess.H1:
		b.castle &^= chess.WhiteKingside
	case chess.A1:
		b.castle &^= chess.WhiteQueenside
	case chess.H8:
		b.castle &^= chess.BlackKingside
	case chess.A8:
		b.castle &^= chess.BlackQueenside
	}
}

// Askable lists into out the attempts our side may ask with tries pawn tries
// announced, minus refused: the umpire's rule (umpire.Men) over our own men
// alone, with every promotion piece. The one difference from the umpire's
// list: we cannot know the opponent's en passant chance, so with no pawn
// tries the en passant step, which could only be refused, is not listed.
func (b *OwnBoard) Askable(tries int, refused []chess.Move, out *chess.MoveList) {
	b.AskableFrom(tries, 0, refused, out)
}

// AskableFrom is Askable with the diagonal tries limited to the pawns on
// tryFrom when it is not 0 (the squares rand announces).
func (b *OwnBoard) AskableFrom(tries int, tryFrom chess.Bitboard, refused []chess.Move, out *chess.MoveList) {
	m := umpire.Men{Color: b.us, Own: b.own, Types: &b.men, Castling: b.castle, EnPassant: chess.NoSquare, Tries: tries, TryFrom: tryFrom}
	m.Askable(umpire.AllPromotions, refused, out)
}
