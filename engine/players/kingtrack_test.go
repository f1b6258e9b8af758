package players

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestKingTrackBare plays heuristic against random and checks, before every
// attempt, that the heuristic's man count is right and that, once the
// opponent is bare, the true king square is among the possible ones. The
// bare-king rules are exact, but the set they start from was built assuming
// open lines (KingTrack), so a rare miss is allowed: at most 1 %.
func TestKingTrackBare(t *testing.T) {
	bareChecks, sizes, misses := 0, 0, 0
	for g := range 60 {
		h := mustNew(t, "heuristic").(*Heuristic)
		r := mustNew(t, "random")
		ps := [2]Player{h, r}
		us := chess.White
		if g%2 == 1 {
			ps = [2]Player{r, h}
			us = chess.Black
		}
		playGame(t, ps[0], ps[1], uint64(g), 400, func(u *umpire.Umpire, k *Knowledge) {
			if k != &h.know {
				return
			}
			pos := u.Position()
			if got, want := h.track.TheirMen, pos.ByColor(us.Other()).Count(); got != want {
				t.Fatalf("game %d ply %d: tracker counts %d enemy men, board has %d", g, u.Plies(), got, want)
			}
			if h.track.Bare() {
				bareChecks++
				sizes += h.track.Squares.Count()
				if king := pos.KingSquare(us.Other()); !h.track.Squares.Has(king) {
					misses++
					t.Logf("game %d ply %d (%s): bare king on %v, tracker allows only %x", g, u.Plies(), pos.FEN(), king, uint64(h.track.Squares))
				}
			}
		})
	}
	if bareChecks < 100 {
		t.Fatalf("only %d attempts against a bare king checked", bareChecks)
	}
	t.Logf("%d attempts against a bare king, %.1f possible squares on average, %d misses", bareChecks, float64(sizes)/float64(bareChecks), misses)
	if misses*100 > bareChecks {
		t.Fatalf("the true king square was missed %d times in %d", misses, bareChecks)
	}
}

// TestEndgameScoreMates: with a bare king known on h8 and our queen and king
// ready, the heuristic mates at once rather than stalemating.
func TestEndgameScoreMates(t *testing.T) {
	h := &Heuristic{}
	h.NewGame(Game{Color: chess.White, Seed: 3})
	// Our men: Kf6, Qa7 (White); their king on h8 only.
	h.know.Board = OwnBoard{us: chess.White}
	h.know.Board.put(chess.NewSquare(5, 5), chess.King)
	h.know.Board.put(chess.NewSquare(0, 6), chess.Queen)
	h.track = KingTrack{Squares: chess.H8.Bit(), TheirMen: 1}
	m, err := h.Attempt(t.Context(), Budget{})
	if err != nil {
		t.Fatal(err)
	}
	// Qg7 mates (our king guards g7), Qf7 stalemates: the true position
	// judges the choice.
	pos, err := chess.ParseFEN("7k/Q7/5K2/8/8/8/8/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !pos.IsLegal(m) {
		t.Fatalf("heuristic chose %v, not legal", m)
	}
	pos.Make(m)
	if pos.HasLegalMove() || !pos.InCheck() {
		t.Fatalf("heuristic chose %v, which does not mate (%s)", m, pos.FEN())
	}
}

// BenchmarkHeuristicEndgame measures an attempt in mating mode: queen, rook
// and king against a bare king that may be on any of 30 squares.
func BenchmarkHeuristicEndgame(b *testing.B) {
	h := &Heuristic{noise: 60}
	h.NewGame(Game{Color: chess.White, Seed: 3})
	h.know.Board = OwnBoard{us: chess.White}
	h.know.Board.put(chess.E1, chess.King)
	h.know.Board.put(chess.A1, chess.Rook)
	h.know.Board.put(chess.D1, chess.Queen)
	h.track = KingTrack{Squares: chess.Rank5 | chess.Rank6 | chess.Rank7 | chess.Rank8&^chess.FileH&^chess.FileA, TheirMen: 1}
	if n := h.track.Squares.Count(); n < 20 {
		b.Fatalf("only %d candidate squares", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Attempt(b.Context(), Budget{})
	}
}
