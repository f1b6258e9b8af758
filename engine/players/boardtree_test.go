package players

import (
	"context"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// TestBoardtreeReusesWhatItHeard: over a game against the heuristic, the
// referee's answers lead boardtree's tree to nodes it grew (its keys are
// what the umpire announces), so that many choices start with visits kept;
// without reuse none does.
func TestBoardtreeReusesWhatItHeard(t *testing.T) {
	play := func(spec string) (choices, reused int) {
		rules := umpire.ICC()
		rules.MaxPlies = 120
		u := umpire.New(rules)
		b, h := mustNew(t, spec), mustNew(t, "heuristic")
		ps := [2]Player{b, h}
		for c, p := range ps {
			if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: 9}); err != nil {
				t.Fatal(err)
			}
		}
		for attempts := 0; u.Ending() == umpire.NotOver && attempts < 2000; attempts++ {
			side := u.Side()
			m, err := ps[side].Attempt(context.Background(), Budget{Nodes: 400})
			if err != nil {
				t.Fatal(err)
			}
			if side == chess.White {
				if rep := b.(Inspector).LastSearch(); rep.Iterations > 0 {
					choices++
					if rep.Reused > 0 {
						reused++
					}
				}
			}
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			for c, p := range ps {
				p.Hear(AnswerEvent(&a, chess.Color(c)))
			}
		}
		return choices, reused
	}
	choices, reused := play("boardtree")
	if choices == 0 || reused < choices*3/4 {
		t.Errorf("%d of %d choices reused the tree", reused, choices)
	}
	if choices, reused := play("boardtree:reuse=0"); choices == 0 || reused != 0 {
		t.Errorf("reuse=0: %d of %d choices reused the tree", reused, choices)
	}
	t.Logf("%d of %d choices reused the tree", reused, choices)
}

// countingPrior is the uniform prior, counting the belief's questions.
type countingPrior struct {
	belief.UniformPrior
	asked *int
}

func (c countingPrior) Trend(opp chess.Color, cl oppmodel.Class, move int) (*[64]float32, bool) {
	*c.asked++
	return c.UniformPrior.Trend(opp, cl, move)
}

// TestBoardtreeSetPrior: the opponent model the daemon sets (a learned
// per-opponent or per-variant one) is the one boardtree's belief asks when
// the opponent moves, and its bare-king search's (an MCTS kept informed):
// twice the questions of an MCTS alone.
func TestBoardtreeSetPrior(t *testing.T) {
	asked := func(spec string) int {
		p := mustNew(t, spec)
		n := 0
		p.(PriorSetter).SetPrior(countingPrior{asked: &n})
		if err := p.NewGame(Game{Color: chess.Black, Rules: umpire.ICC(), Seed: 4}); err != nil {
			t.Fatal(err)
		}
		u := umpire.New(umpire.ICC())
		m, _ := chess.ParseUCI("e2e4")
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Hear(AnswerEvent(&a, chess.Black))
		return n
	}
	alone, both := asked("mcts:mem=8"), asked("boardtree:mem=8")
	if alone == 0 || both != 2*alone {
		t.Fatalf("the prior set was asked %d times by boardtree, %d by an MCTS alone; want twice", both, alone)
	}
}
