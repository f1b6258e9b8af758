package search

import (
	"slices"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// queenInPocket is a crazykrieg belief of White's after its king took
// Black's checking queen on d2 (announced exactly) and Black's silent
// reply: a queen in our pocket, our king alone on the board.
func queenInPocket(t *testing.T) belief.State {
	t.Helper()
	bel := beliefAt(t, "4k3/pppppppp/8/8/8/8/3q4/4K3 w - - 0 1")
	bel.SetVariant(mustVariant(t, "crazykrieg"))
	d2 := chess.NewSquare(3, 1)
	take := chess.NewMove(chess.E1, d2, chess.NoPieceType)
	bel.Ours(take, umpire.View{Heard: true, Own: true, Move: take,
		Capture: umpire.Capture{Square: d2, Kind: umpire.QueenCaptured}})
	bel.Theirs(umpire.View{Heard: true})
	if bel.OurPocket()[chess.Queen] != 1 || bel.Surprises() != 0 {
		t.Fatalf("pocket %v, surprises %d", bel.OurPocket(), bel.Surprises())
	}
	return bel
}

func mustVariant(t *testing.T, name string) umpire.Variant {
	t.Helper()
	v, err := umpire.ParseVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDropsAtTheRoot: the root keeps every board attempt and the
// dropsPerType best drops; a drop on a safe square is worth more than
// keeping the man in hand (the man counts whole on the board), and the
// search can choose it.
func TestDropsAtTheRoot(t *testing.T) {
	bel, s, own, l, moves := queenDropsAtTheRoot(t)
	board := l.N
	kept := s.keepDrops(&bel, moves)
	if len(kept) != board+dropsPerType {
		t.Fatalf("kept %d attempts of %d (board %d)", len(kept), len(moves), board)
	}
	e := s.dropState
	for _, m := range kept[board:] {
		if !umpire.IsDrop(m) {
			t.Fatalf("%v kept among the drops", m)
		}
		var ans answers
		evalAttempt(e, &own, m, e.static, evalFor(&bel, &s.set), &ans)
		if v := ans.mean(); v < e.static+1 {
			t.Errorf("drop %s valued %.2f, the queen in hand %.2f", umpire.MoveText(m), v, e.static)
		}
	}
	r := s.Search(t.Context(), &bel, moves, Limits{Nodes: 400})
	if !umpire.IsDrop(r.Move) {
		t.Errorf("with a queen in hand and a bare king on the board, the search chose %v", r.Move)
	}
}

// TestPlayDrop: our men after a drop hold the dropped man.
func TestPlayDrop(t *testing.T) {
	bel := queenInPocket(t)
	var m, after men
	m.fromBelief(&bel)
	d4 := chess.NewSquare(3, 3)
	m.play(umpire.DropMove(chess.Queen, d4), &after)
	if after.at[d4] != chess.Queen || !after.by[chess.Queen].Has(d4) || !after.by[0].Has(d4) {
		t.Fatalf("after the drop: type %v, queens %v", after.at[d4], after.by[chess.Queen])
	}
}

// TestPlayOn: a drop on a sampled board is legal on an empty square that
// leaves our king safe: under a rook's check only on the line.
func TestPlayOn(t *testing.T) {
	b, err := chess.ParseFEN("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	tr := newTree(1, 1)
	for _, c := range []struct {
		sq    chess.Square
		legal bool
	}{{chess.NewSquare(4, 3), true}, {chess.NewSquare(0, 3), false}, {chess.E8, false}} {
		if got := tr.playOn(&b, umpire.DropMove(chess.Knight, c.sq)); got != c.legal {
			t.Errorf("N@%v: legal %v, want %v", c.sq, got, c.legal)
		}
	}
	if !tr.playOn(&b, umpire.DropMove(chess.Knight, chess.NewSquare(4, 3))) || tr.board.PieceAt(chess.NewSquare(4, 3)) != chess.MakePiece(chess.White, chess.Knight) || tr.board.Side() != chess.Black {
		t.Fatalf("after N@e4: %s", tr.board.FEN())
	}
}

// TestDropsBelowTheRoot: our turns below the root offer the root's kept
// drops again while the man is in our pocket (not refused, the square not
// ours), and none once it was dropped on the way.
func TestDropsBelowTheRoot(t *testing.T) {
	bel, s, own, l, moves := queenDropsAtTheRoot(t)
	board := l.N
	s.Search(t.Context(), &bel, moves, Limits{Nodes: 3000})
	kept := s.set.drops
	if len(kept) != dropsPerType {
		t.Fatalf("the root kept %d drops, want %d", len(kept), dropsPerType)
	}

	// A turn with the queen in hand: the kept drops but the refused one
	// and the one onto our own man.
	mine := umpire.DropMove(chess.Queen, chess.NewSquare(3, 1)) // our king on d2
	l.N = board
	addDeepDrops(append([]chess.Move{mine}, kept...), &bel, &own, kept[:1], &l)
	if got := l.Slice()[board:]; len(got) != dropsPerType-1 || got[0] != kept[1] || got[1] != kept[2] {
		t.Errorf("offered %v, want %v", got, kept[1:])
	}

	// A turn expanded in the tree with the queen in hand offers them.
	tr := s.trees[0]
	fresh := newTree(1, 1)
	fresh.set = tr.set
	fresh.reset(&bel)
	fresh.path = append(fresh.path[:0], 0)
	if !fresh.expandAttempts(0) {
		t.Fatal("expandAttempts failed")
	}
	r := &fresh.nodes[0]
	var offered []chess.Move
	for c := r.first; c < r.first+int32(r.nchild); c++ {
		if m := fresh.nodes[c].move; umpire.IsDrop(m) {
			offered = append(offered, m)
		}
	}
	if !slices.Equal(offered, kept) {
		t.Errorf("a turn in the tree offers %v, want %v", offered, kept)
	}

	// Below the root: no turn after the queen's drop offers one, and
	// the search went below it.
	below := 0
	var walk func(i int32, dropped bool)
	walk = func(i int32, dropped bool) {
		n := &tr.nodes[i]
		if n.first < 0 {
			return
		}
		for c := n.first; c < n.first+int32(n.nchild); c++ {
			ch := &tr.nodes[c]
			d := dropped || ch.kind == attempt && umpire.IsDrop(ch.move)
			if dropped && ch.kind == attempt {
				below++
				if umpire.IsDrop(ch.move) {
					t.Fatalf("%s offered after the queen's drop", umpire.MoveText(ch.move))
				}
			}
			walk(c, d)
		}
	}
	walk(0, false)
	if below == 0 {
		t.Fatal("the search expanded no turn below the queen's drop")
	}
}

// queenDropsAtTheRoot is a crazykrieg root with the queen in our pocket:
// its belief, a searcher, our men, their board attempts (l) and those
// with the queen's drops on every square not ours (moves).
func queenDropsAtTheRoot(t *testing.T) (belief.State, *Searcher, men, chess.MoveList, []chess.Move) {
	t.Helper()
	bel := queenInPocket(t)
	s := newSearcher(t, testConfig(ApproachC, 1))
	s.NewGame(1, umpire.Site(mustVariant(t, "crazykrieg")))
	var own men
	own.fromBelief(&bel)
	var l chess.MoveList
	own.attempts(nil, &l)
	moves := append([]chess.Move(nil), l.Slice()...)
	for sq := range chess.Square(64) {
		if !own.by[0].Has(sq) {
			moves = append(moves, umpire.DropMove(chess.Queen, sq))
		}
	}
	return bel, s, own, l, moves
}
