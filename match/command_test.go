package match

import (
	"context"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
)

// repeater is a real random player that, once refused, asks the same
// attempt again: the runner must forfeit it rather than loop.
type repeater struct {
	players.Random
	last    chess.Move
	refused bool
}

func (r *repeater) Attempt(ctx context.Context, b players.Budget) (chess.Move, error) {
	if r.refused {
		return r.last, nil
	}
	m, err := r.Random.Attempt(ctx, b)
	r.last = m
	return m, err
}

func (r *repeater) Hear(e players.Event) {
	r.refused = e.View.Own && e.View.Illegal
	r.Random.Hear(e)
}

func TestRepeatedAttemptForfeits(t *testing.T) {
	kind := players.Kind{Name: "repeater", Build: func(*players.Options) (func() players.Player, error) {
		return func() players.Player { return &repeater{} }, nil
	}}
	c := config(t, "heuristic", "random", 2)
	c.P2 = spec(t, "repeater", kind)
	sum, pgn, _ := run(t, c)
	if sum.Terminations[TermError] != 2 || sum.Tally.W != 2 {
		t.Fatalf("repeater: %s %v", sum.Line(), sum.Terminations)
	}
	if flat := strings.Join(strings.Fields(pgn), " "); !strings.Contains(flat, "again after its refusal") || !strings.Contains(pgn, `[Termination "rules infraction"]`) {
		t.Fatal("PGN does not say why the repeater forfeited")
	}
}
