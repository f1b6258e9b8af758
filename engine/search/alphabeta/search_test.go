package alphabeta

import (
	"testing"

	"kriegbot/engine/chess"
)

func mustFEN(t testing.TB, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		nodes     int64
		lo, hi    int32
	}{
		{"start is level", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2000, -50, 50},
		{"mate in one found", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 2000, MateBound, Mate},
		{"mated", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 100, -Mate, -Mate},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 100, 0, 0},
		{"hanging queen taken (a rook and the mop-up up)", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", 2000, 500, 1500},
		{"defended pawn not taken by the queen", "4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1", 4000, 600, 800},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			for _, bits := range []int{0, 12} {
				s := NewWithTable(bits)
				// Twice: the second search starts from the first's table.
				for range 2 {
					v, d := s.Value(&p, tc.nodes)
					if v < tc.lo || v > tc.hi {
						t.Errorf("table 2^%d: Value = %d at depth %d, want %d..%d", bits, v, d, tc.lo, tc.hi)
					}
				}
			}
		})
	}
}

// TestValueStopsAtBudget: the node count stays near the limit (one node
// past it, where the search notices), and a tiny budget still answers.
func TestValueStopsAtBudget(t *testing.T) {
	p := chess.StartPosition()
	s := New()
	for _, limit := range []int64{1, 10, 500, 5000} {
		s.Value(&p, limit)
		if s.Nodes() > limit+1 {
			t.Errorf("limit %d: %d nodes", limit, s.Nodes())
		}
	}
}

// TestValueDeterministic: the same position and budget give the same value.
func TestValueDeterministic(t *testing.T) {
	p := mustFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	a, da := New().Value(&p, 20000)
	s := New()
	s.Value(&p, 777)
	b, db := s.Value(&p, 20000)
	if a != b || da != db {
		t.Errorf("(%d, depth %d) then (%d, depth %d)", a, da, b, db)
	}
}

// TestTableGoesDeeper: at the same budget the table's move ordering and
// transpositions complete a deeper search, and a mate in two keeps its
// distance through the table.
func TestTableGoesDeeper(t *testing.T) {
	p := mustFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	_, plain := New().Value(&p, 200000)
	_, tabled := NewWithTable(16).Value(&p, 200000)
	if tabled <= plain {
		t.Errorf("depth %d with the table, %d without", tabled, plain)
	}
	mate := mustFEN(t, "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1")
	s := NewWithTable(16)
	for range 3 {
		if v, _ := s.Value(&mate, 50000); v != Mate-1 {
			t.Fatalf("mate in one scored %d, want %d", v, Mate-1)
		}
	}
}

func BenchmarkValue(b *testing.B) {
	p := mustFEN(b, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	s := New()
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		s.Value(&p, 10000)
		nodes += s.Nodes()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestSquaresGain: a move's gain on the tables is the same for either
// colour (black reads them mirrored), and a promotion counts the new man.
func TestSquaresGain(t *testing.T) {
	q := NewSquares()
	for _, c := range []struct {
		fen, move string
		want      int32
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", 18},
		{"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", "g8f6", 18},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -4 + 900 - 50 - 100},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := chess.ParseUCI(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Gain(&p, m); got != c.want {
			t.Errorf("%s on %s: gain %d, want %d", c.move, c.fen, got, c.want)
		}
	}
}
