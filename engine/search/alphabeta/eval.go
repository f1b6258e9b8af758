package alphabeta

import "kriegbot/engine/chess"

// pieceValue is the material scale in centipawns, indexed by chess.PieceType.
var pieceValue = [7]int32{0, 100, 320, 330, 500, 900, 0}

// table is a piece-square table for White, indexed by piece type and square
// (a1 = 0); Black reads it mirrored.
type table [7][64]int32

// newTable builds the piece-square tables from a few rules of thumb rather
// than 384 typed numbers: knights and bishops toward the centre, pawns
// forward (more in the middle files), rooks on the seventh rank, the king
// at home (evaluate reads that only while the opponent has a queen).
func newTable() *table {
	var t table
	for sq := range chess.Square(64) {
		f, r := int32(sq.File()), int32(sq.Rank())
		centre := 6 - (abs32(2*f-7)+abs32(2*r-7))/2 // 0 in a corner, 6 in the middle
		t[chess.Pawn][sq] = 6*(r-1) + 3*(3-abs32(2*f-7)/2)
		if r >= 5 {
			t[chess.Pawn][sq] += 10 * (r - 4)
		}
		t[chess.Knight][sq] = 6*centre - 20
		t[chess.Bishop][sq] = 3*centre - 8
		if r == 6 {
			t[chess.Rook][sq] = 20
		}
		t[chess.Queen][sq] = centre - 3
		switch {
		case r == 0 && (f <= 2 || f >= 6):
			t[chess.King][sq] = 20
		case r >= 2:
			t[chess.King][sq] = -15 * (r - 1)
		}
	}
	return &t
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// evaluate is p's static value for the side to move, in centipawns:
// material, piece squares, and against a bare king the mop-up terms that
// drive it to the edge and bring our king near (without them a won ending
// looks flat to a shallow search).
func (s *Searcher) evaluate(p *chess.Position) int32 {
	var score [2]int32
	for c := chess.White; c <= chess.Black; c++ {
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			for b := p.Pieces(c, pt); b != 0; {
				sq := b.PopFirst()
				if c == chess.Black {
					sq ^= 56
				}
				if pt != chess.King || p.Pieces(c.Other(), chess.Queen) != 0 {
					score[c] += pieceValue[pt] + s.pst[pt][sq]
				}
			}
		}
	}
	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		if p.ByColor(them).More() || !p.ByColor(c).More() {
			continue
		}
		k, ours := p.KingSquare(them), p.KingSquare(c)
		edge := (abs32(2*int32(k.File())-7) + abs32(2*int32(k.Rank())-7)) / 2
		near := abs32(int32(k.File())-int32(ours.File())) + abs32(int32(k.Rank())-int32(ours.Rank()))
		score[c] += 20*edge + 8*(14-near) + 300
	}
	side := p.Side()
	return score[side] - score[side.Other()]
}

// Squares is the piece-square tables, for a model of where the men go (a
// reply policy's quiet moves).
type Squares struct{ t *table }

// NewSquares returns the tables evaluate reads.
func NewSquares() Squares { return Squares{newTable()} }

// Gain is what move m of the side to move on p gains on the tables, in
// centipawns: the man's square after less before (a promotion counts the
// new man's square and its value over a pawn's).
func (q Squares) Gain(p *chess.Position, m chess.Move) int32 {
	pt := p.PieceAt(m.From()).Type()
	from, to := m.From(), m.To()
	if p.Side() == chess.Black {
		from, to = from^56, to^56
	}
	after := pt
	if pr := m.Promotion(); pr != chess.NoPieceType {
		after = pr
	}
	return q.t[after][to] + pieceValue[after] - q.t[pt][from] - pieceValue[pt]
}

// Material is c's material on p in centipawns, on the scale the static
// value uses (the king counts nothing).
func Material(p *chess.Position, c chess.Color) int32 {
	var v int32
	for pt := chess.Pawn; pt < chess.King; pt++ {
		v += pieceValue[pt] * int32(p.Pieces(c, pt).Count())
	}
	return v
}
