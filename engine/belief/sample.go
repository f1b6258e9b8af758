package belief

import (
	"math/rand/v2"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// sampleTries bounds the boards drawn and rejected by Sample.
const sampleTries = 256

// Sample draws a concrete board consistent with the belief, for approach A:
// our men exactly, the opponent's king, pawns and pieces drawn from their
// matrices without replacement (as many men as it has, pawns at most its
// bound), the pieces' types dealt from the starting set (queens beyond it),
// a type more often at its home square and two bishops on squares of two
// colours (typePieces). Boards that break the rules or what we last heard (the enemy king next
// to ours or attacked on our turn, our check state, our pawn-try count) are
// rejected; the count check is relaxed after half the draws. It returns false
// if no board was found. The same rng state gives the same board.
//
// It allocates nothing (chess.FromBoard refuses what ParseFEN would): every
// search of approach C draws boards for its root's mate counts.
func (s *State) Sample(rng *rand.Rand, pos *chess.Position) bool {
	opp := s.me.Other()
	side := s.me
	if !s.ourTurn {
		side = opp
	}
	for try := range sampleTries {
		var board [64]chess.Piece
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			for b := s.own[pt]; b != 0; {
				board[b.PopFirst()] = chess.MakePiece(s.me, pt)
			}
		}
		taken := s.own[0]
		ksq, ok := s.draw(rng, king, taken)
		if !ok {
			return false
		}
		board[ksq] = chess.MakePiece(opp, chess.King)
		taken |= ksq.Bit()
		pawns := int(s.pawnExp)
		if rng.Float64() < float64(s.pawnExp)-float64(pawns) {
			pawns++
		}
		pawns = min(pawns, s.pawnMax, s.units)
		placed := 0
		for range pawns {
			sq, ok := s.draw(rng, pawn, taken)
			if !ok {
				break
			}
			board[sq] = chess.MakePiece(opp, chess.Pawn)
			taken |= sq.Bit()
			placed++
		}
		var sqs [16]chess.Square
		n := 0
		full := true
		for range s.units - placed {
			sq, ok := s.draw(rng, piece, taken)
			if !ok {
				full = false
				break
			}
			sqs[n] = sq
			n++
			taken |= sq.Bit()
		}
		typePieces(rng, &board, sqs[:n], opp)
		if !full {
			continue
		}
		p, ok := chess.FromBoard(&board, side, (s.castle|s.oppCastle)&chess.HomeRights(&board))
		if !ok {
			continue
		}
		if s.ourTurn {
			first, second := p.CheckKinds()
			if !sameChecks(first, second, s.checks) {
				continue
			}
			if try < sampleTries/2 && s.ourTries >= 0 && p.PawnTries() != s.ourTries {
				continue
			}
		}
		*pos = p
		return true
	}
	return false
}

// startingPieces counts a side's pieces at the start, other than the king.
const startingPieces = 7

// Weights of a type for a drawn piece's square, against 1 for the others.
const (
	// homeWeight: the type whose home square it is (rook on a8 or h8,
	// knight b8 or g8, bishop c8 or f8, queen d8 for Black): a man at home
	// has most likely not moved.
	homeWeight = 8
	// twinBishopWeight: a bishop on the colour of a bishop already drawn;
	// two on one colour need a promotion.
	twinBishopWeight = 0.02
)

// homeType is the piece whose home square is on file f of its side's back
// rank.
func homeType(f int) chess.PieceType {
	switch f {
	case 0, 7:
		return chess.Rook
	case 1, 6:
		return chess.Knight
	case 2, 5:
		return chess.Bishop
	case 3:
		return chess.Queen
	}
	return chess.King
}

// typeRedraws bounds the deals of typePieces that put two bishops on one
// colour: the last pieces dealt have no choice of type.
const typeRedraws = 8

// typePieces puts c's pieces on sqs of board, their types dealt from the
// starting set (queens beyond it): each by pickType, the whole deal again
// while it puts two bishops on one colour.
func typePieces(rng *rand.Rand, board *[64]chess.Piece, sqs []chess.Square, c chess.Color) {
	for range typeRedraws {
		pool := [startingPieces]chess.PieceType{chess.Queen, chess.Rook, chess.Rook, chess.Bishop, chess.Bishop, chess.Knight, chess.Knight}
		left, bishops := len(pool), chess.Bitboard(0)
		for _, sq := range sqs {
			pt := chess.Queen
			if left > 0 {
				i := pickType(rng, pool[:left], sq, c, bishops)
				pt = pool[i]
				left--
				pool[i] = pool[left]
			}
			if pt == chess.Bishop {
				bishops |= sq.Bit()
			}
			board[sq] = chess.MakePiece(c, pt)
		}
		if !(bishops & chess.LightSquares).More() && !(bishops & chess.DarkSquares).More() {
			return
		}
	}
}

// pickType draws the index in pool (the pieces not yet placed) of the type
// of c's piece on sq, bishops the squares of the bishops placed.
func pickType(rng *rand.Rand, pool []chess.PieceType, sq chess.Square, c chess.Color, bishops chess.Bitboard) int {
	home := chess.NoPieceType
	if sq.Rank() == 7*int(c) {
		home = homeType(sq.File())
	}
	colour := chess.LightSquares
	if !colour.Has(sq) {
		colour = chess.DarkSquares
	}
	var w [startingPieces]float64
	total := 0.0
	for i, pt := range pool {
		w[i] = 1
		if pt == home {
			w[i] = homeWeight
		}
		if pt == chess.Bishop && bishops&colour != 0 {
			w[i] *= twinBishopWeight
		}
		total += w[i]
	}
	x := rng.Float64() * total
	for i := range pool {
		x -= w[i]
		if x < 0 {
			return i
		}
	}
	return len(pool) - 1
}

func sameChecks(a, b chess.CheckKind, want [2]chess.CheckKind) bool {
	return (a == want[0] && b == want[1]) || (a == want[1] && b == want[0])
}

// draw picks a free square of class c's support in proportion to its chance.
func (s *State) draw(rng *rand.Rand, c oppmodel.Class, taken chess.Bitboard) (chess.Square, bool) {
	cand := s.supp[c] &^ taken
	if c == pawn {
		cand &^= pawnRanks
	}
	total := 0.0
	for b := cand; b != 0; {
		total += float64(s.p[c][b.PopFirst()])
	}
	if total <= 0 {
		return chess.NoSquare, false
	}
	x := rng.Float64() * total
	last := chess.NoSquare
	for b := cand; b != 0; {
		sq := b.PopFirst()
		last = sq
		x -= float64(s.p[c][sq])
		if x < 0 {
			return sq, true
		}
	}
	return last, true
}
