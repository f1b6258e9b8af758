package search

import (
	"math/rand/v2"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// bareEntry is the decision belief of White in the public position fen.
func bareEntry(t testing.TB, fen string) (*stateEntry, *men) {
	t.Helper()
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	e := &stateEntry{bel: belief.FromPosition(chess.White, pos, nil)}
	e.static = staticValue(&e.bel, &e.hang, evalFor(&e.bel, &treeSettings{}))
	var m men
	m.fromBelief(&e.bel)
	return e, &m
}

// attemptValue is approach C's k = 1 value of the attempt uci.
func attemptValue(t testing.TB, e *stateEntry, m *men, uci string) float32 {
	t.Helper()
	mv, err := chess.ParseUCI(uci)
	if err != nil {
		t.Fatal(err)
	}
	var a answers
	evalAttempt(e, m, mv, e.static, evalFor(&e.bel, &treeSettings{}), &a)
	return a.mean()
}

func sq(t testing.TB, s string) chess.Square {
	t.Helper()
	x, ok := chess.ParseSquare(s)
	if !ok {
		t.Fatalf("bad square %q", s)
	}
	return x
}

func TestConfine(t *testing.T) {
	// A rook on d4 cuts a king on e6 into the e-h files above the fourth
	// rank; our king far away on a1.
	_, m := bareEntry(t, "8/8/4k3/8/3R4/8/8/K7 w - - 0 1")
	att := m.attacks()
	// Our men's squares are no way through (the undefended rook's included:
	// taking it is the hang terms' business).
	r := confine(sq(t, "e6").Bit(), ^(att | m.by[0]))
	if r.Count() != 16 || !r.Has(sq(t, "h8")) || r.Has(sq(t, "c6")) || r.Has(sq(t, "e3")) {
		t.Fatalf("region %x (%d squares), want files e-h, ranks 5-8", uint64(r), r.Count())
	}
	if got := kingStep(sq(t, "a1").Bit()); got != sq(t, "a1").Bit()|chess.KingAttacks(sq(t, "a1")) {
		t.Fatalf("kingStep(a1) = %x", uint64(got))
	}
	if got := kingStep(sq(t, "h5").Bit()); got != sq(t, "h5").Bit()|chess.KingAttacks(sq(t, "h5")) {
		t.Fatalf("kingStep(h5) = %x", uint64(got))
	}
}

func TestBareKingEvaluation(t *testing.T) {
	tests := []struct {
		name, fen, better, worse string
		margin                   float32
	}{
		// Cutting the king off on the fifth rank confines it to 24 squares;
		// a rook move along the first rank leaves it the whole board.
		{"rook cuts", "8/8/4k3/8/8/8/8/K6R w - - 0 1", "h1h5", "h1g1", 0.3},
		// The rook on f7 hangs next to the king, undefended: the game is
		// nearly drawn; on f4 it cuts safely.
		{"rook hangs", "8/8/4k3/8/8/8/8/K4R2 w - - 0 1", "f1f4", "f1f7", 20},
		// Our king stays next to the rook the bare king attacks.
		{"rook left hanging", "8/8/8/4k3/3R4/4K3/8/8 w - - 0 1", "e3d3", "e3f2", 20},
		// ... but in a pawn ending only the moved man is weighed (there the
		// wider rule froze our king beside its pawn).
		{"pawn ending", "8/8/8/4k3/4P3/4K3/8/8 w - - 0 1", "e3d3", "e3f2", 0},
		// The queen takes the king's room: after Qe4+ it has few squares
		// to step to, after Qa1 all its neighbours but those our king holds.
		{"queen takes room", "8/8/8/8/6k1/8/5K2/1Q6 w - - 0 1", "b1e4", "b1a1", 0.2},
		// A lone pawn promotes as soon as it safely can: the queen is worth
		// far more than the pawn on its seventh rank (valued as a win
		// wherever it stood, promoting gained 0.8 and a king shuffled
		// beside its pawn for 300 plies), and each step forward counts.
		{"promote", "k7/6P1/8/8/8/8/8/4K3 w - - 0 1", "g7g8q", "e1d2", 3},
		{"pawn steps", "k7/8/8/8/8/6P1/8/4K3 w - - 0 1", "g3g4", "e1d2", 3},
		// With a rook the pawn still runs (a rook mates a king it cannot
		// see more slowly than a queen): a K+R+P game kept its pawn at home
		// for 450 plies.
		{"rook's pawn runs", "k7/8/8/8/8/7P/8/K5R1 w - - 0 1", "h3h4", "a1b1", 0.3},
		// The queen does not stalemate a cornered king.
		{"stalemate", "k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", "e1d2", "b1b6", 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, m := bareEntry(t, tt.fen)
			b, w := attemptValue(t, e, m, tt.better), attemptValue(t, e, m, tt.worse)
			if b < w+tt.margin {
				t.Fatalf("%s values %.3f, %s %.3f: want the first ahead by %.2f", tt.better, b, tt.worse, w, tt.margin)
			}
		})
	}
}

