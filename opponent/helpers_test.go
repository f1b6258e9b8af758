package opponent

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// randomGames returns the legal move lists of n uniformly random Kriegspiel
// games (seeded), as test data that exercises every kind of move.
func randomGames(seed uint64, n, maxPlies int) [][]chess.Move {
	s := umpire.RandomStream(seed, n, maxPlies)
	return s.LegalGames()
}

func uciMoves(t testing.TB, ucis ...string) []chess.Move {
	t.Helper()
	out := make([]chess.Move, len(ucis))
	for i, s := range ucis {
		m, err := chess.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func countsFrom(t testing.TB, games [][]chess.Move, horizon int) *oppmodel.Counts {
	t.Helper()
	c := oppmodel.NewCounts(horizon)
	c.Meta = oppmodel.Meta{Builder: "test", Source: "random games"}
	for i, g := range games {
		if err := c.AddGame(g, [2]bool{true, true}); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}
	return c
}

func sq(t testing.TB, name string) chess.Square {
	t.Helper()
	s, ok := chess.ParseSquare(name)
	if !ok {
		t.Fatalf("bad square %q", name)
	}
	return s
}
