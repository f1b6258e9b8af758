package chess

// The lookup tables below are computed once, when the program starts, by pure
// functions (the magic multipliers come from magics.go, the Zobrist keys from a
// fixed seed) and never written again: they are constants that happen to be too
// large to spell out in source.

// magicEntry finds the attack set of a slider from one square in a shared table.
type magicEntry struct {
	mask   Bitboard // relevant occupancy (edges excluded)
	magic  uint64
	shift  uint8
	offset uint32
}

// Sizes of the fancy-magic attack tables (sum over squares of 2^relevant bits).
const (
	rookTableSize   = 102400
	bishopTableSize = 5248
)

type tables struct {
	knight [64]Bitboard
	king   [64]Bitboard
	pawn   [2][64]Bitboard // squares a pawn of that colour attacks

	rookMagic   [64]magicEntry
	bishopMagic [64]magicEntry
	rookAtt     [rookTableSize]Bitboard
	bishopAtt   [bishopTableSize]Bitboard

	between [64][64]Bitboard // squares strictly between two aligned squares
	line    [64][64]Bitboard // the whole line through two aligned squares, edge to edge

	castleMask [64]CastleRights // rights kept when a move touches the square

	zobristPiece  [16][64]uint64
	zobristCastle [16]uint64
	zobristEP     [8]uint64
	zobristSide   uint64
}

var tab = newTables()

