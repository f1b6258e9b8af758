package boardtree

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search/alphabeta"
	"kriegbot/engine/search/replymodel"
	"kriegbot/engine/search/stoprule"
	"kriegbot/engine/umpire"
)

// Config sets the search.
type Config struct {
	// Exploration is the UCT constant, in pawns.
	Exploration float64
	// Leaf is the alpha-beta nodes that value a new node's board (1: the
	// static value; more: a quiescence and shallow search).
	Leaf int64
	// Refusal is what an attempt refused on the board costs, in pawns: the
	// turn goes on, but a free refusal would make probing look as good as
	// moving.
	Refusal float64
	// MaxTurns bounds a line's depth in our turns; its board is valued there.
	MaxTurns int
	// Weights are the opponent's reply policy on a board.
	Weights replymodel.Weights
	// MemoryMB caps the node pool.
	MemoryMB int
}

// DefaultConfig returns the prototype's settings.
func DefaultConfig() Config {
	return Config{Exploration: 0.5, Leaf: 16, Refusal: 0.02, MaxTurns: 8,
		Weights: replymodel.DefaultWeights(), MemoryMB: 32}
}

// kind of a node.
type kind uint8

const (
	// decision: our turn, the information set of what we have heard; its
	// children are our attempts.
	decision kind = iota
	// attempt: one attempt of ours; its children are the decision or end
	// nodes of what we may hear after it.
	attempt
	// end: the game is over on every board that reaches it (the value is
	// the board's).
	end
)

// node is one tree node; children form a list (child, then next).
type node struct {
	visits int32
	child  int32 // first child, or -1
	next   int32 // next sibling, or -1
	// sum is the sum of the values backed up through the node, for us.
	sum  float32
	key  uint64 // decision and end nodes: what was heard to reach it
	move chess.Move
	kind kind
	// expanded: a decision node whose attempts are listed.
	expanded bool
}

func (n *node) mean() float64 {
	if n.visits == 0 {
		return 0
	}
	return float64(n.sum) / float64(n.visits)
}

// nodeBytes is a node's size, for the memory cap.
const nodeBytes = 40

// Result is one choice.
type Result struct {
	// Best indexes the chosen attempt in the moves given; -1 when no board
	// could be drawn.
	Best int
	// Iterations run, boards drawn (one an iteration), tree nodes made.
	Iterations int64
	Nodes      int
	// Value is the chosen attempt's mean value, in pawns for us.
	Value float64
}

// Searcher runs the search. Make one with New and reuse it; not safe for
// concurrent use.
type Searcher struct {
	cfg   Config
	rng   *rand.Rand
	ab    *alphabeta.Searcher
	nodes []node
	nn    int32
	// per iteration
	board   chess.Position
	path    []int32
	refused []chess.Move
	list    chess.MoveList
	replies []replymodel.Move
	weights [chess.MaxMoves]float64 // pickReply's, one a reply
	types   [64]chess.PieceType
	us      chess.Color
	// rootMoves are the root's attempts: in the root's turn only they may
	// be asked (the others were refused before the search).
	rootMoves []chess.Move
}

// New returns a Searcher.
func New(cfg Config) *Searcher {
	n := max(cfg.MemoryMB<<20/nodeBytes, 1024)
	return &Searcher{
		cfg:     cfg,
		rng:     rand.New(rand.NewPCG(1, 2)),
		ab:      alphabeta.New(),
		nodes:   make([]node, n),
		path:    make([]int32, 0, 1024),
		refused: make([]chess.Move, 0, chess.MaxMoves),
		replies: make([]replymodel.Move, 0, chess.MaxMoves),
	}
}

// NewGame reseeds the search for a game.
func (s *Searcher) NewGame(seed uint64) {
	s.rng = rand.New(rand.NewPCG(seed, 0xb0a2d7ee))
}

// Limits bound a choice: exactly Iterations iterations (a node-bounded
// match, a replay), or on the clock Time with the clock plan's MaxTime
// (engine/search/stoprule decides when to stop). With neither, one
// iteration.
type Limits struct {
	Iterations    int64
	Time, MaxTime time.Duration
}

// checkEvery is how often, in iterations, the clock and ctx are read.
const checkEvery = 64

