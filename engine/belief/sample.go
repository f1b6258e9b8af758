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
// bound), the pieces' types shuffled from the starting set (queens beyond
// it). Boards that break the rules or what we last heard (the enemy king next
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
		types := [...]chess.PieceType{chess.Queen, chess.Rook, chess.Rook, chess.Bishop, chess.Bishop, chess.Knight, chess.Knight}
		rng.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
		full := true
		for i := range s.units - placed {
			sq, ok := s.draw(rng, piece, taken)
			if !ok {
				full = false
				break
			}
			pt := chess.Queen
			if i < len(types) {
				pt = types[i]
			}
			board[sq] = chess.MakePiece(opp, pt)
			taken |= sq.Bit()
		}
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
