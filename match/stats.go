package match

import (
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