// Choose searches from belief bel, our turn, among moves (the askable
// attempts not refused this turn) within lim, and returns the most visited.
// It stops early when ctx is done.
func (s *Searcher) Choose(ctx context.Context, bel *belief.State, moves []chess.Move, lim Limits) Result {
	r := Result{Best: -1}
	if len(moves) == 0 {
		return r
	}
	s.us, s.rootMoves = bel.Color(), moves
	s.nn = 0
	root := s.newNode(decision, 0, chess.NullMove)
	s.expandWith(root, moves)
	done := ctx.Done()
	start := time.Now()
	for it := int64(0); ; it++ {
		if lim.Time > 0 {
			if it%checkEvery == checkEvery-1 && stoprule.TimeUp(time.Since(start), lim.Time, lim.MaxTime, s.rootLead(it)) {
				break
			}
		} else if it >= max(lim.Iterations, 1) {
			break
		}
		if it%checkEvery == checkEvery-1 {
			select {
			case <-done:
				it = -1
			default:
			}
			if it < 0 {
				break
			}
		}
		if !bel.Sample(s.rng, &s.board) {
			break
		}
		s.iterate(root)
		r.Iterations++
	}
	if r.Iterations == 0 {
		return r
	}
	best, bestVisits := int32(-1), int32(-1)
	j := 0
	for c := s.nodes[root].child; c >= 0; c = s.nodes[c].next {
		if v := s.nodes[c].visits; v > bestVisits || v == bestVisits && s.nodes[c].mean() > s.nodes[best].mean() {
			best, bestVisits, r.Best = c, v, j
		}
		j++
	}
	r.Nodes, r.Value = int(s.nn), s.nodes[best].mean()
	return r
}

// rootLead is what the stop rule reads of the root after it iterations.
func (s *Searcher) rootLead(it int64) stoprule.Root {
	r := stoprule.Root{Iterations: it}
	for c := s.nodes[0].child; c >= 0; c = s.nodes[c].next {
		v := int64(s.nodes[c].visits)
		r.Open++
		switch {
		case v > r.Best:
			r.Best, r.Second = v, r.Best
		case v > r.Second:
			r.Second = v
		}
	}
	return r
}

// Root is one of the last choice's root attempts.
type Root struct {
	Move   chess.Move
	Visits int64
	Value  float64 // mean, in pawns for us
}

// Roots appends the last choice's root attempts to out, in the order of
// the moves it was given (it allocates only to grow out).
func (s *Searcher) Roots(out []Root) []Root {
	if s.nn == 0 {
		return out
	}
	for c := s.nodes[0].child; c >= 0; c = s.nodes[c].next {
		out = append(out, Root{Move: s.nodes[c].move, Visits: int64(s.nodes[c].visits), Value: s.nodes[c].mean()})
	}
	return out
}

// newNode takes a fresh node, or -1 when the pool is full.
func (s *Searcher) newNode(k kind, key uint64, m chess.Move) int32 {
	if int(s.nn) == len(s.nodes) {
		return -1
	}
	i := s.nn
	s.nn++
	s.nodes[i] = node{child: -1, next: -1, key: key, move: m, kind: k}
	return i
}

// expandWith gives decision node d the attempts moves, in their order. It
// reports false when the pool is full.
func (s *Searcher) expandWith(d int32, moves []chess.Move) bool {
	if int(s.nn)+len(moves) > len(s.nodes) {
		return false
	}
	prev := int32(-1)
	for _, m := range moves {
		c := s.newNode(attempt, 0, m)
		if prev < 0 {
			s.nodes[d].child = c
		} else {
			s.nodes[prev].next = c
		}
		prev = c
	}
	s.nodes[d].expanded = true
	return true
}

// ourAttempts lists into s.list the attempts we may ask on s.board (our
// turn): the askable rule over our men, the opponent's unseen, the turn's
// pawn tries as announced, minus s.refused; in the root's turn only the
// root's attempts.
func (s *Searcher) ourAttempts(rootTurn bool) {
	b := &s.board
	own := b.ByColor(s.us)
	for x := own; x != 0; {
		sq := x.PopFirst()
		s.types[sq] = b.PieceAt(sq).Type()
	}
	m := umpire.Men{Color: s.us, Own: own, Types: &s.types, Castling: b.Castling(),
		EnPassant: chess.NoSquare, Tries: b.PawnTries()}
	s.list.N = 0
	m.Askable(umpire.PromoteQueen, s.refused, &s.list)
	if !rootTurn {
		return
	}
	n := 0
	for _, mv := range s.list.Slice() {
		if slices.Contains(s.rootMoves, mv) {
			s.list.Moves[n] = mv
			n++
		}
	}
	s.list.N = n
}

// iterate runs one iteration on s.board from the root and backs its value
// up.
func (s *Searcher) iterate(root int32) {
	s.path = append(s.path[:0], root)
	s.refused = s.refused[:0]
	d := root
	turns := 0
	var value float64
	for {
		n := &s.nodes[d]
		if n.kind == end {
			value = s.endValue()
			break
		}
		if !n.expanded {
			s.ourAttempts(turns == 0)
			if s.list.N == 0 || !s.expandWith(d, s.list.Slice()) {
				value = s.leafValue()
				break
			}
		}
		a := s.selectAttempt(d)
		s.path = append(s.path, a)
		key, over, refused := s.play(s.nodes[a].move)
		child, fresh := s.childFor(a, key, over)
		if child < 0 {
			value = s.leafValue()
			break
		}
		s.path = append(s.path, child)
		if refused {
			value -= s.cfg.Refusal
			s.refused = append(s.refused, s.nodes[a].move)
		} else {
			s.refused = s.refused[:0]
			turns++
		}
		if over {
			value += s.endValue()
			break
		}
		if fresh || turns >= s.cfg.MaxTurns || len(s.refused) >= 32 {
			value += s.leafValue()
			break
		}
		d = child
	}
	for _, i := range s.path {
		s.nodes[i].visits++
		s.nodes[i].sum += float32(value)
	}
}

