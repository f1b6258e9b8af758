package players

import (
	"context"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// Optional interfaces: what a driver may ask of a player beyond Player, for
// records, replays and the daemon's policies. None of it is ever shown to
// the opponent.

// Inspector is a player that can show what it believed and why it moved.
type Inspector interface {
	// LastSearch reports the last Attempt's search.
	LastSearch() SearchReport
	// Belief is the player's current belief about the opponent's men, or nil.
	// The driver must not change it, nor keep it past the next call.
	Belief() *belief.State
}

// SearchReport describes one search.
type SearchReport struct {
	Move       chess.Move
	Iterations int64
	// Trees is the iterations of each tree when the search ran several in
	// parallel (they sum to Iterations; nil for one tree): on a clock the
	// trees stop on their own, and a replay needs each count (TreeRepeater).
	Trees []int64
	Nodes int64
	// Reused is the visits the root kept from earlier searches and
	// ponders (boardtree's tree reuse; 0 where not counted).
	Reused int64
	// Boards is the number of boards the root counted its mate chances on
	// (0: none), sized to the budget: a replay repeats it (Budget.Boards).
	Boards int
	// Value is the chosen attempt's value in pawns from our side.
	Value  float64
	Proven bool
	// Critical says the search, on a clock, thought up to its plan's
	// maximum: the choice was critical (in check, mate chances, a likely
	// capture).
	Critical bool
	// Candidates are the attempts searched, most visited first.
	Candidates []Candidate
	// PV is the principal line from Move: our attempts along the most
	// visited path of the search (the referee answers and opponent replies
	// assumed between them are not in it), at most MaxPV long. Its length
	// is the search's depth along that line.
	PV []chess.Move
}

// MaxPV bounds SearchReport.PV.
const MaxPV = 32

// Candidate is one attempt as the search saw it.
type Candidate struct {
	Move   chess.Move
	Visits int64
	Value  float64
	// PIllegal, PCapture and PCheck are the predicted referee answers.
	PIllegal, PCapture, PCheck float64
	// PMate, PMated and PRepeat are the root's chances that the attempt
	// mates, leaves a mate in one, or draws by repetition.
	PMate, PMated, PRepeat float64
}

// TreeRepeater is a player that searches several trees in parallel and can
// repeat a search exactly from each tree's iterations (SearchReport.Trees):
// on a clock the trees stop on their own, so their sum is not enough.
type TreeRepeater interface {
	// AttemptTrees is Attempt with tree i running exactly trees[i]
	// iterations, counting mates on boards boards (SearchReport.Boards, 0
	// sizes the count to the iterations).
	AttemptTrees(ctx context.Context, trees []int64, boards int) (chess.Move, error)
}

// Valuer is a player that can say how it stands, in [-1, 1] from its own
// side (the daemon's resign and draw policies use it).
type Valuer interface {
	Value() (v float64, ok bool)
}

// DrawSeeker is a player that can tell a position where it cannot win: it
// cannot force mate with its own men, and the opponent has at most one man
// besides its king and no pawn, as far as the referee's captures show. A
// draw offer then costs nothing (the drivers offer one now and then).
type DrawSeeker interface {
	CannotWin() bool
}

// PriorSetter is a player that takes an opponent model for its next game
// (the daemon's per-opponent models).
type PriorSetter interface {
	SetPrior(belief.Prior)
}

// Overrider is implemented by players whose proposal a driver may replace:
// a replay that follows a recorded game sends the recorded attempt even where
// the re-run search chose another, and the player must apply the answers to
// the attempt that was sent.
type Overrider interface {
	// Override says that m, not the last Attempt's proposal, was sent.
	Override(m chess.Move)
}

var (
	_ Overrider = (*MCTS)(nil)
	_ Overrider = (*Heuristic)(nil)
	_ Overrider = (*Random)(nil)
)

// Override says that m was sent instead of the proposal.
func (p *MCTS) Override(m chess.Move) { p.know.Asked(m) }

// Override says that m was sent instead of the proposal.
func (h *Heuristic) Override(m chess.Move) { h.know.Asked(m) }

// Override says that m was sent instead of the proposal.
func (r *Random) Override(m chess.Move) { r.know.Asked(m) }
