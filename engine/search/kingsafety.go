package search

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// What mates our king. Of the 15 games the mcts player lost to the heuristic
// player at 100 ms/attempt (docs/strength.md), 13 were mated by a queen the
// opponent had promoted, unseen, from a pawn the evaluation valued at 1
// wherever it stood: material counts a promoted queen as an average piece,
// so a pawn on its seventh rank cost us nothing to leave alone.

// pawnThreat is the cost of an opponent pawn by how far it has come from
// its starting rank (1) toward promotion (7): the chance it promotes, times
// what a new queen is worth beyond the pawn and beyond the average piece
// material counts it as. Every game lost to the heuristic player in two
// 200-game matches followed the opponent's promotions, most within a few
// plies of one (a capture-promotion next to our king); doubling the costs
// of round 2 (which were kept under a third of a piece) cut the losses from
// 16 to 9 and from 10 to 5. A pawn on its seventh rank with its cost (3.5)
// is worth what material counts the piece it becomes.
var pawnThreat = [8]float32{0, 0, 0.1, 0.3, 0.7, 1.4, 2.5, 0}

// relRank is how far sq stands from side c's first rank (our king from
// home, an opponent pawn toward promotion).
func relRank(c chess.Color, sq chess.Square) int {
	if c == chess.White {
		return sq.Rank()
	}
	return 7 - sq.Rank()
}

// promotionThreat is the expected cost of the opponent's pawns' advance.
func promotionThreat(s *belief.State) float32 {
	opp := s.Color().Other()
	var v float32
	for b := s.Support(oppmodel.Pawn); b != 0; {
		sq := b.PopFirst()
		v += pawnThreat[relRank(opp, sq)] * float32(s.Prob(oppmodel.Pawn, sq))
	}
	return v
}

// shieldUnits is the opponent's unit count from which our king's pawn
// shield counts: with fewer men it cannot mount an attack on our king.
const shieldUnits = 4

// pawnShield is how much of a pawn shield stands before our king on its
// first two ranks, on a wing (files a-c and f-h: castled, or gone there):
// on each of its file and the files beside it, 1 for a pawn of ours one
// rank ahead of the king, 0.5 for one two ranks ahead. A king in the
// centre has none (counted there, the shield held back the centre pawns:
// 43.1 % over 58 games at weight 0.3), nor one that left its first two
// ranks. The tree's opponent never attacks a king (its replies only take
// men), so without it a pawn push before the king cost nothing: the
// long-thinking side of a 1.6 s game pushed g4 and h3 before its castled
// king and was mated on g2.
func pawnShield(us chess.Color, king chess.Square, pawns chess.Bitboard) float32 {
	r := relRank(us, king)
	if r > 1 || king.File() > 2 && king.File() < 5 {
		return 0
	}
	step := 1
	if us == chess.Black {
		step = -1
	}
	var v float32
	for f := max(king.File()-1, 0); f <= min(king.File()+1, 7); f++ {
		switch {
		case pawns.Has(chess.NewSquare(f, king.Rank()+step)):
			v++
		case r == 0 && pawns.Has(chess.NewSquare(f, king.Rank()+2*step)):
			v += 0.5
		}
	}
	return v
}
