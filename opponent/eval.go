package opponent

import (
	"math"

	"kriegbot/engine/chess"
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
func Evaluate(m *Model, c *Counts) (out [2][NumClasses][]MoveScore) {
	for col := range 2 {
		for cls := range NumClasses {
			out[col][cls] = make([]MoveScore, c.Horizon+1)
			uniform := math.Log2(64)
			if cls == Pawn {
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
					w := float64(mass) / MassScale // a row sums to one per game
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
