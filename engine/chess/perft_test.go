package chess

import (
	"os"
	"testing"
)

// perftCase is one golden perft row (Chess Programming Wiki "Perft Results").
type perftCase struct {
	name  string
	fen   string
	nodes []uint64 // nodes[d-1] = perft(d)
	fast  int      // depths run by default; the rest need KRIEGBOT_DEEP_PERFT=1
}

var perftCases = []perftCase{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}, 4},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}, 3},
	{"cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}, 5},
	{"cpw4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}, 4},
	{"cpw4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}, 4},
	{"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}, 3},
	{"cpw6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}, 3},
	// En passant corner cases (horizontal pin, capturing the checking pawn, pinned
	// capturer on a file, diagonal check); counts cross-checked with treepeck/chego v0.5.0.
	{"ep-rank-pin", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", []uint64{6, 78, 528, 8288}, 4},
	{"ep-takes-checker", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", []uint64{9, 50, 379, 2369}, 4},
	{"ep-file-pin", "8/8/3k4/8/3pP3/8/8/3RK3 b - e3 0 1", []uint64{8, 85, 610, 8959}, 4},
	{"ep-diag-check", "4k3/8/8/2KpP2q/8/8/8/8 w - d6 0 1", []uint64{8, 169, 1114, 26419}, 4},
}

func TestPerft(t *testing.T) {
	deep := os.Getenv("KRIEGBOT_DEEP_PERFT") == "1"
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d := 1; d <= len(tc.nodes); d++ {
				if d > tc.fast && (!deep || testing.Short()) {
					break
				}
				if got := Perft(p, d); got != tc.nodes[d-1] {
					t.Errorf("perft(%d) = %d, want %d; divide(%d): %v", d, got, tc.nodes[d-1], d, divide(p, d))
				}
			}
		})
	}
}

// TestHashIncremental checks that the key kept by Make equals the key rebuilt from
// scratch along every path of a small tree.
func TestHashIncremental(t *testing.T) {
	for _, tc := range perftCases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(p Position, depth int)
		walk = func(p Position, depth int) {
			if p.hash != p.computeHash() {
				t.Fatalf("%s: incremental hash differs after reaching %s", tc.name, p.FEN())
			}
			if depth == 0 {
				return
			}
			var l MoveList
			p.GenerateLegal(&l)
			for _, m := range l.Slice() {
				c := p
				c.Make(m)
				walk(c, depth-1)
			}
		}
		walk(p, 3)
	}
}

func BenchmarkPerft(b *testing.B) {
	p, err := ParseFEN(perftCases[1].fen)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(p, 3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// divide returns the perft count below each legal move of p (for debugging a
// perft mismatch against another program).
func divide(p Position, depth int) map[string]uint64 {
	out := make(map[string]uint64)
	var l MoveList
	p.GenerateLegal(&l)
	for _, m := range l.Slice() {
		child := p
		child.Make(m)
		out[m.String()] = Perft(child, depth-1)
	}
	return out
}
