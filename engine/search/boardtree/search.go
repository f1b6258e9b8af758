package boardtree

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
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
	// MemoryMB caps the node pool. The pools grow as the tree does, so a
	// short search takes little of it; a long one (seconds an attempt at
	// tournament controls) goes on growing its tree up to the cap.
	MemoryMB int
	// Reuse starts each choice from the node of what was heard since the
	// last (Heard*), with the visits it has, when the tree holds it.
	Reuse bool
	// Opponent gives the opponent a tree of its own (multiple-observer
	// information-set MCTS): where its tree holds what it has heard on the
	// line, it chooses its reply by the value its replies had there, the
	// policy as their prior (PUCT), instead of drawing it from the policy.
	Opponent bool
	// OpponentC is the opponent's PUCT constant, in pawns.
	OpponentC float64
}

// DefaultConfig returns the prototype's settings.
func DefaultConfig() Config {
	return Config{Exploration: 0.5, Leaf: 16, Refusal: 0.02, MaxTurns: 8,
		Weights: replymodel.DefaultWeights(), MemoryMB: 256, Reuse: true, Opponent: true, OpponentC: 2}
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

// Result is one choice.
type Result struct {
	// Best indexes the chosen attempt in the moves given; -1 when no board
	// could be drawn.
	Best int
	// Iterations run, boards drawn (one an iteration), tree nodes made.
	Iterations int64
	Nodes      int
	// Reused is the visits the root had from earlier choices (Reuse).
	Reused int64
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
	// maxNodes caps nodes (and spare), maxONodes onodes: the pools grow
	// to them (grow).
	maxNodes, maxONodes int
	// spare is the other half of the pool under Reuse, where compact
	// copies the tree kept.
	spare []node
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
	// root is the last choice's root node; next the decision node that
	// stands for what has been heard since (-1: none, a fresh tree); sent
	// the attempt node of our accepted move, until the opponent's reply
	// completes its key (partial: our capture and checks).
	root, next, sent int32
	partial          uint64
	// chose: the last choice's root stands for where the game is (no
	// answer heard since, no attempt chosen elsewhere).
	chose bool
	// compactions counts compact's copies (for tests).
	compactions int
	// The opponent's tree (Config.Opponent), grown anew each choice:
	// onodes[0] its root, where we are to move; ocur the node of the line
	// where it stands (a move of its, or the root), -1 off its tree; opath
	// its nodes on the line.
	onodes []onode
	onn    int32
	// keepOpponent: the next choice follows a refusal of this one's, so
	// the opponent's tree holds.
	keepOpponent bool
	ocur         int32
	opath        []int32
	// live is the iterations of the choice in progress (Progress).
	live atomic.Int64
}

// New returns a Searcher.
func New(cfg Config) *Searcher {
	n := max(cfg.MemoryMB<<20/nodeBytes, 1024)
	if cfg.Reuse {
		// Two halves: a tree kept for the next choice is copied, compact,
		// into the other (see compact).
		n = max(n/2, 1024)
	}
	maxONodes := 0
	if cfg.Opponent {
		maxONodes = max(n/2, 1024)
	}
	return &Searcher{
		cfg:       cfg,
		maxNodes:  n,
		maxONodes: maxONodes,
		onodes:    make([]onode, min(maxONodes, firstPool)),
		opath:     make([]int32, 0, 1024),
		ocur:      -1,
		rng:       rand.New(rand.NewPCG(1, 2)),
		ab:        alphabeta.New(),
		nodes:     make([]node, min(n, firstPool)),
		path:      make([]int32, 0, 1024),
		refused:   make([]chess.Move, 0, chess.MaxMoves),
		replies:   make([]replymodel.Move, 0, chess.MaxMoves),
		next:      -1,
		sent:      -1,
	}
}

// NewGame reseeds the search for a game and forgets the tree.
func (s *Searcher) NewGame(seed uint64) {
	s.rng = rand.New(rand.NewPCG(seed, 0xb0a2d7ee))
	s.nn, s.next, s.sent, s.chose, s.keepOpponent, s.onn = 0, -1, -1, false, false, 0
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

// Boards is where a search draws its boards: the belief
// (*belief.State), or a set of boards that explain the game
// (engine/search/particles). Sample must be safe for concurrent use.
type Boards interface {
	// Color is our colour.
	Color() chess.Color
	// Sample draws a board into pos; false when none can be drawn.
	replymodel.Sampler
}

var _ Boards = (*belief.State)(nil)

// Choose searches from the boards of bel, our turn, among moves (the askable
// attempts not refused this turn) within lim, and returns the most visited.
// It stops early when ctx is done.
func (s *Searcher) Choose(ctx context.Context, bel Boards, moves []chess.Move, lim Limits) Result {
	r := Result{Best: -1}
	if len(moves) == 0 {
		return r
	}
	s.us, s.rootMoves = bel.Color(), moves
	root := s.reroot(moves)
	// The opponent does not hear our refusals: after one, its tree still
	// stands for what it knows, unless the pool is mostly used.
	if !s.keepOpponent || int(s.onn) > s.maxONodes*3/4 {
		s.onn = 0
		if s.cfg.Opponent {
			s.newONode(0)
		}
	}
	s.keepOpponent = false
	s.chose = true
	r.Reused = int64(s.nodes[root].visits)
	done := ctx.Done()
	start := time.Now()
	s.live.Store(0)
	for it := int64(0); ; it++ {
		if lim.Time > 0 {
			if it%checkEvery == checkEvery-1 && stoprule.TimeUp(time.Since(start), lim.Time, lim.MaxTime, s.rootLead(it)) {
				break
			}
		} else if it >= max(lim.Iterations, 1) {
			break
		}
		if it%checkEvery == checkEvery-1 {
			s.live.Store(it)
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
	s.live.Store(r.Iterations)
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
	for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
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
	for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
		out = append(out, Root{Move: s.nodes[c].move, Visits: int64(s.nodes[c].visits), Value: s.nodes[c].mean()})
	}
	return out
}

// reroot returns the choice's root, whose attempts are moves in their
// order: the node of what was heard since the last choice, its attempts
// among moves kept with their visits, when reuse is on and the pool has
// room; else a fresh tree.
func (s *Searcher) reroot(moves []chess.Move) int32 {
	r := s.next
	s.next, s.sent = -1, -1
	// Compacting once the pool made so far is half used, rather than half
	// the cap, keeps what was left behind from growing the pool: it grows
	// only for a search whose own tree needs it.
	if s.cfg.Reuse && r >= 0 && int(s.nn) > len(s.nodes)/2 {
		r = s.compact(r)
	}
	if !s.cfg.Reuse || r < 0 || int(s.nn)+len(moves) > s.maxNodes/2 {
		s.nn = 0
		r = s.newNode(decision, 0, chess.NullMove)
		s.expandWith(r, moves)
		s.root = r
		return r
	}
	// Relink the root's attempts in the order of moves: those the tree
	// has keep their subtrees; the rest are new; the others (refused, or
	// not ours to ask now) drop out of the list.
	old := s.nodes[r].child
	prev := int32(-1)
	for _, m := range moves {
		c := int32(-1)
		for x := old; x >= 0; x = s.nodes[x].next {
			if s.nodes[x].move == m {
				c = x
				break
			}
		}
		if c < 0 {
			c = s.newNode(attempt, 0, m)
		}
		if prev < 0 {
			s.nodes[r].child = c
		} else {
			s.nodes[prev].next = c
		}
		prev = c
	}
	s.nodes[prev].next = -1
	s.nodes[r].expanded = true
	s.root = r
	return r
}

// attemptNode returns the last choice's attempt node of m, or -1 when
// that root no longer stands for where the game is.
func (s *Searcher) attemptNode(m chess.Move) int32 {
	ok := s.chose
	s.chose = false
	if !ok {
		return -1
	}
	return s.rootAttempt(m)
}

// answerNode returns attempt node a's child heard as key, or -1.
func (s *Searcher) answerNode(a int32, key uint64) int32 {
	if a < 0 {
		return -1
	}
	for c := s.nodes[a].child; c >= 0; c = s.nodes[c].next {
		if s.nodes[c].key == key && s.nodes[c].kind == decision {
			return c
		}
	}
	return -1
}

// HeardRefused tells the search that attempt m of its last choice was
// refused: the next choice starts from what the tree grew below it.
func (s *Searcher) HeardRefused(m chess.Move) {
	s.keepOpponent = s.chose
	s.next, s.sent = s.answerNode(s.attemptNode(m), keyRefused), -1
}

// HeardOurs tells the search that attempt m of its last choice was played,
// with capture on square sq (chess.NoSquare: none; pawn: a pawn was taken)
// and the checks announced.
func (s *Searcher) HeardOurs(m chess.Move, sq chess.Square, pawn bool, checks [2]chess.CheckKind) {
	s.next, s.sent, s.keepOpponent = -1, s.attemptNode(m), false
	s.partial = heardCapture(sq, pawn) | uint64(checks[0])<<8 | uint64(checks[1])<<11
}

// HeardTheirs tells the search the opponent's reply to our played attempt:
// its capture (as HeardOurs), the checks, and our pawn tries announced.
func (s *Searcher) HeardTheirs(sq chess.Square, pawn bool, checks [2]chess.CheckKind, tries int) {
	key := s.partial | heardCapture(sq, pawn)<<14 | uint64(checks[0])<<22 | uint64(checks[1])<<25 | uint64(min(max(tries, 0), 15))<<28
	s.next, s.sent = s.answerNode(s.sent, key), -1
}

// Forget drops what was heard: the next choice grows a fresh tree (an
// answer the tree does not model, a game over).
func (s *Searcher) Forget() { s.next, s.sent, s.chose, s.keepOpponent = -1, -1, false, false }

// heardCapture is captureKey's encoding of an announced capture.
func heardCapture(sq chess.Square, pawn bool) uint64 {
	if sq == chess.NoSquare {
		return 0
	}
	k := uint64(sq) + 1
	if pawn {
		k |= 1 << 7
	}
	return k
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
	s.opath, s.ocur = s.opath[:0], -1
	if s.onn > 0 {
		s.ocur = 0
		s.opath = append(s.opath, 0)
	}
	s.refused = s.refused[:0]
	s.backup(s.walk(root, 0))
}

// backup adds value to each node of s.path and s.opath.
func (s *Searcher) backup(value float64) {
	for _, i := range s.path {
		s.nodes[i].visits++
		s.nodes[i].sum += float32(value)
	}
	for _, i := range s.opath {
		s.onodes[i].visits++
		s.onodes[i].sum += float32(value)
	}
}

// walk goes down from decision node d, turns of ours into the line, on
// s.board, appending the nodes it passes to s.path, and returns the
// line's value.
func (s *Searcher) walk(d int32, turns int) float64 {
	var value float64
	for {
		n := &s.nodes[d]
		if n.kind == end {
			return value + s.endValue()
		}
		if !n.expanded {
			s.ourAttempts(turns == 0)
			if s.list.N == 0 || !s.expandWith(d, s.list.Slice()) {
				return value + s.leafValue()
			}
		}
		a := s.selectAttempt(d)
		s.path = append(s.path, a)
		key, over, refused := s.play(s.nodes[a].move)
		child, fresh := s.childFor(a, key, over)
		if child < 0 {
			return value + s.leafValue()
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
			return value + s.endValue()
		}
		if fresh || turns >= s.cfg.MaxTurns || len(s.refused) >= 32 {
			return value + s.leafValue()
		}
		d = child
	}
}

// Ponder grows the tree below our last played attempt (HeardOurs) while
// the opponent is to move: each iteration draws a board from bel (the
// opponent's turn) and plays its reply there, so that the node the reply
// we hear leads to has visits when our turn comes. It runs iterations
// iterations, or until ctx is done when iterations is 0, and returns how
// many it ran; nothing when there is no played attempt to grow.
func (s *Searcher) Ponder(ctx context.Context, bel Boards, iterations int64) int64 {
	a := s.sent
	if !s.cfg.Reuse || a < 0 || int(s.nn) > s.maxNodes*3/4 {
		return 0
	}
	s.us = bel.Color()
	last := chess.NoSquare
	if s.partial&0x7f != 0 {
		last = s.nodes[a].move.To()
	}
	done := ctx.Done()
	var n int64
	for ; iterations == 0 || n < iterations; n++ {
		if n%checkEvery == checkEvery-1 && int(s.nn) > s.maxNodes*3/4 {
			break
		}
		if iterations == 0 && n%checkEvery == 0 {
			select {
			case <-done:
				return n
			default:
			}
		}
		if !bel.Sample(s.rng, &s.board) {
			break
		}
		s.path = append(s.path[:0], a)
		s.refused = s.refused[:0]
		s.opath, s.ocur = s.opath[:0], -1
		key, over := s.reply(s.partial, last)
		child, fresh := s.childFor(a, key, over)
		switch {
		case child < 0:
			s.backup(s.leafValue())
			continue
		case over:
			s.path = append(s.path, child)
			s.backup(s.endValue())
			continue
		case fresh:
			s.path = append(s.path, child)
			s.backup(s.leafValue())
			continue
		}
		s.path = append(s.path, child)
		s.backup(s.walk(child, 1))
	}
	return n
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
	key, over = s.reply(key, last)
	return key, over, false
}

// reply plays the opponent's reply on s.board (its turn) by the policy,
// last the square of our man that just captured (or NoSquare), and
// returns key (what we heard of our attempt) with what we hear of the
// reply, and whether the game ended.
func (s *Searcher) reply(key uint64, last chess.Square) (uint64, bool) {
	b := &s.board
	s.replies = replymodel.Describe(b, last, &s.list, s.replies[:0])
	if len(s.replies) == 0 {
		return key | keyOver, true // a board drawn for a ponder where the game is over
	}
	var r chess.Move
	if s.ocur >= 0 {
		r = s.list.Moves[s.opponentChooses(key|uint64(min(b.PawnTries(), 15))<<14)]
	} else {
		r = s.list.Moves[s.pickReply()]
	}
	theirCap := captureKey(b, r)
	b.Make(r)
	c1, c2 := b.CheckKinds()
	key |= theirCap<<14 | uint64(c1)<<22 | uint64(c2)<<25
	if !b.HasLegalMove() {
		return key | keyOver, true
	}
	return key | uint64(min(b.PawnTries(), 15))<<28, false
}

// captureKey is what the referee says of m's capture on b: 0 for none,
// else the square and whether a pawn was taken (wild 16's kinds).
func captureKey(b *chess.Position, m chess.Move) uint64 {
	sq := b.CapturedSquare(m)
	if sq == chess.NoSquare {
		return 0
	}
	return heardCapture(sq, b.PieceAt(sq).Type() == chess.Pawn)
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
