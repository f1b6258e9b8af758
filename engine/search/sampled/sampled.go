package sampled

import (
	"context"
	"math"
	"math/rand/v2"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/alphabeta"
	"kriegbot/engine/search/replymodel"
)

// Config sets the scorer's weights.
type Config struct {
	// Worst is the weight of an attempt's worst board in its score, the
	// rest going to its mean over the boards (StrangeFish: 0.3).
	Worst float64
	// Clip bounds a board's score, in centipawns, so that one mate on one
	// guessed board does not outweigh the rest.
	Clip int32
	// Refusal is what an attempt refused on a board costs against the value
	// standing in for it (NextBest), in centipawns.
	Refusal int32
	// Growth sets how a budget splits between boards and depth: each board's
	// searches get Growth nodes for each board drawn, so four times the work
	// gives twice the boards and twice the nodes a search.
	Growth int64
	// MinBoards is the fewest boards drawn when the budget allows fewer.
	MinBoards int
	// NextBest values an attempt a board refuses as the attempt we would
	// play there next: the best-ranked one legal on that board (ranked by
	// its mean over the boards where it is legal), less Refusal. Without it,
	// as the board's own value less Refusal: what a player seeing the board
	// would get, so likely refusals score as well as the best move.
	NextBest bool
	// Hanging is the chance that a board drawn with one of the opponent's
	// men hanging (replymodel.Hanging) is drawn again: the belief's
	// sampler leaves men hanging on 37 % of the boards where the true
	// boards of match records have 23 % (kriegbot replyloss), and 0.5 evens
	// it. Up to maxRedraws draws a board. A man whose square the belief
	// is sure of (knownShare), as one that has just taken our man, is
	// where it is, hanging or not.
	Hanging float64
	// Policy scores an attempt on a board by the opponent's replies as the
	// reply model (replymodel, Weights) has it choose: each capture or
	// check it plays with a share of at least MinShare searched, its
	// quiet moves together as a pass; the opponent of the searches below
	// sees the board. Without it (or when the attempt checks) the
	// opponent's first reply is the board's best, as a player seeing our
	// men would play.
	Policy   bool
	Weights  replymodel.Weights
	MinShare float64
	// QuietMoves, when over 0, stands for the opponent's quiet moves by
	// that many of them drawn at random, instead of a pass (which leaves
	// its men where our next move finds them: a man that has just taken
	// ours stays to be taken back).
	QuietMoves int
	// TableBits sizes the searches' transposition table, 2^TableBits
	// entries kept for a whole game (0: none): the attempts on one board
	// share their positions, and the boards of one game many.
	TableBits int
}

// maxRedraws bounds the draws of one board under Config.Hanging.
const maxRedraws = 8

// knownShare is the belief's chance of a man on a square from which
// Config.Hanging takes it as known.
const knownShare = 0.9

// DefaultConfig returns the weights the prototype was measured with.
func DefaultConfig() Config {
	return Config{Worst: 0.3, Clip: 2000, Refusal: 10, Growth: 64, MinBoards: 4, NextBest: true,
		Weights: replymodel.DefaultWeights(), MinShare: 0.02}
}

// MaxBoards bounds the boards drawn for one choice.
const MaxBoards = 1024

// refused marks a value not yet known: the board refuses the attempt.
const refused = math.MinInt32

// Scorer scores attempts on sampled boards. It allocates nothing per board
// or search once made. Not safe for concurrent use.
type Scorer struct {
	cfg   Config
	ab    *alphabeta.Searcher
	rng   *rand.Rand
	board chess.Position
	child chess.Position
	sum   [chess.MaxMoves]float64
	worst [chess.MaxMoves]int32
	// vals holds each board's value of each attempt, n a board.
	vals  []int32
	order [chess.MaxMoves]int
	// The opponent's replies on a board under Config.Policy.
	grand   chess.Position
	list    chess.MoveList
	replies []replymodel.Move
	share   [chess.MaxMoves]float64
}

// New returns a scorer with cfg.
func New(cfg Config) *Scorer {
	return &Scorer{cfg: cfg, ab: alphabeta.NewWithTable(cfg.TableBits), rng: rand.New(rand.NewPCG(0, 0)), vals: make([]int32, MaxBoards*chess.MaxMoves),
		replies: make([]replymodel.Move, 0, chess.MaxMoves)}
}

// NewGame reseeds the board draws: the same seed and budgets give the same
// choices.
func (s *Scorer) NewGame(seed uint64) {
	s.rng = rand.New(rand.NewPCG(seed, 0x5a3b1ed))
	s.ab.Clear()
}

