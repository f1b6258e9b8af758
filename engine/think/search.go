package think

import (
	"context"
	"fmt"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
)

// Budget is the player's budget for plan, bounded by nodes iterations when
// nodes > 0 (the hard limit stays the harness's: plan.Hard).
func Budget(plan clock.Plan, nodes int64) players.Budget {
	return players.Budget{Time: plan.Soft, MaxTime: plan.Max, Emergency: plan.Emergency, Nodes: nodes}
}

// Result is a finished search.
type Result struct {
	Move chess.Move
	// Err is the player's error, or its panic.
	Err error
	// Elapsed is how long Attempt ran.
	Elapsed time.Duration
}

// Run has p choose an attempt on the caller's goroutine, within hard (no
// limit when clock.NoLimit) and until ctx ends.
func Run(ctx context.Context, p players.Player, b players.Budget, hard time.Duration) Result {
	cancel := context.CancelFunc(func() {})
	if hard >= 0 {
		ctx, cancel = context.WithTimeout(ctx, hard)
	}
	defer cancel()
	return attempt(ctx, p, b)
}

// attempt runs p.Attempt, timing it and recovering a panic.
func attempt(ctx context.Context, p players.Player, b players.Budget) (r Result) {
	start := time.Now()
	defer func() {
		if v := recover(); v != nil {
			r = Result{Move: chess.NullMove, Err: fmt.Errorf("player panicked: %v", v)}
		}
		r.Elapsed = time.Since(start)
	}()
	r.Move, r.Err = p.Attempt(ctx, b)
	return r
}

// Search is a search in flight on its own goroutine.
type Search struct {
	cancel context.CancelFunc
}

// Start runs p's search on its own goroutine within hard (no limit when
// clock.NoLimit) and hands its result to deliver, on that goroutine, once Attempt has
// returned: until then p belongs to the search.
func Start(p players.Player, b players.Budget, hard time.Duration, deliver func(Result)) *Search {
	var ctx context.Context
	var cancel context.CancelFunc
	if hard >= 0 {
		ctx, cancel = context.WithTimeout(context.Background(), hard)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
	}
	s := &Search{cancel: cancel}
	go func() {
		r := attempt(ctx, p, b)
		cancel()
		deliver(r)
	}()
	return s
}

// Cancel asks the search to stop: Attempt returns at its next check, and
// its result is still delivered.
func (s *Search) Cancel() { s.cancel() }
