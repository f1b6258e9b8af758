package driver

import (
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// TestThinkSynchronous: Think searches on the caller's goroutine within
// Settings.Nodes, records the attempt, and a ponder held to Nodes runs them
// all out before the opponent's move is heard (Pondered reports it once);
// a move that ends the game starts no ponder.
func TestThinkSynchronous(t *testing.T) {
	sp, err := players.Parse("mcts:mem=4", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	now := time.Now()
	w := record.Create(dir, "us", record.GameLine{Game: 1, White: "us", Black: "them", Player: sp.String()}, chess.White, now)
	p := sp.New() // built by the caller, as a match builds its players
	st := Settings{Ponder: true, Nodes: 300, Untimed: &clock.Ask{}}
	g, err := New(Setup{Spec: sp, Player: p, Game: players.Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1}, Settings: st, Record: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Player() != p {
		t.Fatal("the game built its own player")
	}
	act := g.Think(t.Context(), now, Situation{Since: now})
	if act.Kind != Attempt || act.Iterations != 300 || g.Thinking() {
		t.Fatalf("Think: %+v (thinking %v), want an attempt of 300 iterations, done", act, g.Thinking())
	}
	ours := umpire.View{Heard: true, Own: true, Move: act.Move, PawnTries: 0}
	g.Hear([]players.Event{{Kind: players.Answer, View: ours}}, now)
	if !g.Pondering() {
		t.Fatal("no ponder after our accepted move")
	}
	g.Hear([]players.Event{{Kind: players.Answer, View: umpire.View{Heard: true, PawnTries: 0}}}, now)
	rep := g.Pondered()
	if g.Pondering() || rep == nil || rep.Iterations != 300 {
		t.Fatalf("after the opponent's move: pondering %v, report %+v; want 300 iterations run out", g.Pondering(), rep)
	}
	if again := g.Pondered(); again != nil {
		t.Fatalf("Pondered reported the ponder twice: %+v", again)
	}
	act = g.Think(t.Context(), now, Situation{Since: now})
	if act.Kind != Attempt {
		t.Fatalf("second Think: %+v", act)
	}
	mate := umpire.View{Heard: true, Own: true, Move: act.Move, PawnTries: -1, Ending: umpire.Checkmate, Result: "1-0"}
	g.Hear([]players.Event{{Kind: players.Answer, View: mate}}, now)
	if g.Pondering() {
		t.Fatal("pondering after a move that ended the game")
	}
	g.End(players.Outcome{Result: "1-0", Reason: "test"}, record.ResultLine{}, now)
	w.Close()
	want := "game attempt answer ponder answer attempt answer result"
	if types := lineTypes(t, w.Path()); types != want {
		t.Fatalf("record lines %q, want %q", types, want)
	}
}
