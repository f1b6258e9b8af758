package search

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// sampleBoards draws approach A's boards from the belief (the belief's
// sampler allocates, so it runs once per search, never per iteration).
func (t *tree) sampleBoards(bel *belief.State, n int) {
	if cap(t.boards) < n {
		t.boards = make([]chess.Position, 0, n)
	}
	t.boards = t.boards[:0]
	for range 2 * n {
		if len(t.boards) == n {
			break
		}
		var p chess.Position
		if bel.Sample(t.rng, &p) && p.Side() == bel.Color() {
			t.boards = append(t.boards, p)
		}
	}
}

// iterateA is one iteration of approach A: a board drawn from the belief is
// played down the tree (our attempts chosen by UCT, the referee's answers
// and the opponent's pseudo-random replies computed on the board, the tree
// indexed by what we hear), then a pseudo-random playout values the leaf.
func (t *tree) iterateA(cfg *Config) bool {
	if len(t.boards) == 0 {
		return t.iterate(cfg) // no board fits the belief: fall back on C
	}
	t.board = t.boards[t.rng.IntN(len(t.boards))]
	b := &t.board
	us := b.Side()
	t.path = t.path[:0]
	i := int32(0)
	for {
		t.path = append(t.path, i)
		n := &t.nodes[i]
		switch n.kind {
		case terminal:
			t.backup(cfg, n.value)
			return true
		case answer:
			if n.first == noChild && !t.expandRepliesA(i, b, us) {
				return false
			}
			r := t.pseudoRandom(b, chess.NoSquare)
			sq := b.CapturedSquare(r)
			b.Make(r)
			if !b.HasLegalMove() {
				v := float32(drawValue)
				if b.InCheck() {
					v = -winValue
				}
				t.backup(cfg, v)
				return true
			}
			n = &t.nodes[i]
			next := n.first
			for c := n.first; c < n.first+int32(n.nchild); c++ {
				if t.nodes[c].square == sq {
					next = c
					break
				}
			}
			i = next
			continue
		}
		if n.first == noChild {
			var m men
			m.fromPosition(b, us)
			var refused [maxChildren]chess.Move
			nr := 0
			for j := len(t.path) - 1; j >= 2 && t.nodes[t.path[j]].illegal && nr < len(refused); j -= 2 {
				refused[nr] = t.nodes[t.path[j-1]].move
				nr++
			}
			m.attempts(refused[:nr], &t.moves)
			if !t.addAttempts(i, t.moves.Slice()) {
				return false
			}
			n = &t.nodes[i]
		}
		if n.nchild == 0 {
			t.backup(cfg, materialOf(b, us))
			return true
		}
		c := t.selectAttempt(i, cfg.Exploration, cfg.Approach)
		if c < 0 {
			t.backup(cfg, n.value)
			return true
		}
		t.path = append(t.path, c)
		mv := t.nodes[c].move
		legal := b.IsLegal(mv)
		if t.nodes[c].visits == 0 {
			if legal {
				b.Make(mv)
			}
			t.backup(cfg, t.playout(b, us, cfg.Playout))
			return true
		}
		if t.nodes[c].first == noChild {
			f := t.newNodes(4)
			if f < 0 {
				return false
			}
			t.nodes[f].kind, t.nodes[f].illegal = decision, true
			for j, k := range [3]umpire.CaptureKind{umpire.NoCapture, umpire.PawnCaptured, umpire.PieceCaptured} {
				a := &t.nodes[f+1+int32(j)]
				a.kind, a.capture = answer, k
			}
			t.nodes[c].first, t.nodes[c].nchild = f, 4
		}
		first := t.nodes[c].first
		if !legal {
			i = first
			continue
		}
		k := 1
		if sq := b.CapturedSquare(mv); sq != chess.NoSquare {
			k = 3
			if b.PieceAt(sq) == chess.MakePiece(us.Other(), chess.Pawn) {
				k = 2
			}
		}
		b.Make(mv)
		if !b.HasLegalMove() {
			v := float32(drawValue)
			if b.InCheck() {
				v = winValue
			}
			t.backup(cfg, v)
			return true
		}
		i = first + int32(k)
	}
}

// expandRepliesA gives answer node i a child per reply we may hear on board
// b: nothing, or the capture of each of our men.
func (t *tree) expandRepliesA(i int32, b *chess.Position, us chess.Color) bool {
	own := b.ByColor(us) &^ b.Pieces(us, chess.King)
	f := t.newNodes(1 + own.Count())
	if f < 0 {
		return false
	}
	t.nodes[f].kind = decision
	j := f + 1
	for x := own; x != 0; j++ {
		sq := x.PopFirst()
		t.nodes[j].kind, t.nodes[j].square = decision, sq
	}
	n := &t.nodes[i]
	n.first, n.nchild = f, uint8(1+own.Count())
	return true
}

// pseudoRandom draws a playout move the way the paper's simulated players
// do: almost always take back on the square just captured on, often take
// what can be taken, else any legal move.
func (t *tree) pseudoRandom(b *chess.Position, recapture chess.Square) chess.Move {
	var l chess.MoveList
	b.GenerateLegal(&l)
	if l.N == 0 {
		return chess.NullMove
	}
	if recapture != chess.NoSquare && t.rng.IntN(10) != 0 {
		for _, m := range l.Slice() {
			if m.To() == recapture {
				return m
			}
		}
	}
	if t.rng.IntN(3) == 0 {
		start := t.rng.IntN(l.N)
		for j := range l.N {
			m := l.Moves[(start+j)%l.N]
			if b.CapturedSquare(m) != chess.NoSquare {
				return m
			}
		}
	}
	return l.Moves[t.rng.IntN(l.N)]
}

// playout plays pseudo-random moves on b for at most plies plies and values
// the end from us's side: a mate is won or lost, else the material balance.
func (t *tree) playout(b *chess.Position, us chess.Color, plies int) float32 {
	last := chess.NoSquare
	for range plies {
		m := t.pseudoRandom(b, last)
		if m == chess.NullMove {
			break
		}
		last = b.CapturedSquare(m)
		if last != chess.NoSquare {
			last = m.To()
		}
		b.Make(m)
		if b.IsInsufficientMaterial() {
			return drawValue
		}
	}
	if !b.HasLegalMove() {
		if !b.InCheck() {
			return drawValue
		}
		if b.Side() == us {
			return -winValue
		}
		return winValue
	}
	return materialOf(b, us)
}

// materialOf is the true material balance on b from us's side.
func materialOf(b *chess.Position, us chess.Color) float32 {
	var v float32
	for pt := chess.Pawn; pt < chess.King; pt++ {
		v += manValue[pt] * float32(b.Pieces(us, pt).Count()-b.Pieces(us.Other(), pt).Count())
	}
	return v
}
