package particles

import (
	"math"
	"math/rand/v2"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/alphabeta"
	"kriegbot/engine/search/replymodel"
	"kriegbot/engine/umpire"
)

// Config sets a filter.
type Config struct {
	// N is the number of boards kept.
	N int
	// Weights are the opponent's reply policy (the transition model).
	Weights replymodel.Weights
	// Shape weighs each reply by the belief's chance of a man of its class
	// on the square it goes to, raised to Shape (0: the policy alone): the
	// density model's sense of where the opponent's men go.
	Shape float64
	// Develop weighs each reply by what it gains on the piece-square
	// tables (engine/search/alphabeta), per pawn: the opponent develops
	// its men rather than move them at random.
	Develop float64
	// MinAlive is the boards that must explain an answer (survive it)
	// for the set to stand; with fewer the set is refilled from the
	// belief.
	MinAlive int
}

// DefaultConfig returns the filter's settings.
func DefaultConfig() Config {
	return Config{N: 512, Weights: replymodel.DefaultWeights(), MinAlive: 16}
}

// Filter is the set of boards. Updates are not safe for concurrent use;
// Sample is, between updates.
type Filter struct {
	cfg     Config
	squares alphabeta.Squares
	bel     *belief.State
	src     *rand.PCG
	rng     *rand.Rand
	// live: the set stands for the game (a known start, wild 16's answers
	// heard so far); else Sample draws from the belief.
	live          bool
	boards, spare []chess.Position
	weight        []float64
	// refused are this turn's refused attempts (a refill's boards must
	// refuse them too).
	refused []chess.Move
	// last is the square of our last capture, if our last move took
	// (the policy's recapture), else NoSquare.
	last  chess.Square
	list  chess.MoveList
	moves []replymodel.Move
	probs [chess.MaxMoves]float64
	// Refills counts the refills from the belief this game.
	Refills int
}

// New returns a filter that draws from bel until Reset.
func New(cfg Config, bel *belief.State) *Filter {
	cfg.N = max(cfg.N, 1)
	src := rand.NewPCG(1, 3)
	return &Filter{
		cfg:     cfg,
		squares: alphabeta.NewSquares(),
		bel:     bel,
		src:     src,
		rng:     rand.New(src),
		boards:  make([]chess.Position, 0, cfg.N),
		spare:   make([]chess.Position, 0, cfg.N),
		weight:  make([]float64, cfg.N),
		refused: make([]chess.Move, 0, chess.MaxMoves),
		moves:   make([]replymodel.Move, 0, chess.MaxMoves),
	}
}

// Reset starts a game from start, every board the same, its draws seeded
// by seed.
func (f *Filter) Reset(start *chess.Position, seed uint64) {
	f.src.Seed(seed, 0x9a27c1e5)
	f.boards = f.boards[:0]
	for range f.cfg.N {
		f.boards = append(f.boards, *start)
	}
	f.refused = f.refused[:0]
	f.live, f.Refills, f.last = true, 0, chess.NoSquare
}

// Stop makes the filter draw from the belief for the rest of the game (an
// answer it does not model, a hidden start).
func (f *Filter) Stop() { f.live, f.boards = false, f.boards[:0] }

// Live reports whether the set stands for the game.
func (f *Filter) Live() bool { return f.live }

// Len returns the boards in the set (0 when not live).
func (f *Filter) Len() int { return len(f.boards) }

// Board returns board i of the set.
func (f *Filter) Board(i int) *chess.Position { return &f.boards[i] }

// Color is our colour (the belief's).
func (f *Filter) Color() chess.Color { return f.bel.Color() }

// Sample copies a board of the set, chosen by rng, into pos; from the
// belief when the set is not live. It reads the set only.
func (f *Filter) Sample(rng *rand.Rand, pos *chess.Position) bool {
	if !f.live || len(f.boards) == 0 {
		return f.bel.Sample(rng, pos)
	}
	*pos = f.boards[rng.IntN(len(f.boards))]
	return true
}

