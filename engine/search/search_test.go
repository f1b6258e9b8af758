package search

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

func newSearcher(t testing.TB, cfg Config) *Searcher {
	t.Helper()
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testConfig(ap Approach, threads int) Config {
	cfg := DefaultConfig()
	cfg.Approach, cfg.Threads, cfg.MemoryMB, cfg.Samples = ap, threads, 8, 16
	return cfg
}

// TestDeterministic: the same seed and node budget give the same attempt and
// statistics, with one thread and with two, for every approach.
func TestDeterministic(t *testing.T) {
	ps := Middlegames(11, 3, 20, 40)
	for _, ap := range []Approach{ApproachC, ApproachB, ApproachA} {
		for _, threads := range []int{1, 2} {
			nodes := int64(600)
			if ap != ApproachC {
				nodes = 150
			}
			run := func(seed uint64) []Result {
				cfg := testConfig(ap, threads)
				cfg.Seed = seed
				s := newSearcher(t, cfg)
				var out []Result
				for i := 0; i < len(ps); i += 7 {
					out = append(out, s.Search(context.Background(), &ps[i].Belief, ps[i].Moves, Limits{Nodes: nodes}))
				}
				return out
			}
			a, b := run(5), run(5)
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("approach %v threads %d position %d: %+v then %+v", ap, threads, i, a[i], b[i])
				}
				if a[i].Iterations != nodes {
					t.Fatalf("approach %v threads %d: %d iterations, budget %d", ap, threads, a[i].Iterations, nodes)
				}
			}
		}
	}
}

// TestTreesInTurns: four trees taken in turns by one thread search exactly
// as four threads with a tree each (the trees are independent: tree i's
// seed and share of the budget are its own), and a search on a clock is
// repeated exactly from each tree's recorded iterations.
func TestTreesInTurns(t *testing.T) {
	ps := Middlegames(11, 2, 20, 40)
	search := func(cfg Config, lim func() Limits) ([]Result, [][]int64) {
		s := newSearcher(t, cfg)
		var res []Result
		var trees [][]int64
		for i := 0; i < len(ps); i += 9 {
			res = append(res, s.Search(context.Background(), &ps[i].Belief, ps[i].Moves, lim()))
			trees = append(trees, s.TreeIterations(nil))
		}
		return res, trees
	}
	nodes := func() Limits { return Limits{Nodes: 1003} }
	inTurns := testConfig(ApproachC, 1)
	inTurns.Trees = 4
	a, at := search(inTurns, nodes)
	b, _ := search(testConfig(ApproachC, 4), nodes)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("position %d: four trees in turns %+v, on four threads %+v", i, a[i], b[i])
		}
		if fmt.Sprint(at[i]) != "[251 251 251 250]" {
			t.Fatalf("position %d: tree iterations %v, want 1,003 shared out", i, at[i])
		}
	}
	clocked, ct := search(inTurns, func() Limits { return Limits{Time: 15 * time.Millisecond} })
	k := 0
	again, _ := search(inTurns, func() Limits { k++; return Limits{Trees: ct[k-1], Boards: clocked[k-1].Boards} })
	for i := range clocked {
		if clocked[i] != again[i] {
			t.Fatalf("position %d: on the clock %+v (trees %v), repeated %+v", i, clocked[i], ct[i], again[i])
		}
		if d := max(ct[i][0], ct[i][3]) - min(ct[i][0], ct[i][3]); d > 2*checkEvery {
			t.Fatalf("position %d: tree iterations %v: the turns are not even", i, ct[i])
		}
	}
}

// TestMoveFromList: the attempt chosen is always one of those offered, and a
// done context still gets an answer at once.
func TestMoveFromList(t *testing.T) {
	ps := Middlegames(12, 3, 10, 80)
	s := newSearcher(t, testConfig(ApproachC, 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range ps {
		p := &ps[i]
		r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: 100})
		if !contains(p.Moves, r.Move) {
			t.Fatalf("position %d: %v not among the attempts", i, r.Move)
		}
		r = s.Search(ctx, &p.Belief, p.Moves, Limits{})
		if !contains(p.Moves, r.Move) || r.Iterations > checkEvery {
			t.Fatalf("position %d, context done: %v after %d iterations", i, r.Move, r.Iterations)
		}
	}
}

