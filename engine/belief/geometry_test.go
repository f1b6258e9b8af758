package belief

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

func TestGeometry(t *testing.T) {
	var seen [64]int
	for _, l := range geo.lines {
		if l.n == 0 || chess.Bitboard(l.bits).Count() != int(l.n) {
			t.Fatalf("line %v: %d squares, bits %d", l.sq, l.n, l.bits.Count())
		}
		for i := range l.n {
			seen[l.sq[i]]++
		}
	}
	for sq, n := range seen {
		if n != 4 {
			t.Errorf("%s on %d lines, want 4", chess.Square(sq), n)
		}
		s := chess.Square(sq)
		if geo.lineMask[s][0] != chess.RankMask(s.Rank()) || geo.lineMask[s][1] != chess.FileMask(s.File()) {
			t.Errorf("%s: rank/file masks wrong", s)
		}
		if geo.lineMask[s][2]|geo.lineMask[s][3] != chess.BishopAttacks(s, 0)|s.Bit() {
			t.Errorf("%s: diagonal masks wrong", s)
		}
	}
	if d := dirFrom(chess.E1, chess.E8); d != 2 {
		t.Errorf("dirFrom(e1, e8) = %d", d)
	}
	if d := dirFrom(chess.E1, sq("f3")); d != -1 {
		t.Errorf("dirFrom(e1, f3) = %d", d)
	}
}

func TestKindShares(t *testing.T) {
	sh := kindShares(oppmodel.DefaultParams())
	all := 1<<jumper | 1<<diagonal | 1<<straight
	near := func(a float32, b float64) bool { return a-float32(b) < 1e-6 && float32(b)-a < 1e-6 }
	if !near(sh[all][jumper], 2.0/7) || !near(sh[all][diagonal], 3.0/7) || !near(sh[all][straight], 3.0/7) {
		t.Errorf("full set: %v, want 2/7, 3/7, 3/7", sh[all])
	}
	if !near(sh[1<<straight][straight], 1) || sh[1<<straight][diagonal] != 0 {
		t.Errorf("rook-only square: %v", sh[1<<straight])
	}
	// Bishop or rook or queen: the queen moves both ways.
	bq := sh[1<<diagonal|1<<straight]
	if !near(bq[diagonal], 3.0/5) || !near(bq[straight], 3.0/5) || bq[jumper] != 0 {
		t.Errorf("slider square: %v, want 3/5 each way", bq)
	}
	if sh[0] != [3]float32{} {
		t.Errorf("empty mask: %v", sh[0])
	}
}
