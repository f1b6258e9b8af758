package boardtree

import (
	"context"
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
	if r.Nodes > len(s.nodes) || r.Nodes < len(s.nodes)-chess.MaxMoves {
		t.Errorf("%d nodes made, want the pool's %d about filled", r.Nodes, len(s.nodes))
	}
}

// TestChooseAllocatesNothing: the hot loop (sampling, the tree, the reply
// policy, the leaf's alpha-beta) allocates nothing.
func TestChooseAllocatesNothing(t *testing.T) {
	bel, moves := known(t, startFEN)
	s := New(DefaultConfig())
	s.Choose(context.Background(), &bel, moves, Limits{Iterations: 500})
	if a := testing.AllocsPerRun(3, func() { s.Choose(context.Background(), &bel, moves, Limits{Iterations: 500}) }); a != 0 {
		t.Errorf("%v allocations per choice", a)
	}
}

func BenchmarkChoose(b *testing.B) {
	bel, moves := known(b, startFEN)
	s := New(DefaultConfig())
	b.ReportAllocs()
	for b.Loop() {
		s.Choose(context.Background(), &bel, moves, Limits{Iterations: 1000})
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
