package players

import (
	"math"

	"kriegbot/engine/belief"
)

var (
	_ Inspector    = (*MCTS)(nil)
	_ TreeRepeater = (*MCTS)(nil)
	_ Valuer       = (*MCTS)(nil)
	_ PriorSetter  = (*MCTS)(nil)
)

// LastSearch reports the last search with its root attempts.
func (p *MCTS) LastSearch() SearchReport {
	r := SearchReport{Move: p.Last.Move, Iterations: p.Last.Iterations, Nodes: p.Last.Nodes,
		Value: p.Last.Value, Proven: p.Last.Proven}
	if len(p.trees) > 1 {
		r.Trees = append([]int64(nil), p.trees...)
	}
	for _, c := range p.search.Candidates(nil) {
		r.Candidates = append(r.Candidates, Candidate{Move: c.Move, Visits: c.Visits, Value: c.Value,
			PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck})
	}
	return r
}

// Belief is the player's belief about the opponent's men.
func (p *MCTS) Belief() *belief.State { return &p.bel }

// valueScale maps a value in pawns onto [-1, 1]: a queen up (9 pawns) is
// about 0.9, a pawn up about 0.2.
const valueScale = 6.0

// Value is the last search's value mapped onto [-1, 1].
func (p *MCTS) Value() (float64, bool) {
	if p.Last.Iterations == 0 {
		return 0, false
	}
	return math.Tanh(p.Last.Value / valueScale), true
}

// SetPrior plays the next game with opponent model pr.
func (p *MCTS) SetPrior(pr belief.Prior) {
	if pr == nil {
		return
	}
	p.prior = pr
	p.search.SetParams(pr.Params())
}
