package umpire

import (
	"testing"

	"kriegbot/engine/chess"
)

// menOf returns the side to move's men in pos, as Askable reads them.
func menOf(pos *chess.Position, tries int, types *[64]chess.PieceType) Men {
	us := pos.Side()
	m := Men{Color: us, Own: pos.ByColor(us), Types: types, Castling: pos.Castling(), EnPassant: pos.EnPassant(), Tries: tries}
	for b := m.Own; b != 0; {
		sq := b.PopFirst()
		types[sq] = pos.PieceAt(sq).Type()
	}
	return m
}

func TestMenAskablePromotions(t *testing.T) {
	// White pawn on b7 with the b8 square free, a knight on a8 to take: a
	// push and, with a try in force, captures onto a8 and c8.
	pos, err := chess.ParseFEN("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var types [64]chess.PieceType
	b7, _ := chess.ParseSquare("b7")
	b8, _ := chess.ParseSquare("b8")
	for _, tc := range []struct {
		promos Promotions
		tries  int
		want   []chess.PieceType // promotions of b7b8, in order
		pawn   int               // the pawn's attempts
	}{
		{AllPromotions, 0, []chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight}, 4},
		{AllPromotions, 1, []chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight}, 12},
		{PromoteQueen, 1, []chess.PieceType{chess.Queen}, 3},
		{PromoteKnight | PromoteRook, -1, []chess.PieceType{chess.Rook, chess.Knight}, 6},
		{0, 1, nil, 0},
	} {
		m := menOf(&pos, tc.tries, &types)
		var l chess.MoveList
		m.Askable(tc.promos, nil, &l)
		var push []chess.PieceType
		pawn := 0
		for _, mv := range l.Slice() {
			if mv.From() != b7 {
				continue
			}
			pawn++
			if mv.To() == b8 {
				push = append(push, mv.Promotion())
			}
		}
		if pawn != tc.pawn || len(push) != len(tc.want) {
			t.Errorf("promos %04b tries %d: %d pawn attempts, pushes %v; want %d, %v", tc.promos, tc.tries, pawn, push, tc.pawn, tc.want)
			continue
		}
		for i := range push {
			if push[i] != tc.want[i] {
				t.Errorf("promos %04b: pushes %v, want %v", tc.promos, push, tc.want)
			}
		}
	}
}

// TestMenAskableEnPassant: the en passant step needs the square; a player,
// who cannot know it, passes NoSquare and does not list it.
func TestMenAskableEnPassant(t *testing.T) {
	pos, err := chess.ParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var types [64]chess.PieceType
	ep := chess.NewMove(pos.EnPassant()-8+1, pos.EnPassant(), chess.NoPieceType) // e5d6
	m := menOf(&pos, 0, &types)
	var l chess.MoveList
	m.Askable(AllPromotions, nil, &l)
	if !l.Contains(ep) {
		t.Errorf("%v not askable with the en passant square: %v", ep, l.Slice())
	}
	m.EnPassant = chess.NoSquare
	m.Askable(AllPromotions, nil, &l)
	if l.Contains(ep) {
		t.Errorf("%v askable without the en passant square", ep)
	}
}

func TestMenAskableAllocatesNothing(t *testing.T) {
	pos, err := chess.ParseFEN("r3k2r/pP4P1/8/8/8/8/1p4pP/RN2K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var types [64]chess.PieceType
	m := menOf(&pos, 1, &types)
	var l chess.MoveList
	refused := []chess.Move{chess.NewMove(chess.E1, chess.G1, chess.NoPieceType)}
	if n := testing.AllocsPerRun(100, func() {
		m.Askable(AllPromotions, refused, &l)
		Askable(&pos, 1, refused, &l)
	}); n != 0 {
		t.Errorf("Askable allocates %v times per call", n)
	}
}

// BenchmarkAskable lists the askable attempts of the positions of random
// games, through Men.Askable (the players' and the search's path) and
// through Askable (the umpire's, which also builds the men and keeps its
// order).
func BenchmarkAskable(b *testing.B) {
	s := RandomStream(1, 20, 300)
	u := New(ICC())
	var positions []chess.Position
	for _, g := range s.Games {
		u.Reset(s.Start)
		for _, m := range g {
			positions = append(positions, u.Position())
			if _, err := u.Attempt(m); err != nil {
				break
			}
		}
	}
	men := make([]Men, len(positions))
	types := make([][64]chess.PieceType, len(positions))
	for i := range positions {
		men[i] = menOf(&positions[i], 1, &types[i])
	}
	var l chess.MoveList
	b.Run("men", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			men[i].Askable(PromoteQueen, nil, &l)
			i = (i + 1) % len(men)
		}
	})
	b.Run("umpire", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			Askable(&positions[i], 1, nil, &l)
			i = (i + 1) % len(positions)
		}
	})
}
