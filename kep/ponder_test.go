package kep

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
)

// ponderSpy is the mcts player, watched: it counts its ponders and fails
// the test if it hears anything, or is asked for an attempt, while one runs.
type ponderSpy struct {
	*players.MCTS
	t        *testing.T
	running  *atomic.Bool
	ponders  *atomic.Int32
	pondered *atomic.Int64 // iterations over all ponders
}

func (s ponderSpy) Ponder(ctx context.Context, nodes int64) players.PonderReport {
	s.running.Store(true)
	defer s.running.Store(false)
	s.ponders.Add(1)
	r := s.MCTS.Ponder(ctx, nodes)
	s.pondered.Add(r.Iterations)
	return r
}

func (s ponderSpy) Hear(e players.Event) {
	if s.running.Load() {
		s.t.Error("the player heard an event while it pondered")
	}
	s.MCTS.Hear(e)
}

func (s ponderSpy) Attempt(ctx context.Context, b players.Budget) (chess.Move, error) {
	if s.running.Load() {
		s.t.Error("the player was asked an attempt while it pondered")
	}
	return s.MCTS.Attempt(ctx, b)
}

// TestGoPonder: go ponder in the opponent's turn answers nothing and runs
// the player's ponder until the next line that needs the player (opponent,
// stop); ponderhit then searches with the go ponder's limits and answers one
// attempt; isready is answered while it ponders; go ponder in our own turn
// is a go.
func TestGoPonder(t *testing.T) {
	var running atomic.Bool
	var ponders atomic.Int32
	var pondered atomic.Int64
	kind := players.Kind{Name: "ponderspy", Summary: "mcts, watched", Build: func(o *players.Options) (func() players.Player, error) {
		inner, err := players.Parse("mcts:mem=8", players.Kinds())
		if err != nil {
			return nil, err
		}
		return func() players.Player {
			return ponderSpy{MCTS: inner.New().(*players.MCTS), t: t, running: &running, ponders: &ponders, pondered: &pondered}
		}, o.Err()
	}}
	p := startEngine(t, "ponder", Config{Kinds: []players.Kind{kind}, InfoEvery: -1})
	p.hello("Player", "ponderspy", "Seed", "3")
	p.send("newgame white", "go nodes 300")
	p.attempt(wait)
	p.send("legal", "go ponder wtime 60000 btime 60000 nodes 200")
	p.sync() // readyok, and nothing before it: go ponder answers nothing
	// A ponder held to 200 nodes runs them out unless a line comes first.
	for deadline := time.Now().Add(wait); pondered.Load() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the ponder ran no iteration")
		}
		time.Sleep(time.Millisecond)
	}
	p.send("opponent")
	p.sync()
	if running.Load() {
		t.Fatal("opponent did not end the ponder")
	}
	p.send("ponderhit")
	p.attempt(wait)
	// stop ends an unbounded ponder without an attempt.
	p.send("legal", "go ponder")
	p.sync()
	p.send("stop")
	p.sync()
	if running.Load() {
		t.Fatal("stop did not end the ponder")
	}
	// After stop the opponent's move still comes; a plain go answers.
	p.send("opponent", "go nodes 100")
	p.attempt(wait)
	// go ponder in our own turn (after legal it is not: answering) is a go.
	p.send("legal", "opponent", "go ponder nodes 100")
	p.attempt(wait)
	if !strings.Contains(p.log.String(), "go ponder in our turn: answering as go") {
		t.Errorf("go ponder in our turn was not logged:\n%s", p.log.String())
	}
	// ponderhit without a go ponder is ignored, logged.
	p.send("legal", "opponent", "ponderhit")
	p.sync()
	if !strings.Contains(p.log.String(), "ponderhit in our turn without a go ponder") {
		t.Errorf("a stray ponderhit was not logged:\n%s", p.log.String())
	}
	p.quit()
	if ponders.Load() != 2 {
		t.Errorf("%d ponders, want 2", ponders.Load())
	}
}
