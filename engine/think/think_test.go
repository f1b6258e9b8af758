package think

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
)

func e2e4() chess.Move {
	m, _ := chess.ParseUCI("e2e4")
	return m
}

// fake is a player whose Attempt reports what it was given and whose
// Ponder counts iterations until cancelled or done.
type fake struct {
	players.Player
	budget   players.Budget
	deadline bool
	panics   bool
}

func (f *fake) Attempt(ctx context.Context, b players.Budget) (chess.Move, error) {
	if f.panics {
		panic("boom")
	}
	f.budget = b
	_, f.deadline = ctx.Deadline()
	if ctx.Err() != nil {
		return chess.NullMove, ctx.Err()
	}
	return e2e4(), nil
}

func (f *fake) Ponder(ctx context.Context, nodes int64) players.PonderReport {
	if f.panics {
		panic("boom")
	}
	var n int64
	for ; nodes == 0 || n < nodes; n++ {
		if nodes == 0 && ctx.Err() != nil {
			break
		}
	}
	return players.PonderReport{Iterations: n}
}

func (f *fake) PonderTrees([]int64) players.PonderReport { return players.PonderReport{} }

func TestRun(t *testing.T) {
	f := &fake{}
	plan := clock.Plan{Soft: time.Second, Hard: 2 * time.Second, Max: 2 * time.Second}
	r := Run(context.Background(), f, Budget(plan, 7), plan.Hard)
	want := players.Budget{Time: time.Second, MaxTime: 2 * time.Second, Nodes: 7}
	if r.Err != nil || r.Move != e2e4() || f.budget != want || !f.deadline {
		t.Fatalf("Run = %+v, budget %+v, deadline %v; want e2e4, %+v, a deadline", r, f.budget, f.deadline, want)
	}
	if r = Run(context.Background(), f, players.Budget{Nodes: 5}, clock.NoLimit); r.Err != nil || f.deadline {
		t.Fatalf("no limit: %+v, deadline %v", r, f.deadline)
	}
	// A hard limit of 0 is a limit: the context is over at once.
	if r = Run(context.Background(), f, players.Budget{}, 0); !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Fatalf("hard 0: %+v, want the deadline exceeded", r)
	}
	f.panics = true
	if r = Run(context.Background(), f, players.Budget{}, clock.NoLimit); r.Err == nil || !strings.Contains(r.Err.Error(), "boom") || r.Move != chess.NullMove {
		t.Fatalf("panic: %+v, want an error naming it", r)
	}
}

func TestStart(t *testing.T) {
	f := &fake{}
	got := make(chan Result, 1)
	s := Start(f, players.Budget{Nodes: 3}, clock.NoLimit, func(r Result) { got <- r })
	r := <-got
	s.Cancel()
	if r.Err != nil || f.budget.Nodes != 3 {
		t.Fatalf("Start delivered %+v with budget %+v", r, f.budget)
	}
}

func TestPonder(t *testing.T) {
	f := &fake{}
	rep, err := StartPonder(context.Background(), f, 1000).Finish()
	if err != nil || rep.Iterations != 1000 {
		t.Fatalf("Finish = %+v, %v; want 1000 iterations", rep, err)
	}
	if _, err = StartPonder(context.Background(), f, 0).Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	f.panics = true
	if _, err = StartPonder(context.Background(), f, 0).Stop(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("a panicking ponder: %v, want an error naming it", err)
	}
}
