package belief

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// Prior is what the belief needs of an opponent model.
type Prior interface {
	// Occupancy is D(p,t): how often the opponent of colour opp has a unit of class c on each
	// square after its move number t (1-based full moves); ok false past the model's horizon.
	Occupancy(opp chess.Color, c oppmodel.Class, move int) (d *[64]float32, ok bool)
	// Trend is D(p,t+1)-D(p,t) per square, the paper's input to f; ok false past the horizon,
	// where all squares are equally attractive.
	Trend(opp chess.Color, c oppmodel.Class, move int) (d *[64]float32, ok bool)
	// Params are the behavioural constants fitted with the model.
	Params() oppmodel.Params
	// UnitMoveChances are, for each class, the chance that one given unit
	// of that class is the one the opponent of colour opp moves, when it has
	// pawns pawns and pieces other pieces besides its king.
	UnitMoveChances(opp chess.Color, pawns, pieces int) [oppmodel.NumClasses]float64
}

// PaperMoveChances is the paper's rule for which unit moves: each of the
// opponent's units equally likely, 1/(k1+k2+1) (P_king = 1/(k1+k2+1),
// P_pawn = k1/(k1+k2+1), P_piece = k2/(k1+k2+1)).
func PaperMoveChances(pawns, pieces int) [oppmodel.NumClasses]float64 {
	u := 1 / float64(pawns+pieces+1)
	return [oppmodel.NumClasses]float64{u, u, u}
}

// PaperMovers is a prior whose unit move chances are the paper's rule and
// the rest its Prior's: the belief as it was before it read the model's
// mover shares, for measuring one against the other.
type PaperMovers struct{ Prior }

// UnitMoveChances returns PaperMoveChances.
func (PaperMovers) UnitMoveChances(_ chess.Color, pawns, pieces int) [oppmodel.NumClasses]float64 {
	return PaperMoveChances(pawns, pieces)
}

// UniformPrior is the prior without game records: it has no horizon (every
// square is equally attractive to every unit at every move) and the paper's
// default constants. The belief then spreads the opponent's units only by the
// rules of movement, which is what to use when no model is loaded.
type UniformPrior struct{}

// Occupancy reports no data.
func (UniformPrior) Occupancy(chess.Color, oppmodel.Class, int) (*[64]float32, bool) {
	return nil, false
}

// Trend reports no data: all squares equally attractive.
func (UniformPrior) Trend(chess.Color, oppmodel.Class, int) (*[64]float32, bool) {
	return nil, false
}

// Params returns oppmodel.DefaultParams().
func (UniformPrior) Params() oppmodel.Params { return oppmodel.DefaultParams() }

// UnitMoveChances returns PaperMoveChances: without records each unit is
// equally likely to move.
func (UniformPrior) UnitMoveChances(_ chess.Color, pawns, pieces int) [oppmodel.NumClasses]float64 {
	return PaperMoveChances(pawns, pieces)
}

// PawnMovers is a prior whose pawns move at its Prior's rate and whose king
// and pieces move by the paper's rule: a model's pawn share mends the pawns
// where its pieces' share would spread the pieces too far (docs/belief.md).
// Its chances need not add up to 1 over the units: with an opponent that
// seldom moves its pawns, less than one unit moves a turn.
type PawnMovers struct{ Prior }

// UnitMoveChances returns PaperMoveChances with the Prior's pawn chance.
func (p PawnMovers) UnitMoveChances(opp chess.Color, pawns, pieces int) [oppmodel.NumClasses]float64 {
	u := PaperMoveChances(pawns, pieces)
	u[pawn] = p.Prior.UnitMoveChances(opp, pawns, pieces)[pawn]
	return u
}

// WithMovers returns pr with the mover rule named: "paper" (PaperMovers:
// each unit alike, as the belief always moved them, and what players and
// tools use unless told otherwise), "model" (pr itself: a model's fitted
// shares) or "pawns" (PawnMovers).
func WithMovers(rule string, pr Prior) (Prior, error) {
	switch rule {
	case "paper":
		return PaperMovers{Prior: pr}, nil
	case "model":
		return pr, nil
	case "pawns":
		return PawnMovers{Prior: pr}, nil
	}
	return nil, fmt.Errorf("movers %q is not paper, model or pawns", rule)
}

// LoadPrior returns the opponent model named: "default" (the embedded one),
// "uniform" (UniformPrior) or the path of a model file (kriegbot model
// build), with the model's own mover chances (wrap it with WithMovers).
func LoadPrior(name string) (Prior, error) {
	switch name {
	case "default":
		m, err := oppmodel.Default()
		if err != nil {
			return nil, fmt.Errorf("default model: %w", err)
		}
		return m, nil
	case "uniform":
		return UniformPrior{}, nil
	}
	c, err := oppmodel.LoadCounts(name)
	if err != nil {
		return nil, err
	}
	return oppmodel.NewModel(c), nil
}
