package players

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// The daemon's hooks that Sampled shares with MCTS: the learned opponent
// models, the draw offer of a game it cannot win, and a replay's recorded
// attempt sent in place of the proposal.
var (
	_ PriorSetter = (*Sampled)(nil)
	_ DrawSeeker  = (*Sampled)(nil)
	_ Overrider   = (*Sampled)(nil)
)

// SetPrior plays the next game with opponent model pr: the belief the
// boards are drawn from, and the bare-king search's.
func (p *Sampled) SetPrior(pr belief.Prior) {
	if pr == nil {
		return
	}
	p.prior = p.movers.wrap(pr)
	p.bare.SetPrior(pr)
}

// CannotWin reports that our men cannot force mate and the opponent keeps
// at most one man besides its king, and no pawn (DrawSeeker).
func (p *Sampled) CannotWin() bool { return cannotWin(&p.bel) }

// Override says that m was sent instead of the proposal: every knowledge
// of the turn's refusals hears it, and the tree, whose root's choice it
// was not, starts afresh.
func (p *Sampled) Override(m chess.Move) {
	if m == p.last.Move {
		return
	}
	p.know.Asked(m)
	p.fall.know.Asked(m)
	p.bare.know.Asked(m)
	p.scorer.forget()
}

// Progress is the work units the search in progress has run so far (the
// last search's between searches): boardtree's iterations, or the
// bare-king search's; sampled's scorer does not count (0). Unlike the
// other methods it may be called from another goroutine while Attempt
// runs.
func (p *Sampled) Progress() int64 {
	if p.bareNow.Load() {
		return p.bare.Progress()
	}
	return p.scorer.progress()
}
