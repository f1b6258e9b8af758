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

// mateCount is what one tree's boards tell of a root attempt: on how many
// it is legal and does not end the game (legal), of those how many leave the
// opponent a mate in one (mated), and on how many it mates (won).
type mateCount struct{ legal, mated, won int32 }

// countMates draws up to n boards from bel and fills t.counts[j] for each
// root attempt moves[j] (the mates in one only when threats is set).
func (t *tree) countMates(bel *belief.State, moves []chess.Move, n int, threats bool) {
	t.sampleBoards(bel, n)
	t.counts = t.counts[:0]
	pocket := bel.TheirPocket() != [chess.King]uint8{} && t.set.hand > 0
	for _, mv := range moves {
		var c mateCount
		for k := range t.boards {
			if !t.playOn(&t.boards[k], mv) {
				continue
			}
			if !t.board.HasLegalMove() {
				// A drop from the opponent's pocket may block the check;
				// where the stalemated side loses (rand), no move is a win.
				if t.board.InCheck() && (!pocket || !blockable(&t.board)) || !t.board.InCheck() && t.set.stalemate == winValue {
					c.won++
				}
				continue
			}
			c.legal++
			if threats && t.mateInOne(&t.board) {
				c.mated++
			}
		}
		t.counts = append(t.counts, c)
	}
}

// setMates sets, from counts over boards boards, for each root attempt j
// t.threat[j]: find times the share of the boards on which it is legal,
// does not end the game, and leaves the opponent a mate in one; and, with
// own, t.mates[j]: the share of all boards on which it mates, unless bel
// leaves the opponent a bare king (the answers then know mate).
func (t *tree) setMates(bel *belief.State, counts []mateCount, boards int, find float64, own bool) {
	own = own && bel.Units() > 0
	t.threat, t.mates = t.threat[:0], t.mates[:0]
	for _, c := range counts {
		var p, w float32
		if c.legal > 0 {
			p = float32(find) * float32(c.mated) / float32(c.legal)
		}
		if own && boards > 0 {
			w = float32(c.won) / float32(boards)
		}
		t.threat = append(t.threat, p)
		t.mates = append(t.mates, w)
	}
	t.rescore(0)
}

// mateInOne reports whether the side to move on b has a move that mates. A
// mate is a check: only the men that may give one are asked for their moves
// (chess.Position.CheckOrigins, about a third of them), and a check is
// answered by a king's step first (chess.Position.HasLegalMove); the two
// halved the count's time (BenchmarkRootThreats).
func (t *tree) mateInOne(b *chess.Position) bool {
	them := b.Side().Other()
	king := b.KingSquare(them)
	t.moves.N = 0
	b.GenerateLegalFrom(&t.moves, b.CheckOrigins(king))
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
		return chess.Castles(from, to) // the rook may check
	}
	if chess.Line(from, king) != 0 {
		return true
	}
	occ := b.Occupied()&^from.Bit() | to.Bit()
	return chess.Attacks(b.Side(), pt, to, occ).Has(king)
}

// childValue is the value of node i's child c: at the root with its mates
// (rootValue), elsewhere the tree's.
func (t *tree) childValue(i, c int32) float32 {
	if i == 0 {
		return t.rootValue(c)
	}
	return t.nodes[c].value
}

// rootValue is root child c's value with its mates: the chance of a win,
// the chance of a loss, and its tree value for the rest, drawn by
// repetition with its chance of that. A proven win keeps its value.
func (t *tree) rootValue(c int32) float32 {
	ch := &t.nodes[c]
	j := int(c - t.nodes[0].first)
	if ch.flags&fSolved != 0 && ch.value >= winValue {
		return ch.value
	}
	v := ch.value
	if j < len(t.repeat) && v > drawValue {
		v -= t.repeat[j] * (v - drawValue) // repetition.go
	}
	if j >= len(t.threat) {
		return v
	}
	v += t.mates[j] * (winValue - v)
	return v - t.threat[j]*(v+winValue)
}
