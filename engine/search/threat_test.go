package search

import (
	"context"
	"math"
	"testing"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// rootAt is a tree rooted at the belief of the side to move in fen, knowing
// every man, with our askable attempts as the root's children.
func rootAt(t *testing.T, fen string) (belief.State, []chess.Move, *tree) {
	t.Helper()
	bel := beliefAt(t, fen)
	var m men
	m.fromBelief(&bel)
	var ml chess.MoveList
	m.attempts(nil, &ml)
	moves := ml.Slice()
	tr := newTree(1, 1)
	tr.reset(&bel)
	if !tr.addAttempts(0, moves) {
		t.Fatal("no room for the attempts")
	}
	return bel, moves, tr
}

// rootThreats draws up to n boards from bel on tree t and counts the mates
// on them as a one-tree search does (countMates, then setMates).
func rootThreats(t *tree, bel *belief.State, moves []chess.Move, n int, find float64, own bool) {
	t.countMates(bel, moves, n, find > 0)
	t.setMates(bel, t.counts, len(t.boards), find, own)
}

// TestRootThreats: a root attempt that leaves the opponent a mate in one is
// charged MateThreat's chance of a loss, the others nothing, and the root
// values it so. Black's man on d3 is a knight on some of the boards drawn
// (the belief knows where the opponent's men stand, not what they are), and
// then Nf2 mates White's king in the corner unless White makes room or
// guards f2; a rook or queen there takes a rook left on its line and mates
// on the back rank.
func TestRootThreats(t *testing.T) {
	bel, moves, tr := rootAt(t, "k7/8/8/8/8/3n4/P5PP/6RK w - - 0 1")
	rootThreats(tr, &bel, moves, 64, 0.5, true)
	if len(tr.threat) != len(moves) {
		t.Fatalf("%d threats for %d attempts", len(tr.threat), len(moves))
	}
	threatened := map[string]bool{"a2a3": true, "a2a4": true, "g1b1": true, "g1d1": true, "g1f1": true}
	for j, mv := range moves {
		p := tr.threat[j]
		switch {
		case threatened[mv.String()] && (p <= 0 || p > 0.5):
			t.Errorf("%v: threat %v, want in (0, 0.5]", mv, p)
		case !threatened[mv.String()] && p != 0:
			t.Errorf("%v: threat %v, want 0", mv, p)
		}
		// The root values the attempt as the threat's chance of a loss
		// and its tree value for the rest.
		c := tr.nodes[0].first + int32(j)
		tr.nodes[c].value = 2
		want := 2 - p*(2+winValue)
		if got := tr.rootValue(c); got != want {
			t.Errorf("%v: root value %v, want %v", mv, got, want)
		}
	}
}

// TestMateInOne: mateInOne finds the mates (by a promotion and by a
// discovered check among them) and only them.
func TestMateInOne(t *testing.T) {
	tr := newTree(1, 1)
	for _, tc := range []struct {
		fen  string
		mate bool
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", true},         // Ra8
		{"6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1", false},       // luft on h7
		{"6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", false},        // Black to move
		{"k7/2P5/1K6/8/8/8/8/8 w - - 0 1", true},            // c8=Q
		{"k7/8/1K6/8/8/8/8/7R w - - 0 1", true},             // Rh8
		{"k7/8/2K5/8/8/8/8/7R w - - 0 1", false},            // a7 is free
		{"3rkr2/3p1p2/8/4N3/8/8/8/K3R3 w - - 0 1", true},    // the knight discovers the rook
		{"3rkr2/3p1p2/8/4N3/8/8/4p3/K3R3 w - - 0 1", false}, // a pawn shields the king
		{"k7/8/8/8/8/3n4/P5PP/6RK b - - 0 1", true},         // Nf2
		{"k7/8/8/8/8/3n4/P5PP/5R1K b - - 0 1", false},       // f2 guarded
	} {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.mateInOne(&p); got != tc.mate {
			t.Errorf("%s: mate in one %v, want %v", tc.fen, got, tc.mate)
		}
	}
}

// TestRootOwnMates: the root counts the share of the boards on which an
// attempt mates (Ra8 against a king shut in by its own pawns), only when
// asked and only when the answers do not know mate (a bare king).
func TestRootOwnMates(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		own  bool
		want float32
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", true, 1},
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, 0},
		{"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", true, 0}, // bare king: the answers know
	} {
		bel, moves, tr := rootAt(t, tc.fen)
		rootThreats(tr, &bel, moves, 16, 0.5, tc.own)
		for j, mv := range moves {
			want := float32(0)
			if mv.String() == "a1a8" {
				want = tc.want
			}
			if tr.mates[j] != want {
				t.Errorf("%s own=%v: %v mates on %v of the boards, want %v", tc.fen, tc.own, mv, tr.mates[j], want)
			}
			c := tr.nodes[0].first + int32(j)
			tr.nodes[c].value = 1
			if want == 1 && tr.rootValue(c) != winValue {
				t.Errorf("%s: the root values the mate %v at %v", tc.fen, mv, tr.rootValue(c))
			}
		}
	}
}

