package opponent

import (
	"math"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// EvalFloor is the least probability Evaluate charges for a unit's square,
// so that a square the model never saw costs log2(1/EvalFloor) ≈ 13.3 bits
// instead of infinity.
const EvalFloor = 1e-4

// MoveScore is how well a model predicts where one colour's units of one
// class stand after one move number of held-out games: -log2 D(square) per
// unit, each game's units averaged so that every game weighs 1, against a
// uniform guess over the squares the class may stand on (64, or 48 for
// pawns). Bits/Games is the model's mean; Uniform/Games the baseline's.
type MoveScore struct {
	Games   float64 // games scored
	Bits    float64 // total bits the model needs
	Uniform float64 // total bits the uniform guess needs
	Floored float64 // weight of units on squares the model gives less than EvalFloor
}

// Evaluate scores model m on held-out counts c (built from other games than
// m's): for each colour, class and move number served by m, the bits per
// unit. Exact: it reads the held-out counts' masses, not samples.
func Evaluate(m *oppmodel.Model, c *oppmodel.Counts) (out [2][oppmodel.NumClasses][]MoveScore) {
	for col := range 2 {
		for cls := range oppmodel.NumClasses {
			out[col][cls] = make([]MoveScore, c.Horizon+1)
			uniform := math.Log2(64)
			if cls == oppmodel.Pawn {
				uniform = math.Log2(48)
			}
			for t := 0; t <= c.Horizon; t++ {
				d, ok := m.Occupancy(chess.Color(col), cls, t)
				if !ok {
					continue
				}
				var s MoveScore
				row := &c.Mass[col][cls][t]
				for sq, mass := range row {
					if mass == 0 {
						continue
					}
					w := float64(mass) / oppmodel.MassScale // a row sums to one per game
					p := float64(d[sq])
					if p < EvalFloor {
						p = EvalFloor
						s.Floored += w
					}
					s.Games += w
					s.Bits += -w * math.Log2(p)
					s.Uniform += w * uniform
				}
				out[col][cls][t] = s
			}
		}
	}
	return out
}

// TrendAgreement measures the trends, which are what the belief uses: for
// each colour and class, the cosine similarity between the model's
// Trend(t) and the raw trend of held-out counts c (D(t+1) - D(t) from their
// unsmoothed rows), averaged over the moves both serve, each move weighted by
// the held-out games that reach t+1. 1 is perfect agreement, 0 none. The
// held-out trends are noisy themselves, so the figure is for comparing
// models on the same games, not an absolute grade.
func TrendAgreement(m *oppmodel.Model, c *oppmodel.Counts) (out [2][oppmodel.NumClasses]float64) {
	for col := range 2 {
		for cls := range oppmodel.NumClasses {
			var sum, weight float64
			for t := 0; t < c.Horizon; t++ {
				n0, n1 := c.Coverage[col][cls][t], c.Coverage[col][cls][t+1]
				if n0 == 0 || n1 == 0 {
					continue
				}
				mt, ok := m.Trend(chess.Color(col), cls, t)
				if !ok {
					continue
				}
				var dot, a2, b2 float64
				for sq := range 64 {
					held := float64(c.Mass[col][cls][t+1][sq])/float64(n1*oppmodel.MassScale) - float64(c.Mass[col][cls][t][sq])/float64(n0*oppmodel.MassScale)
					x := float64(mt[sq])
					dot += x * held
					a2 += x * x
					b2 += held * held
				}
				if a2 == 0 || b2 == 0 {
					continue
				}
				w := float64(n1)
				sum += w * dot / math.Sqrt(a2*b2)
				weight += w
			}
			if weight > 0 {
				out[col][cls] = sum / weight
			}
		}
	}
	return out
}
