package players

import (
	"context"
	"math/rand/v2"

	"kriegbot/engine/chess"
)

func randomKind() Kind {
	return Kind{
		Name:    "random",
		Summary: "uniform over the askable attempts of its own men not yet refused this turn (and drops); asks \"Any?\" at 3 in 10 turns where it may",
		Build:   func(*Options) (func() Player, error) { return func() Player { return &Random{} }, nil },
	}
}

// Random draws each attempt uniformly from the askable attempts of its own
// men (OwnBoard.Askable) and its drops not yet refused this turn: the
// baseline every other kind must beat. Where the variant has "Any?", it
// asks at the start of a turn with chance askChance.
type Random struct {
	know  Knowledge
	rng   *rand.Rand
	list  chess.MoveList
	drops []chess.Move
}

// askChance is how often, in tenths, random asks "Any?" where it may (the
// umpire's random streams ask as often).
const askChance = 3

// seedStreams separates the colours' random streams for one game seed.
const seedStreams = 0x9e3779b97f4a7c15

// NewGame starts a game.
func (r *Random) NewGame(g Game) error {
	r.know.Start(&g)
	r.rng = rand.New(rand.NewPCG(g.Seed, seedStreams^uint64(g.Color)))
	return nil
}

// Attempt draws an attempt, or asks "Any?" (chess.NullMove).
func (r *Random) Attempt(context.Context, Budget) (chess.Move, error) {
	k := &r.know
	if k.CanAskAny() && k.Refused.N == 0 && r.rng.IntN(10) < askChance {
		k.Asked(chess.NullMove)
		return chess.NullMove, nil
	}
	k.Askable(&r.list)
	r.drops = k.AskableDrops(r.drops[:0])
	n := r.list.N + len(r.drops)
	if n == 0 {
		return chess.NullMove, ErrNoAttempt
	}
	var m chess.Move
	if i := r.rng.IntN(n); i < r.list.N {
		m = r.list.Moves[i]
	} else {
		m = r.drops[i-r.list.N]
	}
	k.Asked(m)
	return m, nil
}

// Hear applies a referee answer.
func (r *Random) Hear(e Event) {
	if e.Kind == Answer {
		r.know.Hear(e.View)
	}
}

// GameOver ends the game.
func (r *Random) GameOver(Outcome) {}
