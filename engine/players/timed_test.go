package players

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// timedStep is one event of a timed game as a record keeps it: an event
// the player heard, or its attempt with the search behind it.
type timedStep struct {
	attempt bool
	event   Event
	move    chess.Move
	search  SearchReport
}

// playTimed plays spec (white) against random on a clock of think per
// attempt, while a busy goroutine competes for the processors, and returns
// what a record of the mcts side holds.
func playTimed(t *testing.T, spec string, seed uint64, plies int, think time.Duration) []timedStep {
	t.Helper()
	var stopBusy atomic.Bool
	defer stopBusy.Store(true)
	for range runtime.GOMAXPROCS(0) {
		go func() { // deliberate load: the searches stop at odd moments
			x := 0
			for !stopBusy.Load() {
				x++
			}
			_ = x
		}()
	}
	rules := umpire.ICC()
	rules.MaxPlies = plies
	u := umpire.New(rules)
	p, r := mustNew(t, spec), mustNew(t, "random")
	for c, q := range []Player{p, r} {
		if err := q.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	var steps []timedStep
	for n := 0; u.Ending() == umpire.NotOver; n++ {
		if n > 5000 {
			t.Fatal("game does not end")
		}
		side := u.Side()
		var m chess.Move
		var err error
		if side == chess.White {
			// A soft time and a hard deadline, as the daemon gives.
			ctx, cancel := context.WithTimeout(context.Background(), 2*think)
			m, err = p.Attempt(ctx, Budget{Time: think})
			cancel()
			if err == nil {
				steps = append(steps, timedStep{attempt: true, move: m, search: p.(Inspector).LastSearch()})
			}
		} else {
			m, err = r.Attempt(context.Background(), Budget{})
		}
		if err != nil {
			t.Fatal(err)
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		if v := a.For(chess.White); v.Heard {
			e := Event{Kind: Answer, View: v}
			steps = append(steps, timedStep{event: e})
			p.Hear(e)
		}
		r.Hear(AnswerEvent(&a, chess.Black))
	}
	return steps
}

// replayTimed re-runs a timed game's record with the recorded iterations and
// returns a description of the first search that differs, or "".
func replayTimed(t *testing.T, spec string, seed uint64, steps []timedStep) string {
	t.Helper()
	p := mustNew(t, spec)
	if err := p.NewGame(Game{Color: chess.White, Rules: umpire.ICC(), Seed: seed}); err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		if !s.attempt {
			p.Hear(s.event)
			continue
		}
		var m chess.Move
		var err error
		if s.search.Trees != nil {
			m, err = p.(TreeRepeater).AttemptTrees(context.Background(), s.search.Trees, s.search.Boards)
		} else {
			m, err = p.Attempt(context.Background(), Budget{Nodes: s.search.Iterations, Boards: s.search.Boards})
		}
		if err != nil {
			t.Fatal(err)
		}
		got := p.(Inspector).LastSearch()
		// Not only the choice: the whole root, and the tree's size, which
		// the next search reuses.
		if m != s.move || got.Nodes != s.search.Nodes || got.Value != s.search.Value || got.Boards != s.search.Boards ||
			!slices.Equal(got.Candidates, s.search.Candidates) {
			return fmt.Sprintf("step %d: recorded %v (%d iterations %v, %d boards, %d nodes, value %.4f), replayed %v (%d boards, %d nodes, value %.4f)",
				i, s.move, s.search.Iterations, s.search.Trees, s.search.Boards, s.search.Nodes, s.search.Value, m, got.Boards, got.Nodes, got.Value)
		}
	}
	return ""
}

// TestMCTSTimedReplays: games searched on a clock, under load, with small
// pools (so that the trees are pruned in most searches) and one or two
// trees, repeat exactly from what a record keeps: each search's iterations,
// per tree when there are several, and its boards (boarditers=2 sizes the
// count to the clock: some hundreds of boards in 3 ms, at the rate of the
// moment).
func TestMCTSTimedReplays(t *testing.T) {
	for _, spec := range []string{"mcts:mem=1", "mcts:mem=1,threads=2,boarditers=2", "mcts:mem=1,boarditers=2"} {
		for seed := uint64(1); seed <= 2; seed++ {
			steps := playTimed(t, spec, seed, 40, 3*time.Millisecond)
			if d := replayTimed(t, spec, seed, steps); d != "" {
				t.Errorf("%s seed %d: %s", spec, seed, d)
			}
		}
	}
}
