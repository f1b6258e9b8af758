package players

import (
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search"
)

// RepeatGivesWay is the mcts player's rule for a repeating most visited
// attempt (search.RepeatGivesWay): from this Candidate.PRepeat on it is
// not played while the root values another above it.
const RepeatGivesWay = search.RepeatGivesWay

var (
	_ Inspector    = (*MCTS)(nil)
	_ TreeRepeater = (*MCTS)(nil)
	_ Valuer       = (*MCTS)(nil)
	_ PriorSetter  = (*MCTS)(nil)
)

// LastSearch reports the last search with its root attempts.
func (p *MCTS) LastSearch() SearchReport {
	r := SearchReport{Move: p.Last.Move, Iterations: p.Last.Iterations, Nodes: p.Last.Nodes,
		Boards: p.Last.Boards, Value: p.Last.Value, Proven: p.Last.Proven, Critical: p.Last.Critical}
	if p.Last.Iterations > 0 {
		r.PV = p.search.Principal(p.Last.Move, nil, MaxPV)
	}
	if len(p.trees) > 1 {
		r.Trees = append([]int64(nil), p.trees...)
	}
	for _, c := range p.search.Candidates(nil) {
		r.Candidates = append(r.Candidates, Candidate{Move: c.Move, Visits: c.Visits, Value: c.Value,
			PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck,
			PMate: c.PMate, PMated: c.PMated, PRepeat: c.PRepeat})
	}
	return r
}

// Progress is the number of iterations the search in progress has run so
// far (the last search's, between searches). Unlike the other methods it
// may be called from another goroutine while Attempt runs.
func (p *MCTS) Progress() int64 { return p.search.Progress() }

// Belief is the player's belief about the opponent's men.
func (p *MCTS) Belief() *belief.State { return &p.bel }

// valueScale maps a value in pawns onto [-1, 1] (Score): a queen up (9
// pawns) is about 0.9, a pawn up about 0.17.
const valueScale = 6.0

// Score is the value unit shown to users: a search's value in pawns as an
// expected score from the player's side, -1 (lost) through 0 (even) to +1
// (won): tanh(pawns/6), so a pawn up is +0.17, a piece +0.5, a queen +0.9
// and a proven win (100) +1. The daemon's resign and draw thresholds are
// in this unit; pawns stay the search's own unit and are shown beside it.
func Score(pawns float64) float64 { return math.Tanh(pawns / valueScale) }

// Value is the last search's value mapped onto [-1, 1].
func (p *MCTS) Value() (float64, bool) {
	if p.Last.Iterations == 0 {
		return 0, false
	}
	return Score(p.Last.Value), true
}

// CannotWin reports that our men cannot force mate and the opponent keeps
// at most one man besides its king, and no pawn (DrawSeeker).
func (p *MCTS) CannotWin() bool { return cannotWin(&p.bel) }

// cannotWin is CannotWin's rule on belief b: our men cannot force mate and
// the opponent keeps at most one man besides its king, and no pawn.
func cannotWin(b *belief.State) bool {
	prq := b.Own(chess.Pawn) | b.Own(chess.Rook) | b.Own(chess.Queen)
	if chess.CanForceMate(prq.Count(), b.Own(chess.Knight).Count(), b.Own(chess.Bishop).Count()) {
		return false
	}
	_, pawns := b.Pawns()
	return b.Units() <= 1 && pawns == 0
}

// SetPrior plays the next game with opponent model pr.
func (p *MCTS) SetPrior(pr belief.Prior) {
	if pr == nil {
		return
	}
	p.prior = p.movers.wrap(pr)
	p.search.SetParams(pr.Params())
}
