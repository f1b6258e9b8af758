package oppmodel

import (
	"fmt"

	"kriegbot/engine/chess"
)

// Smoothing and fitting constants. Late in the game few records reach a
// given move number, so the raw frequencies there are noise; the model pools
// neighbouring move numbers and blurs over neighbouring squares, each in
// proportion to how thin the data is (paper, section 5: the database is used
// "as long as it is available").
const (
	// PoolTarget is the number of games the model tries to pool per move
	// number: while fewer records reach move t, moves t±1, t±2, ... are
	// added, up to MaxPoolRadius on each side and never more than t-1, so
	// the window stays centred on t and leaves out move 0, the start.
	PoolTarget    = 2000
	MaxPoolRadius = 8
	// BlurWeight is the weight, in games, of the square-blurred distribution
	// mixed into each D(t): negligible with thousands of games, dominant with
	// a handful. UniformWeight is the weight of a uniform distribution (over
	// the squares the class may stand on), so that no square a unit can reach
	// ever gets probability 0 from the model. Chosen by held-out scoring
	// (kriegbot model eval; docs/opponent-model.md).
	BlurWeight    = 64
	UniformWeight = 1
	// MinServeGames is the fewest records that must reach move t (the king's
	// coverage, i.e. games still running) for the model to serve D(t); past
	// that Occupancy and Trend answer ok = false and the belief falls back to
	// treating all squares alike, as the paper does past its database.
	MinServeGames = 5
	// MinParamTrials is the fewest trials of an event that make its Params
	// field fitted; with fewer, DefaultParams is kept.
	MinParamTrials = 30
	// PawnPrior and MoverPrior are pseudo-counts (in observed moves) of the
	// priors that pawn chains and mover shares are shrunk toward.
	PawnPrior  = 20
	MoverPrior = 10
)

// PawnChain is the one-way Markov chain of one colour's pawns: for a pawn on
// each square, the chance of each step during one move of its side (Stay
// included, so the steps of a square sum to 1; squares on the first and last
// rank are zero). Fitted from the records, shrunk toward the average of the
// same rank over all files where a square has few observations.
type PawnChain struct {
	Step [NumPawnSteps][64]float32
	// Observed is the number of pawn-moves seen on each square.
	Observed [64]uint64
}

// ParamFit says how one Params field was obtained.
type ParamFit struct {
	Event  Event
	Tally  Tally
	Fitted bool    // Tally.Trials ≥ MinParamTrials: the value is Hits/Trials
	Value  float64 // the value in Params
}

// Model is the opponent model served to the belief and the search: for each
// colour the opponent may have, per unit class and move number, D(p,t) (the
// share of that class's units standing on each square after the opponent's
// t-th move; each served array sums to 1), its trend D(t+1)-D(t), the pawns'
// Markov chains, which class moves, and the fitted Params. A Model is
// read-only after construction and safe for concurrent use; its accessors
// allocate nothing.
type Model struct {
	meta     Meta
	games    [2]uint64
	plies    [2]uint64
	horizon  [2]int // last move number served, -1 when none
	occ      [2][NumClasses][][64]float32
	trend    [2][NumClasses][][64]float32
	have     [2][NumClasses][]bool // occ holds data (pooled coverage > 0)
	cover    [2][NumClasses][]uint64
	pooled   [2][NumClasses][]uint64
	pawn     [2]PawnChain
	movers   [2][maxPawns + 1][maxPieces + 1][NumClasses]float32
	params   Params
	fit      [NumEvents]ParamFit
	material MaterialFit
}

// MaterialFit says how LineFactor and KnightFactor were obtained: the mean,
// over the recorded positions, of the share of the side's pieces that move
// along ranks and files (rooks, queens) averaged with the share that moves
// along diagonals (bishops, queens), and of the share of knights. Fitted
// when at least MinParamTrials positions were recorded.
type MaterialFit struct {
	Positions    uint64
	Fitted       bool
	LineFactor   float64
	KnightFactor float64
}

