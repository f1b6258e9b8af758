package search

import (
	"cmp"
	"slices"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Drops (crazykrieg). The player offers the root every askable drop beside
// the board attempts; a pocket of several men makes a hundred or more, and
// each root attempt costs an iteration before any is searched twice. The
// root keeps, per type of man, the dropsPerType drops of best k = 1 value
// (keepDrops). Below the root our turns offer the same drops again where
// they are still askable (Config.DeepDrops, addDeepDrops): scoring every
// drop at every node would cost a hundred valuations an expansion, and a
// turn or two below the root the squares worth a man are mostly the
// root's. A man taken below the root is not dropped there; the men in both
// pockets count in the tree's values (staticValue, handShare).

// dropsPerType is how many drops of each type of man the root keeps.
const dropsPerType = 3

// keepDrops returns moves with its drops cut to the dropsPerType best of
// each type by their k = 1 value from bel (the board attempts all kept, in
// their order, the drops after them), in s.rootMoves. moves without drops
// is returned as it is.
func (s *Searcher) keepDrops(bel *belief.State, moves []chess.Move) []chess.Move {
	n := 0
	for _, m := range moves {
		if umpire.IsDrop(m) {
			n++
		}
	}
	if n <= dropsPerType {
		return moves
	}
	e := s.dropState
	e.bel = *bel
	p := evalFor(bel, &s.set)
	e.static = staticValue(&e.bel, &e.hang, p)
	var own men
	own.fromBelief(&e.bel)
	out := s.rootMoves[:0]
	s.drops = s.drops[:0]
	for _, m := range moves {
		if !umpire.IsDrop(m) {
			out = append(out, m)
			continue
		}
		var ans answers
		evalAttempt(e, &own, m, e.static, p, &ans)
		s.drops = append(s.drops, scoredDrop{m, ans.mean()})
	}
	slices.SortStableFunc(s.drops, func(a, b scoredDrop) int { return cmp.Compare(b.value, a.value) })
	var kept [chess.King]int
	for _, d := range s.drops {
		if pt := d.move.Promotion(); kept[pt] < dropsPerType {
			kept[pt]++
			out = append(out, d.move)
		}
	}
	s.rootMoves = out
	return out
}

// setDeepDrops keeps the drops among the root's moves for the turns below
// it (treeSettings.drops), none without Config.DeepDrops.
func (s *Searcher) setDeepDrops(moves []chess.Move) {
	s.set.drops = s.set.drops[:0]
	if !s.cfg.DeepDrops {
		return
	}
	for _, m := range moves {
		if umpire.IsDrop(m) {
			s.set.drops = append(s.set.drops, m)
		}
	}
}

// addDeepDrops adds to out the root's drops (treeSettings.drops) still
// askable at a decision node below the root with belief bel and our men m:
// the man still in our pocket, no man of ours on the square, not refused
// this turn.
func addDeepDrops(drops []chess.Move, bel *belief.State, m *men, refused []chess.Move, out *chess.MoveList) {
	if len(drops) == 0 {
		return
	}
	pocket := bel.OurPocket()
	for _, d := range drops {
		if out.N == len(out.Moves) {
			return
		}
		if pocket[d.Promotion()] == 0 || m.by[0].Has(d.To()) || slices.Contains(refused, d) {
			continue
		}
		out.Add(d)
	}
}

// scoredDrop is a drop with its k = 1 value.
type scoredDrop struct {
	move  chess.Move
	value float32
}

// playOn plays our root attempt mv, a board move or a drop, on the board b
// into t.board, and reports whether it is legal there.
func (t *tree) playOn(b *chess.Position, mv chess.Move) bool {
	if !umpire.IsDrop(mv) {
		if !b.IsLegal(mv) {
			return false
		}
		t.board = *b
		t.board.Make(mv)
		return true
	}
	to, pt := mv.To(), mv.Promotion()
	if b.Occupied().Has(to) || pt == chess.Pawn && (to.Rank() == 0 || to.Rank() == 7) {
		return false
	}
	us := b.Side()
	t.board = *b
	t.board.Drop(pt, to)
	return !t.board.IsAttacked(t.board.KingSquare(us), us.Other())
}

// blockable reports whether the side to move on b, in check, may block the
// check with a drop: one checker, not next to the king, with an empty
// square between.
func blockable(b *chess.Position) bool {
	c := b.Checkers()
	if c.More() {
		return false
	}
	return chess.Between(b.KingSquare(b.Side()), c.First())&^b.Occupied() != 0
}
