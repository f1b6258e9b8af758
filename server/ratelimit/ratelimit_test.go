package ratelimit

import (
	"testing"
	"time"
)

// TestTakeRetryAfter pins the request budgets' arithmetic (HTTP per
// address and per token, the TD's tells): full at first, burst requests
// at once, then one per 1/rate seconds, and a refusal says how long until
// the next one.
func TestTakeRetryAfter(t *testing.T) {
	t0 := time.Date(2031, time.March, 14, 15, 9, 26, 0, time.UTC)
	lim := New(0.5, 3)
	for _, step := range []struct {
		at    time.Duration
		ok    bool
		retry time.Duration
	}{
		{0, true, 0}, {0, true, 0}, {0, true, 0},
		{0, false, 2 * time.Second},
		{time.Second, false, time.Second}, // a refusal spends nothing
		{2 * time.Second, true, 0},
		{2 * time.Second, false, 2 * time.Second},
		{time.Hour, true, 0}, // refilled to the burst, no further
		{time.Hour, true, 0},
		{time.Hour, true, 0},
		{time.Hour, false, 2 * time.Second},
	} {
		ok, retry := Take(lim, t0.Add(step.at))
		if ok != step.ok || retry != step.retry {
			t.Fatalf("at %v: %v %v, want %v %v", step.at, ok, retry, step.ok, step.retry)
		}
	}
}
