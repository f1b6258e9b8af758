package chess

import "fmt"

// Move is an attempt or a move as the player names it: from, to and an optional
// promotion piece, exactly what UCI notation carries. Castling is the king's
// two-square move; en passant is the pawn's diagonal step onto the en passant
// square. The position decides what kind of move it is, so the same value serves
// as a Kriegspiel attempt before the referee has judged it.
//
// Layout: bits 0-5 from, 6-11 to, 12-14 promotion PieceType.
type Move uint16

// NullMove is the zero Move; it is never a legal move (from == to).
const NullMove Move = 0

// NewMove builds a move; promo is NoPieceType unless a pawn promotes.
func NewMove(from, to Square, promo PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(promo)<<12
}

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the promotion piece type, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 12 & 7) }

// String returns the UCI form, e.g. "e2e4" or "e7e8q"; "0000" for NullMove.
func (m Move) String() string {
	if m == NullMove {
		return "0000"
	}
	var buf [5]byte
	return string(m.AppendUCI(buf[:0]))
}

// AppendUCI appends the UCI form of m to dst without allocating.
func (m Move) AppendUCI(dst []byte) []byte {
	f, t := m.From(), m.To()
	dst = append(dst, 'a'+byte(f.File()), '1'+byte(f.Rank()), 'a'+byte(t.File()), '1'+byte(t.Rank()))
	if p := m.Promotion(); p != NoPieceType {
		dst = append(dst, p.Letter())
	}
	return dst
}

// ParseUCI reads a move in UCI (coordinate) notation: "e2e4", "e7e8q", "e1g1".
// Upper-case promotion letters are accepted. It checks syntax only, not legality.
func ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, fmt.Errorf("chess: uci move %q: want 4 or 5 characters", s)
	}
	from, ok1 := ParseSquare(s[0:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NullMove, fmt.Errorf("chess: uci move %q: bad square", s)
	}
	if from == to {
		return NullMove, fmt.Errorf("chess: uci move %q: from and to are the same square", s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] | 0x20 {
		case 'q':
			promo = Queen
		case 'r':
			promo = Rook
		case 'b':
			promo = Bishop
		case 'n':
			promo = Knight
		default:
			return NullMove, fmt.Errorf("chess: uci move %q: bad promotion piece %q", s, s[4])
		}
		if !(from.Rank() == 6 && to.Rank() == 7) && !(from.Rank() == 1 && to.Rank() == 0) {
			return NullMove, fmt.Errorf("chess: uci move %q: promotion must go from the 7th to the 8th rank or the 2nd to the 1st", s)
		}
	}
	return NewMove(from, to, promo), nil
}

// MaxMoves bounds the number of legal moves in any chess position (218 is the
// known maximum) and of askable Kriegspiel attempts.
const MaxMoves = 256

// MoveList is a fixed-capacity list of moves that lives on the stack.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Add appends m.
func (l *MoveList) Add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Slice returns the moves held.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}

// CastleRook returns where the rook goes from and to when a king's step
// from from to to castles: two files along its rank (ok false otherwise).
// The one statement of the rule for every package that moves men.
func CastleRook(from, to Square) (rookFrom, rookTo Square, ok bool) {
	if from.Rank() != to.Rank() {
		return NoSquare, NoSquare, false
	}
	switch to.File() - from.File() {
	case 2:
		return from + 3, from + 1, true
	case -2:
		return from - 4, from - 1, true
	}
	return NoSquare, NoSquare, false
}

// Castles reports whether a king's step from from to to castles.
func Castles(from, to Square) bool {
	_, _, ok := CastleRook(from, to)
	return ok
}
