package oppmodel

// Params are the constants of the paper's second set of assumptions (section
// 5.2 of the paper, docs/references.md): how the opponent is expected to behave when we
// cannot see it. The belief uses them to spread the opponent's units after its
// unseen move, and the search to weigh the outcomes of the opponent's reply.
// A model built from game records fits them from those records; Default holds
// values close to the paper's prose where no record says otherwise.
type Params struct {
	// RecaptureFirst is the chance that the opponent recaptures on the square
	// where we just captured ("a very high chance": most units are protected).
	RecaptureFirst float64
	// CheckerCaptured is the constant chance that the opponent's reply to our
	// check captures the checking unit.
	CheckerCaptured float64
	// CaptureOnMove is the fixed chance that an opponent move captures one of
	// our units, the victim chosen in proportion to Prob_control of its square.
	CaptureOnMove float64
	// LineFactor is c1 of Prob_control: the share of the opponent's non-pawn,
	// non-king units able to attack along a given rank, file or diagonal (3/7
	// in the starting set: queen plus two rooks or two bishops).
	LineFactor float64
	// KnightFactor is the same share for knight jumps (2/7).
	KnightFactor float64
	// Damping is c2 of Prob_control and of the check probability: the weight of
	// a line attacker falls by this factor per square of distance, because
	// nearer units block farther ones.
	Damping float64
}

// DefaultParams returns the constants used when no game records say otherwise.
func DefaultParams() Params {
	return Params{
		RecaptureFirst:  0.8,
		CheckerCaptured: 0.3,
		CaptureOnMove:   0.1,
		LineFactor:      3.0 / 7.0,
		KnightFactor:    2.0 / 7.0,
		Damping:         0.7,
	}
}
