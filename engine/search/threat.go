package search

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// Mates at the root, ours and theirs. Approach C's reply tier hears only
// captures of our men: it never sees the opponent mate us, and against
// approach A (whose playouts on sampled boards do) most lost games ended
// with our king mated while we led in material. Its answers know mate only
// against a bare king. Before each search every root attempt gets, counted
// on boards drawn from the belief, the chance that it mates (the share of
// the boards on which it is legal and mates) and the chance that the
// opponent can mate at once after it, times MateThreat (the chance it finds
// that move); the root values the attempt as those chances of a win and of
// a loss and its tree value for the rest.

// rootThreats draws up to n boards from bel and sets, for each root attempt
// moves[j], t.threat[j]: find times the share of the boards on which
// moves[j] is legal, does not end the game, and leaves the opponent a mate
// in one; and, with own, t.mates[j]: the share of all boards on which
// moves[j] mates, unless the opponent has a bare king (the answers then know
// mate).
func (t *tree) rootThreats(bel *belief.State, moves []chess.Move, n int, find float64, own bool) {
	t.sampleBoards(bel, n)
	t.threat, t.mates = t.threat[:0], t.mates[:0]
	own = own && bel.Units() > 0
	for _, mv := range moves {
		legal, mated, won := 0, 0, 0
		for k := range t.boards {
			b := &t.boards[k]
			if !b.IsLegal(mv) {
				continue
			}
			t.board = *b
			t.board.Make(mv)
			if !t.board.HasLegalMove() {
				if t.board.InCheck() {
					won++
				}
				continue
			}
			legal++
			if find > 0 && t.mateInOne(&t.board) {
				mated++
			}
		}
		var p, w float32
		if legal > 0 {
			p = float32(find) * float32(mated) / float32(legal)
		}
		if own && len(t.boards) > 0 {
			w = float32(won) / float32(len(t.boards))
		}
		t.threat = append(t.threat, p)
		t.mates = append(t.mates, w)
	}
}

// mateInOne reports whether the side to move on b has a move that mates.
func (t *tree) mateInOne(b *chess.Position) bool {
	t.moves.N = 0
	b.GenerateLegal(&t.moves)
	them := b.Side().Other()
	king := b.KingSquare(them)
	for _, m := range t.moves.Slice() {
		// A mate is a check: skip the moves that cannot give one before
		// paying for a copy and a make (a discovered check still can).
		if !mayCheck(b, m, king) {
			continue
		}
		after := *b
		after.Make(m)
		if after.InCheck() && !after.HasLegalMove() {
			return true
		}
	}
	return false
}

// mayCheck is a cheap filter for moves that could check the king on king:
// the man lands on a square attacking it, or leaves a line through the king
// (discovering a check), or the move is special (castling, promotion, en
// passant).
func mayCheck(b *chess.Position, m chess.Move, king chess.Square) bool {
	if m.Promotion() != chess.NoPieceType || b.IsEnPassant(m) {
		return true
	}
	from, to := m.From(), m.To()
	pt := b.PieceAt(from).Type()
	if pt == chess.King {
		return from.File()-to.File() > 1 || to.File()-from.File() > 1 // castling: the rook may check
	}
	if chess.Line(from, king) != 0 {
		return true
	}
	occ := b.Occupied()&^from.Bit() | to.Bit()
	return chess.Attacks(b.Side(), pt, to, occ).Has(king)
}

// rootValue is root child c's value with its mates: the chance of a win,
// the chance of a loss, and its tree value for the rest. A proven win keeps
// its value.
func (t *tree) rootValue(c int32) float32 {
	ch := &t.nodes[c]
	j := int(c - t.nodes[0].first)
	if j >= len(t.threat) || ch.flags&fSolved != 0 && ch.value >= winValue {
		return ch.value
	}
	v := ch.value + t.mates[j]*(winValue-ch.value)
	return v - t.threat[j]*(v+winValue)
}
