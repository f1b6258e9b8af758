package search

import (
	"context"
	"testing"

	"kriegbot/engine/chess"
)

// TestCountDeep: a counted decision node gives each attempt its chance of
// mating and of leaving a mate in one, on boards drawn from its belief.
// White's back-rank mate Ra8 mates on every board; with a black rook on a8
// instead, Kh1 walks into mate on the first rank (found half the time, on
// the boards where the man on a8 is drawn as a rook or a queen: a sample
// shuffles the unseen pieces' types), Kf1 and h3 do not.
func TestCountDeep(t *testing.T) {
	cfg := DefaultConfig()
	for _, tc := range []struct {
		name   string
		fen    string
		move   string
		mates  uint8
		threat uint8 // at least this, at most twice as much (0: none)
	}{
		{"back-rank mate", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8", 255, 0},
		{"a quiet rook move", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1b1", 0, 0},
		{"into the mate", "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "g1h1", 0, 40},
		{"out of it", "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "g1f1", 0, 0},
		{"luft", "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "h2h3", 0, 0},
	} {
		bel := beliefAt(t, tc.fen)
		var m men
		m.fromBelief(&bel)
		var l chess.MoveList
		m.attempts(nil, &l)
		tr := newTree(1, 1)
		tr.reset(&bel)
		if !tr.addAttempts(0, l.Slice()) {
			t.Fatal("no room")
		}
		tr.countDeep(&cfg, 0)
		if tr.nodes[0].flags&fCounted == 0 {
			t.Fatalf("%s: not marked counted", tc.name)
		}
		found := false
		for c := tr.nodes[0].first; c < tr.nodes[0].first+int32(tr.nodes[0].nchild); c++ {
			ch := &tr.nodes[c]
			if ch.move.String() != tc.move {
				continue
			}
			found = true
			if ch.mates != tc.mates || ch.threat < tc.threat || ch.threat > 2*tc.threat+1 || (ch.threat > 0) != (tc.threat > 0) {
				t.Errorf("%s: %s mates %d threat %d (255ths), want %d and %d to %d", tc.name, tc.move, ch.mates, ch.threat, tc.mates, tc.threat, 2*tc.threat)
			}
		}
		if !found {
			t.Fatalf("%s: no attempt %s", tc.name, tc.move)
		}
	}
	if got := withMates(1, 0, 0); got != 1 {
		t.Errorf("no mates: %v, want the value itself", got)
	}
	if got := withMates(1, 1, 0); got != winValue {
		t.Errorf("a sure mate: %v, want %v", got, winValue)
	}
	if got := withMates(1, 0, 1); got != -winValue {
		t.Errorf("a sure loss: %v, want %v", got, -winValue)
	}
}

// TestDeepMatesRepeat: with deep counts a search is still exact from its
// seed and budget, counts nodes below the root, and chooses otherwise than
// without them somewhere.
func TestDeepMatesRepeat(t *testing.T) {
	ps := Middlegames(11, 3, 20, 40)
	run := func(deep int) ([]Result, int) {
		cfg := testConfig(ApproachC, 1)
		cfg.DeepMates = deep
		cfg.Seed = 5
		s := newSearcher(t, cfg)
		var out []Result
		counted := 0
		for i := 0; i < len(ps); i += 5 {
			out = append(out, s.Search(context.Background(), &ps[i].Belief, ps[i].Moves, Limits{Nodes: 3000}))
			tr := s.trees[0]
			for j := range tr.nn {
				if tr.nodes[j].flags&fCounted != 0 {
					counted++
				}
			}
		}
		return out, counted
	}
	a, counted := run(32)
	b, _ := run(32)
	off, _ := run(0)
	if counted == 0 {
		t.Fatal("no node below the root was counted")
	}
	differ := false
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("position %d: %+v then %+v", i, a[i], b[i])
		}
		differ = differ || a[i].Move != off[i].Move || a[i].Value != off[i].Value
	}
	if !differ {
		t.Error("deep counts changed no search")
	}
}

// TestDeepMatesNoAllocs: iterations that count a node's mates allocate
// nothing either (the boards' slice is the tree's, grown once).
func TestDeepMatesNoAllocs(t *testing.T) {
	ps := Middlegames(15, 2, 20, 40)
	cfg := DefaultConfig()
	cfg.DeepMates = 1
	tr := newTree(16, 1)
	tr.reset(&ps[0].Belief)
	tr.addAttempts(0, ps[0].Moves)
	before := 0
	allocs := testing.AllocsPerRun(500, func() {
		if !tr.iterate(&cfg) {
			t.Fatal("pool full")
		}
	})
	for i := range tr.nn {
		if tr.nodes[i].flags&fCounted != 0 {
			before++
		}
	}
	if before == 0 {
		t.Fatal("no node counted")
	}
	if allocs != 0 {
		t.Fatalf("%.1f allocations per iteration", allocs)
	}
}
