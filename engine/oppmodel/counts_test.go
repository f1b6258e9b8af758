package oppmodel

import (
	"errors"
	"reflect"
	"testing"

	"kriegbot/engine/chess"
)

func TestAddGameOccupancy(t *testing.T) {
	c := NewCounts(10)
	if err := c.AddGame(uciMoves(t, "e2e4", "d7d5", "e4d5", "d8d5", "b1c3"), [2]bool{true, true}); err != nil {
		t.Fatal(err)
	}
	L := uint64(MassScale)
	if c.Games != [2]uint64{1, 1} || c.Plies != [2]uint64{3, 2} {
		t.Fatalf("games %v plies %v", c.Games, c.Plies)
	}
	// Start: eight white pawns on rank 2, one eighth each.
	if got := c.Mass[chess.White][Pawn][0][sq(t, "e2")]; got != L/8 {
		t.Errorf("start e2 pawn mass %d, want %d", got, L/8)
	}
	// After white's first move the pawn stands on e4.
	if c.Mass[chess.White][Pawn][1][sq(t, "e4")] != L/8 || c.Mass[chess.White][Pawn][1][sq(t, "e2")] != 0 {
		t.Errorf("after 1.e4: e4 %d e2 %d", c.Mass[chess.White][Pawn][1][sq(t, "e4")], c.Mass[chess.White][Pawn][1][sq(t, "e2")])
	}
	// After black's second move (Qxd5) black has 7 pawns and the queen on d5 among 7 pieces.
	if got := c.Mass[chess.Black][Piece][2][sq(t, "d5")]; got != L/7 {
		t.Errorf("black queen on d5 after move 2: mass %d, want %d", got, L/7)
	}
	if got := c.Mass[chess.Black][Pawn][2][sq(t, "a7")]; got != L/7 {
		t.Errorf("black a7 pawn after exd5: mass %d, want %d", got, L/7)
	}
	// The white king row at move 3 holds the one game.
	if c.Coverage[chess.White][King][3] != 1 || c.Mass[chess.White][King][3][chess.E1] != L {
		t.Errorf("white king at move 3: coverage %d mass %d", c.Coverage[chess.White][King][3], c.Mass[chess.White][King][3][chess.E1])
	}
	if c.Coverage[chess.Black][King][3] != 0 {
		t.Errorf("black never made a third move but has coverage %d", c.Coverage[chess.Black][King][3])
	}
	// 2...Qxd5 recaptured on d5; 2.exd5 was a capture on move (1...d5 captured nothing).
	if got := c.Events[chess.Black][EventRecapture]; got != (Tally{1, 1}) {
		t.Errorf("black recapture tally %+v, want 1 of 1", got)
	}
	if got := c.Events[chess.White][EventRecapture]; got != (Tally{1, 0}) {
		t.Errorf("white recapture tally %+v, want 0 of 1 (3.Nc3 did not recapture)", got)
	}
	if got := c.Events[chess.White][EventCaptureOnMove]; got != (Tally{2, 1}) {
		t.Errorf("white capture-on-move tally %+v, want 1 of 2", got)
	}
	// Pawn steps: white's 1.e4 is a double step from e2; 2.exd5 a capture west from e4.
	if c.Pawn[chess.White][sq(t, "e2")][PawnDouble] != 1 || c.Pawn[chess.White][sq(t, "e4")][PawnCaptureWest] != 1 {
		t.Errorf("white pawn steps wrong: e2 %v e4 %v", c.Pawn[chess.White][sq(t, "e2")], c.Pawn[chess.White][sq(t, "e4")])
	}
	if c.Pawn[chess.White][sq(t, "a2")][PawnStay] != 3 {
		t.Errorf("a2 pawn stayed %d times, want 3", c.Pawn[chess.White][sq(t, "a2")][PawnStay])
	}
	// Material: white's three moves left all 7 pieces: 3 straight movers
	// (queen, rooks), 3 diagonal (queen, bishops), 2 knights, each /7.
	if got, want := c.Material[chess.White], (MaterialTally{3, 3 * 3 * L / 7, 3 * 3 * L / 7, 3 * 2 * L / 7}); got != want {
		t.Errorf("white material %+v, want %+v", got, want)
	}
	// Movers: white moved pawn, pawn, piece with 8, 8, 7 pawns and 7 pieces.
	if c.Movers[chess.White][8][7][Pawn] != 2 || c.Movers[chess.White][8][7][Piece] != 0 || c.Movers[chess.White][7][7][Piece] != 1 {
		t.Errorf("white movers wrong")
	}
}

