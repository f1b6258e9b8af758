package chess

import "math/bits"

// Color is the side a man belongs to.
type Color uint8

// The two colours. White moves first.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Letter returns 'w' or 'b', as in FEN.
func (c Color) Letter() byte {
	if c == White {
		return 'w'
	}
	return 'b'
}

// PieceType is a kind of man without its colour.
type PieceType uint8

// Piece types. NoPieceType marks an empty square or "no promotion".
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// pieceLetters maps a PieceType to its lower-case letter.
const pieceLetters = " pnbrqk"

// Letter returns the lower-case letter of the piece type ('p', 'n', ...), or ' ' for none.
func (pt PieceType) Letter() byte { return pieceLetters[pt%7] }

// String returns the lower-case name of the piece type.
func (pt PieceType) String() string {
	switch pt {
	case Pawn:
		return "pawn"
	case Knight:
		return "knight"
	case Bishop:
		return "bishop"
	case Rook:
		return "rook"
	case Queen:
		return "queen"
	case King:
		return "king"
	}
	return "none"
}

// Piece is a coloured man: colour<<3 | type. NoPiece is the empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0

// MakePiece combines a colour and a type.
func MakePiece(c Color, pt PieceType) Piece { return Piece(c)<<3 | Piece(pt) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Letter returns the FEN letter: upper case for White, lower case for Black, '.' for none.
func (p Piece) Letter() byte {
	if p == NoPiece {
		return '.'
	}
	l := p.Type().Letter()
	if p.Color() == White {
		l -= 'a' - 'A'
	}
	return l
}

// Square is a board square, a1 = 0, b1 = 1, ..., h8 = 63.
type Square uint8

// NoSquare marks an absent square (for example no en passant square).
const NoSquare Square = 64

// Named squares used by castling and tests.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
)

// Named back-rank squares for Black.
const (
	A8 Square = iota + 56
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare returns the square on file f (0 = a) and rank r (0 = rank 1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0..7 for files a..h.
func (s Square) File() int { return int(s & 7) }

// Rank returns 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s >> 3) }

// String returns the algebraic name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare reads an algebraic square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// Bitboard is a set of squares, bit i for square i.
type Bitboard uint64

// Bit returns the bitboard holding only s.
func (s Square) Bit() Bitboard { return 1 << s }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b>>s&1 != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopFirst removes and returns the lowest square of *b; *b must not be empty.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// More reports whether b holds more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// Rank and file masks.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56

	// LightSquares holds the light squares (h1 is light, a1 is dark).
	LightSquares Bitboard = 0x55AA55AA55AA55AA
	// DarkSquares holds the dark squares.
	DarkSquares Bitboard = ^LightSquares
)

// FileMask returns the mask of file f (0 = a).
func FileMask(f int) Bitboard { return FileA << f }

// RankMask returns the mask of rank r (0 = rank 1).
func RankMask(r int) Bitboard { return Rank1 << (8 * r) }