// Result is one choice.
type Result struct {
	// Best indexes the chosen attempt; -1 when no board could be drawn.
	Best int
	// Boards is the number of boards scored, Nodes the alpha-beta nodes
	// spent, Depth the deepest search completed on the last board.
	Boards int
	Nodes  int64
	Depth  int
	// Score is the chosen attempt's combined score, in centipawns.
	Score float64
}

// Plan returns how a budget of nodes splits for n attempts: boards drawn
// and nodes per search (each board costs n+1 searches: the attempts and the
// board itself, which values the refusals).
func (s *Scorer) Plan(nodes int64, n int) (boards int, perSearch int64) {
	searches := int64(n + 1)
	b := int(math.Sqrt(float64(nodes) / float64(s.cfg.Growth*searches)))
	boards = min(max(b, s.cfg.MinBoards), MaxBoards)
	return boards, max(nodes/(int64(boards)*searches), 1)
}

// Choose scores moves (our askable attempts, our turn in bel) on boards drawn
// from bel within about nodes alpha-beta nodes, and returns the best. It
// stops early, with the boards scored so far, when ctx is done (once at
// least one board is scored).
func (s *Scorer) Choose(ctx context.Context, bel *belief.State, moves []chess.Move, nodes int64) Result {
	n := len(moves)
	r := Result{Best: -1}
	if n == 0 {
		return r
	}
	boards, per := s.Plan(nodes, n)
	var known chess.Bitboard
	if s.cfg.Hanging > 0 {
		for sq := range chess.Square(64) {
			if bel.Prob(oppmodel.King, sq)+bel.Prob(oppmodel.Pawn, sq)+bel.Prob(oppmodel.Piece, sq) >= knownShare {
				known |= sq.Bit()
			}
		}
	}
	misses := 0
	for r.Boards < boards && misses <= boards {
		if r.Boards > 0 && ctx.Err() != nil {
			break
		}
		if !s.draw(bel, known) {
			misses++
			continue
		}
		row := s.vals[r.Boards*n : (r.Boards+1)*n]
		base := int32(refused)
		if !s.cfg.NextBest {
			v, _ := s.ab.Value(&s.board, per)
			r.Nodes += s.ab.Nodes()
			base = s.clip(v - s.cfg.Refusal)
		}
		for j, m := range moves {
			row[j] = base
			if s.board.IsLegal(m) {
				row[j] = s.clip(s.attempt(m, per, &r))
			}
		}
		r.Boards++
	}
	if r.Boards == 0 {
		return r
	}
	if s.cfg.NextBest {
		s.fillRefused(n, r.Boards)
	}
	for j := range n {
		s.sum[j], s.worst[j] = 0, s.cfg.Clip
	}
	for k := range r.Boards {
		for j, v := range s.vals[k*n : (k+1)*n] {
			s.sum[j] += float64(v)
			s.worst[j] = min(s.worst[j], v)
		}
	}
	for j := range n {
		sc := s.score(j, r.Boards)
		if r.Best < 0 || sc > r.Score {
			r.Best, r.Score = j, sc
		}
	}
	return r
}

// draw draws a board from bel, drawing again (up to maxRedraws draws) with
// chance Config.Hanging while one of the opponent's men off the known
// squares hangs on it.
func (s *Scorer) draw(bel *belief.State, known chess.Bitboard) bool {
	for range maxRedraws - 1 {
		if !bel.Sample(s.rng, &s.board) {
			return false
		}
		if s.cfg.Hanging == 0 || replymodel.HangingBut(&s.board, known) == 0 || s.rng.Float64() >= s.cfg.Hanging {
			return true
		}
	}
	return bel.Sample(s.rng, &s.board)
}

