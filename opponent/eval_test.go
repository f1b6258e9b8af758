package opponent

import (
	"math"
	"testing"

	"kriegbot/engine/chess"
)

func TestEvaluate(t *testing.T) {
	train := countsFrom(t, randomGames(41, 80, 200), 30)
	test := countsFrom(t, randomGames(42, 40, 200), 30)
	scores := Evaluate(NewModel(train), test)
	var bits, uniform, games float64
	for col := range 2 {
		for cls := range NumClasses {
			for mv := 1; mv <= 10; mv++ {
				s := scores[col][cls][mv]
				bits += s.Bits
				uniform += s.Uniform
				games += s.Games
			}
		}
	}
	if want := 2 * 3 * 10 * 40.0; math.Abs(games-want) > 1e-6 {
		t.Fatalf("scored %v game-rows, want %v", games, want)
	}
	if bits >= uniform*0.9 {
		t.Errorf("held-out bits %v, uniform %v: the model should beat uniform clearly in the opening", bits, uniform)
	}
	// A model that knows the opening exactly needs few bits for it.
	games1 := make([][]chess.Move, 50)
	for i := range games1 {
		games1[i] = uciMoves(t, "e2e4", "e7e5")
	}
	c := countsFrom(t, games1, 5)
	s := Evaluate(NewModel(c), c)[chess.White][King][1]
	// The king stays on e1; smoothing leaves it more than half the mass.
	if s.Games != 50 || s.Bits/s.Games > 1 || s.Floored != 0 {
		t.Errorf("known king: %+v", s)
	}
	// Moves the model does not serve are not scored.
	if s := Evaluate(NewModel(c), c)[chess.White][King][4]; s != (MoveScore{}) {
		t.Errorf("move past the horizon scored: %+v", s)
	}
}