func contains(ms []chess.Move, m chess.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// refuse tells searcher s that attempt m from position p was refused, as
// the daemon does, and returns the belief after the refusal and the
// attempts still askable.
func refuse(s *Searcher, p *Position, m chess.Move) (belief.State, []chess.Move) {
	bel := p.Belief
	bel.Ours(m, umpire.View{Heard: true, Own: true, Illegal: true})
	s.Refused(m, &bel)
	var rest []chess.Move
	for _, a := range p.Moves {
		if a != m {
			rest = append(rest, a)
		}
	}
	return bel, rest
}

// TestRefusedReuse: after a refusal the root moves to the refused attempt's
// "Illegal move" node, whose statistics were searched on the belief after
// the refusal: every attempt kept there has the answers that belief gives
// (kept at the old root, they had the chances of the belief before it),
// and the next search never picks the refused attempt.
func TestRefusedReuse(t *testing.T) {
	ps := Middlegames(13, 2, 20, 40)
	fresh := 0
	for i := 0; i < len(ps); i += 7 {
		p := ps[i]
		s := newSearcher(t, testConfig(ApproachC, 1))
		r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: 2000})
		if r.Move == chess.NullMove {
			t.Fatalf("position %d: no attempt", i)
		}
		tr := s.trees[0]
		bel, rest := refuse(s, &p, r.Move)
		if !s.rooted {
			continue // the attempt had no "Illegal move" node: afresh
		}
		before := tr.nodes[0].visits
		root := &tr.nodes[0]
		for c := root.first; root.first >= 0 && c < root.first+int32(root.nchild); c++ {
			a := &tr.nodes[c]
			if a.flags&fPruned != 0 {
				continue
			}
			if a.move == r.Move {
				t.Fatalf("position %d: the refused attempt is still offered", i)
			}
			for k := a.first; a.first >= 0 && k < a.first+int32(a.nchild); k++ {
				if tr.nodes[k].illegal {
					want := float32(bel.Outcomes(a.move).Illegal)
					if got := tr.nodes[k].prob; math.Abs(float64(got-want)) > 1e-6 {
						t.Fatalf("position %d, %v: refused with %.4f, the belief says %.4f", i, a.move, got, want)
					}
					fresh++
				}
			}
		}
		r2 := s.Search(context.Background(), &bel, rest, Limits{Nodes: 300})
		if r2.Move == r.Move {
			t.Fatalf("position %d: the refused attempt was chosen again", i)
		}
		if got := tr.nodes[0].visits; got <= 300 || got > before+300 {
			t.Fatalf("position %d: root visits %d after reuse (had %d)", i, got, before)
		}
	}
	if fresh < 10 {
		t.Fatalf("only %d attempts checked below refusals", fresh)
	}
}

// TestPlayedReuse: after our move and the opponent's reply the subtree below
// what was heard becomes the root, compacted to the front of the pools.
func TestPlayedReuse(t *testing.T) {
	s, p, r := silentAnswerSearched(t)
	tr := s.trees[0]
	ours := umpire.View{Heard: true, Own: true, Move: r.Move}
	theirs := umpire.View{Heard: true}
	next := tr.follow(r.Move, ours, theirs)
	want := tr.nodes[next].visits
	bel := p.Belief
	bel.Ours(r.Move, ours)
	bel.Theirs(theirs)
	s.Played(r.Move, ours, theirs, &bel)
	if !s.rooted || tr.nodes[0].visits != want {
		t.Fatalf("rooted %v, root visits %d, want %d", s.rooted, tr.nodes[0].visits, want)
	}
	// The compacted tree is whole: every child index is in range, every
	// decision node's state too.
	for i := range tr.nn {
		n := &tr.nodes[i]
		if n.first >= 0 && (n.first <= i || n.first+int32(n.nchild) > tr.nn) {
			t.Fatalf("node %d: children %d+%d out of %d", i, n.first, n.nchild, tr.nn)
		}
		if n.state >= tr.ns {
			t.Fatalf("node %d: state %d of %d", i, n.state, tr.ns)
		}
	}
	var m men
	m.fromBelief(&bel)
	var l chess.MoveList
	m.attempts(nil, &l)
	r2 := s.Search(context.Background(), &bel, l.Slice(), Limits{Nodes: 200})
	if !contains(l.Slice(), r2.Move) {
		t.Fatalf("%v not among the attempts", r2.Move)
	}
}