// attempt is legal attempt m's value on the board for us, searched within
// about per nodes.
func (s *Scorer) attempt(m chess.Move, per int64, r *Result) int32 {
	s.child = s.board
	s.child.Make(m)
	if !s.cfg.Policy || s.child.InCheck() {
		return s.attemptParanoid(per, r)
	}
	last := chess.NoSquare
	if s.board.IsCapture(m) {
		last = m.To()
	}
	s.replies = replymodel.Describe(&s.child, last, &s.list, s.replies[:0])
	if len(s.replies) == 0 {
		return 0 // stalemate: checks were searched above
	}
	top := math.Inf(-1)
	for i := range s.replies {
		top = max(top, s.cfg.Weights.Score(&s.replies[i]))
	}
	total, quiet := 0.0, 0.0
	for i := range s.replies {
		s.share[i] = math.Exp(s.cfg.Weights.Score(&s.replies[i]) - top)
		total += s.share[i]
	}
	searches := 0
	for i := range s.replies {
		s.share[i] /= total
		if s.quiet(i) {
			quiet += s.share[i]
		} else if s.share[i] >= s.cfg.MinShare {
			searches++
		}
	}
	nquiet := 0
	if quiet > 0 {
		nquiet = 1
		if s.cfg.QuietMoves > 0 {
			nquiet = s.cfg.QuietMoves
		}
		searches += nquiet
	}
	sub := max(per/int64(max(searches, 1)), 1)
	v, covered := 0.0, 0.0
	for i := range s.replies {
		if s.quiet(i) || s.share[i] < s.cfg.MinShare {
			continue
		}
		s.grand = s.child
		s.grand.Make(s.list.Moves[i])
		w, d := s.ab.Value(&s.grand, sub)
		r.Nodes += s.ab.Nodes()
		r.Depth = d
		v += s.share[i] * float64(w)
		covered += s.share[i]
	}
	if quiet > 0 {
		quiets := 0
		for i := range s.replies {
			if s.quiet(i) {
				quiets++
			}
		}
		for range nquiet {
			s.grand = s.child
			if s.cfg.QuietMoves > 0 {
				s.grand.Make(s.list.Moves[s.nthQuiet(s.rng.IntN(quiets))])
			} else {
				s.grand.MakeNull()
			}
			w, d := s.ab.Value(&s.grand, sub)
			r.Nodes += s.ab.Nodes()
			r.Depth = d
			v += quiet / float64(nquiet) * float64(w)
		}
		covered += quiet
	}
	if covered == 0 {
		return s.attemptParanoid(per, r)
	}
	return int32(math.Round(v / covered))
}

// attemptParanoid is the value of the attempt made on s.child when the
// opponent replies as if it saw the board.
func (s *Scorer) attemptParanoid(per int64, r *Result) int32 {
	w, d := s.ab.Value(&s.child, per)
	r.Nodes += s.ab.Nodes()
	r.Depth = d
	return -w
}

// nthQuiet returns the index of the n-th quiet reply (from 0).
func (s *Scorer) nthQuiet(n int) int {
	for i := range s.replies {
		if s.quiet(i) {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1 // n beyond the quiet replies: never asked
}

// quiet reports whether reply i takes nothing and gives no check.
func (s *Scorer) quiet(i int) bool {
	return s.replies[i].Event == replymodel.NoCapture && s.replies[i].F[replymodel.Check] == 0
}

func (s *Scorer) clip(v int32) int32 { return min(max(v, -s.cfg.Clip), s.cfg.Clip) }

// fillRefused gives each refused attempt on each board the value there of
// the best-ranked attempt legal on it, less Refusal: attempts are ranked by
// their mean over the boards where they are legal (those legal on none
// last), the order in which we would try them.
func (s *Scorer) fillRefused(n, boards int) {
	for j := range n {
		s.sum[j], s.worst[j] = 0, 0 // worst counts the boards here
		s.order[j] = j
	}
	for k := range boards {
		for j, v := range s.vals[k*n : (k+1)*n] {
			if v != refused {
				s.sum[j] += float64(v)
				s.worst[j]++
			}
		}
	}
	mean := func(j int) float64 {
		if s.worst[j] == 0 {
			return math.Inf(-1)
		}
		return s.sum[j] / float64(s.worst[j])
	}
	// Insertion sort, stable: n is small and sort.Slice would allocate.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && mean(s.order[j]) > mean(s.order[j-1]); j-- {
			s.order[j], s.order[j-1] = s.order[j-1], s.order[j]
		}
	}
	for k := range boards {
		row := s.vals[k*n : (k+1)*n]
		fill := int32(0) // no attempt legal: cannot happen on a legal board
		for _, j := range s.order[:n] {
			if row[j] != refused {
				fill = s.clip(row[j] - s.cfg.Refusal)
				break
			}
		}
		for j, v := range row {
			if v == refused {
				row[j] = fill
			}
		}
	}
}

// score is attempt j's combined score over boards boards.
func (s *Scorer) score(j, boards int) float64 {
	return (1-s.cfg.Worst)*s.sum[j]/float64(boards) + s.cfg.Worst*float64(s.worst[j])
}

// Scores appends each of the last choice's n attempts' combined score over
// boards boards to dst (for inspection and tests).
func (s *Scorer) Scores(dst []float64, n, boards int) []float64 {
	for j := range n {
		dst = append(dst, s.score(j, max(boards, 1)))
	}
	return dst
}
