package replymodel

import (
	"math"
	"math/rand/v2"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// Events is the number of reply events: a capture on each square, then
// NoCapture.
const Events = 65

// NoCapture is the event of a reply that takes nothing.
const NoCapture = 64

// Dist is a distribution over the reply events.
type Dist [Events]float64

// Event returns the event of a reply heard: the captured man's square, or
// NoCapture for chess.NoSquare.
func Event(captured chess.Square) int {
	if captured > 63 {
		return NoCapture
	}
	return int(captured)
}

// Today fills d with approach C's model: each of our men taken with its
// ReplyCaptureRisk, the rest no capture (risks summing over 1, as after a
// capture on a surely controlled square, are scaled down to 1).
func Today(bel *belief.State, d *Dist) {
	var risk [64]float32
	bel.ReplyCaptureRisk(&risk)
	sum := 0.0
	for _, r := range risk {
		sum += float64(r)
	}
	scale := 1.0
	if sum > 1 {
		scale = 1 / sum
	}
	for sq, r := range risk {
		d[sq] = float64(r) * scale
	}
	d[NoCapture] = max(1-sum*scale, 0)
}

// Feature indexes a move's features for the policy.
type Feature int

// The policy's features, each of an opponent's legal move on a board.
const (
	// Capture is 1 for a capture.
	Capture Feature = iota
	// Value is the taken man's value in pawns (pawn 1, knight and bishop
	// 3, rook 5, queen 9).
	Value
	// Recapture is 1 for a capture on the square where we last captured
	// (the opponent heard it).
	Recapture
	// PawnTake is 1 for a capture by a pawn (the pawn tries told it the
	// capture exists).
	PawnTake
	// Balance is the exchange's balance for the taker in pawns, the taken
	// man less the taker where the square is ours to take back, clipped
	// to ±9.
	Balance
	// Check is 1 for a move that checks our king.
	Check
	// NumFeatures counts the features.
	NumFeatures
)

// Weights weigh the features in the policy π(m) ∝ exp(Σ w·f(m)).
type Weights [NumFeatures]float64

// DefaultWeights returns weights fitted by kriegbot replyloss -fit on 20
// games of mcts's self-play at 300 nodes (docs/strength/replymodel.md): a
// capture is less likely than a quiet move, but a recapture and a pawn's
// capture (the tries tell it) are nearly certain.
func DefaultWeights() Weights {
	return Weights{Capture: -0.75, Value: 0.1, Recapture: 4, PawnTake: 6.7, Balance: 0.075, Check: 0.19}
}

// values is each piece type's value in pawns.
var values = [...]int8{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9, chess.King: 0}

// Move is one legal move of the opponent on a board, as the policy sees it.
type Move struct {
	Event int8 // the reply event it makes: the square taken, or NoCapture
	F     [NumFeatures]int8
}

// Describe appends to dst each legal move of pos (the opponent to move)
// with its event and features, lastCapture being where we last captured
// (chess.NoSquare for none).
func Describe(pos *chess.Position, lastCapture chess.Square, list *chess.MoveList, dst []Move) []Move {
	list.N = 0
	pos.GenerateLegal(list)
	us := pos.Side().Other()
	for _, m := range list.Slice() {
		mv := Move{Event: NoCapture}
		if pos.IsCapture(m) {
			sq := pos.CapturedSquare(m)
			taken := values[pos.PieceAt(sq).Type()]
			taker := values[pos.PieceAt(m.From()).Type()]
			bal := taken
			child := *pos
			child.Make(m)
			if child.IsAttacked(m.To(), us) {
				bal -= taker
			}
			mv.Event = int8(sq)
			mv.F[Capture], mv.F[Value], mv.F[Balance] = 1, taken, max(min(bal, 9), -9)
			if sq == lastCapture {
				mv.F[Recapture] = 1
			}
			if pos.PieceAt(m.From()).Type() == chess.Pawn {
				mv.F[PawnTake] = 1
			}
			if child.InCheck() {
				mv.F[Check] = 1
			}
		} else {
			child := *pos
			child.Make(m)
			if child.InCheck() {
				mv.F[Check] = 1
			}
		}
		dst = append(dst, mv)
	}
	return dst
}

// AddPolicy adds to d, weighted by share, the distribution of events that
// the policy w gives over moves (one board's legal moves).
func AddPolicy(w *Weights, moves []Move, share float64, d *Dist) {
	if len(moves) == 0 {
		return
	}
	var e [chess.MaxMoves]float64
	for i := range moves {
		e[i] = w.score(&moves[i])
	}
	sum := Exps(e[:len(moves)])
	for i := range moves {
		d[moves[i].Event] += share * e[i] / sum
	}
}

// Exps sets each of scores, a policy's exponents, to exp(score − the
// largest), so that they stand in proportion to its chances without
// overflow, and returns their sum.
func Exps(scores []float64) float64 {
	top := math.Inf(-1)
	for _, x := range scores {
		top = max(top, x)
	}
	sum := 0.0
	for i, x := range scores {
		scores[i] = math.Exp(x - top)
		sum += scores[i]
	}
	return sum
}

// Score is the policy's exponent for m: π(m) ∝ exp(Score(m)).
func (w *Weights) Score(m *Move) float64 { return w.score(m) }

func (w *Weights) score(m *Move) float64 {
	s := 0.0
	for f, x := range m.F {
		s += w[f] * float64(x)
	}
	return s
}

// Boards predicts replies on boards drawn from a belief. Not safe for
// concurrent use; it allocates nothing per prediction once made.
type Boards struct {
	W     Weights
	rng   *rand.Rand
	board chess.Position
	list  chess.MoveList
	moves []Move
}

// NewBoards returns a predictor with weights w, its draws seeded by seed.
func NewBoards(w Weights, seed uint64) *Boards {
	return &Boards{W: w, rng: rand.New(rand.NewPCG(seed, 0x7e91)), moves: make([]Move, 0, chess.MaxMoves)}
}

// Sampler draws boards: the belief (*belief.State), or a set of boards
// that explain the game (engine/search/particles).
type Sampler interface {
	Sample(rng *rand.Rand, pos *chess.Position) bool
}

var _ Sampler = (*belief.State)(nil)

// Predict fills d with the events' chances averaged over n boards drawn
// from bel (the opponent to move), lastCapture as in Describe. It returns
// the boards drawn; with none, d is all zero. Each board's moves are
// passed to each, if not nil, before they are used (to keep them).
func (b *Boards) Predict(bel Sampler, lastCapture chess.Square, n int, d *Dist, each func([]Move)) int {
	*d = Dist{}
	got := 0
	for range n {
		if !bel.Sample(b.rng, &b.board) {
			continue
		}
		b.moves = Describe(&b.board, lastCapture, &b.list, b.moves[:0])
		if each != nil {
			each(b.moves)
		}
		AddPolicy(&b.W, b.moves, 1, d)
		got++
	}
	if got > 0 {
		for e := range d {
			d[e] /= float64(got)
		}
	}
	return got
}

// Draw draws one board from bel into the predictor's board (see Board); it
// reports whether one was found.
func (b *Boards) Draw(bel Sampler) bool { return bel.Sample(b.rng, &b.board) }

// Board returns the last board drawn.
func (b *Boards) Board() *chess.Position { return &b.board }

// Hanging counts the men of the side not to move, its king aside, that the
// side to move attacks and that are either undefended or worth more than
// the least of their attackers: men a player who saw them would not leave.
func Hanging(pos *chess.Position) int { return HangingBut(pos, 0) }

// HangingBut is Hanging without the men on the squares in skip.
func HangingBut(pos *chess.Position, skip chess.Bitboard) int {
	us := pos.Side()
	them := us.Other()
	occ := pos.Occupied()
	n := 0
	for b := pos.ByColor(them) &^ pos.ByType(chess.King) &^ skip; b != 0; {
		sq := b.PopFirst()
		at := pos.AttackersTo(sq, occ)
		ours := at & pos.ByColor(us)
		if ours == 0 {
			continue
		}
		if at&pos.ByColor(them) == 0 {
			n++
			continue
		}
		// Defended: only a cheaper attacker wins it (a king never takes a
		// defended man).
		for a := ours &^ pos.ByType(chess.King); a != 0; {
			if values[pos.PieceAt(a.PopFirst()).Type()] < values[pos.PieceAt(sq).Type()] {
				n++
				break
			}
		}
	}
	return n
}