// TestLastCapture: taking the opponent's last man is worth the won game
// against its bare king (valued as material, a queen taking a knight was
// worth a few pawns), unless the king takes our last mating man back.
func TestLastCapture(t *testing.T) {
	tests := []struct {
		name, fen, attempt string
		lo, hi             float32
	}{
		{"king far", "k7/8/8/7n/8/8/8/3QK3 w - - 0 1", "d1h5", bareWon, winValue},
		{"king takes back", "8/8/6k1/7n/8/8/8/3QK3 w - - 0 1", "d1h5", drawValue - 1, drawValue + 1},
		{"defended", "8/8/6k1/7n/8/8/7R/3QK3 w - - 0 1", "d1h5", bareWon, winValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, m := bareEntry(t, tt.fen)
			if v := attemptValue(t, e, m, tt.attempt); v < tt.lo || v > tt.hi {
				t.Fatalf("%s values %.2f, want %.0f to %.0f", tt.attempt, v, tt.lo, tt.hi)
			}
		})
	}
}

// BenchmarkEvalBare times the exact bare-king evaluation of one attempt in a
// KR-K belief whose king may stand on many squares: it allocates nothing.
func BenchmarkEvalBare(b *testing.B) {
	e, m := bareEntry(b, "8/8/4k3/8/8/8/8/K6R w - - 0 1")
	// Spread the king's possible squares: our king shuffles, the opponent's
	// replies are silent.
	for i := range 4 {
		mv := chess.NewMove(chess.A1, chess.B1, chess.NoPieceType)
		if i%2 == 1 {
			mv = chess.NewMove(chess.B1, chess.A1, chess.NoPieceType)
		}
		e.bel.Ours(mv, ourView(mv, &node{}))
		e.bel.Theirs(theirView(&node{square: chess.NoSquare}))
	}
	e.static = staticValue(&e.bel, &e.hang, evalFor(&e.bel, &treeSettings{}))
	if n := e.bel.Support(oppmodel.King).Count(); n < 10 {
		b.Fatalf("the king may stand on %d squares only", n)
	}
	_ = m
	b.ReportAllocs()
	var a answers
	mv := chess.NewMove(chess.H1, chess.NewSquare(7, 4), chess.NoPieceType)
	for b.Loop() {
		var mm men
		mm.fromBelief(&e.bel)
		evalAttempt(e, &mm, mv, 0, evalFor(&e.bel, &treeSettings{}), &a)
	}
}

// TestKingStep: the shift form equals b with every king step from each of
// its squares (it replaced a loop over squares), edges included.
func TestKingStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		b := chess.Bitboard(rng.Uint64() & rng.Uint64() & rng.Uint64())
		want := b
		for x := b; x != 0; {
			want |= chess.KingAttacks(x.PopFirst())
		}
		if got := kingStep(b); got != want {
			t.Fatalf("kingStep(%#x) = %#x, want %#x", uint64(b), uint64(got), uint64(want))
		}
	}
}

