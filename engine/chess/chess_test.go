package chess

import (
	"strings"
	"testing"
)

func mustFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFENRoundTrip(t *testing.T) {
	for _, tc := range perftCases {
		p := mustFEN(t, tc.fen)
		if got := p.FEN(); got != tc.fen {
			t.Errorf("FEN round trip: got %q, want %q", got, tc.fen)
		}
	}
	// Four-field FEN gets default counters.
	p := mustFEN(t, "8/8/8/8/8/8/8/K6k w - -")
	if got := p.FEN(); got != "8/8/8/8/8/8/8/K6k w - - 0 1" {
		t.Errorf("got %q", got)
	}
}

func TestFENErrors(t *testing.T) {
	cases := []struct{ fen, field string }{
		{"", "position"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "position"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove"},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "position"},      // no black king
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1", "position"},       // pawn on rank 1
		{"4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "position"},                              // no rook on a1
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "position"},                             // black in check, white to move
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "position"},                         // 7 fields
		{strings.Repeat("8/", 200) + "8 w - - 0 1", "position"},                     // too long
		{"4k3/8/8/8/8/8/8/4K3 w - - 99999999 1", "halfmove"},                        // overflow
		{"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove"},                              // negative
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "placement"}, // 9 ranks
	}
	for _, tc := range cases {
		_, err := ParseFEN(tc.fen)
		fe, ok := err.(*FENError)
		if !ok {
			t.Errorf("ParseFEN(%q) = %v, want a *FENError", tc.fen, err)
			continue
		}
		if fe.Field != tc.field {
			t.Errorf("ParseFEN(%q): field %q (%v), want %q", tc.fen, fe.Field, err, tc.field)
		}
	}
}

func TestParseUCI(t *testing.T) {
	good := map[string]string{"e2e4": "e2e4", "e7e8q": "e7e8q", "E7E8Q": "", "a2a1N": "a2a1n", "e1g1": "e1g1", "h7h8b": "h7h8b"}
	for in, want := range good {
		m, err := ParseUCI(in)
		if want == "" {
			if err == nil {
				t.Errorf("ParseUCI(%q) accepted upper-case squares", in)
			}
			continue
		}
		if err != nil || m.String() != want {
			t.Errorf("ParseUCI(%q) = %v, %v; want %s", in, m, err, want)
		}
	}
	for _, in := range []string{"", "e2", "e2e", "e2e4qq", "i2e4", "e0e4", "e2e2", "e2e4q", "e7e8k", "e7e8p", "e3e4q", "e2e1" + "x"} {
		if m, err := ParseUCI(in); err == nil {
			t.Errorf("ParseUCI(%q) = %v, want an error", in, m)
		}
	}
}

func TestSAN(t *testing.T) {
	cases := []struct{ fen, uci, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e5f7", "Nxf7"},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "g2h3", "gxh3"},
		{"8/2k5/8/3pP3/8/8/8/K7 w - d6 0 1", "e5d6", "exd6+"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"},
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
		{"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2"},
		{"7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3"},
	}
	for _, tc := range cases {
		p := mustFEN(t, tc.fen)
		m, err := ParseUCI(tc.uci)
		if err != nil || !p.IsLegal(m) {
			t.Fatalf("%s: %s not legal (%v)", tc.fen, tc.uci, err)
		}
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s %s: SAN %q, want %q", tc.fen, tc.uci, got, tc.san)
		}
		back, err := p.ParseSAN(tc.san)
		if err != nil || back != m {
			t.Errorf("ParseSAN(%q) = %v, %v; want %v", tc.san, back, err, m)
		}
	}
	p := StartPosition()
	if _, err := p.ParseSAN("Nd4"); err == nil {
		t.Error("ParseSAN accepted an impossible move")
	}
}