func newTables() *tables {
	t := new(tables)
	for s := Square(0); s < 64; s++ {
		b := s.Bit()
		t.knight[s] = stepAttacks(s, [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
		t.king[s] = stepAttacks(s, [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}})
		t.pawn[White][s] = (b &^ FileA << 7) | (b &^ FileH << 9)
		t.pawn[Black][s] = (b &^ FileA >> 9) | (b &^ FileH >> 7)
	}
	var off uint32
	for s := Square(0); s < 64; s++ {
		off = initMagic(&t.rookMagic[s], t.rookAtt[:], s, rookDirs, off, rookMagics[s])
	}
	off = 0
	for s := Square(0); s < 64; s++ {
		off = initMagic(&t.bishopMagic[s], t.bishopAtt[:], s, bishopDirs, off, bishopMagics[s])
	}
	rng := splitmix64(0x6b72696567737069) // "kriegspi"
	for a := Square(0); a < 64; a++ {
		for _, dirs := range [][][2]int{rookDirs, bishopDirs} {
			for _, d := range dirs {
				ray := slideAttacks(a, [][2]int{d}, 0)
				for r := ray; r != 0; {
					b := r.PopFirst()
					t.between[a][b] = ray & slideAttacks(b, [][2]int{{-d[0], -d[1]}}, 0)
					t.line[a][b] = ray | slideAttacks(a, [][2]int{{-d[0], -d[1]}}, 0) | a.Bit()
				}
			}
		}
	}
	for s := range t.castleMask {
		t.castleMask[s] = AllCastling
	}
	t.castleMask[E1] &^= WhiteKingside | WhiteQueenside
	t.castleMask[H1] &^= WhiteKingside
	t.castleMask[A1] &^= WhiteQueenside
	t.castleMask[E8] &^= BlackKingside | BlackQueenside
	t.castleMask[H8] &^= BlackKingside
	t.castleMask[A8] &^= BlackQueenside

	for p := range t.zobristPiece {
		for s := range t.zobristPiece[p] {
			if Piece(p).Type() != NoPieceType && Piece(p).Type() <= King {
				t.zobristPiece[p][s] = rng.next()
			}
		}
	}
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	for c := range t.zobristCastle {
		for i := range single {
			if c>>i&1 != 0 {
				t.zobristCastle[c] ^= single[i]
			}
		}
	}
	for f := range t.zobristEP {
		t.zobristEP[f] = rng.next()
	}
	t.zobristSide = rng.next()
	return t
}

var (
	rookDirs   = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func stepAttacks(s Square, steps [][2]int) Bitboard {
	var b Bitboard
	for _, d := range steps {
		f, r := s.File()+d[0], s.Rank()+d[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			b |= NewSquare(f, r).Bit()
		}
	}
	return b
}

// slideAttacks walks each direction until the edge or the first occupied square (included).
func slideAttacks(s Square, dirs [][2]int, occ Bitboard) Bitboard {
	var b Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := NewSquare(f, r)
			b |= sq.Bit()
			if occ.Has(sq) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return b
}

// relevantMask returns the occupancy bits that matter to a slider on s: its rays
// without the board edge squares.
func relevantMask(s Square, dirs [][2]int) Bitboard {
	edges := ((Rank1 | Rank8) &^ RankMask(s.Rank())) | ((FileA | FileH) &^ FileMask(s.File()))
	return slideAttacks(s, dirs, 0) &^ edges
}

// fillMagic stores the attack sets of square s at slot[index] for every subset
// of the relevant mask, and reports false on a harmful collision (the magic
// does not work for s).
func fillMagic(slot []Bitboard, s Square, dirs [][2]int, mask Bitboard, magic uint64) bool {
	n := mask.Count()
	shift := 64 - n
	var filled [4096]bool
	sub := Bitboard(0)
	for i := 0; i < 1<<n; i++ {
		att := slideAttacks(s, dirs, sub)
		idx := (uint64(sub) * magic) >> shift
		if filled[idx] && slot[idx] != att {
			return false
		}
		filled[idx], slot[idx] = true, att
		sub = (sub - mask) & mask // next subset (Carry-Rippler)
	}
	return true
}

// initMagic sets up square s with the magic multiplier kept in magics.go and
// fills its slice of the attack table. Should that multiplier not work (only
// while magics.go is being regenerated), it searches one instead, which is
// slow but correct. It returns the next free offset.
func initMagic(m *magicEntry, table []Bitboard, s Square, dirs [][2]int, off uint32, magic uint64) uint32 {
	m.mask = relevantMask(s, dirs)
	n := m.mask.Count()
	m.shift, m.offset, m.magic = uint8(64-n), off, magic
	slot := table[off : off+1<<n]
	if magic == 0 || !fillMagic(slot, s, dirs, m.mask, magic) {
		rng := splitmix64(uint64(s) + 1)
		m.magic = findMagic(s, dirs, &rng)
		fillMagic(slot, s, dirs, m.mask, m.magic)
	}
	return off + 1<<n
}

// findMagic searches, with a seeded generator, a multiplier that maps every
// relevant occupancy of s to its own attack set without harmful collisions.
// It is used by TestGenerateMagics to write magics.go, not at start-up.
func findMagic(s Square, dirs [][2]int, rng *splitmix64) uint64 {
	mask := relevantMask(s, dirs)
	slot := make([]Bitboard, 1<<mask.Count())
	for {
		// Sparse candidates: three draws in this order, ANDed.
		a, b, c := rng.next(), rng.next(), rng.next()
		magic := a & b & c
		if Bitboard((uint64(mask)*magic)>>56).Count() < 6 {
			continue
		}
		if fillMagic(slot, s, dirs, mask, magic) {
			return magic
		}
	}
}

// splitmix64 is a tiny deterministic generator for table construction.
type splitmix64 uint64

func (x *splitmix64) next() uint64 {
	*x += 0x9e3779b97f4a7c15
	return Mix64(uint64(*x))
}

// Mix64 is splitmix64's finaliser: every bit of z moves every bit of the
// result, for seeds and keys made from several values.
func Mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// RookAttacks returns the squares a rook on s attacks given the occupancy occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &tab.rookMagic[s]
	return tab.rookAtt[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &tab.bishopMagic[s]
	return tab.bishopAtt[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupancy occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return tab.knight[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return tab.king[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return tab.pawn[c][s] }

// Between returns the squares strictly between a and b if they share a rank, file or
// diagonal, else the empty set.
func Between(a, b Square) Bitboard { return tab.between[a][b] }

// Line returns the full line (edge to edge) through a and b if they are aligned, else 0.
func Line(a, b Square) Bitboard { return tab.line[a][b] }

// Attacks returns the squares a piece of type pt and colour c on s attacks given occ.
func Attacks(c Color, pt PieceType, s Square, occ Bitboard) Bitboard {
	switch pt {
	case Pawn:
		return tab.pawn[c][s]
	case Knight:
		return tab.knight[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	case King:
		return tab.king[s]
	}
	return 0
}