// silentAnswerSearched searches middlegame positions (seeded, at a node
// budget, so the same every run) until one whose tree expanded the
// opponent's silent answer to the chosen attempt: the reuse tests need that
// subtree. It fails rather than skips when no position has it.
func silentAnswerSearched(t *testing.T) (*Searcher, Position, Result) {
	t.Helper()
	ps := Middlegames(14, 2, 20, 40)
	ours := func(r Result) umpire.View { return umpire.View{Heard: true, Own: true, Move: r.Move} }
	theirs := umpire.View{Heard: true}
	for i := range ps {
		p := ps[(len(ps)/2+i)%len(ps)]
		s := newSearcher(t, testConfig(ApproachC, 1))
		r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: 3000})
		if s.trees[0].follow(r.Move, ours(r), theirs) >= 0 {
			return s, p, r
		}
	}
	t.Fatalf("none of %d positions expanded the silent answer to the chosen attempt", len(ps))
	return nil, Position{}, Result{}
}

// TestReuseAgrees: a subtree is reused only when its belief can stand for
// the belief after what was really heard (a subtree whose belief had lost
// the bare king kept valuing every attempt alike, move after move).
func TestReuseAgrees(t *testing.T) {
	bel := func(fen string) belief.State {
		pos, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return belief.FromPosition(chess.White, pos, nil)
	}
	a := bel("k7/8/8/8/8/8/8/K5Q1 w - - 0 1")
	elsewhere := bel("8/8/8/8/4k3/8/8/K5Q1 w - - 0 1")
	more := bel("k7/p7/8/8/8/8/8/K5Q1 w - - 0 1")
	tr := newTree(1, 1)
	tr.reset(&a)
	if !tr.agrees(0, &a) {
		t.Fatal("a belief does not agree with itself")
	}
	if tr.agrees(0, &elsewhere) {
		t.Fatal("a king outside the subtree's support agrees")
	}
	if tr.agrees(0, &more) {
		t.Fatal("another unit count agrees")
	}

	// Played drops a tree whose subtree disagrees with what was heard.
	s, _, r := silentAnswerSearched(t)
	ours := umpire.View{Heard: true, Own: true, Move: r.Move}
	theirs := umpire.View{Heard: true}
	wrong := bel(chess.StartFEN)
	s.Played(r.Move, ours, theirs, &wrong)
	if s.rooted {
		t.Fatal("a subtree that disagrees with the heard belief was kept")
	}
}

// startAttempts returns the belief at the start position and our attempts
// from it.
func startAttempts(t *testing.T) (belief.State, []chess.Move) {
	t.Helper()
	bel := beliefAt(t, chess.StartFEN)
	var m men
	m.fromBelief(&bel)
	var l chess.MoveList
	m.attempts(nil, &l)
	return bel, l.Slice()
}

