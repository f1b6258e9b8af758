package backoff

import (
	"math/rand/v2"
	"time"
)

// Backoff is the delay between retries of one thing. It is not safe for
// concurrent use: each goroutine that retries keeps its own.
type Backoff struct {
	// Min and Max bound the delay; they may change between failures (a
	// configuration reloaded). Max below Min means Max.
	Min, Max time.Duration
	rng      *rand.Rand
	delay    time.Duration // the last delay, before jitter; 0 after Reset
}

// New returns a Backoff within [min, max] drawing its jitter from rng.
func New(min, max time.Duration, rng *rand.Rand) *Backoff {
	return &Backoff{Min: min, Max: max, rng: rng}
}

// Grow doubles the delay (at least Min, at most Max) and returns it, before
// jitter.
func (b *Backoff) Grow() time.Duration {
	b.delay = min(max(2*b.delay, b.Min), b.Max)
	return b.delay
}

// Raise lifts the delay to at least d (a server's Retry-After), so that
// the next failure doubles from there.
func (b *Backoff) Raise(d time.Duration) { b.delay = max(b.delay, d) }

// Jitter returns a wait drawn uniformly from [d/2, d].
func (b *Backoff) Jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d/2 + time.Duration(b.rng.Int64N(int64(d/2)+1))
}

// Next is the wait after one more failure: Grow, jittered.
func (b *Backoff) Next() time.Duration { return b.Jitter(b.Grow()) }

// Reset starts the delays again from Min (a success).
func (b *Backoff) Reset() { b.delay = 0 }

// Lasted resets the delays when a session that began at began and ended at
// end lasted at least stable, and reports whether it did: a server that
// takes the login and drops us at once is not hammered every second.
func (b *Backoff) Lasted(began, end time.Time, stable time.Duration) bool {
	if end.Sub(began) < stable {
		return false
	}
	b.Reset()
	return true
}
