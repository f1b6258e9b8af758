package search

import (
	"context"
	"fmt"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestRepetitionAtRoot: a rook shuffled between a1 and b1 against a bare
// king. Under the Olympiad's rules the attempt that would stand the rook on
// b1 a third time is valued toward a draw by its chance (Config.Repeat
// times the chance it is quiet), and a capture starts the count afresh;
// under ICC rules nothing is counted.
func TestRepetitionAtRoot(t *testing.T) {
	for _, c := range []struct {
		rules  umpire.Rules
		repeat float64
		lo, hi float32 // Rb1's chance, from the quiet chance (about 0.97) times repeat
	}{
		{umpire.Olympiad(), 1, 0.9, 1},
		{umpire.Olympiad(), 0.5, 0.45, 0.5},
		{umpire.ICC(), 1, 0, 0},
	} {
		rules := c.rules
		t.Run(fmt.Sprintf("%s-%g", rules.Name, c.repeat), func(t *testing.T) {
			cfg := testConfig(ApproachC, 1)
			cfg.Repeat = c.repeat
			s := newSearcher(t, cfg)
			s.NewGame(1, rules)
			bel := beliefAt(t, "7k/8/8/8/8/8/8/R3K3 w - - 0 1")
			toB1 := chess.NewMove(chess.A1, chess.NewSquare(1, 0), chess.NoPieceType)
			toA1 := chess.NewMove(chess.NewSquare(1, 0), chess.A1, chess.NoPieceType)
			for _, m := range []chess.Move{toB1, toA1, toB1, toA1} {
				search(t, s, &bel)
				play(s, &bel, m, false)
			}
			search(t, s, &bel)
			j := -1
			for k, m := range s.rep.moves {
				if m == toB1 {
					j = k
				}
			}
			if !rules.Repetition {
				if len(s.rep.chance) != 0 || len(s.rep.keys) != 0 {
					t.Fatalf("rules without repetition draws kept %d keys, %d chances", len(s.rep.keys), len(s.rep.chance))
				}
				return
			}
			if j < 0 {
				t.Fatal("Rb1 not among the root's attempts")
			}
			for k, p := range s.rep.chance {
				if k == j && (p < c.lo || p > c.hi) || k != j && p != 0 {
					t.Errorf("%v: repetition chance %.3f", s.rep.moves[k], p)
				}
			}
			tr := s.trees[0]
			a := tr.nodes[0].first + int32(j)
			if v, tv := tr.rootValue(a), tr.nodes[a].value; tv <= 0 || v > tv*(1-c.lo)+0.01 {
				t.Errorf("Rb1 valued %.2f at the root, %.2f in the tree", v, tv)
			}
			// Visits a reused tree brought do not get it played when the
			// root values another attempt above it (a chance of a half
			// or more).
			nm := len(s.rep.moves)
			for k := range nm {
				s.visits[k] = 1
			}
			s.visits[j] = 1 << 40
			if got := s.notRepeating(j, nm); (got != j) != (s.rep.chance[j] >= 0.5) {
				t.Errorf("the most visited, repeating with %.2f, gave way to %v", s.rep.chance[j], s.rep.moves[got])
			}
			// The candidates report it, for records and replays.
			for _, cd := range s.Candidates(nil) {
				if (cd.Move == toB1) != (cd.PRepeat > 0) {
					t.Errorf("candidate %v: repetition chance %.3f", cd.Move, cd.PRepeat)
				}
			}
			// A capture by either side starts the count afresh.
			play(s, &bel, toB1, true)
			if len(s.rep.keys) != 0 {
				t.Errorf("%d keys kept after a capture", len(s.rep.keys))
			}
		})
	}
}

func search(t *testing.T, s *Searcher, bel *belief.State) {
	t.Helper()
	var m men
	var l chess.MoveList
	m.fromBelief(bel)
	m.attempts(nil, &l)
	s.Search(context.Background(), bel, l.Slice(), Limits{Nodes: 200})
}

// play plays our quiet move m and a reply that takes nothing (captured: the
// searcher is told the move took a man, without a belief to match).
func play(s *Searcher, bel *belief.State, m chess.Move, captured bool) {
	ours := umpire.View{Heard: true, Own: true, Move: m}
	theirs := umpire.View{Heard: true}
	bel.Ours(m, ours)
	bel.Theirs(theirs)
	if captured {
		ours.Capture = umpire.Capture{Square: m.To(), Kind: umpire.PawnCaptured}
	}
	s.Played(m, ours, theirs, bel)
}