// TestMixAndWiden: the ablation options do what they say. With mix 1 a
// decision node backs up its attempts' visit-weighted mean, with 0 their
// maximum; widen forces the least visited root attempt below widen·√N.
func TestMixAndWiden(t *testing.T) {
	bel, moves := startAttempts(t)
	tr := newTree(1, 1)
	tr.reset(&bel)
	if !tr.addAttempts(0, moves[:2]) {
		t.Fatal("no room for two attempts")
	}
	a, b := &tr.nodes[tr.nodes[0].first], &tr.nodes[tr.nodes[0].first+1]
	a.visits, a.value = 3, 1
	b.visits, b.value = 1, 5
	tr.nodes[0].visits = 4
	for _, tc := range []struct{ mix, want float32 }{{0, 5}, {1, 2}, {0.5, 3.5}} {
		cfg := DefaultConfig()
		cfg.Mix = float64(tc.mix)
		tr.path = append(tr.path[:0], 0)
		tr.backup(&cfg, 0)
		if got := tr.nodes[0].value; got != tc.want {
			t.Errorf("mix %v: root value %v, want %v", tc.mix, got, tc.want)
		}
	}
	// The root has 6 visits now: widen 1 asks √6 ≈ 2 of each attempt.
	if got := tr.forcedAttempt(1); got != tr.nodes[0].first+1 {
		t.Errorf("widen 1 forced node %d, want the once-visited attempt %d", got, tr.nodes[0].first+1)
	}
	if got := tr.forcedAttempt(0.1); got != -1 {
		t.Errorf("widen 0.1 forced node %d, want none", got)
	}
}

