package alphabeta

import "kriegbot/engine/chess"

// Score bounds. A mate in n plies from the root scores Mate-n for the side
// that mates.
const (
	Mate     int32 = 30000
	infinity int32 = Mate + 1
	// MateBound: a score beyond it is a forced mate.
	MateBound = Mate - MaxPly
)

// MaxPly bounds the depth of a line, quiescence included.
const MaxPly = 48

// frame is one ply's scratch: its position (a child is copied into the next
// frame's, so nothing escapes to the heap), moves and their ordering keys.
type frame struct {
	pos   chess.Position
	moves chess.MoveList
	keys  [chess.MaxMoves]int32
}

// Searcher runs alpha-beta searches. Make one with New and reuse it: a
// search allocates nothing. Not safe for concurrent use.
type Searcher struct {
	pst     *table
	stack   [MaxPly]frame
	nodes   int64
	limit   int64
	stopped bool
	// table is the transposition table (NewWithTable), nil without.
	table []entry
	mask  uint64
}

// New returns a Searcher.
func New() *Searcher { return &Searcher{pst: newTable()} }

// Nodes returns the nodes visited by the last Value, quiescence included.
func (s *Searcher) Nodes() int64 { return s.nodes }

// Value searches p by iterative deepening until about limit nodes are spent
// and returns its value for the side to move, in centipawns (±Mate-n for a
// forced mate), from the deepest completed iteration, and that depth (0:
// not even one ply fitted, the value is the static one after quiescence).
// A limit under 1 is 1.
func (s *Searcher) Value(p *chess.Position, limit int64) (value int32, depth int) {
	s.nodes, s.limit, s.stopped = 0, max(limit, 1), false
	s.stack[0].pos = *p
	p = &s.stack[0].pos
	// The depth-0 value bounds nothing: a quiescence cut off by the budget
	// falls back to the static value.
	value = s.quiesce(p, 0, -infinity, infinity)
	if s.stopped {
		s.stopped = false
		value = s.evaluate(p)
	}
	for d := 1; d < MaxPly/2; d++ {
		v := s.negamax(p, d, 0, -infinity, infinity)
		if s.stopped {
			break
		}
		value, depth = v, d
		if v >= MateBound || v <= -MateBound {
			break // a forced mate does not change with depth
		}
	}
	return value, depth
}

// spend counts a node and reports whether the budget is spent.
func (s *Searcher) spend() bool {
	s.nodes++
	if s.nodes > s.limit {
		s.stopped = true
	}
	return s.stopped
}

func (s *Searcher) negamax(p *chess.Position, depth, ply int, alpha, beta int32) int32 {
	if depth <= 0 {
		return s.quiesce(p, ply, alpha, beta)
	}
	if s.spend() {
		return 0
	}
	hint := chess.NullMove
	if e := s.probe(p); e != nil {
		hint = e.move
		if int(e.depth) >= depth {
			v := tableValue(e, ply)
			if e.bound == exact || e.bound == lower && v >= beta || e.bound == upper && v <= alpha {
				return v
			}
		}
	}
	f := &s.stack[ply]
	f.moves.N = 0
	p.GenerateLegal(&f.moves)
	if f.moves.N == 0 {
		if p.InCheck() {
			return -Mate + int32(ply)
		}
		return 0
	}
	if ply >= MaxPly-1 {
		return s.evaluate(p)
	}
	s.order(p, f, false)
	if hint != chess.NullMove {
		for i, m := range f.moves.Slice() {
			if m == hint {
				f.keys[i] = 1 << 20 // before every capture
				break
			}
		}
	}
	alpha0 := alpha
	best, bestMove := -infinity, chess.NullMove
	for i := range f.moves.N {
		m := f.pick(i)
		child := &s.stack[ply+1].pos
		*child = *p
		child.Make(m)
		v := -s.negamax(child, depth-1, ply+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	bound := exact
	switch {
	case best >= beta:
		bound = lower
	case best <= alpha0:
		bound = upper
	}
	s.store(p, best, bestMove, depth, ply, bound)
	return best
}

// quiesce searches captures and queen promotions only (every move when in
// check), standing pat on the static value otherwise.
func (s *Searcher) quiesce(p *chess.Position, ply int, alpha, beta int32) int32 {
	if s.spend() {
		return 0
	}
	inCheck := p.InCheck()
	best := -infinity
	if !inCheck {
		best = s.evaluate(p)
		if best >= beta || ply >= MaxPly-1 {
			return best
		}
		alpha = max(alpha, best)
	}
	f := &s.stack[ply]
	f.moves.N = 0
	p.GenerateLegal(&f.moves)
	if f.moves.N == 0 {
		if inCheck {
			return -Mate + int32(ply)
		}
		return 0 // stalemate
	}
	if ply >= MaxPly-1 {
		return s.evaluate(p)
	}
	s.order(p, f, !inCheck)
	for i := range f.moves.N {
		m := f.pick(i)
		if f.keys[i] < 0 {
			break // the quiet moves, sorted last
		}
		child := &s.stack[ply+1].pos
		*child = *p
		child.Make(m)
		v := -s.quiesce(child, ply+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// order gives each move of f its key: captures by most valuable victim,
// least valuable attacker, then queen promotions, then the rest. With
// tactical, the rest get a negative key (quiesce skips them).
func (s *Searcher) order(p *chess.Position, f *frame, tactical bool) {
	for i, m := range f.moves.Slice() {
		var k int32
		if sq := p.CapturedSquare(m); sq != chess.NoSquare {
			k = 10*pieceValue[p.PieceAt(sq).Type()] - pieceValue[p.PieceAt(m.From()).Type()]/10 + 1
		}
		if m.Promotion() == chess.Queen {
			k += 8000
		}
		if k == 0 && tactical {
			k = -1
		}
		f.keys[i] = k
	}
}

// pick moves the best-keyed move of f from index i on to i and returns it
// (a selection sort, lazily: a cut-off saves sorting the rest).
func (f *frame) pick(i int) chess.Move {
	b := i
	for j := i + 1; j < f.moves.N; j++ {
		if f.keys[j] > f.keys[b] {
			b = j
		}
	}
	f.moves.Moves[i], f.moves.Moves[b] = f.moves.Moves[b], f.moves.Moves[i]
	f.keys[i], f.keys[b] = f.keys[b], f.keys[i]
	return f.moves.Moves[i]
}