// selectAttempt picks decision node d's attempt by UCT: each unvisited
// attempt first, in order.
func (s *Searcher) selectAttempt(d int32) int32 {
	parent := s.nodes[d].visits
	logN := math.Log(float64(max(parent, 1)))
	best, bestScore := int32(-1), math.Inf(-1)
	for c := s.nodes[d].child; c >= 0; c = s.nodes[c].next {
		n := &s.nodes[c]
		if n.visits == 0 {
			return c
		}
		u := n.mean() + s.cfg.Exploration*math.Sqrt(logN/float64(n.visits))
		if u > bestScore {
			best, bestScore = c, u
		}
	}
	return best
}

// childFor returns attempt a's child heard as key, made if new (fresh),
// or -1 when the pool is full.
func (s *Searcher) childFor(a int32, key uint64, over bool) (int32, bool) {
	last := int32(-1)
	for c := s.nodes[a].child; c >= 0; c = s.nodes[c].next {
		if s.nodes[c].key == key {
			return c, false
		}
		last = c
	}
	k := decision
	if over {
		k = end
	}
	c := s.newNode(k, key, chess.NullMove)
	if c < 0 {
		return -1, false
	}
	if last < 0 {
		s.nodes[a].child = c
	} else {
		s.nodes[last].next = c
	}
	return c, true
}

// The key of what we hear after an attempt: refused, or our capture, our
// checks, the opponent's capture and checks and our pawn tries (each
// field its own bits).
const (
	keyRefused = 1 << 63
	keyOver    = 1 << 62
)

// play asks attempt m on s.board and, if it is legal and the game goes
// on, plays the opponent's reply there by the policy. It returns what we
// hear as a key, whether the game ended on the board, and whether m was
// refused.
func (s *Searcher) play(m chess.Move) (key uint64, over, refused bool) {
	b := &s.board
	if !b.IsLegal(m) {
		return keyRefused, false, true
	}
	ourCap := captureKey(b, m)
	b.Make(m)
	c1, c2 := b.CheckKinds()
	key = ourCap | uint64(c1)<<8 | uint64(c2)<<11
	if !b.HasLegalMove() {
		return key | keyOver, true, false
	}
	last := chess.NoSquare
	if ourCap != 0 {
		last = m.To()
	}
	s.replies = replymodel.Describe(b, last, &s.list, s.replies[:0])
	r := s.list.Moves[s.pickReply()]
	theirCap := captureKey(b, r)
	b.Make(r)
	c1, c2 = b.CheckKinds()
	key |= theirCap<<14 | uint64(c1)<<22 | uint64(c2)<<25
	if !b.HasLegalMove() {
		return key | keyOver, true, false
	}
	return key | uint64(min(b.PawnTries(), 15))<<28, false, false
}

// captureKey is what the referee says of m's capture on b: 0 for none,
// else the square and whether a pawn was taken (wild 16's kinds).
func captureKey(b *chess.Position, m chess.Move) uint64 {
	sq := b.CapturedSquare(m)
	if sq == chess.NoSquare {
		return 0
	}
	k := uint64(sq) + 1
	if b.PieceAt(sq).Type() == chess.Pawn {
		k |= 1 << 7
	}
	return k
}

// pickReply draws the opponent's reply from the policy over s.replies.
func (s *Searcher) pickReply() int {
	w := s.weights[:len(s.replies)]
	top := math.Inf(-1)
	for i := range s.replies {
		w[i] = s.cfg.Weights.Score(&s.replies[i])
		top = max(top, w[i])
	}
	sum := 0.0
	for i := range w {
		w[i] = math.Exp(w[i] - top)
		sum += w[i]
	}
	x := s.rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x <= 0 {
			return i
		}
	}
	return len(w) - 1
}

// Values, in pawns for us.
const (
	winValue  = 30
	clipValue = 20
)

// endValue is the value of s.board's finished game for us: mate or
// stalemate (a draw).
func (s *Searcher) endValue() float64 {
	if !s.board.InCheck() {
		return 0
	}
	if s.board.Side() == s.us {
		return -winValue
	}
	return winValue
}

// leafValue values s.board for us by a small alpha-beta search.
func (s *Searcher) leafValue() float64 {
	v, _ := s.ab.Value(&s.board, s.cfg.Leaf)
	x := float64(v) / 100
	if s.board.Side() != s.us {
		x = -x
	}
	return max(min(x, clipValue), -clipValue)
}