// TestTempo: a decision node reached by the opponent's reply backs up its
// best attempt less the tempo, never below its static value; a decision of
// the same turn (after "Illegal move"), the root, and a decision against a
// bare king back up the maximum.
func TestTempo(t *testing.T) {
	start, startMoves := startAttempts(t)
	bare := beliefAt(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	var bm men
	bm.fromBelief(&bare)
	var bl chess.MoveList
	bm.attempts(nil, &bl)
	for _, tc := range []struct {
		name        string
		tempo, best float32
		illegal     bool
		bare        bool
		want        float32 // over the static value
	}{
		{"charged", 1, 3, false, false, 2},
		{"floored at static", 1, 0.5, false, false, 0},
		{"tempo 0", 0, 3, false, false, 3},
		{"same turn", 1, 3, true, false, 3},
		{"bare king", 1, 0.5, false, true, 0.5},
	} {
		bel, moves := start, startMoves
		if tc.bare {
			bel, moves = bare, bl.Slice()
		}
		tr := newTree(1, 1)
		tr.reset(&bel)
		if !tr.addAttempts(0, moves[:1]) {
			t.Fatal("no room")
		}
		a := tr.nodes[0].first
		ans := tr.newNodes(1)
		tr.nodes[ans].kind = answer
		tr.nodes[a].first, tr.nodes[a].nchild = ans, 1
		d := tr.newNodes(1)
		tr.nodes[d].kind, tr.nodes[d].prob, tr.nodes[d].illegal = decision, 1, tc.illegal
		tr.nodes[ans].first, tr.nodes[ans].nchild = d, 1
		if !tr.setState(d, &bel) || !tr.addAttempts(d, moves[:2]) {
			t.Fatal("no room")
		}
		static := tr.states[tr.nodes[d].state].static
		f := tr.nodes[d].first
		tr.nodes[f].visits, tr.nodes[f].value = 1, static+tc.best
		tr.nodes[f+1].visits, tr.nodes[f+1].value = 1, static-2
		cfg := DefaultConfig()
		cfg.Tempo = float64(tc.tempo)
		cfg.MateThreat, cfg.OwnMates = 0, false
		tr.path = append(tr.path[:0], 0, a, ans, d)
		tr.backup(&cfg, 0)
		if got := tr.nodes[d].value - static; math.Abs(float64(got-tc.want)) > 1e-4 {
			t.Errorf("%s: the reply's decision backs up static%+v, want static%+v", tc.name, got, tc.want)
		}
		// The root is never charged: it backs up its one attempt's value.
		if got, want := tr.nodes[0].value, tr.nodes[a].value; got != want {
			t.Errorf("%s: root value %v, its only attempt's %v", tc.name, got, want)
		}
	}
}

// TestTimeUp: the time manager's stop rule. A forced attempt stops at
// once; a choice that the rest of the time cannot change stops early; at
// the soft limit an open choice (second attempt above half the first's
// visits) goes on to MaxTime, a settled one stops.
func TestTimeUp(t *testing.T) {
	bel, moves := startAttempts(t)
	ms := time.Millisecond
	lim := Limits{Time: 100 * ms, MaxTime: 200 * ms}
	for _, tc := range []struct {
		name    string
		visits  []int32 // root attempts' visits; a negative one is refused
		iters   int64
		el      time.Duration
		lim     Limits
		stopped bool
	}{
		{"forced", []int32{5, -3}, 16, ms, lim, true},
		{"too early to tell", []int32{900, 10}, 1000, 20 * ms, lim, false},
		{"cannot change", []int32{900, 10}, 1000, 75 * ms, lim, true},
		{"can change", []int32{500, 400}, 1000, 75 * ms, lim, false},
		{"soft limit, settled", []int32{1500, 600}, 2000, 100 * ms, lim, true},
		{"soft limit, open", []int32{1100, 900}, 2000, 100 * ms, lim, false},
		{"open at MaxTime", []int32{2100, 1900}, 4000, 200 * ms, lim, true},
		{"fixed time, settled", []int32{900, 10}, 1000, 75 * ms, Limits{Time: 100 * ms}, false},
		{"fixed time, forced", []int32{5, -3}, 16, ms, Limits{Time: 100 * ms}, false},
		{"fixed time, open", []int32{1100, 900}, 2000, 100 * ms, Limits{Time: 100 * ms}, true},
	} {
		tr := newTree(1, 1)
		tr.reset(&bel)
		if !tr.addAttempts(0, moves[:len(tc.visits)]) {
			t.Fatal("no room")
		}
		for j, v := range tc.visits {
			n := &tr.nodes[tr.nodes[0].first+int32(j)]
			if v < 0 {
				n.flags |= fPruned
				v = -v
			}
			n.visits = v
		}
		tr.iters = tc.iters
		if got := tr.timeUp(tc.el, &tc.lim); got != tc.stopped {
			t.Errorf("%s: stop %v, want %v", tc.name, got, tc.stopped)
		}
	}
}

// TestNoAllocs: iterations allocate nothing.
func TestNoAllocs(t *testing.T) {
	ps := Middlegames(15, 2, 20, 40)
	cfg := DefaultConfig()
	for _, checks := range []bool{false, true} {
		tr := newTree(16, 1)
		tr.set.replyChecks = checks
		tr.reset(&ps[0].Belief)
		tr.addAttempts(0, ps[0].Moves)
		allocs := testing.AllocsPerRun(500, func() {
			if !tr.iterate(&cfg) {
				t.Fatal("pool full")
			}
		})
		if allocs != 0 {
			t.Fatalf("checks %v: %.1f allocations per iteration", checks, allocs)
		}
	}
}

func TestConfig(t *testing.T) {
	for _, s := range []string{"a", "b", "c", "C"} {
		if _, err := ParseApproach(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseApproach("d"); err == nil {
		t.Error("approach d accepted")
	}
	bad := []func(*Config){
		func(c *Config) { c.Threads = 0 },
		func(c *Config) { c.Exploration = -1 },
		func(c *Config) { c.K = 0 },
		func(c *Config) { c.MemoryMB = 0 },
		func(c *Config) { c.Approach = ApproachA; c.Samples = 0 },
		func(c *Config) { c.Mix = 1.5 },
		func(c *Config) { c.Widen = -1 },
		func(c *Config) { c.Threads, c.Trees = 4, 2 },
		func(c *Config) { c.Trees = 300 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := New(c, nil); err == nil {
			t.Errorf("bad config %d accepted", i)
		}
	}
}

// TestCheckRecorded: the counts a replay hands back to a search are ones a
// search records, at their bounds and one past them.
func TestCheckRecorded(t *testing.T) {
	const most = MaxRecordedIterations
	tests := []struct {
		iterations int64
		trees      []int64
		boards     int
		err        string
	}{
		{0, nil, 0, ""},
		{most, nil, MaxThreatBoards, ""},
		{9, []int64{4, 5}, 32, ""},
		{0, []int64{}, 0, ""},
		{-1, nil, 0, "-1 iterations not in 0..1099511627776"},
		{most + 1, nil, 0, "1099511627777 iterations not in"},
		{9, []int64{4, 4}, 0, "the trees' iterations sum to 8, not 9"},
		{9, []int64{10, -1}, 0, "tree 2: -1 iterations not in"},
		{most, []int64{most, most + 1, -most - 1}, 0, "tree 2: 1099511627777 iterations not in"},
		{1, make([]int64, MaxTrees+1), 0, "257 trees, more than 256"},
		{1, nil, -1, "-1 boards not in 0..4096"},
		{1, nil, MaxThreatBoards + 1, "4097 boards not in 0..4096"},
	}
	for i, tc := range tests {
		err := CheckRecorded(tc.iterations, tc.trees, tc.boards)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("case %d: %v, want %q", i, err, tc.err)
		}
	}
}

// TestImpossibleReplies: a reply the belief allows in no world (it leaves the
// opponent's king no square) becomes a terminal of no weight, so no decision
// node holds a belief without a king, and a check that leaves the king no
// escape and nothing to interpose is the mate it is. Before, such nodes were
// valued as beliefs: 161 of a late game's 39,351 states had no king.
func TestImpossibleReplies(t *testing.T) {
	ps := Middlegames(21, 6, 100, 160)
	for i := 0; i < len(ps); i += 5 {
		s := newSearcher(t, testConfig(ApproachC, 1))
		s.Search(context.Background(), &ps[i].Belief, ps[i].Moves, Limits{Nodes: 3000})
		tr := s.trees[0]
		for j := range tr.ns {
			if tr.states[j].bel.Support(oppmodel.King) == 0 {
				t.Fatalf("position %d: state %d of %d has no square for the king", i, j, tr.ns)
			}
		}
	}

	// A back-rank mate the opponent's pawns cannot stop.
	bel := beliefAt(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	var m men
	m.fromBelief(&bel)
	var ml chess.MoveList
	m.attempts(nil, &ml)
	s := newSearcher(t, testConfig(ApproachC, 1))
	r := s.Search(context.Background(), &bel, ml.Slice(), Limits{Nodes: 2000})
	if r.Move.String() != "a1a8" || !r.Proven || r.Value < winValue {
		t.Fatalf("back-rank mate: %+v, want a1a8 proven at %v", r, float64(winValue))
	}
}

// TestCertainRefusal: an attempt the belief knows is refused (a rook move
// through Black's known pawn) is never searched again nor played: asking it
// teaches nothing.
func TestCertainRefusal(t *testing.T) {
	bel, moves, _ := rootAt(t, "k7/8/8/8/p7/8/8/R5K1 w - - 0 1")
	s := newSearcher(t, testConfig(ApproachC, 1))
	r := s.Search(context.Background(), &bel, moves, Limits{Nodes: 2000})
	blocked := map[string]bool{"a1a5": true, "a1a6": true, "a1a7": true, "a1a8": true}
	if blocked[r.Move.String()] {
		t.Fatalf("played %v, refused for certain", r.Move)
	}
	tr := s.trees[0]
	root := &tr.nodes[0]
	for j := range moves {
		ch := &tr.nodes[root.first+int32(j)]
		if blocked[ch.move.String()] && (ch.visits > 1 || ch.flags&fPruned == 0) {
			t.Errorf("%v: %d visits, flags %b: want one visit, pruned", ch.move, ch.visits, ch.flags)
		}
	}
}

// TestFirstReply: a king left without a square reads as mate or stalemate
// only at the replies to our first move (an illegal chain of the same turn
// included), not deeper, where the beliefs rest on made-up replies.
func TestFirstReply(t *testing.T) {
	tr := newTree(1, 1)
	tr.nodes = tr.nodes[:0]
	add := func(k kind, illegal bool) int32 {
		tr.nodes = append(tr.nodes, node{kind: k, illegal: illegal})
		return int32(len(tr.nodes) - 1)
	}
	root := add(decision, false)
	a1, ans1, r1 := add(attempt, false), add(answer, false), add(decision, false)
	a2, ans2, r2 := add(attempt, false), add(answer, false), add(decision, false)
	ill := add(decision, true)
	tests := []struct {
		name string
		path []int32
		want bool
	}{
		{"first reply", []int32{root, a1, ans1, r1}, true},
		{"after an illegal attempt", []int32{root, a1, ill, a2, ans2, r2}, true},
		{"second move", []int32{root, a1, ans1, r1, a2, ans2, r2}, false},
	}
	for _, tc := range tests {
		tr.path = tc.path
		if got := tr.firstReply(len(tc.path) - 1); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCritical: a root is critical when we are in check, when a likely
// capture is on offer, or when the attempts' mate chances differ; the
// opening's quiet first move is not. A critical search on a clock plans to
// its Max: with a settled choice it still runs past the soft budget.
func TestCritical(t *testing.T) {
	attempts := func(bel *belief.State) []chess.Move {
		var m men
		m.fromBelief(bel)
		var l chess.MoveList
		m.attempts(nil, &l)
		return l.Slice()
	}
	for _, tc := range []struct {
		name          string
		fen           string
		threat, mates []float32 // the root's mate chances, per attempt (nil: none counted)
		want          bool
	}{
		{"opening", chess.StartFEN, nil, nil, false},
		{"same mate danger everywhere", chess.StartFEN, []float32{0.2, 0.2}, []float32{0, 0}, false},
		{"mate danger differs", chess.StartFEN, []float32{0.2, 0.1}, []float32{0, 0}, true},
		{"a mating chance", chess.StartFEN, []float32{0, 0}, []float32{0, 0.06}, true},
		{"a likely capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", nil, nil, true},
		{"a queen near, no check", "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPP1PPP/RNBQKBNR w KQkq - 2 3", nil, nil, false},
		{"in check", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", nil, nil, true},
	} {
		bel := beliefAt(t, tc.fen)
		tr := newTree(1, 1)
		tr.threat, tr.mates = append(tr.threat[:0], tc.threat...), append(tr.mates[:0], tc.mates...)
		if got := tr.critical(&bel, attempts(&bel)); got != tc.want {
			t.Errorf("%s: critical %v, want %v", tc.name, got, tc.want)
		}
	}

	// On a clock a critical root plans to Max; off, quiet, or repeated from
	// recorded counts (no Time), the limits stay.
	capture := beliefAt(t, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
	quiet := beliefAt(t, chess.StartFEN)
	ms := time.Millisecond
	clock := Limits{Time: 20 * ms, MaxTime: 40 * ms}
	for _, tc := range []struct {
		name string
		bel  *belief.State
		on   bool
		lim  Limits
		want time.Duration
	}{
		{"critical", &capture, true, clock, 40 * ms},
		{"critical, off", &capture, false, clock, 20 * ms},
		{"quiet", &quiet, true, clock, 20 * ms},
		{"fixed time", &capture, true, Limits{Time: 20 * ms}, 20 * ms},
		{"repeated from counts", &capture, true, Limits{MaxTime: 40 * ms, Trees: []int64{100}}, 0},
	} {
		cfg := testConfig(ApproachC, 1)
		cfg.Critical = tc.on
		s := newSearcher(t, cfg)
		s.alloc()
		if got := s.horizon(tc.bel, attempts(tc.bel), tc.lim); got.Time != tc.want {
			t.Errorf("%s: plans %v, want %v", tc.name, got.Time, tc.want)
		}
	}
}

// TestBareRootValuation: a search whose root faces a bare king values mating
// men at bareWonEnding, any other at bareWon; the tree of the search that
// took the last man is not reused below it (its values are the other kind).
// Under rules that draw repeated positions they stay at bareWon.
func TestBareRootValuation(t *testing.T) {
	for _, rules := range []umpire.Rules{umpire.ICC(), umpire.KS(), umpire.Olympiad()} {
		t.Run(rules.Name, func(t *testing.T) {
			want := float32(bareWonEnding)
			if rules.Repetition || rules.FiftyMoves {
				want = bareWon
			}
			bareRootValuation(t, rules, want)
		})
	}
}

func bareRootValuation(t *testing.T, rules umpire.Rules, want float32) {
	before := beliefAt(t, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1")
	s := newSearcher(t, testConfig(ApproachC, 1))
	s.NewGame(1, rules)
	var m men
	m.fromBelief(&before)
	var l chess.MoveList
	m.attempts(nil, &l)
	s.Search(context.Background(), &before, l.Slice(), Limits{Nodes: 3000})
	tr := s.trees[0]
	if tr.eval.bareWon != bareWon {
		t.Fatalf("with a pawn left: bareWon %v, want %v", tr.eval.bareWon, float32(bareWon))
	}
	take := chess.NewMove(chess.A1, chess.NewSquare(0, 1), chess.NoPieceType)
	ours := umpire.View{Heard: true, Own: true, Move: take,
		Capture: umpire.Capture{Square: chess.NewSquare(0, 1), Kind: umpire.PawnCaptured}}
	theirs := umpire.View{Heard: true}
	if tr.follow(take, ours, theirs) < 0 {
		t.Fatal("the capture's silent reply was not expanded")
	}
	bel := before
	bel.Ours(take, ours)
	bel.Theirs(theirs)
	s.Played(take, ours, theirs, &bel)
	if !s.rooted {
		t.Fatal("the subtree below the capture was not rerooted")
	}
	m.fromBelief(&bel)
	m.attempts(nil, &l)
	const nodes = 200
	s.Search(context.Background(), &bel, l.Slice(), Limits{Nodes: nodes})
	if tr.eval.bareWon != want {
		t.Fatalf("against a bare king: bareWon %v, want %v", tr.eval.bareWon, want)
	}
	// The tree is reused where its values are of the same kind.
	if v := tr.nodes[0].visits; (v > nodes) != (want == bareWon) {
		t.Fatalf("root visits %d after a search of %d, bareWon %v", v, nodes, want)
	}
}

// TestCheckReplies: with Config.ReplyChecks the opponent's replies in the
// tree include checks on our king, the silent reply keeps what the
// captures and checks leave of 1, and a check really heard after the attempt played roots the tree
// where it foresaw that check.
func TestCheckReplies(t *testing.T) {
	ps := Middlegames(14, 2, 20, 40)
	for _, on := range []bool{false, true} {
		cfg := testConfig(ApproachC, 1)
		cfg.ReplyChecks = on
		s := newSearcher(t, cfg)
		p := ps[len(ps)/2]
		r := s.Search(context.Background(), &p.Belief, p.Moves, Limits{Nodes: 4000})
		tr := s.trees[0]
		checks := 0
		for i := range tr.nn {
			n := &tr.nodes[i]
			if n.kind != answer || n.first < 0 || tr.nodes[n.first].kind != decision {
				continue
			}
			var sum float32
			for c := n.first; c < n.first+int32(n.nchild); c++ {
				sum += tr.nodes[c].prob
				if tr.nodes[c].check != chess.NoCheck {
					checks++
				}
			}
			if sum < 0.999 || tr.nodes[n.first].prob > 0 && sum > 1.001 {
				t.Fatalf("checks %v: node %d's replies sum to %g", on, i, sum)
			}
		}
		if on != (checks > 0) {
			t.Fatalf("checks %v: %d check replies in the tree", on, checks)
		}
		if !on {
			continue
		}
		// The silent answer to the attempt played, and a check foreseen below it.
		ours := umpire.View{Heard: true, Own: true, Move: r.Move}
		ans := tr.childWhere(tr.rootAttempt(r.Move), func(n *node) bool {
			return n.kind == answer && n.capture == umpire.NoCapture && n.check == chess.NoCheck
		})
		chk := tr.childWhere(ans, func(n *node) bool { return n.check != chess.NoCheck })
		if chk < 0 {
			t.Fatalf("no check foreseen after %v", r.Move)
		}
		theirs := umpire.View{Heard: true, Checks: [2]chess.CheckKind{tr.nodes[chk].check}}
		if got := tr.follow(r.Move, ours, theirs); got != chk {
			t.Fatalf("follow found node %d for the check, want %d", got, chk)
		}
		quiet := tr.follow(r.Move, ours, umpire.View{Heard: true})
		if quiet < 0 || tr.nodes[quiet].check != chess.NoCheck || tr.nodes[quiet].square != chess.NoSquare {
			t.Fatalf("follow found node %d for the silent reply", quiet)
		}
	}
}
