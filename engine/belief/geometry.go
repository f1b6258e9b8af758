package belief

import "kriegbot/engine/chess"

// ray lists the squares from a square to the edge in one direction, nearest first.
type ray struct {
	n  uint8
	sq [7]chess.Square
}

// line is a whole rank, file or diagonal, in order along it.
type line struct {
	n    uint8
	sq   [8]chess.Square
	bits chess.Bitboard
}

// The eight directions as (file, rank) steps: the first four are orthogonal.
var dirSteps = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// geometry holds immutable lookup tables built once.
type geometry struct {
	rays  [64][8]ray
	lines [46]line // 8 ranks, 8 files, 15 diagonals, 15 anti-diagonals
	// lineMask[sq] holds the rank, file, diagonal and anti-diagonal through sq.
	lineMask [64][4]chess.Bitboard
}

var geo = buildGeometry()

func buildGeometry() *geometry {
	g := new(geometry)
	for sq := range 64 {
		for d, st := range dirSteps {
			f, r := sq%8+st[0], sq/8+st[1]
			rr := &g.rays[sq][d]
			for f >= 0 && f < 8 && r >= 0 && r < 8 {
				rr.sq[rr.n] = chess.NewSquare(f, r)
				rr.n++
				f, r = f+st[0], r+st[1]
			}
		}
	}
	n := 0
	// Every line starts at a square with no neighbour behind it in its
	// direction (E, N, NE, NW) and runs to the edge.
	for o, dd := range []int{0, 2, 4, 7} {
		back := dd ^ 1
		for sq := range 64 {
			if g.rays[sq][back].n != 0 {
				continue
			}
			l := &g.lines[n]
			l.sq[0] = chess.Square(sq)
			l.n = 1
			l.bits = chess.Square(sq).Bit()
			rr := &g.rays[sq][dd]
			for i := range rr.n {
				l.sq[l.n] = rr.sq[i]
				l.bits |= rr.sq[i].Bit()
				l.n++
			}
			for b := l.bits; b != 0; {
				g.lineMask[b.PopFirst()][o] = l.bits
			}
			n++
		}
	}
	return g
}

// dirFrom returns the index of the direction from a to b, or -1 if they are
// not on one rank, file or diagonal.
func dirFrom(a, b chess.Square) int {
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	if a == b || (df != 0 && dr != 0 && df != dr && df != -dr) {
		return -1
	}
	sf, sr := sign(df), sign(dr)
	for d, st := range dirSteps {
		if st[0] == sf && st[1] == sr {
			return d
		}
	}
	return -1
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// orthogonal reports whether direction d runs along a rank or file.
func orthogonal(d int) bool { return d < 4 }

// slides reports whether our man of type pt moves along direction d.
func slides(pt chess.PieceType, d int) bool {
	switch pt {
	case chess.Queen:
		return true
	case chess.Rook:
		return orthogonal(d)
	case chess.Bishop:
		return !orthogonal(d)
	}
	return false
}