// TestCheckKinds uses the hand-made table of docs/fixtures.md.
func TestCheckKinds(t *testing.T) {
	cases := []struct {
		fen, uci string
		want     [2]CheckKind
	}{
		{"4k3/8/p4b2/8/8/P7/8/4K3 b - - 0 1", "f6h4", [2]CheckKind{CheckShortDiagonal}},
		{"3bk3/8/p7/8/8/P7/8/4K3 b - - 0 1", "d8a5", [2]CheckKind{CheckLongDiagonal}},
		{"5b1k/8/p7/8/3K4/P7/8/8 b - - 0 1", "f8g7", [2]CheckKind{CheckLongDiagonal}},
		{"1b5k/8/p7/8/3K4/P7/8/8 b - - 0 1", "b8a7", [2]CheckKind{CheckShortDiagonal}},
		{"6k1/8/7P/8/8/8/8/K7 w - - 0 1", "h6h7", [2]CheckKind{CheckShortDiagonal}},
		{"6k1/8/p7/8/8/P7/4B3/K7 w - - 0 1", "e2c4", [2]CheckKind{CheckLongDiagonal}},
		{"7k/8/p7/8/8/P7/3B4/K7 w - - 0 1", "d2c3", [2]CheckKind{CheckLongDiagonal}},
		{"8/2k5/8/3pP3/8/8/8/K7 w - d6 0 1", "e5d6", [2]CheckKind{CheckLongDiagonal}},
		{"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6", [2]CheckKind{CheckFile, CheckKnight}},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", [2]CheckKind{CheckRank}},
		{StartFEN, "e2e4", [2]CheckKind{}},
	}
	for _, tc := range cases {
		p := mustFEN(t, tc.fen)
		m, _ := ParseUCI(tc.uci)
		if !p.IsLegal(m) {
			t.Fatalf("%s: %s not legal", tc.fen, tc.uci)
		}
		p.Make(m)
		a, b := p.CheckKinds()
		got := [2]CheckKind{a, b}
		if got != tc.want && [2]CheckKind{b, a} != tc.want {
			t.Errorf("%s %s: checks %v, want %v", tc.fen, tc.uci, got, tc.want)
		}
	}
}

func TestDiagonalLengthsNeverEqual(t *testing.T) {
	for s := Square(0); s < 64; s++ {
		r, f := DiagonalLengths(s)
		if r == f || r < 1 || f < 1 || r > 8 || f > 8 {
			t.Errorf("%s: diagonal lengths %d and %d", s, r, f)
		}
	}
}

func TestPawnTries(t *testing.T) {
	cases := []struct {
		fen  string
		want int
	}{
		{StartFEN, 0},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 1},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1},   // en passant counts
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", 1},    // capture-promotion counts once
		{"4k3/8/8/8/8/2p1p3/3P4/3K4 w - - 0 1", 2}, // two captures of one pawn
		{"4k3/4q3/8/8/8/3p4/4P3/4K3 w - - 0 1", 0}, // pinned pawn on the file
		{"4k3/8/8/8/8/3p4/4P3/r3K3 w - - 0 1", 0},  // in check by a rook: capture does not help
		{"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 0},    // en passant exposes the king on the rank
		{"4k3/8/8/8/8/3p1p2/4P3/4K3 w - - 0 1", 2},
		{"4k3/8/8/2p1p3/3P4/8/8/4K3 b - - 0 1", 2},
	}
	for _, tc := range cases {
		p := mustFEN(t, tc.fen)
		if got := p.PawnTries(); got != tc.want {
			t.Errorf("%s: pawn tries %d, want %d", tc.fen, got, tc.want)
		}
	}
}

