package boardtree

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/search/stoprule"
)

// known returns a belief that knows the opponent's men (fen, white to
// move) and white's legal moves there.
func known(t testing.TB, fen string) (belief.State, []chess.Move) {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var l chess.MoveList
	p.GenerateLegal(&l)
	return belief.FromPosition(chess.White, p, belief.UniformPrior{}), l.Slice()
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// TestChooseRepeats: a choice picks one of the attempts, grows a tree, and
// repeats itself from the same seed.
func TestChooseRepeats(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	s.NewGame(7)
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 3000})
	if r.Best < 0 || r.Best >= len(moves) || r.Iterations != 3000 || r.Nodes < len(moves) {
		t.Fatalf("result %+v", r)
	}
	s.NewGame(7)
	if again := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 3000}); again != r {
		t.Errorf("same seed: %+v then %+v", r, again)
	}
}

// TestChoosesWhatTheBoardsSay: where every board is the same, the search
// finds what a player who sees it would: the mate, the free queen.
func TestChoosesWhatTheBoardsSay(t *testing.T) {
	for _, c := range []struct{ name, fen, want string }{
		{"mate", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"},
		{"free queen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"},
	} {
		bel, moves := known(t, c.fen)
		s := New(DefaultConfig())
		s.NewGame(1)
		r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 4000})
		if r.Best < 0 {
			t.Fatalf("%s: result %+v", c.name, r)
		}
		if got := moves[r.Best].String(); got != c.want {
			t.Errorf("%s: chose %s (value %.2f), want %s", c.name, got, r.Value, c.want)
		}
	}
}

// TestChooseStopsWhenDone: a done context ends the choice within the
// first check.
func TestChooseStopsWhenDone(t *testing.T) {
	bel, moves := known(t, startFEN)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := New(DefaultConfig())
	if r := s.Choose(ctx, &bel, moves, Limits{Iterations: 1 << 30}); r.Iterations == 0 || r.Iterations > 64 || r.Best < 0 {
		t.Errorf("result %+v, want a choice of at most 64 iterations", r)
	}
}

// TestChooseFullPool: a tree that outgrows its pool stops growing and
// still chooses.
func TestChooseFullPool(t *testing.T) {
	bel, moves := known(t, startFEN)
	cfg := DefaultConfig()
	cfg.MemoryMB = 0 // the smallest pool
	s := New(cfg)
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 5000})
	if r.Best < 0 || r.Iterations != 5000 {
		t.Errorf("result %+v", r)
	}
	if r.Nodes > s.maxNodes || r.Nodes < s.maxNodes-chess.MaxMoves {
		t.Errorf("%d nodes made, want the pool's %d about filled", r.Nodes, s.maxNodes)
	}
}

// TestChooseAllocatesNothing: the hot loop (sampling, the tree, the reply
// policy, the leaf's alpha-beta) allocates nothing once the pools have
// grown to what the search uses.
func TestChooseAllocatesNothing(t *testing.T) {
	bel, moves := known(t, startFEN)
	for _, opp := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.Opponent = opp
		s := New(cfg)
		s.Choose(context.Background(), &bel, moves, Limits{Iterations: 500})
		if a := testing.AllocsPerRun(3, func() { s.Choose(context.Background(), &bel, moves, Limits{Iterations: 500}) }); a != 0 {
			t.Errorf("opponent's tree %v: %v allocations per choice", opp, a)
		}
	}
}

// TestPoolsGrow: the pools start small, grow with the tree, and stop at
// the cap that MemoryMB sets, the tree kept whole through each growth.
func TestPoolsGrow(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	if len(s.nodes) != firstPool || len(s.onodes) != firstPool || s.spare != nil {
		t.Fatalf("new pools of %d, %d and %d nodes, want %d, %d and none", len(s.nodes), len(s.onodes), len(s.spare), firstPool, firstPool)
	}
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 3000})
	if r.Nodes <= firstPool || len(s.nodes) < r.Nodes || len(s.nodes) > 2*r.Nodes+chess.MaxMoves || len(s.nodes) > s.maxNodes {
		t.Fatalf("%d nodes made in a pool of %d (cap %d)", r.Nodes, len(s.nodes), s.maxNodes)
	}
	visits := int32(0)
	for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
		visits += s.nodes[c].visits
	}
	if visits != int32(r.Iterations) {
		t.Fatalf("the root's attempts hold %d visits after the growths, want %d", visits, r.Iterations)
	}
	if pool, ok := grow(s.nodes, 0, s.maxNodes+1, s.maxNodes); ok || len(pool) != len(s.nodes) {
		t.Fatalf("grow past the cap: ok %v, %d long", ok, len(pool))
	}
}

func BenchmarkChoose(b *testing.B) {
	for _, opp := range []bool{false, true} {
		b.Run(map[bool]string{false: "policy", true: "opponent-tree"}[opp], func(b *testing.B) {
			bel, moves := known(b, startFEN)
			cfg := DefaultConfig()
			cfg.Opponent = opp
			s := New(cfg)
			b.ReportAllocs()
			for b.Loop() {
				s.Choose(context.Background(), &bel, moves, Limits{Iterations: 1000})
			}
		})
	}
}

