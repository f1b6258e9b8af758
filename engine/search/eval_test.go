package search

import (
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// beliefAt is White's belief at the start of a game from fen: the
// opponent's men are known exactly.
func beliefAt(t *testing.T, fen string) belief.State {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return belief.FromPosition(chess.White, p, nil)
}

// TestPromotionThreat: an opponent pawn costs more the nearer it stands to
// promotion, and the evaluation sees it.
func TestPromotionThreat(t *testing.T) {
	// The same men, Black's a-pawn on a6, a4 and a2.
	fens := []string{
		"4k3/8/p7/8/8/8/8/R3K3 w - - 0 1",
		"4k3/8/8/8/p7/8/8/R3K3 w - - 0 1",
		"4k3/8/8/8/8/8/p7/1R2K3 w - - 0 1",
	}
	var threat, static []float32
	for _, fen := range fens {
		s := beliefAt(t, fen)
		var hang [64]float32
		threat = append(threat, promotionThreat(&s))
		static = append(static, staticValue(&s, &hang, evalParams{bareWon: bareWon}))
	}
	for i := 1; i < len(fens); i++ {
		if threat[i] <= threat[i-1] || static[i] >= static[i-1] {
			t.Errorf("pawn nearer promotion: threat %v, static %v", threat, static)
		}
	}
	// At most the piece it becomes, as material counts it: an unseen
	// promotion must not raise our value.
	if threat[2] > pieceAverage-1 {
		t.Errorf("a pawn on its seventh rank costs %v: promoting it would raise our value", threat[2])
	}
}

// TestTakeAdvancedPawn: taking a pawn about to promote is worth more than
// taking one at home.
func TestTakeAdvancedPawn(t *testing.T) {
	value := func(fen, uci string) float32 {
		s := beliefAt(t, fen)
		var e stateEntry
		e.bel = s
		e.static = staticValue(&e.bel, &e.hang, evalParams{bareWon: bareWon})
		var m men
		m.fromBelief(&e.bel)
		mv, err := chess.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		var out answers
		evalAttempt(&e, &m, mv, e.static, evalParams{bareWon: bareWon}, &out)
		for i := range out.n {
			if out.capture[i] != umpire.NoCapture {
				return out.value[i] - e.static
			}
		}
		t.Fatalf("%s %s: no capture answer", fen, uci)
		return 0
	}
	home := value("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", "a1a7")
	near := value("4k3/8/8/8/8/8/p7/R3K3 w - - 0 1", "a1a2")
	if near <= home {
		t.Errorf("taking a pawn on a2 gains %v, on a7 %v", near, home)
	}
}

// TestPawnShield: pawns one rank before the king on its file and the files
// beside it count 1, two ranks before it (king at home) 0.5; a king off
// its first two ranks has no shield; Black's shield looks down the board.
func TestPawnShield(t *testing.T) {
	bb := func(list ...string) chess.Bitboard {
		var b chess.Bitboard
		for _, s := range list {
			b |= sq(t, s).Bit()
		}
		return b
	}
	for _, tc := range []struct {
		us    chess.Color
		king  string
		pawns chess.Bitboard
		want  float32
	}{
		{chess.White, "g1", bb("f2", "g2", "h2"), 3},
		{chess.White, "g1", bb("f2", "g4", "h3"), 1.5}, // g4 and h3 pushed
		{chess.White, "g1", bb("f2", "g3", "h2"), 2.5},
		{chess.White, "h1", bb("g2", "h2", "f2"), 2}, // f2 is not beside h1
		{chess.White, "a1", bb("a2", "b3"), 1.5},
		{chess.White, "g2", bb("f3", "g3", "h4"), 2}, // second rank: one rank ahead only
		{chess.White, "g3", bb("f4", "g4", "h4"), 0}, // walked out
		{chess.White, "e1", 0, 0},
		{chess.White, "e1", bb("d2", "e2", "f2"), 0}, // the centre: no shield
		{chess.White, "c1", bb("b2", "c2", "d2"), 3},
		{chess.Black, "g8", bb("f7", "g6", "h5"), 1.5},
		{chess.Black, "g8", bb("f2", "g2", "h2"), 0},
	} {
		if got := pawnShield(tc.us, sq(t, tc.king), tc.pawns); got != tc.want {
			t.Errorf("%v king %s: shield %v, want %v", tc.us, tc.king, got, tc.want)
		}
	}
}
