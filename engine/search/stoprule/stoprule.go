package stoprule

import "time"

// Root is what the rule reads of a search's root: the visits of its two
// most visited attempts still open (not refused, not proven), how many are
// open, and the iterations run so far.
type Root struct {
	Best, Second int64
	Open         int
	Iterations   int64
}

// TimeUp says whether a search el into its thinking, with soft budget soft
// and a clock's plan maximum max (0: a fixed time, spent whole, as UCI's
// movetime is), should stop. On a clock's plan:
//   - one attempt to choose from (a retry with every other refused, or a
//     forced reply): stop, there is nothing to decide;
//   - from a quarter of soft on: stop when the most visited attempt leads
//     the next by more visits than the rest of soft can give at the
//     search's pace (its choice can no longer change);
//   - at soft: stop, unless max is later and the choice is open (the
//     second attempt has more than half the first's visits): then go on,
//     to max at most.
func TimeUp(el, soft, max time.Duration, r Root) bool {
	if max == 0 {
		return el >= soft
	}
	switch {
	case r.Open <= 1:
		return true
	case el >= soft:
		return el >= max || 2*r.Second <= r.Best
	case el >= soft/4:
		left := float64(soft-el) / float64(el) * float64(r.Iterations)
		return float64(r.Best-r.Second) > left
	}
	return false
}
