package players

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// playBudget drives two players through the umpire with a node budget per
// attempt, calls each (if set) before every attempt, checks that no refused
// attempt is asked again, and returns the umpire at the end.
func playBudget(t *testing.T, white, black Player, seed uint64, maxPlies int, nodes int64, each func(u *umpire.Umpire)) *umpire.Umpire {
	t.Helper()
	rules := umpire.ICC()
	rules.MaxPlies = maxPlies
	u := umpire.New(rules)
	ps := [2]Player{white, black}
	for c, p := range ps {
		if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	for attempts := 0; u.Ending() == umpire.NotOver; attempts++ {
		if attempts > 100000 {
			t.Fatal("game does not end")
		}
		if each != nil {
			each(u)
		}
		side := u.Side()
		m, err := ps[side].Attempt(context.Background(), Budget{Nodes: nodes})
		if err != nil {
			t.Fatalf("ply %d: %v", u.Plies(), err)
		}
		for _, r := range u.Refused() {
			if r == m {
				t.Fatalf("ply %d: %v proposed again after its refusal", u.Plies(), m)
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
	for _, p := range ps {
		p.GameOver(Outcome{Result: u.Result(), Reason: u.Ending().String()})
	}
	return u
}

func TestMCTSDebugBare(t *testing.T) {
	if os.Getenv("KRIEGBOT_DEBUG") == "" {
		t.Skip("debug only")
	}
	for seed := uint64(1); seed < 8; seed++ {
		w := mustNew(t, "mcts").(*MCTS)
		var prev string
		u := playBudget(t, w, mustNew(t, "heuristic"), seed, 400, 1000, func(u *umpire.Umpire) {
			pos := u.Position()
			if u.Side() != chess.White {
				return
			}
			mine := pos.ByColor(chess.White) &^ pos.Pieces(chess.White, chess.King)
			if mine.Count() <= 2 && !pos.ByColor(chess.Black).More() {
				var b strings.Builder
				fmt.Fprintf(&b, "ply %d %s units %d\n", u.Plies(), pos.FEN(), w.bel.Units())
				w.bel.Format(&b)
				w.search.WriteRoot(&b)
				prev = b.String()
			}
			if mine.Count() == 0 && prev != "" {
				t.Logf("lost the last man after:\n%s", prev)
				prev = ""
			}
		})
		t.Log(seed, u.Ending(), u.Result(), u.Plies())
	}
}
