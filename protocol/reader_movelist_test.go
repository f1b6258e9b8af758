package protocol

import (
	"strings"
	"testing"
)

// TestLongMoveListReads: the move list of a 400-ply game (DG 25, one field
// per ply) reads with the default bounds. With 256 fields it was refused,
// so a daemon could neither resume a long game after a reconnection nor
// write its PGN (found by the fault soak, bot/soak_test.go).
func TestLongMoveListReads(t *testing.T) {
	var b strings.Builder
	b.WriteString("^Y(25 16 * ")
	for i := 0; i < 400; i++ {
		b.WriteString("{? ? 0 59} ")
	}
	b.WriteString("^Y)x\n")
	var r Reader
	got := collect(&r, []byte(y(b.String())), 4096)
	if len(got) != 2 || !strings.HasPrefix(got[0], "Datagram 25 ") || got[1] != `Text "x"` {
		t.Fatalf("got %.200q", got)
	}
}
