package replymodel

import (
	"math"
	"testing"

	"kriegbot/engine/belief"
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

func sum(d *Dist) float64 {
	s := 0.0
	for _, p := range d {
		s += p
	}
	return s
}

func TestTodayIsADistribution(t *testing.T) {
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	m, _ := chess.ParseUCI("e2e4")
	bel.Ours(m, umpireMoveView(m))
	var d Dist
	Today(&bel, &d)
	if s := sum(&d); math.Abs(s-1) > 1e-9 {
		t.Fatalf("today sums to %v", s)
	}
	if d[NoCapture] < 0.85 {
		t.Fatalf("after 1.e4 a capture is given %v", 1-d[NoCapture])
	}
}

func TestDescribeFeatures(t *testing.T) {
	// Black to move: the d5 pawn takes e4 (where White just captured,
	// defended by the d3 pawn), the knight on f6 may take e4 too.
	pos := mustFEN(t, "4k3/8/5n2/3p4/4P3/3P4/8/4K3 b - - 0 1")
	var list chess.MoveList
	e4 := chess.NewSquare(4, 3)
	ms := Describe(&pos, e4, &list, nil)
	var pawn, knight *Move
	for i := range ms {
		if ms[i].Event != int8(e4) {
			continue
		}
		if ms[i].F[PawnTake] == 1 {
			pawn = &ms[i]
		} else {
			knight = &ms[i]
		}
	}
	if pawn == nil || knight == nil {
		t.Fatalf("captures on e4 missing: %+v", ms)
	}
	if pawn.F[Recapture] != 1 || pawn.F[Value] != 1 || pawn.F[Balance] != 0 {
		t.Errorf("dxe4: %+v, want recapture, value 1, balance 0", pawn.F)
	}
	if knight.F[Balance] != -2 {
		t.Errorf("Nxe4: balance %d, want 1-3 = -2", knight.F[Balance])
	}
}

func TestPolicyFavoursWeightedMoves(t *testing.T) {
	moves := []Move{{Event: NoCapture}, {Event: NoCapture}, {Event: 10, F: [NumFeatures]int8{Capture: 1, Value: 1}}}
	var d Dist
	w := Weights{Capture: math.Log(2)}
	AddPolicy(&w, moves, 1, &d)
	if math.Abs(d[10]-0.5) > 1e-9 || math.Abs(sum(&d)-1) > 1e-9 {
		t.Fatalf("capture %v (want 0.5), sum %v", d[10], sum(&d))
	}
}

func TestPredictAllocatesNothing(t *testing.T) {
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	m, _ := chess.ParseUCI("e2e4")
	bel.Ours(m, umpireMoveView(m))
	b := NewBoards(DefaultWeights(), 3)
	var d Dist
	if got := b.Predict(&bel, chess.NoSquare, 8, &d, nil); got == 0 || math.Abs(sum(&d)-1) > 1e-9 {
		t.Fatalf("%d boards, sum %v", got, sum(&d))
	}
	if a := testing.AllocsPerRun(20, func() { b.Predict(&bel, chess.NoSquare, 8, &d, nil) }); a != 0 {
		t.Fatalf("%v allocations per prediction", a)
	}
}

func BenchmarkPredict(b *testing.B) {
	start := chess.StartPosition()
	bel := belief.FromPosition(chess.White, start, belief.UniformPrior{})
	m, _ := chess.ParseUCI("e2e4")
	bel.Ours(m, umpireMoveView(m))
	p := NewBoards(DefaultWeights(), 3)
	var d Dist
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(&bel, chess.NoSquare, 16, &d, nil)
	}
}

func TestHanging(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want int
	}{
		{"4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", 1},   // undefended knight
		{"4k3/4p3/3n4/8/8/8/8/3RK3 w - - 0 1", 0}, // defended, the rook worth more
		{"4k3/4p3/3q4/8/8/8/8/3RK3 w - - 0 1", 1}, // defended queen, the rook worth less
		{"4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", 1},    // the king takes an undefended man
		{"4k3/8/8/8/8/8/3np3/4K3 w - - 0 1", 2},   // neither defends the other
		{"4k3/8/8/8/8/4p3/3n4/4K3 w - - 0 1", 0},  // a king never takes a defended man
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
	} {
		pos := mustFEN(t, tc.fen)
		if got := Hanging(&pos); got != tc.want {
			t.Errorf("%s: %d hanging, want %d", tc.fen, got, tc.want)
		}
	}
	pos := mustFEN(t, "4k3/8/8/8/8/8/3np3/4K3 w - - 0 1")
	if got := HangingBut(&pos, chess.NewSquare(3, 1).Bit()); got != 1 {
		t.Errorf("with d2 known: %d hanging, want 1 (e2)", got)
	}
}
