package players

import (
	"context"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestPonderOnlyInTheirTurn: the mcts player ponders only between our
// accepted move and the opponent's: not before any move of ours, not after
// a refusal, not once the opponent's move is heard.
func TestPonderOnlyInTheirTurn(t *testing.T) {
	p := mustNew(t, "mcts:mem=4").(*MCTS)
	if err := p.NewGame(Game{Color: chess.White, Rules: umpire.ICC(), Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ponder := func(when string, want bool) {
		t.Helper()
		if got := p.Ponder(context.Background(), 100).Iterations > 0; got != want {
			t.Fatalf("%s: pondered %v, want %v", when, got, want)
		}
	}
	ponder("before our first move", false)
	u := umpire.New(umpire.ICC())
	for {
		m, err := p.Attempt(context.Background(), Budget{Nodes: 300})
		if err != nil {
			t.Fatal(err)
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Hear(AnswerEvent(&a, chess.White))
		if a.Legal {
			break
		}
		ponder("after a refusal", false)
	}
	ponder("after our accepted move", true)
	var l chess.MoveList
	pos := u.Position()
	pos.GenerateLegal(&l)
	a, err := u.Attempt(l.Moves[0])
	if err != nil {
		t.Fatal(err)
	}
	p.Hear(AnswerEvent(&a, chess.White))
	ponder("after the opponent's move", false)
	if _, err := p.Attempt(context.Background(), Budget{Nodes: 300}); err != nil {
		t.Fatal(err)
	}
}
