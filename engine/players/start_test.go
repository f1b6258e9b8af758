package players

import (
	"context"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// startKnowledge returns the knowledge every kind keeps of its own side.
func startKnowledge(p Player) *Knowledge {
	switch p := p.(type) {
	case *Random:
		return &p.know
	case *Heuristic:
		return &p.know
	case *MCTS:
		return &p.know
	}
	return nil
}

// TestStartPosition plays games from set-up positions with every kind and
// checks before each attempt that the player's own men, castling and pawn
// tries are the umpire's: a kind that ignored Game.Start would start from the
// standard position and fail at once.
func TestStartPosition(t *testing.T) {
	fens := []string{
		"8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1",
		"4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1",                  // Black starts with a pawn try
		"4k3/8/8/8/8/8/8/4RK2 b - - 0 1",                     // Black starts in check
		"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", // castling both ways
	}
	kinds := []string{"random", "heuristic", "mcts"}
	for fi, fen := range fens {
		start, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for g := range len(kinds) {
			ps := [2]Player{mustNew(t, kinds[g]), mustNew(t, kinds[(g+1)%len(kinds)])}
			rules := umpire.ICC()
			rules.MaxPlies = 40
			u := umpire.New(rules)
			u.Reset(start)
			for c, p := range ps {
				if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: uint64(g), Start: &start}); err != nil {
					t.Fatal(err)
				}
			}
			var mine, theirs chess.MoveList
			for attempts := 0; u.Ending() == umpire.NotOver; attempts++ {
				if attempts > 5000 {
					t.Fatal("game does not end")
				}
				side := u.Side()
				k := startKnowledge(ps[side])
				pos := u.Position()
				if k.Board.Men() != pos.ByColor(side) || k.Tries != u.PawnTries() {
					t.Fatalf("%s, %s vs %s, ply %d: player's men %x tries %d, true %x tries %d",
						fen, kinds[g], kinds[(g+1)%len(kinds)], u.Plies(), k.Board.Men(), k.Tries, pos.ByColor(side), u.PawnTries())
				}
				if u.Plies() == 0 && k.InCheck() != pos.InCheck() {
					t.Fatalf("%s: player in check %v, true %v", fen, k.InCheck(), pos.InCheck())
				}
				k.Askable(&mine)
				u.Askable(&theirs)
				if u.Plies() == 0 && len(u.Refused()) == 0 && fi == 3 && mine.N != theirs.N {
					t.Fatalf("%s: player lists %d attempts, umpire %d (castling)", fen, mine.N, theirs.N)
				}
				m, err := ps[side].Attempt(context.Background(), Budget{Nodes: 200})
				if err != nil {
					t.Fatalf("%s ply %d: %v", fen, u.Plies(), err)
				}
				a, err := u.Attempt(m)
				if err != nil {
					t.Fatal(err)
				}
				for c, p := range ps {
					p.Hear(AnswerEvent(&a, chess.Color(c)))
				}
			}
		}
	}
}

// TestStartKnownToOpponent: the opponent's men of a set-up position are
// known, to the heuristic's king tracker and the search's belief.
func TestStartKnownToOpponent(t *testing.T) {
	start, err := chess.ParseFEN("8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g4 := chess.NewSquare(6, 3)
	h := mustNew(t, "heuristic").(*Heuristic)
	if err := h.NewGame(Game{Color: chess.White, Start: &start}); err != nil {
		t.Fatal(err)
	}
	if h.track.Squares != g4.Bit() || !h.track.Bare() {
		t.Errorf("heuristic tracks king squares %x, men %d; want g4 only, bare", h.track.Squares, h.track.TheirMen)
	}
	m := mustNew(t, "mcts").(*MCTS)
	if err := m.NewGame(Game{Color: chess.White, Start: &start}); err != nil {
		t.Fatal(err)
	}
	if m.bel.Units() != 0 || m.bel.Prob(oppmodel.King, g4) != 1 {
		t.Errorf("mcts belief: %d units, king on g4 with chance %v", m.bel.Units(), m.bel.Prob(oppmodel.King, g4))
	}
}
