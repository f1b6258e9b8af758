package belief_test

import (
	"fmt"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// White's belief through 1.e4 d5: the referee's answers, as each side hears
// them, are all the belief is told.
func Example() {
	u := umpire.New(umpire.ICC())
	white := belief.New(chess.White, belief.UniformPrior{})
	for _, uci := range []string{"e2e4", "d7d5"} {
		m, _ := chess.ParseUCI(uci)
		a, _ := u.Attempt(m)
		if a.Mover == chess.White {
			white.Ours(m, a.For(chess.White)) // our own attempt and its answer
		} else {
			white.Theirs(a.For(chess.White)) // the opponent's hidden move
		}
	}
	tries, _ := white.PawnTries()
	fmt.Println("pawn tries:", tries)
	for _, uci := range []string{"e4d5", "e4f5", "e4e5"} {
		m, _ := chess.ParseUCI(uci)
		o := white.Outcomes(m)
		fmt.Printf("%s: legal %.2f, captures a pawn %.2f\n", uci, o.Legal(), o.CapturePawn)
	}
	fmt.Printf("black pawn on d5: %.2f, on d7: %.2f\n", white.Prob(oppmodel.Pawn, sq("d5")), white.Prob(oppmodel.Pawn, sq("d7")))
	// Output:
	// pawn tries: 1
	// e4d5: legal 0.50, captures a pawn 0.50
	// e4f5: legal 0.50, captures a pawn 0.50
	// e4e5: legal 0.97, captures a pawn 0.00
	// black pawn on d5: 0.50, on d7: 0.83
}

func sq(s string) chess.Square {
	q, _ := chess.ParseSquare(s)
	return q
}
