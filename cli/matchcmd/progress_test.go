package matchcmd

import (
	"bytes"
	"testing"
	"time"

	"kriegbot/match"
)

// TestProgressHeld: in a log a held game is told only after a quiet spell.
func TestProgressHeld(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, quiet: time.Hour}
	s := match.Summary{P1: "mcts", P2: "heuristic", Planned: 20, Held: 1}
	g := match.GameLine{Game: 4, P1: "white", Result: "1-0", Termination: "checkmate", Plies: 61, Attempts: 90}
	p.gameLine(s, match.GameLine{Game: 0, P1: "white", Result: "1-0", Termination: "checkmate"})
	b.Reset()
	p.held(s, g, 1)
	if b.Len() != 0 {
		t.Fatalf("held line right after a game line: %q", b.String())
	}
	p.quiet = 0
	p.held(s, g, 1)
	want := "game 5: mcts (white) vs heuristic 1-0 checkmate, 61 plies, 90 attempts; finished, counted once game 2 ends (1 waiting)\n"
	if b.String() != want {
		t.Fatalf("held line %q, want %q", b.String(), want)
	}
}