// BenchmarkRootThreats times the root's mate count of one search (32 boards
// drawn, every attempt tried on each) on middlegame beliefs: a cost paid once
// per search, not per iteration (drawing a board allocates).
func BenchmarkRootThreats(b *testing.B) {
	ps := Middlegames(3, 4, 20, 60)
	cfg := DefaultConfig()
	tr := newTree(1, 1)
	k := 0
	b.ReportAllocs()
	for b.Loop() {
		p := &ps[k]
		rootThreats(tr, &p.Belief, p.Moves, cfg.ThreatBoards, cfg.MateThreat, cfg.OwnMates)
		k = (k + 1) % len(ps)
	}
}

// TestCountAlways: every search counts the root's mates, an emergency one
// too, and a search whose time the count used up still searches (a replay
// runs it again with its recorded iteration count, which must not be 0).
func TestCountAlways(t *testing.T) {
	bel, moves, _ := rootAt(t, "k7/8/8/8/8/3n4/P5PP/6RK w - - 0 1")
	for _, lim := range []Limits{{Nodes: 64}, {Time: time.Nanosecond}, {Nodes: 1000}} {
		s := newSearcher(t, testConfig(ApproachC, 1))
		r := s.Search(context.Background(), &bel, moves, lim)
		if len(s.trees[0].threat) != len(moves) {
			t.Errorf("%+v: no count", lim)
		}
		if r.Iterations == 0 {
			t.Errorf("%+v: no iteration", lim)
		}
	}
}

// TestSharedCount: with two trees each draws half the boards, and both root
// values come from the summed count.
func TestSharedCount(t *testing.T) {
	bel, moves, _ := rootAt(t, "k7/8/8/8/8/3n4/P5PP/6RK w - - 0 1")
	s := newSearcher(t, testConfig(ApproachC, 2))
	s.Search(context.Background(), &bel, moves, Limits{Nodes: 200})
	a, b := s.trees[0], s.trees[1]
	if len(a.boards)+len(b.boards) != s.cfg.ThreatBoards || len(a.boards) != len(b.boards) {
		t.Fatalf("the trees drew %d and %d boards, want %d between them", len(a.boards), len(b.boards), s.cfg.ThreatBoards)
	}
	for j, mv := range moves {
		if a.threat[j] != b.threat[j] || a.mates[j] != b.mates[j] {
			t.Errorf("%v: threats %v and %v, mates %v and %v", mv, a.threat[j], b.threat[j], a.mates[j], b.mates[j])
		}
		if mv.String() == "a2a3" && a.threat[j] == 0 {
			t.Errorf("%v: no threat counted", mv)
		}
	}
}

// TestThreatBoards: the root counts on one board for each ItersPerBoard
// iterations of the search's work, its Nodes or its Time at the recent rate
// (the least count before a rate is known), between ThreatBoards and
// MaxThreatBoards; a recorded count (Limits.Boards) is repeated as it is,
// and ItersPerBoard 0 counts on ThreatBoards always.
func TestThreatBoards(t *testing.T) {
	bel, moves, _ := rootAt(t, "k7/8/8/8/8/3n4/P5PP/6RK w - - 0 1")
	cfg := testConfig(ApproachC, 1)
	cfg.ItersPerBoard = 10
	s := newSearcher(t, cfg)
	for _, c := range []struct {
		lim  Limits
		rate float64
		want int
	}{
		{Limits{Nodes: 1000}, 0, 100},
		{Limits{Nodes: 64}, 0, 32},
		{Limits{Nodes: 1 << 20}, 0, MaxThreatBoards},
		{Limits{Nodes: 64, Boards: 700}, 0, 700},
		{Limits{Nodes: 64, Boards: 1 << 20}, 0, MaxThreatBoards},
		{Limits{Time: 10 * time.Millisecond}, 0, 32},
		{Limits{Time: 10 * time.Millisecond}, 200000, 200},
		{Limits{Time: 10 * time.Millisecond, Nodes: 1000}, 200000, 100},
		{Limits{Trees: []int64{500}, Nodes: 500, Time: time.Second}, 200000, 50},
	} {
		s.rate = c.rate
		if got := s.threatBoards(c.lim); got != c.want {
			t.Errorf("%+v at %g iterations/s: %d boards, want %d", c.lim, c.rate, got, c.want)
		}
	}
	s.rate = 0
	r := s.Search(context.Background(), &bel, moves, Limits{Nodes: 2000})
	if r.Boards != 200 || len(s.trees[0].boards) != 200 {
		t.Errorf("a search of 2,000 iterations counted on %d boards (%d drawn), want 200", r.Boards, len(s.trees[0].boards))
	}
	// The rate: the first search's, then a quarter of the way to each next.
	s = newSearcher(t, cfg)
	for _, m := range []struct {
		iterations int64
		elapsed    time.Duration
		want       float64
	}{{1000, 10 * time.Millisecond, 100000}, {3000, 10 * time.Millisecond, 150000}, {5, time.Millisecond, 150000}, {0, time.Second, 150000}} {
		s.measureRate(m.iterations, m.elapsed)
		if math.Abs(s.rate-m.want) > 1e-6 {
			t.Errorf("after %d iterations in %v: rate %g, want %g", m.iterations, m.elapsed, s.rate, m.want)
		}
	}
	cfg.ItersPerBoard = 0
	s = newSearcher(t, cfg)
	if got := s.threatBoards(Limits{Nodes: 1 << 20}); got != cfg.ThreatBoards {
		t.Errorf("ItersPerBoard 0: %d boards, want %d", got, cfg.ThreatBoards)
	}
}
