package chess

import (
	"math/rand/v2"
	"testing"
)

// specialFENs are positions for the rare cases: checks by castling, en
// passant and promotion, discovered checks, stalemates with men boxed in by
// their own or pinned.
var specialFENs = []string{
	"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",           // O-O-O: Rd1+
	"5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1",           // O-O: Rf1+
	"8/8/8/1K1pP2k/8/8/8/8 w - d6 0 1",           // exd6 e.p.
	"8/8/8/2k5/3pP3/8/8/4K2R b K e3 0 1",         // dxe3 e.p.
	"8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1",          // dxe3 e.p. with the pawn blocked
	"8/8/8/8/K2pP2r/8/8/7k b - e3 0 1",           // dxe3 e.p. opens the rank
	"k7/2P5/8/8/8/8/8/4K3 w - - 0 1",             // c8=Q+, c8=R+
	"2k5/P7/8/8/8/8/8/4K3 w - - 0 1",             // a8=Q+, a8=R+
	"4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1",          // the bishop discovers the rook
	"4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1",          // the knight discovers, or checks
	"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",             // stalemate
	"k7/P7/1K6/8/8/8/8/8 b - - 0 1",              // stalemate by a pawn
	"4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",          // the pinned rook moves along the pin
	"k7/8/8/8/1p6/1Pp2p1p/2P2P1P/N5BK w - - 0 1", // stalemate: knight and bishop boxed in
}

// eachPosition calls look on the special positions, the perft positions and
// their successors two plies deep, the positions of 2,000 random games, and
// 200,000 random scatterings of 3 to 16 men (mates and stalemates with men
// pinned or boxed in).
func eachPosition(t *testing.T, look func(p *Position)) {
	t.Helper()
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		look(p)
		if depth == 0 {
			return
		}
		var l MoveList
		p.GenerateLegal(&l)
		for _, m := range l.Slice() {
			after := *p
			after.Make(m)
			walk(&after, depth-1)
		}
	}
	fens := append([]string(nil), specialFENs...)
	for _, c := range perftCases {
		fens = append(fens, c.fen)
	}
	for _, f := range fens {
		p, err := ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		walk(&p, 2)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		p := StartPosition()
		for {
			look(&p)
			var l MoveList
			p.GenerateLegal(&l)
			if l.N == 0 || p.HalfmoveClock() >= 100 {
				break
			}
			p.Make(l.Moves[rng.IntN(l.N)])
		}
	}
	types := [...]PieceType{Pawn, Knight, Bishop, Rook, Queen}
	for range 200000 {
		var board [64]Piece
		taken := Bitboard(0)
		put := func(pc Piece) {
			for {
				sq := Square(rng.IntN(64))
				if !taken.Has(sq) {
					board[sq], taken = pc, taken|sq.Bit()
					return
				}
			}
		}
		put(MakePiece(White, King))
		put(MakePiece(Black, King))
		for range 1 + rng.IntN(14) {
			put(MakePiece(Color(rng.IntN(2)), types[rng.IntN(len(types))]))
		}
		if p, ok := FromBoard(&board, Color(rng.IntN(2)), 0); ok {
			look(&p)
		}
	}
}

// TestCheckOrigins: every legal move that gives check starts on a square of
// CheckOrigins, and the mask leaves out most men, which is what it is for.
func TestCheckOrigins(t *testing.T) {
	checked, positions, kept, men := 0, 0, 0, 0
	eachPosition(t, func(p *Position) {
		positions++
		king := p.KingSquare(p.Side().Other())
		origins := p.CheckOrigins(king)
		kept += origins.Count()
		men += p.ByColor(p.Side()).Count()
		var l MoveList
		p.GenerateLegal(&l)
		for _, m := range l.Slice() {
			after := *p
			after.Make(m)
			if !after.InCheck() {
				continue
			}
			checked++
			if !origins.Has(m.From()) {
				t.Fatalf("%s: %v gives check from outside the origins %x", p.FEN(), m, uint64(origins))
			}
		}
	})
	if checked < 100000 {
		t.Fatalf("only %d checking moves in %d positions", checked, positions)
	}
	if share := float64(kept) / float64(men); share > 0.75 {
		t.Errorf("the origins keep %.0f %% of the men", 100*share)
	}
	t.Logf("%d positions, %d checking moves, %.0f %% of the men kept", positions, checked, 100*float64(kept)/float64(men))
}

// TestHasLegalMove: HasLegalMove's shortcut agrees with the full generation
// everywhere, and it decides most positions alone.
func TestHasLegalMove(t *testing.T) {
	positions, free, none := 0, 0, 0
	eachPosition(t, func(p *Position) {
		positions++
		var l MoveList
		p.GenerateLegal(&l)
		if got := p.HasLegalMove(); got != (l.N > 0) {
			t.Fatalf("%s: HasLegalMove %v, %d legal moves", p.FEN(), got, l.N)
		}
		if p.hasFreeMove() {
			free++
		}
		if l.N == 0 {
			none++
		}
	})
	if none < 1000 || free < positions/2 {
		t.Fatalf("%d positions: %d without a move, %d decided by the shortcut", positions, none, free)
	}
	t.Logf("%d positions: %d without a move, %.0f %% decided by the shortcut", positions, none, 100*float64(free)/float64(positions))
}
