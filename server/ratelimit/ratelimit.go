package ratelimit

import (
	"time"

	"golang.org/x/time/rate"
)

// New is a token bucket, full at first: burst requests at once,
// perSecond a second after.
func New(perSecond, burst float64) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(perSecond), int(burst))
}

// Take spends one request from lim at now, or says how long to wait for
// one (for Retry-After).
func Take(lim *rate.Limiter, now time.Time) (bool, time.Duration) {
	if lim.AllowN(now, 1) {
		return true, 0
	}
	return false, time.Duration((1 - lim.TokensAt(now)) / float64(lim.Limit()) * float64(time.Second))
}