// NewModel derives a model from counts. The counts are not kept.
func NewModel(c *Counts) *Model {
	const uniform, uniformPawn = 1.0 / 64, 1.0 / 48
	m := &Model{meta: c.Meta, games: c.Games, plies: c.Plies}
	h := c.Horizon
	var raw, blur [64]float64
	for col := range 2 {
		m.horizon[col] = -1
		for t := 0; t <= h && c.Coverage[col][King][t] >= MinServeGames; t++ {
			m.horizon[col] = t
		}
		for cls := range NumClasses {
			m.occ[col][cls] = make([][64]float32, h+1)
			m.trend[col][cls] = make([][64]float32, h+1)
			m.have[col][cls] = make([]bool, h+1)
			m.cover[col][cls] = append([]uint64(nil), c.Coverage[col][cls]...)
			m.pooled[col][cls] = make([]uint64, h+1)
			for t := 0; t <= h; t++ {
				n := poolRows(c, col, cls, t, &raw)
				m.pooled[col][cls][t] = n
				if n == 0 {
					continue
				}
				row := &m.occ[col][cls][t]
				if t == 0 {
					// The start position is known exactly: nothing to smooth.
					for sq := range 64 {
						row[sq] = float32(raw[sq])
					}
					m.have[col][cls][t] = true
					continue
				}
				blurInto(&raw, &blur, cls == Pawn)
				nf := float64(n)
				for sq := range 64 {
					u := uniform
					if cls == Pawn && (sq < 8 || sq >= 56) {
						u = 0
					} else if cls == Pawn {
						u = uniformPawn
					}
					row[sq] = float32((nf*raw[sq] + BlurWeight*blur[sq] + UniformWeight*u) / (nf + BlurWeight + UniformWeight))
				}
				m.have[col][cls][t] = true
			}
		}
		m.pawn[col] = pawnChain(&c.Pawn[col], pawnHomeRank(chess.Color(col)))
		m.movers[col] = moverShares(&c.Movers[col])
	}
	m.fitParams(&c.Events)
	m.fitMaterial(&c.Material)
	m.setParams()
	m.computeTrends()
	return m
}

// poolRows sums the mass rows t-r..t+r for the least r that pools
// PoolTarget games (r ≤ MaxPoolRadius, and r < t so the window stays
// centred on t and never takes in the start position), writes the
// normalised distribution to out and returns the number of games pooled.
func poolRows(c *Counts, col int, cls Class, t int, out *[64]float64) uint64 {
	cov, mass := c.Coverage[col][cls], c.Mass[col][cls]
	var sum [64]uint64
	add := func(u int) uint64 {
		for sq := range 64 {
			sum[sq] += mass[u][sq]
		}
		return cov[u]
	}
	n := add(t)
	for r := 1; r <= min(MaxPoolRadius, t-1) && n < PoolTarget; r++ {
		n += add(t - r)
		if t+r < len(cov) {
			n += add(t + r)
		}
	}
	if n == 0 {
		*out = [64]float64{}
		return 0
	}
	den := float64(n) * MassScale
	for sq := range 64 {
		out[sq] = float64(sum[sq]) / den
	}
	return n
}

// blurInto spreads each square's share over itself (weight 4), its
// orthogonal neighbours (2) and its diagonal neighbours (1), renormalised per
// source square so the total is kept. Pawns never spread to the first or
// last rank.
func blurInto(src, dst *[64]float64, pawn bool) {
	*dst = [64]float64{}
	for s := range 64 {
		v := src[s]
		if v == 0 {
			continue
		}
		f, r := s&7, s>>3
		var targets [9]int
		var weights [9]float64
		n, total := 0, 0.0
		for dr := -1; dr <= 1; dr++ {
			for df := -1; df <= 1; df++ {
				tf, tr := f+df, r+dr
				if tf < 0 || tf > 7 || tr < 0 || tr > 7 || (pawn && (tr == 0 || tr == 7)) {
					continue
				}
				w := 1.0
				switch {
				case df == 0 && dr == 0:
					w = 4
				case df == 0 || dr == 0:
					w = 2
				}
				targets[n], weights[n] = tr*8+tf, w
				total += w
				n++
			}
		}
		for i := range n {
			dst[targets[i]] += v * weights[i] / total
		}
	}
}

