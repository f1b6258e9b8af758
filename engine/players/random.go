package players

import (
	"context"
	"math/rand/v2"

	"kriegbot/engine/chess"
)

func randomKind() Kind {
	return Kind{
		Name:    "random",
		Summary: "uniform over the askable attempts of its own men not yet refused this turn",
		Build:   func(*Options) (func() Player, error) { return func() Player { return &Random{} }, nil },
	}
}

// Random draws each attempt uniformly from the askable attempts of its own
// men (OwnBoard.Askable) not yet refused this turn: the baseline every other
// kind must beat.
type Random struct {
	know Knowledge
	rng  *rand.Rand
	list chess.MoveList
}

// seedStreams separates the colours' random streams for one game seed.
const seedStreams = 0x9e3779b97f4a7c15

// NewGame starts a game.
func (r *Random) NewGame(g Game) error {
	r.know.Reset(g.Color)
	if g.Start != nil {
		r.know.ResetFrom(g.Color, g.Start)
	}
	r.rng = rand.New(rand.NewPCG(g.Seed, seedStreams^uint64(g.Color)))
	return nil
}

// Attempt draws an attempt.
func (r *Random) Attempt(context.Context, Budget) (chess.Move, error) {
	r.know.Askable(&r.list)
	if r.list.N == 0 {
		return chess.NullMove, ErrNoAttempt
	}
	m := r.list.Moves[r.rng.IntN(r.list.N)]
	r.know.Asked(m)
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