// Hear updates the set with a wild 16 answer we heard: a refusal of our
// attempt m, our move m, or the opponent's reply. Any other answer (a
// verdict wild 16 does not have) stops the set.
func (f *Filter) Hear(m chess.Move, v umpire.View) {
	switch {
	case v.Own && v.Illegal:
		f.Refused(m)
	case v.Verdict != umpire.IllegalMove:
		f.Stop()
	case v.Own:
		f.Ours(m, v)
	default:
		f.Theirs(v)
	}
}

// Refused keeps the boards on which our attempt m is illegal.
func (f *Filter) Refused(m chess.Move) {
	if !f.live {
		return
	}
	f.refused = append(f.refused, m)
	n := 0
	for i := range f.boards {
		if !f.boards[i].IsLegal(m) {
			f.boards[n] = f.boards[i]
			n++
		}
	}
	f.boards = f.boards[:n]
	f.settle(n)
}

// Ours plays our accepted attempt m on every board that answers it as v
// did (capture, checks, the opponent's pawn tries) and drops the rest.
func (f *Filter) Ours(m chess.Move, v umpire.View) {
	if !f.live {
		return
	}
	f.refused = f.refused[:0]
	f.last = chess.NoSquare
	if v.Capture.Kind != umpire.NoCapture {
		f.last = m.To()
	}
	n := 0
	for i := range f.boards {
		b := &f.boards[i]
		if !b.IsLegal(m) || !sameCapture(b, m, v.Capture) {
			continue
		}
		b.Make(m)
		if !heardAfter(b, v) {
			continue
		}
		f.boards[n] = *b
		n++
	}
	f.boards = f.boards[:n]
	f.settle(n)
}

// Theirs draws the opponent's reply on every board from the policy among
// the replies heard as v, weighs each board by the policy's chance of
// those, and resamples the set in proportion.
func (f *Filter) Theirs(v umpire.View) {
	if !f.live {
		return
	}
	f.refused = f.refused[:0]
	total, alive := 0.0, 0
	for i := range f.boards {
		f.weight[i] = f.reply(&f.boards[i], v)
		total += f.weight[i]
		if f.weight[i] > 0 {
			alive++
		}
	}
	if total <= 0 {
		f.boards = f.boards[:0]
		f.settle(0)
		return
	}
	// Systematic resampling into spare.
	f.spare = f.spare[:0]
	step := total / float64(f.cfg.N)
	x := f.rng.Float64() * step
	acc, j := 0.0, 0
	for range f.cfg.N {
		for j < len(f.boards)-1 && acc+f.weight[j] <= x {
			acc += f.weight[j]
			j++
		}
		f.spare = append(f.spare, f.boards[j])
		x += step
	}
	f.boards, f.spare = f.spare, f.boards
	f.settle(alive)
}

// reply plays on b a reply heard as v, drawn from the policy, and returns
// the policy's chance of the replies heard so (0: none is, b is dropped).
func (f *Filter) reply(b *chess.Position, v umpire.View) float64 {
	f.moves = replymodel.Describe(b, f.last, &f.list, f.moves[:0])
	if len(f.moves) == 0 {
		return 0
	}
	w := f.probs[:len(f.moves)]
	for i := range f.moves {
		w[i] = f.cfg.Weights.Score(&f.moves[i]) + f.shape(b, f.list.Moves[i])
		if f.cfg.Develop != 0 {
			w[i] += f.cfg.Develop * float64(f.squares.Gain(b, f.list.Moves[i])) / 100
		}
	}
	all, heard := replymodel.Exps(w), 0.0
	for i := range w {
		m := f.list.Moves[i]
		if !sameCapture(b, m, v.Capture) {
			w[i] = -w[i] // not heard: kept in all, out of the draw
			continue
		}
		c := *b
		c.Make(m)
		if !heardAfter(&c, v) {
			w[i] = -w[i]
			continue
		}
		heard += w[i]
	}
	if heard <= 0 {
		return 0
	}
	x := f.rng.Float64() * heard
	pick := -1
	for i := range w {
		if w[i] <= 0 {
			continue
		}
		pick = i
		x -= w[i]
		if x <= 0 {
			break
		}
	}
	b.Make(f.list.Moves[pick])
	return heard / all
}