// TestRootLead: after a search of a mate in one, what the stop rule reads
// of the root is a lead no rest of the budget can close, and the stop rule
// ends a clock's search there at four fifths of its time.
func TestRootLead(t *testing.T) {
	bel, moves := known(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	s := New(DefaultConfig())
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 2000})
	lead := s.rootLead(r.Iterations)
	if lead.Open != len(moves) || lead.Iterations != 2000 || lead.Best < 10*lead.Second {
		t.Fatalf("root %+v after %+v", lead, r)
	}
	if !stoprule.TimeUp(800*time.Millisecond, time.Second, 2*time.Second, lead) {
		t.Errorf("root %+v: the stop rule goes on", lead)
	}
}

// heardBest tells s the answers of its last choice's most visited answer
// node below attempt m, as the tree keyed them, and returns that node and
// its visits (-1 when none).
func heardBest(s *Searcher, m chess.Move) (int32, int32) {
	a := s.attemptNodeOf(m)
	d, visits := int32(-1), int32(0)
	for c := s.nodes[a].child; c >= 0; c = s.nodes[c].next {
		if s.nodes[c].kind == decision && s.nodes[c].visits > visits {
			d, visits = c, s.nodes[c].visits
		}
	}
	if d < 0 {
		s.Forget()
		return -1, 0
	}
	key := s.nodes[d].key
	sq := func(k uint64) (chess.Square, bool) {
		if k&0x7f == 0 {
			return chess.NoSquare, false
		}
		return chess.Square(k&0x7f - 1), k&0x80 != 0
	}
	ch := func(k uint64) [2]chess.CheckKind {
		return [2]chess.CheckKind{chess.CheckKind(k & 7), chess.CheckKind(k >> 3 & 7)}
	}
	if key == keyRefused {
		s.HeardRefused(m)
		return d, visits
	}
	ourSq, ourPawn := sq(key)
	s.HeardOurs(m, ourSq, ourPawn, ch(key>>8))
	theirSq, theirPawn := sq(key >> 14)
	s.HeardTheirs(theirSq, theirPawn, ch(key>>22), int(key>>28&15))
	return d, visits
}

// TestReuse: after our attempt and the opponent's reply are heard as the
// tree keyed them, the next choice starts from that node with its visits;
// an answer the tree never met, or a Forget, starts a fresh tree.
func TestReuse(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	s.NewGame(3)
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 4000})
	d, visits := heardBest(s, moves[r.Best])
	if d < 0 || visits < 2 || s.next != d {
		t.Fatalf("answer node %d (%d visits), next %d", d, visits, s.next)
	}
	// The belief does not matter here: a choice from the node reuses it.
	r2 := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 100})
	if r2.Reused != int64(visits) {
		t.Errorf("reused %d visits, want %d", r2.Reused, visits)
	}
	s.HeardOurs(moves[r2.Best], chess.NoSquare, false, [2]chess.CheckKind{})
	s.HeardTheirs(chess.Square(28), true, [2]chess.CheckKind{}, 15)
	if r3 := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 100}); r3.Reused != 0 {
		t.Errorf("an answer never met: reused %d visits", r3.Reused)
	}
	heardBest(s, moves[0])
	s.Forget()
	if r4 := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 100}); r4.Reused != 0 {
		t.Errorf("after Forget: reused %d visits", r4.Reused)
	}
}

// TestReuseCompacts: choices that keep their trees in a small pool copy
// the kept subtree into the other half and go on choosing from it, whole:
// at the smallest cap (pools made at it) and at 1 MB (pools that grow,
// the spare half made by the first compaction and grown by the next).
func TestReuseCompacts(t *testing.T) {
	bel, moves := known(t, startFEN)
	for _, mb := range []int{0, 1} {
		cfg := DefaultConfig()
		cfg.MemoryMB = mb
		s := New(cfg)
		reused := 0
		for i := range 60 {
			r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 300 + 600*int64(mb)})
			if r.Best < 0 || r.Nodes > s.maxNodes || len(s.nodes) > s.maxNodes || len(s.spare) > s.maxNodes {
				t.Fatalf("%d MB, choice %d: %+v in pools of %d and %d (cap %d)", mb, i, r, len(s.nodes), len(s.spare), s.maxNodes)
			}
			var visits int64
			for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
				visits += int64(s.nodes[c].visits)
			}
			if root := int64(s.nodes[s.root].visits); visits < r.Iterations || visits > root || root < r.Reused+r.Iterations {
				t.Fatalf("%d MB, choice %d: the root's attempts hold %d visits, the root %d, after %d kept and %d new", mb, i, visits, root, r.Reused, r.Iterations)
			}
			if s.compactions > 0 && r.Reused > 0 {
				reused++
			}
			heardBest(s, moves[r.Best])
		}
		if s.compactions < 2 || reused == 0 {
			t.Errorf("%d MB: %d compactions, %d choices reused a compacted tree", mb, s.compactions, reused)
		}
		if mb == 1 && (len(s.nodes) <= firstPool || len(s.spare) <= firstPool) {
			t.Errorf("1 MB: pools of %d and %d nodes, want both grown past %d", len(s.nodes), len(s.spare), firstPool)
		}
	}
}