func (m *Model) computeTrends() {
	for col := range 2 {
		for cls := range NumClasses {
			occ, tr := m.occ[col][cls], m.trend[col][cls]
			for t := 0; t+1 < len(occ); t++ {
				for sq := range 64 {
					tr[t][sq] = occ[t+1][sq] - occ[t][sq]
				}
			}
		}
	}
}

// pawnHomeRank is the rank (0-based) a pawn of colour c double-steps from.
func pawnHomeRank(c chess.Color) int {
	if c == chess.White {
		return 1
	}
	return 6
}

// pawnPriorFallback is used for a rank no record ever showed a pawn on.
func pawnPriorFallback() [NumPawnSteps]float64 {
	return [NumPawnSteps]float64{0.88, 0.08, 0.02, 0.01, 0.01}
}

// pawnChain fits the chain of one colour from its step counts, shrinking
// each square toward its rank's average over all files.
func pawnChain(counts *[64][NumPawnSteps]uint64, home int) PawnChain {
	var pc PawnChain
	var rankSum [8][NumPawnSteps]float64
	for sq := range 64 {
		for s := range NumPawnSteps {
			rankSum[sq>>3][s] += float64(counts[sq][s])
		}
	}
	for sq := range 64 {
		r, f := sq>>3, sq&7
		if r == 0 || r == 7 {
			continue
		}
		possible := [NumPawnSteps]bool{true, true, r == home, f > 0, f < 7}
		prior, total := rankSum[r], 0.0
		for s := range NumPawnSteps {
			total += prior[s]
		}
		if total == 0 {
			prior = pawnPriorFallback()
		}
		total = 0
		for s := range NumPawnSteps {
			if !possible[s] {
				prior[s] = 0
			}
			total += prior[s]
		}
		var n float64
		for s := range NumPawnSteps {
			pc.Observed[sq] += counts[sq][s]
			n += float64(counts[sq][s])
		}
		for s := range NumPawnSteps {
			p := prior[s] / total
			pc.Step[s][sq] = float32((float64(counts[sq][s]) + PawnPrior*p) / (n + PawnPrior))
		}
	}
	return pc
}

// paperShares is the paper's rule: every unit equally likely to be moved.
func paperShares(pawns, pieces int) [NumClasses]float64 {
	n := float64(pawns + pieces + 1)
	return [NumClasses]float64{1 / n, float64(pawns) / n, float64(pieces) / n}
}

func moverShares(counts *[maxPawns + 1][maxPieces + 1][NumClasses]uint64) (out [maxPawns + 1][maxPieces + 1][NumClasses]float32) {
	for p := range maxPawns + 1 {
		for q := range maxPieces + 1 {
			prior := paperShares(p, q)
			var n float64
			for cls := range NumClasses {
				n += float64(counts[p][q][cls])
			}
			for cls := range NumClasses {
				out[p][q][cls] = float32((float64(counts[p][q][cls]) + MoverPrior*prior[cls]) / (n + MoverPrior))
			}
		}
	}
	return out
}

func (m *Model) fitParams(events *[2][NumEvents]Tally) {
	m.params = DefaultParams()
	def := [NumEvents]float64{m.params.RecaptureFirst, m.params.CheckerCaptured, m.params.CaptureOnMove}
	for e := range NumEvents {
		t := Tally{Trials: events[0][e].Trials + events[1][e].Trials, Hits: events[0][e].Hits + events[1][e].Hits}
		f := ParamFit{Event: e, Tally: t, Value: def[e]}
		if t.Trials >= MinParamTrials {
			f.Fitted = true
			f.Value = float64(t.Hits) / float64(t.Trials)
		}
		m.fit[e] = f
	}
}

func (m *Model) fitMaterial(mt *[2]MaterialTally) {
	def := DefaultParams()
	f := MaterialFit{LineFactor: def.LineFactor, KnightFactor: def.KnightFactor}
	var t MaterialTally
	for col := range mt {
		t.Positions += mt[col].Positions
		t.Straight += mt[col].Straight
		t.Diagonal += mt[col].Diagonal
		t.Knight += mt[col].Knight
	}
	f.Positions = t.Positions
	if t.Positions >= MinParamTrials {
		den := float64(t.Positions) * MassScale
		f.Fitted = true
		f.LineFactor = (float64(t.Straight) + float64(t.Diagonal)) / (2 * den)
		f.KnightFactor = float64(t.Knight) / den
	}
	m.material = f
}