// shape is the log of the belief's chance, to the power Shape, of the
// class of the man m moves on the square it goes to.
func (f *Filter) shape(b *chess.Position, m chess.Move) float64 {
	if f.cfg.Shape == 0 {
		return 0
	}
	c := oppmodel.ClassOf(b.PieceAt(m.From()).Type())
	if m.Promotion() != chess.NoPieceType {
		c = oppmodel.ClassOf(m.Promotion())
	}
	return f.cfg.Shape * math.Log(f.bel.Prob(c, m.To())+1e-3)
}

// settle refills the set from the belief when fewer than MinAlive boards
// explained the last answer (alive): half the set from the survivors, the
// rest drawn. Copies of one board are not refilled: where we know the
// board (the opening), the set rightly holds it alone, and the
// opponent's replies spread the copies again.
func (f *Filter) settle(alive int) {
	if alive >= min(f.cfg.MinAlive, f.cfg.N) {
		return
	}
	f.Refills++
	f.spare = f.spare[:0]
	if len(f.boards) > 0 {
		for i := range f.cfg.N / 2 {
			f.spare = append(f.spare, f.boards[i%len(f.boards)])
		}
	}
	var p chess.Position
	for try := 0; len(f.spare) < f.cfg.N && try < 8*f.cfg.N; try++ {
		if !f.bel.Sample(f.rng, &p) || allowsRefused(&p, f.refused) {
			continue
		}
		f.spare = append(f.spare, p)
	}
	f.boards, f.spare = f.spare, f.boards
}

// allowsRefused reports whether one of the refused attempts is legal on b.
func allowsRefused(b *chess.Position, refused []chess.Move) bool {
	for _, m := range refused {
		if b.IsLegal(m) {
			return true
		}
	}
	return false
}

// sameCapture reports whether m on b captures as c says.
func sameCapture(b *chess.Position, m chess.Move, c umpire.Capture) bool {
	sq := b.CapturedSquare(m)
	if c.Kind == umpire.NoCapture {
		return sq == chess.NoSquare
	}
	if sq != c.Square {
		return false
	}
	pawn := b.PieceAt(sq).Type() == chess.Pawn
	return pawn == (c.Kind == umpire.PawnCaptured)
}

// heardAfter reports whether b, just after a move, gives the checks and
// pawn tries v announced.
func heardAfter(b *chess.Position, v umpire.View) bool {
	c1, c2 := b.CheckKinds()
	if !(c1 == v.Checks[0] && c2 == v.Checks[1] || c1 == v.Checks[1] && c2 == v.Checks[0]) {
		return false
	}
	return v.PawnTries < 0 || b.PawnTries() == v.PawnTries
}

// Occupancy fills occ with the share of the set's boards that hold a man
// of colour c of each class on each square (zero when the set is empty).
func (f *Filter) Occupancy(c chess.Color, occ *[3][64]float64) {
	*occ = [3][64]float64{}
	for i := range f.boards {
		b := &f.boards[i]
		for x := b.ByColor(c); x != 0; {
			sq := x.PopFirst()
			occ[oppmodel.ClassOf(b.PieceAt(sq).Type())][sq] += 1 / float64(len(f.boards))
		}
	}
}

// OccupancyLoss is the mean log-loss, over the 64 squares and the three
// classes, of where colour c's men stand on truth under chances p (each
// clipped to [0.001, 0.999]): how well a belief or a set places them.
func OccupancyLoss(p func(oppmodel.Class, chess.Square) float64, truth *chess.Position, c chess.Color) float64 {
	loss := 0.0
	for cl := oppmodel.King; cl <= oppmodel.Piece; cl++ {
		for sq := range chess.Square(64) {
			q := min(max(p(cl, sq), 1e-3), 1-1e-3)
			if pc := truth.PieceAt(sq); pc != chess.NoPiece && pc.Color() == c && oppmodel.ClassOf(pc.Type()) == cl {
				loss -= math.Log(q)
			} else {
				loss -= math.Log(1 - q)
			}
		}
	}
	return loss / (3 * 64)
}