// attemptNodeOf is attemptNode without its side effect, for tests.
func (s *Searcher) attemptNodeOf(m chess.Move) int32 {
	for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
		if s.nodes[c].move == m {
			return c
		}
	}
	return -1
}

// TestReplyOnAFinishedBoard: a board drawn for a ponder where the opponent
// has no move (mated there) ends the line instead of failing.
func TestReplyOnAFinishedBoard(t *testing.T) {
	p, err := chess.ParseFEN("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s := New(DefaultConfig())
	s.board = p
	if key, over := s.reply(7, chess.NoSquare); !over || key != 7|keyOver {
		t.Errorf("key %x, over %v", key, over)
	}
}

// TestPonder: after our attempt is heard played, a ponder grows the tree
// below it, and the reply then heard starts the next choice with the
// ponder's visits; without a played attempt a ponder does nothing.
func TestPonder(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	if n := s.Ponder(context.Background(), &bel, 100); n != 0 {
		t.Fatalf("a ponder with nothing played ran %d iterations", n)
	}
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 200})
	m := moves[r.Best]
	a := s.attemptNodeOf(m)
	before := s.nodes[a].visits
	s.HeardOurs(m, chess.NoSquare, false, [2]chess.CheckKind{})
	// The belief is still ours to move: its boards stand in for the
	// opponent's, which is all the ponder needs of them here.
	if n := s.Ponder(context.Background(), &bel, 500); n != 500 || s.nodes[a].visits != before+500 {
		t.Fatalf("ponder ran %d, the attempt's visits %d -> %d", n, before, s.nodes[a].visits)
	}
}

// exact is a Boards that always draws the same board (the belief deals
// the opponent's piece types at random).
type exact struct{ pos chess.Position }

func (e *exact) Color() chess.Color { return e.pos.Side() }

func (e *exact) Sample(_ *rand.Rand, pos *chess.Position) bool { *pos = e.pos; return true }

// TestOpponentFindsTheMate: taking the knight on c7 lets the rook mate on
// the back rank. The policy draws that quiet check about one time in
// twenty, so the line's value stays above the knight's loss; the
// opponent's own tree finds the mate and plays it, and the line is worth
// a loss.
func TestOpponentFindsTheMate(t *testing.T) {
	pos, err := chess.ParseFEN("4r1k1/2n2ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	take, err := chess.ParseUCI("c1c7")
	if err != nil {
		t.Fatal(err)
	}
	value := func(opp bool) float64 {
		cfg := DefaultConfig()
		cfg.Opponent = opp
		s := New(cfg)
		s.NewGame(3)
		r := s.Choose(context.Background(), &exact{pos}, []chess.Move{take}, Limits{Iterations: 4000})
		if r.Best != 0 || opp != (s.onn > 1) {
			t.Fatalf("opponent %v: result %+v, %d nodes of the opponent's tree", opp, r, s.onn)
		}
		t.Logf("opponent %v: Rxc7 is worth %.2f, %d nodes of the opponent's tree", opp, r.Value, s.onn)
		return r.Value
	}
	if v := value(false); v < -3 {
		t.Errorf("the policy's opponent: Rxc7 worth %.2f, want more than -3", v)
	}
	if v := value(true); v > -25 {
		t.Errorf("the opponent's own tree: Rxc7 worth %.2f, want less than -25 (the mate)", v)
	}
}

// TestOpponentTreeKeptAcrossRefusals: the opponent does not hear our
// refusals, so its tree holds into the next choice of the same turn; a
// move heard, or a tree forgotten, starts it anew.
func TestOpponentTreeKeptAcrossRefusals(t *testing.T) {
	bel, moves := known(t, startFEN)
	cfg := DefaultConfig()
	cfg.Opponent = true
	s := New(cfg)
	s.NewGame(5)
	r := s.Choose(context.Background(), &bel, moves, Limits{Iterations: 800})
	grown := s.onn
	if grown < 50 {
		t.Fatalf("the opponent's tree has %d nodes after 800 iterations", grown)
	}
	s.HeardRefused(moves[r.Best])
	rest := append(append([]chess.Move(nil), moves[:r.Best]...), moves[r.Best+1:]...)
	s.Choose(context.Background(), &bel, rest, Limits{Iterations: 1})
	if s.onn < grown {
		t.Errorf("after a refusal the opponent's tree has %d nodes, had %d", s.onn, grown)
	}
	s.Forget()
	s.Choose(context.Background(), &bel, rest, Limits{Iterations: 1})
	if s.onn > 3 {
		t.Errorf("after Forget the opponent's tree has %d nodes, want a fresh one", s.onn)
	}
	r = s.Choose(context.Background(), &bel, moves, Limits{Iterations: 800})
	s.HeardOurs(moves[r.Best], chess.NoSquare, false, [2]chess.CheckKind{})
	s.Choose(context.Background(), &bel, moves, Limits{Iterations: 1})
	if s.onn > 3 {
		t.Errorf("after our move the opponent's tree has %d nodes, want a fresh one", s.onn)
	}
}
