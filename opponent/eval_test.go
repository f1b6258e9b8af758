package opponent

import (
	"math"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

func TestEvaluate(t *testing.T) {
	train := countsFrom(t, randomGames(41, 80, 200), 30)
	test := countsFrom(t, randomGames(42, 40, 200), 30)
	scores := Evaluate(oppmodel.NewModel(train), test)
	var bits, uniform, games float64
	for col := range 2 {
		for cls := range oppmodel.NumClasses {
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
	s := Evaluate(oppmodel.NewModel(c), c)[chess.White][oppmodel.King][1]
	// The king stays on e1; smoothing leaves it more than half the mass.
	if s.Games != 50 || s.Bits/s.Games > 1 || s.Floored != 0 {
		t.Errorf("known king: %+v", s)
	}
	// Moves the model does not serve are not scored.
	if s := Evaluate(oppmodel.NewModel(c), c)[chess.White][oppmodel.King][4]; s != (MoveScore{}) {
		t.Errorf("move past the horizon scored: %+v", s)
	}
}

func TestTrendAgreement(t *testing.T) {
	// On the games it was built from, a fixed opening, the model's trends
	// point the same way as the raw ones (not exactly: the blur smooths them,
	// and the pieces' moves 2 and 3 are pooled with their neighbours).
	games := make([][]chess.Move, 300)
	for i := range games {
		games[i] = uciMoves(t, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6")
	}
	c := countsFrom(t, games, 5)
	a := TrendAgreement(oppmodel.NewModel(c), c)
	if a[chess.White][oppmodel.Pawn] < 0.9 || a[chess.Black][oppmodel.Pawn] < 0.9 || a[chess.White][oppmodel.Piece] < 0.8 || a[chess.Black][oppmodel.Piece] < 0.8 {
		t.Errorf("self agreement %v, want > 0.9 for pawns and 0.8 for pieces", a)
	}
	// On other games of the same kind, trends agree more than by chance.
	train := countsFrom(t, randomGames(51, 150, 120), 20)
	test := countsFrom(t, randomGames(52, 150, 120), 20)
	b := TrendAgreement(oppmodel.NewModel(train), test)
	for col := range 2 {
		for cls := range oppmodel.NumClasses {
			if b[col][cls] <= 0.05 || b[col][cls] > 1 {
				t.Errorf("held-out agreement %v: colour %d %s out of (0.05, 1]", b, col, oppmodel.Class(cls))
			}
		}
	}
}