func TestAddGameCheckEvent(t *testing.T) {
	c := NewCounts(10)
	// 1.e4 f6 2.Qh5+ g6 3.Qxg6+ hxg6: black answers the first check without
	// capturing the checker, then captures the queen that checks again.
	if err := c.AddGame(uciMoves(t, "e2e4", "f7f6", "d1h5", "g7g6", "h5g6", "h7g6"), [2]bool{true, true}); err != nil {
		t.Fatal(err)
	}
	if got := c.Events[chess.Black][EventCheckerCaptured]; got != (Tally{2, 1}) {
		t.Errorf("black checker-captured tally %+v, want 1 of 2", got)
	}
	if got := c.Events[chess.Black][EventRecapture]; got != (Tally{1, 1}) {
		t.Errorf("black recapture tally %+v, want 1 of 1", got)
	}
}

func TestAddGameRefusesIllegal(t *testing.T) {
	c := NewCounts(10)
	before := NewCounts(10)
	err := c.AddGame(uciMoves(t, "e2e4", "e7e5", "e4e5"), [2]bool{true, true})
	var ie *IllegalMoveError
	if !errors.As(err, &ie) || ie.Ply != 2 {
		t.Fatalf("err %v, want illegal move at ply 2", err)
	}
	if !reflect.DeepEqual(c, before) {
		t.Error("a refused game changed the counts")
	}
}

func TestAddGameOneSide(t *testing.T) {
	c := NewCounts(10)
	if err := c.AddGame(uciMoves(t, "e2e4", "e7e5", "g1f3"), [2]bool{false, true}); err != nil {
		t.Fatal(err)
	}
	if c.Games != [2]uint64{0, 1} || c.Plies != [2]uint64{0, 1} || c.Coverage[chess.White][King][0] != 0 {
		t.Errorf("recording black only: games %v plies %v white coverage %d", c.Games, c.Plies, c.Coverage[chess.White][King][0])
	}
}

// TestRowInvariant checks on random games what the file reader relies on:
// each mass row sums to coverage × MassScale, and movers sum to the plies.
func TestRowInvariant(t *testing.T) {
	c := countsFrom(t, randomGames(7, 40, 300), 60)
	for col := range 2 {
		var movers uint64
		for p := range c.Movers[col] {
			for q := range c.Movers[col][p] {
				for cls := range NumClasses {
					movers += c.Movers[col][p][q][cls]
				}
			}
		}
		if movers != c.Plies[col] {
			t.Errorf("colour %d: movers %d, plies %d", col, movers, c.Plies[col])
		}
		for cls := range NumClasses {
			for tm, row := range c.Mass[col][cls] {
				var sum uint64
				for _, v := range row {
					sum += v
				}
				if sum != c.Coverage[col][cls][tm]*MassScale {
					t.Fatalf("colour %d %s move %d: sum %d coverage %d", col, cls, tm, sum, c.Coverage[col][cls][tm])
				}
			}
		}
	}
}

func TestCountsAddMatchesOneByOne(t *testing.T) {
	games := randomGames(3, 20, 200)
	all := countsFrom(t, games, 40)
	a := countsFrom(t, games[:7], 40)
	b := countsFrom(t, games[7:], 40)
	if err := a.Add(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, all) {
		t.Error("adding two halves differs from counting all games")
	}
	if err := a.Add(NewCounts(41)); err == nil {
		t.Error("adding counts of another horizon succeeded")
	}
}

func BenchmarkAddGame(b *testing.B) {
	games := randomGames(17, 20, 300)
	plies := 0
	for _, g := range games {
		plies += len(g)
	}
	c := NewCounts(DefaultHorizon)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := c.AddGame(games[i%len(games)], [2]bool{true, true}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(plies)/float64(len(games)), "plies/game")
}