func TestInsufficientMaterial(t *testing.T) {
	cases := []struct {
		fen  string
		want bool
	}{
		{"8/8/8/8/8/8/8/K6k w - - 0 1", true},
		{"8/8/8/8/8/8/8/KN5k w - - 0 1", true},
		{"8/8/8/8/8/8/8/KB5k w - - 0 1", true},
		{"8/8/8/8/8/8/8/KB4bk w - - 0 1", false}, // b1 dark, g1 light: opposite colours
		{"8/8/8/8/8/8/8/KB3b1k w - - 0 1", true}, // b1 and f1: both dark
		{"8/8/8/8/8/8/8/KN4nk w - - 0 1", false},
		{"8/8/8/8/8/8/8/KN4qk w - - 0 1", false}, // queen side can mate
		{"8/8/8/8/8/8/8/KNN4k w - - 0 1", false},
		{"8/8/8/8/8/8/P7/K6k w - - 0 1", false},
		{"7k/8/8/8/8/8/8/KR6 w - - 0 1", false},
		{"8/8/8/8/8/8/8/KBB4k w - - 0 1", false}, // b1 dark, c1 light
	}
	for _, tc := range cases {
		p := mustFEN(t, tc.fen)
		if got := p.IsInsufficientMaterial(); got != tc.want {
			t.Errorf("%s: insufficient %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestIsLegalAgreesWithGeneration asks IsLegal every from/to/promotion triple in a
// set of positions and compares with the generated list.
func TestIsLegalAgreesWithGeneration(t *testing.T) {
	for _, tc := range perftCases {
		p := mustFEN(t, tc.fen)
		var l MoveList
		p.GenerateLegal(&l)
		for from := Square(0); from < 64; from++ {
			for to := Square(0); to < 64; to++ {
				for _, pr := range []PieceType{NoPieceType, Knight, Bishop, Rook, Queen, King} {
					m := NewMove(from, to, pr)
					if got, want := p.IsLegal(m), l.Contains(m); got != want {
						t.Fatalf("%s: IsLegal(%s) = %v, want %v", tc.fen, m, got, want)
					}
				}
			}
		}
	}
}

func TestAttackMap(t *testing.T) {
	p := StartPosition()
	if got, want := p.AttackMap(White), Rank3|Rank2|(Rank1&^(A1.Bit()|H1.Bit())); got != want {
		t.Errorf("white attack map %x, want %x", uint64(got), uint64(want))
	}
	p = mustFEN(t, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1")
	d4, _ := ParseSquare("d4")
	if got := p.AttackMap(White) & RookAttacks(d4, p.Occupied()); got.Count() != 14 {
		t.Errorf("rook on d4 attacks %d squares, want 14", got.Count())
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, tc := range perftCases {
		f.Add(tc.fen)
	}
	f.Add("8/8/8/8/8/8/8/K6k w - -")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		// A position that parses must serialise, parse back to the same thing and
		// support move generation.
		q, err := ParseFEN(p.FEN())
		if err != nil || q != p {
			t.Fatalf("round trip of %q via %q: %v", s, p.FEN(), err)
		}
		Perft(p, 2)
		p.PawnTries()
		p.CheckKinds()
	})
}

func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "a2a1N", "0000", "e1g1", "zz", "e2e4qq"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseUCI(s)
		if err != nil {
			return
		}
		if back, err := ParseUCI(m.String()); err != nil || back != m {
			t.Fatalf("round trip of %q: %v %v", s, back, err)
		}
	})
}

func BenchmarkGenerateLegal(b *testing.B) {
	p := mustFEN(b, perftCases[1].fen)
	b.ReportAllocs()
	for b.Loop() {
		var l MoveList
		p.GenerateLegal(&l)
	}
}

// TestFromBoard: FromBoard makes what ParseFEN makes from the same men, side
// and rights, refuses what it refuses, and allocates nothing.
func TestFromBoard(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
		"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1",   // kings only
		"4k3/8/8/8/8/8/8/4KK2 w - - 0 1",  // two white kings
		"4k2P/8/8/8/8/8/8/4K3 w - - 0 1",  // a pawn on the last rank
		"4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", // white, not to move, in check
		"4k3/8/8/8/8/8/8/4K3 w K - 0 1",   // castling without the rook
		"rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w Qk - 0 1",
	} {
		var board [64]Piece
		var side Color
		var rights CastleRights
		fields := strings.Fields(fen)
		rank, file := 7, 0
		for _, c := range fields[0] {
			switch {
			case c == '/':
				rank, file = rank-1, 0
			case c >= '1' && c <= '8':
				file += int(c - '0')
			default:
				col := White
				if c >= 'a' {
					col = Black
				}
				board[NewSquare(file, rank)] = MakePiece(col, PieceType(strings.IndexRune("pnbrqk", c|0x20)+1))
				file++
			}
		}
		if fields[1] == "b" {
			side = Black
		}
		for _, c := range fields[2] {
			rights |= map[rune]CastleRights{'K': WhiteKingside, 'Q': WhiteQueenside, 'k': BlackKingside, 'q': BlackQueenside}[c]
		}
		want, err := ParseFEN(fen)
		got, ok := FromBoard(&board, side, rights)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%s: FromBoard %v (%v), ParseFEN %v", fen, ok, got.FEN(), err)
		}
		if allocs := testing.AllocsPerRun(10, func() { FromBoard(&board, side, rights) }); allocs != 0 {
			t.Errorf("%s: %.0f allocations", fen, allocs)
		}
	}
}

