package players

import (
	"context"
	"fmt"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestSampledPlaysAskable plays sampled and boardtree (which share the
// player) against the heuristic and checks every attempt each proposes: one the umpire would hear (its askable list,
// en passant steps aside, which the player cannot know are askable), never
// one refused this turn; the games end. The same seed replays the same game.
func TestSampledPlaysAskable(t *testing.T) {
	for _, spec := range []string{"sampled:unit=4", "boardtree", "boardtree:threads=2"} {
		t.Run(spec, func(t *testing.T) { playsAskable(t, spec) })
	}
}

func playsAskable(t *testing.T, spec string) {
	play := func(seed uint64, white bool) string {
		rules := umpire.ICC()
		rules.MaxPlies = 160
		u := umpire.New(rules)
		s, h := mustNew(t, spec), mustNew(t, "heuristic")
		ps := [2]Player{s, h}
		us := chess.White
		if !white {
			ps, us = [2]Player{h, s}, chess.Black
		}
		for c, p := range ps {
			if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		var askable chess.MoveList
		for attempts := 0; u.Ending() == umpire.NotOver; attempts++ {
			if attempts > 20000 {
				t.Fatal("game does not end")
			}
			side := u.Side()
			m, err := ps[side].Attempt(context.Background(), Budget{Nodes: 40})
			if err != nil {
				t.Fatalf("seed %d ply %d: %v", seed, u.Plies(), err)
			}
			if side == us {
				pos := u.Position()
				u.Askable(&askable)
				if !askable.Contains(m) && !(m.To() == pos.EnPassant() && pos.PieceAt(m.From()).Type() == chess.Pawn) {
					t.Fatalf("seed %d ply %d (%s): %v is not askable", seed, u.Plies(), pos.FEN(), m)
				}
				for _, r := range u.Refused() {
					if r == m {
						t.Fatalf("seed %d ply %d: %v proposed again after its refusal", seed, u.Plies(), m)
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
		return fmt.Sprint(u.Moves())
	}
	for seed := range uint64(4) {
		a := play(seed, seed%2 == 0)
		if seed == 0 && a != play(seed, true) {
			t.Fatal("same seed, different games")
		}
	}
}

// TestSampledOptions: the kind reads its options and refuses bad ones.
func TestSampledOptions(t *testing.T) {
	if _, err := Parse("sampled:worst=0.5,growth=16,refused=board,refusal=0,unit=8,prior=uniform,seed=3", Kinds()); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("boardtree:c=0.3,leaf=64,refusal=0.1,turns=4,mem=8,threads=3,prior=uniform,seed=3", Kinds()); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"sampled:worst=2", "sampled:unit=0", "sampled:prior=x", "sampled:depth=3", "sampled:refused=x",
		"boardtree:c=-1", "boardtree:leaf=0", "boardtree:turns=0", "boardtree:unit=2", "boardtree:worst=1"} {
		if _, err := Parse(bad, Kinds()); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
