package belief

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestOwnKeysAfter: the keys an attempt is said to lead to are the keys the
// belief holds once the move is played and the opponent has replied without
// a capture, for quiet piece moves, castling both ways and a promotion; a
// pawn step starts the count afresh; and the turn is part of the key.
func TestOwnKeysAfter(t *testing.T) {
	pos, err := chess.ParseFEN("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	bel := FromPosition(chess.White, pos, nil)
	if bel.OwnKey() == 0 {
		t.Fatal("zero key")
	}
	for _, uci := range []string{"a1a4", "e1e2", "e1g1", "e1c1", "h1h5", "b7a8q"} {
		m, _ := chess.ParseUCI(uci)
		theirs, ours, ok := bel.OwnKeysAfter(m)
		if uci == "b7a8q" {
			if ok {
				t.Errorf("%s: a pawn move gave keys", uci)
			}
			continue
		}
		if !ok || theirs == ours {
			t.Fatalf("%s: keys %x %x ok %v", uci, theirs, ours, ok)
		}
		after := bel
		after.Ours(m, umpire.View{Heard: true, Own: true, Move: m})
		if got := after.OwnKey(); got != theirs {
			t.Errorf("%s: key after the move %x, said %x", uci, got, theirs)
		}
		after.Theirs(umpire.View{Heard: true})
		if got := after.OwnKey(); got != ours {
			t.Errorf("%s: key after the reply %x, said %x", uci, got, ours)
		}
	}
	// The rook that leaves h1 and comes back has lost its castling right.
	back := bel
	for _, uci := range []string{"h1h2", "", "h2h1", ""} {
		if uci == "" {
			back.Theirs(umpire.View{Heard: true})
			continue
		}
		m, _ := chess.ParseUCI(uci)
		back.Ours(m, umpire.View{Heard: true, Own: true, Move: m})
	}
	if back.OwnKey() == bel.OwnKey() {
		t.Error("the rook's return restored a key with the castling right it lost")
	}
}