// TestBareExploration checks which roots explore wider: against a bare king
// with a rook or minor pieces, not with a queen, a pawn ending or while the
// opponent has men.
func TestBareExploration(t *testing.T) {
	cfg := DefaultConfig()
	for _, tc := range []struct {
		fen  string
		want float64
	}{
		{"8/8/4k3/8/8/8/8/K6R w - - 0 1", cfg.Exploration * bareExploration},
		{"8/8/4k3/8/8/8/8/K1BB4 w - - 0 1", cfg.Exploration * bareExploration},
		{"8/8/4k3/8/8/8/8/K6Q w - - 0 1", cfg.Exploration},
		{"8/8/4k3/8/8/8/1P6/K7 w - - 0 1", cfg.Exploration},
		{"8/8/4k3/8/8/8/6p1/K6R w - - 0 1", cfg.Exploration},
		{chess.StartFEN, cfg.Exploration},
	} {
		e, _ := bareEntry(t, tc.fen)
		if got := exploration(&cfg, &e.bel); got != tc.want {
			t.Errorf("%s: exploration %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestShieldedKing: a king square our men attack already on our turn is
// shielded by unseen men, so a quiet move elsewhere mates no king there.
// Black's knight on c1 stands between our queen and its king; valued in
// our men's view alone, the king on e1 "had no move", and any quiet move
// gained 0.3 of a won game.
func TestShieldedKing(t *testing.T) {
	e, m := bareEntry(t, "7K/8/8/8/8/8/1R6/Q1n1k3 w - - 0 1")
	if v := attemptValue(t, e, m, "h8g8"); v > e.static+1 {
		t.Errorf("quiet Kg8: %v, static %v: the shielded king is counted mated", v, e.static)
	}
	// The same men with the knight off the line: Qa1 mates unless it
	// steps in, which a piece does half the time.
	e, m = bareEntry(t, "7K/8/8/7n/8/8/QR6/4k3 w - - 0 1")
	mate, quiet := attemptValue(t, e, m, "a2a1"), attemptValue(t, e, m, "h8g8")
	if mate < quiet+5 {
		t.Errorf("Qa1 mate %v against quiet Kg8 %v: the mate odds are lost", mate, quiet)
	}
}

// TestHelpless: each opponent piece halves the chance that a mate in our
// men's view stands; pawns help only by taking the checker.
func TestHelpless(t *testing.T) {
	pawns := beliefAt(t, "4k3/pppp4/8/8/8/8/8/4K2Q w - - 0 1")
	pieces := beliefAt(t, "4k3/nn6/8/8/8/8/8/4K2Q w - - 0 1")
	h1 := sq(t, "h1")
	if h := helpless(&pawns, h1); h != 1 {
		t.Errorf("four pawns far away: helpless %v, want 1", h)
	}
	if h := helpless(&pieces, h1); h < 0.24 || h > 0.26 {
		t.Errorf("two knights that cannot reach h1: helpless %v, want 0.25", h)
	}
	// A piece on g3 may be a knight that takes the checker on h1 (the
	// belief knows where the opponent's pieces stand, not which they are).
	far := beliefAt(t, "4k3/n7/8/8/8/8/8/4K2Q w - - 0 1")
	near := beliefAt(t, "4k3/8/8/8/8/6n1/8/4K2Q w - - 0 1")
	if hf, hn := helpless(&far, h1), helpless(&near, h1); hf < 0.49 || hn > 0.8*hf {
		t.Errorf("one piece: helpless %v far from h1, %v attacking it", hf, hn)
	}
}

// TestStalemateLoses: where the stalemated side loses (rand), stalemating
// a bare king is valued as a win, elsewhere as a draw.
func TestStalemateLoses(t *testing.T) {
	bel := beliefAt(t, "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1")
	stalemate := chess.NewMove(chess.G1, chess.NewSquare(6, 5), chess.NoPieceType) // Qg6
	for _, c := range []struct {
		variant string
		want    float32
	}{{"rand", winValue}, {"wild16", drawValue}, {"berkeley", drawValue}} {
		v, err := umpire.ParseVariant(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(t, testConfig(ApproachC, 1))
		s.NewGame(1, umpire.Site(v))
		p := evalFor(&bel, &s.set)
		e := &stateEntry{bel: bel}
		e.static = staticValue(&e.bel, &e.hang, p)
		var m men
		m.fromBelief(&bel)
		var ans answers
		evalAttempt(e, &m, stalemate, e.static, p, &ans)
		if ans.n != 1 || !ans.term[0] || ans.value[0] != c.want {
			t.Errorf("%s: Qg6 answers %d, terminal %v, value %v; want one terminal of %v", c.variant, ans.n, ans.term[0], ans.value[0], c.want)
		}
	}
}