func (m *Model) setParams() {
	m.params.RecaptureFirst = m.fit[EventRecapture].Value
	m.params.CheckerCaptured = m.fit[EventCheckerCaptured].Value
	m.params.CaptureOnMove = m.fit[EventCaptureOnMove].Value
	m.params.LineFactor = m.material.LineFactor
	m.params.KnightFactor = m.material.KnightFactor
}

func (m *Model) inRange(opp chess.Color, c Class, move int) bool {
	return opp <= chess.Black && c < NumClasses && move >= 0 && move <= m.horizon[opp] && m.have[opp][c][move]
}

// Occupancy is D(p,t) for the opponent of colour opp: the share of its units
// of class c on each square right after its move number move (0 is the
// start position, 1 after its first move). The array sums to 1; multiply by
// the number of units the opponent has left for expected counts. ok is false
// past the model's horizon for opp or when no record had a unit of that class
// then. The array belongs to the model: do not modify it.
func (m *Model) Occupancy(opp chess.Color, c Class, move int) (d *[64]float32, ok bool) {
	if !m.inRange(opp, c, move) {
		return nil, false
	}
	return &m.occ[opp][c][move], true
}

// Trend is D(p,move+1) - D(p,move) per square, the input to the paper's
// function f for the opponent's next move after its move number move. ok is
// false when either D is not served. Do not modify the array.
func (m *Model) Trend(opp chess.Color, c Class, move int) (d *[64]float32, ok bool) {
	if !m.inRange(opp, c, move) || !m.inRange(opp, c, move+1) {
		return nil, false
	}
	return &m.trend[opp][c][move], true
}

// Params returns the behavioural constants, fitted where the records allow.
func (m *Model) Params() Params { return m.params }

// ParamsFit says, per event, whether its Params field was fitted from the
// records (and from how many) or kept at DefaultParams.
func (m *Model) ParamsFit() [NumEvents]ParamFit { return m.fit }

// MaterialFit says whether LineFactor and KnightFactor were fitted.
func (m *Model) MaterialFit() MaterialFit { return m.material }

// Horizon returns the last move number served for an opponent of colour opp
// (-1 when none).
func (m *Model) Horizon(opp chess.Color) int { return m.horizon[opp] }

// Coverage says how much data backs D(opp, c, move): games is the number of
// records in which the opponent had a unit of class c after that move;
// pooled is the number of games actually averaged after pooling neighbouring
// moves (at least games; larger late in the game).
func (m *Model) Coverage(opp chess.Color, c Class, move int) (games, pooled uint64) {
	if opp > chess.Black || c >= NumClasses || move < 0 || move >= len(m.cover[opp][c]) {
		return 0, 0
	}
	return m.cover[opp][c][move], m.pooled[opp][c][move]
}

// Pawn returns the Markov chain of the pawns of an opponent of colour opp.
func (m *Model) Pawn(opp chess.Color) *PawnChain { return &m.pawn[opp&1] }

// MoverShares returns the chances that an opponent of colour opp with the
// given numbers of pawns and other pieces (king excluded) moves its king, a
// pawn or a piece: the records' frequencies, shrunk toward the paper's rule
// (each unit equally likely) where the records are thin.
func (m *Model) MoverShares(opp chess.Color, pawns, pieces int) [NumClasses]float32 {
	pawns = max(0, min(pawns, maxPawns))
	pieces = max(0, min(pieces, maxPieces))
	return m.movers[opp&1][pawns][pieces]
}

// UnitMoveChances returns, for each class, the chance that one given unit of
// that class is the one an opponent of colour opp moves (MoverShares over
// the units of the class; 0 for a class it has none of).
func (m *Model) UnitMoveChances(opp chess.Color, pawns, pieces int) [NumClasses]float64 {
	// MoverShares looks the counts up clamped to what it keeps; dividing
	// by the counts themselves keeps the sum over the units at 1.
	sh := m.MoverShares(opp, pawns, pieces)
	u := [NumClasses]float64{King: min(float64(sh[King]), 1)}
	if pawns > 0 {
		u[Pawn] = min(float64(sh[Pawn])/float64(pawns), 1)
	}
	if pieces > 0 {
		u[Piece] = min(float64(sh[Piece])/float64(pieces), 1)
	}
	return u
}

