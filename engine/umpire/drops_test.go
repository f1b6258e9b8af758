package umpire

import (
	"testing"

	"kriegbot/engine/chess"
)

func TestMoveText(t *testing.T) {
	for _, s := range []string{"N@e4", "P@a2", "Q@h8", "e2e4", "e7e8q"} {
		m, err := ParseMoveText(s)
		if err != nil || MoveText(m) != s {
			t.Errorf("%s: %v, %q", s, err, MoveText(m))
		}
		if IsDrop(m) != (s[1] == '@') {
			t.Errorf("%s: IsDrop %v", s, IsDrop(m))
		}
	}
	for _, s := range []string{"K@e4", "N@e9", "x@e4", "N@", "e2"} {
		if _, err := ParseMoveText(s); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if IsDrop(chess.NullMove) {
		t.Error("NullMove is a drop")
	}
}

// crazyGame plays moves (UCI or drops) from fen under crazykrieg and fails on
// any that is not played.
func crazyGame(t *testing.T, fen string, moves ...string) *Umpire {
	t.Helper()
	u := fromFEN(t, fen, site(t, "crazykrieg"))
	for _, s := range moves {
		m, err := ParseMoveText(s)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := u.Attempt(m); err != nil || !a.Legal {
			t.Fatalf("%s: %s, %v", s, a.String(), err)
		}
	}
	return u
}

func TestDrops(t *testing.T) {
	t.Run("a capture fills the pocket, a promoted man as a pawn", func(t *testing.T) {
		// b7 takes the a8 rook and promotes; the a2 rook takes the new queen.
		u := crazyGame(t, "r7/1P6/8/8/8/8/r6k/4K3 w - - 0 1", "b7a8q")
		if p := u.Pockets(); p[chess.White][chess.Rook] != 1 || u.Promoted() != chess.NewSquare(0, 7).Bit() {
			t.Fatalf("pockets %s, promoted %x", p.String(), u.Promoted())
		}
		a, _ := u.Attempt(move(t, "a2a8"))
		if a.Capture.Kind != PawnCaptured || u.Pockets()[chess.Black][chess.Pawn] != 1 || u.Promoted() != 0 {
			t.Fatalf("taking the promoted queen: %s, pockets %s", a.String(), u.Pockets().String())
		}
	})
	t.Run("a drop is announced by type and can check", func(t *testing.T) {
		u := crazyGame(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "e8d7")
		m, _ := ParseMoveText("P@c6")
		a, _ := u.Attempt(m)
		if !a.Legal || a.Drop != chess.Pawn || a.Checks[0] == chess.NoCheck || u.Pockets()[chess.White][chess.Pawn] != 0 {
			t.Fatalf("P@c6: %s", a.String())
		}
		v := a.For(chess.Black)
		if w := v.Words(); len(w) != 2 || w[0] != "Drop of a pawn" {
			t.Errorf("words %q", w)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		// White holds a knight; the black rook on e2 checks along the file.
		u := fromFEN(t, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", site(t, "crazykrieg"))
		u.pockets[chess.White][chess.Knight] = 1
		before := u.AskableCount()
		cases := []struct {
			drop    string
			verdict Verdict
		}{
			{"B@d4", NonsenseMove}, // not in the pocket
			{"N@e1", NonsenseMove}, // onto an own man
			{"N@e2", IllegalMove},  // onto an enemy man: askable, refused
			{"N@a5", IllegalMove},  // no drop answers a contact check
			{"N@e2", NonsenseMove}, // refused already
		}
		for _, c := range cases {
			m, _ := ParseMoveText(c.drop)
			if a, _ := u.Attempt(m); a.Verdict != c.verdict {
				t.Errorf("%s: %s, want %s", c.drop, a.String(), c.verdict)
			}
		}
		if n := u.AskableCount(); n != before-2 {
			t.Errorf("askable %d, want %d", n, before-2)
		}
	})
	t.Run("a drop blocks a distant check", func(t *testing.T) {
		u := fromFEN(t, "4k3/8/8/8/4r3/8/8/4K3 w - - 0 1", site(t, "crazykrieg"))
		u.pockets[chess.White][chess.Knight] = 1
		for _, c := range []struct {
			drop  string
			legal bool
		}{{"N@a3", false}, {"N@e3", true}} {
			m, _ := ParseMoveText(c.drop)
			if a, _ := u.Attempt(m); a.Legal != c.legal {
				t.Errorf("%s: %s", c.drop, a.String())
			}
		}
	})
	t.Run("a pocket saves from mate and stalemate", func(t *testing.T) {
		// Back-rank mate by a rook from a1, unless a man can be dropped between.
		u := fromFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", site(t, "crazykrieg"))
		u.pockets[chess.Black][chess.Bishop] = 1
		if a, _ := u.Attempt(move(t, "a1a8")); a.Ending != NotOver {
			t.Fatalf("a8 mates with a bishop in the pocket: %s", a.String())
		}
		u = fromFEN(t, "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", site(t, "crazykrieg"))
		u.pockets[chess.Black][chess.Pawn] = 1
		if a, _ := u.Attempt(move(t, "b5b6")); a.Ending != NotOver {
			t.Fatalf("stalemate with a pawn in the pocket: %s", a.String())
		}
	})
	t.Run("insufficient material counts the pockets", func(t *testing.T) {
		u := fromFEN(t, "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", site(t, "crazykrieg"))
		if a, _ := u.Attempt(move(t, "e1f2")); a.Ending != NotOver || u.Pockets()[chess.White][chess.Rook] != 1 {
			t.Fatalf("K vs K with a rook in the pocket: %s", a.String())
		}
		if u = fromFEN(t, "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", site(t, "crazykrieg")); u.Ending() != InsufficientMaterial {
			t.Fatalf("K+N vs K, empty pockets: %v", u.Ending())
		}
		u = fromFEN(t, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", site(t, "crazykrieg"))
		if a, _ := u.Attempt(move(t, "e1e2")); a.Ending != NotOver {
			t.Fatalf("four men are never insufficient in crazyhouse: %s", a.String())
		}
	})
}

func TestAskableDrops(t *testing.T) {
	u := fromFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", site(t, "crazykrieg"))
	base := u.AskableCount()
	u.pockets[chess.White][chess.Pawn] = 1
	u.pockets[chess.White][chess.Queen] = 2
	drops := u.AskableDrops(nil)
	// The pawn on the 48 squares of ranks 2-7, the queen on the 63 without
	// the own king; the black king's square counts (it is not ours).
	if len(drops) != 48+63 || u.AskableCount() != base+48+63 {
		t.Fatalf("%d drops, askable %d (base %d)", len(drops), u.AskableCount(), base)
	}
	if fromFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", site(t, "berkeley_any")).AskableDrops(nil) != nil {
		t.Error("drops outside crazykrieg")
	}
}
