package think

import (
	"context"
	"fmt"

	"kriegbot/engine/players"
)

// Ponder is a ponder in flight on its own goroutine: the player thinks
// during the opponent's turn, from our accepted move until the harness
// stops it (before the player hears anything again).
type Ponder struct {
	cancel context.CancelFunc
	done   chan pondered
}

type pondered struct {
	rep players.PonderReport
	err error
}

// StartPonder runs p.Ponder on its own goroutine: until Stop or the end of
// ctx, or for nodes iterations when nodes > 0 (then Finish waits them out).
func StartPonder(ctx context.Context, p players.Ponderer, nodes int64) *Ponder {
	ctx, cancel := context.WithCancel(ctx)
	pr := &Ponder{cancel: cancel, done: make(chan pondered, 1)}
	go func() {
		var out pondered
		defer func() {
			if v := recover(); v != nil {
				out = pondered{err: fmt.Errorf("player panicked while pondering: %v", v)}
			}
			pr.done <- out
		}()
		out.rep = p.Ponder(ctx, nodes)
	}()
	return pr
}

// Stop ends the ponder and waits for the player, which returns within one
// iteration of the cancel (tens of microseconds; a few milliseconds when it
// is compacting its tree), and returns what it did.
func (pr *Ponder) Stop() (players.PonderReport, error) {
	pr.cancel()
	return pr.wait()
}

// Finish waits for a ponder held to a node count to run them out (it does
// not depend on when the opponent answered, so a match replays exactly),
// and returns what it did.
func (pr *Ponder) Finish() (players.PonderReport, error) {
	out, err := pr.wait()
	pr.cancel()
	return out, err
}

// Abandon ends the ponder without waiting for the player (quitting).
func (pr *Ponder) Abandon() { pr.cancel() }

func (pr *Ponder) wait() (players.PonderReport, error) {
	out := <-pr.done
	return out.rep, out.err
}
