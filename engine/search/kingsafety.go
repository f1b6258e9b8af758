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