// Meta returns where the model's data came from.
func (m *Model) Meta() Meta { return m.meta }

// Games returns the number of games recorded for each colour.
func (m *Model) Games() [2]uint64 { return m.games }

// Plies returns the number of moves recorded for each colour.
func (m *Model) Plies() [2]uint64 { return m.plies }

// BlendGames is the number of an opponent's games at which its own data
// weighs as much as the default model's.
const BlendGames = 10

// Blend returns the model for one opponent: def's data mixed with the
// opponent's own counts opp, weighted by how many of the opponent's games
// back each figure. For D(t) the weight of the opponent's data is
// n/(n+k), n being the number of its games that reached move t; for pawn
// chains, mover shares and Params it is g/(g+k), g being its games as that
// colour (Params: all its games). k is BlendGames when k ≤ 0. The
// opponent's counts are brought to def's horizon first.
func Blend(def, opp *Counts, k float64) *Model {
	if def.Horizon != opp.Horizon {
		opp = opp.WithHorizon(def.Horizon)
	}
	if k <= 0 {
		k = BlendGames
	}
	m := NewModel(def)
	o := NewModel(opp)
	m.meta = Meta{
		Builder: def.Meta.Builder,
		Source:  fmt.Sprintf("%s | blended (k=%g) with %d+%d games: %s", def.Meta.Source, k, opp.Games[0], opp.Games[1], opp.Meta.Source),
	}
	mix := func(a, b float32, lambda float64) float32 {
		return float32((1-lambda)*float64(a) + lambda*float64(b))
	}
	for col := range 2 {
		m.horizon[col] = max(m.horizon[col], o.horizon[col])
		for cls := range NumClasses {
			for t := range m.occ[col][cls] {
				if !o.have[col][cls][t] {
					continue
				}
				if !m.have[col][cls][t] {
					m.occ[col][cls][t] = o.occ[col][cls][t]
					m.have[col][cls][t] = true
					continue
				}
				n := float64(o.cover[col][cls][t])
				lambda := n / (n + k)
				for sq := range 64 {
					m.occ[col][cls][t][sq] = mix(m.occ[col][cls][t][sq], o.occ[col][cls][t][sq], lambda)
				}
			}
		}
		g := float64(opp.Games[col])
		lambda := g / (g + k)
		for s := range NumPawnSteps {
			for sq := range 64 {
				if o.pawn[col].Observed[sq] > 0 {
					m.pawn[col].Step[s][sq] = mix(m.pawn[col].Step[s][sq], o.pawn[col].Step[s][sq], lambda)
				}
			}
		}
		for sq := range 64 {
			m.pawn[col].Observed[sq] += o.pawn[col].Observed[sq]
		}
		for p := range m.movers[col] {
			for q := range m.movers[col][p] {
				var seen uint64
				for cls := range NumClasses {
					seen += opp.Movers[col][p][q][cls]
				}
				if seen == 0 {
					continue
				}
				for cls := range NumClasses {
					m.movers[col][p][q][cls] = mix(m.movers[col][p][q][cls], o.movers[col][p][q][cls], lambda)
				}
			}
		}
		m.games[col] += opp.Games[col]
		m.plies[col] += opp.Plies[col]
	}
	g := float64(opp.Games[0] + opp.Games[1])
	lambda := g / (g + k)
	for e := range NumEvents {
		ot := o.fit[e].Tally
		if ot.Trials == 0 {
			continue
		}
		f := &m.fit[e]
		f.Value = (1-lambda)*f.Value + lambda*float64(ot.Hits)/float64(ot.Trials)
		f.Tally.Trials += ot.Trials
		f.Tally.Hits += ot.Hits
	}
	if om := o.material; om.Positions > 0 {
		mf := &m.material
		mf.LineFactor = (1-lambda)*mf.LineFactor + lambda*om.LineFactor
		mf.KnightFactor = (1-lambda)*mf.KnightFactor + lambda*om.KnightFactor
		mf.Positions += om.Positions
	}
	m.setParams()
	m.computeTrends()
	return m
}
