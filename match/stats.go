package match

import (
	"fmt"
	"math"
)

// Tally counts a match's games from the first player's side.
type Tally struct {
	W, L, D int
}

// N returns the number of games.
func (t Tally) N() int { return t.W + t.L + t.D }

// Score returns the first player's mean score (a win 1, a draw ½), or NaN
// with no games.
func (t Tally) Score() float64 {
	return (float64(t.W) + float64(t.D)/2) / float64(t.N())
}

// EloOf converts an expected score into a logistic Elo difference.
func EloOf(score float64) float64 {
	return -400 * math.Log10(1/score-1)
}

// ScoreOf converts a logistic Elo difference into an expected score.
func ScoreOf(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// z95 is the two-sided 95 % normal quantile.
const z95 = 1.959963984540054

// variance returns the per-game variance of the score.
func (t Tally) variance() float64 {
	s, n := t.Score(), float64(t.N())
	return (float64(t.W)*(1-s)*(1-s) + float64(t.L)*s*s + float64(t.D)*(0.5-s)*(0.5-s)) / n
}

// Elo returns the Elo difference and the half-width of its 95 % interval, the
// way cutechess-cli reports them: the score's normal interval from the
// trinomial per-game variance, mapped through EloOf, half its width.
// A perfect or nil score gives ±Inf and an infinite margin.
func (t Tally) Elo() (elo, margin float64) {
	if t.N() == 0 {
		return 0, math.Inf(1)
	}
	s := t.Score()
	elo = EloOf(s)
	sd := math.Sqrt(t.variance() / float64(t.N()))
	lo, hi := s-z95*sd, s+z95*sd
	margin = (EloOf(min(hi, 1)) - EloOf(max(lo, 0))) / 2
	if math.IsNaN(margin) {
		margin = math.Inf(1)
	}
	return elo, margin
}

// EloText is the Elo difference and its 95 % interval for people, as the
// summary prints it:
//
//	Elo +147.2 ± 95.1                 the interval of Elo, as cutechess-cli gives it
//	Elo +511.5 (95 %: > +311.0)       the score's interval reaches 100 % (or 0 %:
//	                                  "< -311.0"), so the Elo has no upper bound
//	Elo 0.0 (too few games for an interval)
//	Elo > +692.0 (no losses)          every game won: no estimate, a lower bound
//	Elo < -692.0 (no wins)            every game lost
//	Elo 0.0 (all draws, no interval)
//	Elo n/a (no games)
//
// Zero prints without a sign, and nothing prints as inf. The bound for a
// clean sweep of n games is the exact (Clopper-Pearson) 95 % one for the
// score, 0.025^(1/n), mapped through EloOf: it is low (even negative) for a
// handful of games, as it should be.
func (t Tally) EloText() string {
	n := t.N()
	switch {
	case n == 0:
		return "Elo n/a (no games)"
	case t.W == n:
		return "Elo > " + signedElo(EloOf(math.Pow(0.025, 1/float64(n)))) + " (no losses)"
	case t.L == n:
		return "Elo < " + signedElo(-EloOf(math.Pow(0.025, 1/float64(n)))) + " (no wins)"
	case t.D == n:
		return "Elo 0.0 (all draws, no interval)"
	}
	elo, margin := t.Elo()
	if !math.IsInf(margin, 0) && !math.IsNaN(margin) {
		return fmt.Sprintf("Elo %s ± %.1f", signedElo(elo), margin)
	}
	s := t.Score()
	sd := math.Sqrt(t.variance() / float64(n))
	lo, hi := s-z95*sd, s+z95*sd
	switch {
	case lo > 0:
		return fmt.Sprintf("Elo %s (95 %%: > %s)", signedElo(elo), signedElo(EloOf(lo)))
	case hi < 1:
		return fmt.Sprintf("Elo %s (95 %%: < %s)", signedElo(elo), signedElo(EloOf(hi)))
	}
	return fmt.Sprintf("Elo %s (too few games for an interval)", signedElo(elo))
}

// signedElo prints an Elo difference to a tenth with its sign, and zero
// (also -0.04, and the -0 that EloOf gives for an even score) as "0.0".
func signedElo(x float64) string {
	if math.Round(x*10) == 0 {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", x)
}

// SPRT is a sequential probability ratio test between H0: Elo = Elo0 and
// H1: Elo = Elo1 (logistic Elo, as the summary prints), with error rates
// Alpha (accepting H1 when H0 holds) and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Bounds returns the log-likelihood-ratio bounds: H0 is accepted at or
// below lower, H1 at or above upper (Wald).
func (p SPRT) Bounds() (lower, upper float64) {
	return math.Log(p.Beta / (1 - p.Alpha)), math.Log((1 - p.Beta) / p.Alpha)
}

// LLR returns the generalized (trinomial) log-likelihood ratio of H1 against
// H0 for the tally: for each hypothesis the win/draw/loss probabilities are
// the maximum-likelihood ones whose expected score equals the hypothesis's,
// so draws need no model (the GSPRT of fishtest and cutechess-cli, computed
// exactly rather than by its normal approximation).
func (p SPRT) LLR(t Tally) float64 {
	if t.N() == 0 {
		return 0
	}
	return logLikelihood(t, ScoreOf(p.Elo1)) - logLikelihood(t, ScoreOf(p.Elo0))
}

// Decide returns +1 when H1 is accepted, -1 when H0 is, 0 to go on.
func (p SPRT) Decide(t Tally) int {
	llr := p.LLR(t)
	lo, hi := p.Bounds()
	switch {
	case llr >= hi:
		return 1
	case llr <= lo:
		return -1
	}
	return 0
}

// logLikelihood returns the maximum over win/draw/loss probabilities with
// expected score s of the tally's log-likelihood. By Lagrange, the maximum is
// p_i = f_i / (1 + λ(x_i - s)) for the observed frequencies f_i and scores
// x_i, where λ solves g(λ) = Σ p_i - 1 = 0. Outcomes never seen count as
// zeroCount games, so the constrained maximum stays inside the simplex.
func logLikelihood(t Tally, s float64) float64 {
	counts := [3]float64{float64(t.W), float64(t.D), float64(t.L)}
	xs := [3]float64{1, 0.5, 0}
	n, mean := 0.0, 0.0
	for i := range counts {
		counts[i] = max(counts[i], zeroCount)
		n += counts[i]
		mean += counts[i] * xs[i]
	}
	mean /= n
	g := func(l float64) float64 {
		total := -1.0
		for i, c := range counts {
			total += c / n / (1 + l*(xs[i]-s))
		}
		return total
	}
	// g(0) = 0 and g'(0) = s - mean; g is convex and tends to +∞ at both ends
	// of (-1/(1-s), 1/s), where a denominator vanishes. The root other than 0
	// lies on the side where g first dips below zero.
	l := 0.0
	switch {
	case mean > s:
		a, b := 0.0, 1/s
		for range 200 {
			m := (a + b) / 2
			if g(m) < 0 {
				a = m
			} else {
				b = m
			}
		}
		l = (a + b) / 2
	case mean < s:
		a, b := -1/(1-s), 0.0
		for range 200 {
			m := (a + b) / 2
			if g(m) < 0 {
				b = m
			} else {
				a = m
			}
		}
		l = (a + b) / 2
	}
	ll := 0.0
	for i, c := range counts {
		ll += c * math.Log(c/n/(1+l*(xs[i]-s)))
	}
	return ll
}

// zeroCount stands in for an outcome never observed.
const zeroCount = 1e-3