func TestCastleRook(t *testing.T) {
	tests := []struct {
		king, rook string // king's step; the rook's, "" when it is no castling
	}{
		{"e1g1", "h1f1"},
		{"e1c1", "a1d1"},
		{"e8g8", "h8f8"},
		{"e8c8", "a8d8"},
		{"e1f1", ""},
		{"e1e2", ""},
		{"e1g2", ""}, // two files but not along the rank
	}
	for _, tc := range tests {
		m, err := ParseUCI(tc.king)
		if err != nil {
			t.Fatal(err)
		}
		from, to, ok := CastleRook(m.From(), m.To())
		got := ""
		if ok {
			got = NewMove(from, to, NoPieceType).String()
		}
		if got != tc.rook || Castles(m.From(), m.To()) != ok {
			t.Errorf("CastleRook(%s) = %q, %v; want %q", tc.king, got, ok, tc.rook)
		}
	}
}

// TestDrop: a drop makes the position its FEN says, key included: the man
// stands on the square, the turn passes, the en passant square goes, the
// half-move clock runs on and the move number follows Black's turn; and it
// allocates nothing.
func TestDrop(t *testing.T) {
	for _, c := range []struct {
		fen  string
		pt   PieceType
		sq   Square
		want string
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 3 10", Knight, NewSquare(4, 3), "4k3/8/8/8/4N3/8/8/4K3 b - - 4 10"},
		{"4k3/8/8/8/8/8/8/4K3 b - - 0 10", Queen, D1, "4k3/8/8/8/8/8/8/3qK3 w - - 1 11"},
		// The en passant square goes, and its key with it (a black pawn
		// stands ready to take on e3).
		{"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 7", Pawn, NewSquare(2, 4), "4k3/8/8/2p5/3pP3/8/8/4K3 w - - 1 8"},
		// Castling rights stay.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Rook, NewSquare(3, 3), "r3k2r/8/8/8/3R4/8/8/R3K2R b KQkq - 1 1"},
	} {
		p := mustFEN(t, c.fen)
		p.Drop(c.pt, c.sq)
		want := mustFEN(t, c.want)
		if p.FEN() != c.want || p != want {
			t.Errorf("%s: drop %v on %v gives %s (key %x), want %s (key %x)", c.fen, c.pt, c.sq, p.FEN(), p.Hash(), c.want, want.Hash())
		}
		if p.hash != p.computeHash() {
			t.Errorf("%s: key after the drop is not the position's", c.fen)
		}
	}
	p := mustFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	if n := testing.AllocsPerRun(100, func() {
		q := p
		q.Drop(Knight, NewSquare(4, 3))
	}); n != 0 {
		t.Errorf("Drop allocates %v times", n)
	}
}

func BenchmarkDrop(b *testing.B) {
	p := mustFEN(b, "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1")
	b.ReportAllocs()
	for b.Loop() {
		q := p
		q.Drop(Queen, NewSquare(3, 4))
	}
}
