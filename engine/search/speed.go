package search

import (
	"context"
	"fmt"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Position is a belief at our turn with its askable attempts.
type Position struct {
	Belief belief.State
	Moves  []chess.Move
}

// Middlegames replays random games (umpire.RandomStream) and keeps, for the
// side to move at the start of each turn between plies lo and hi, its belief
// and attempts: the positions on which search speed is measured.
func Middlegames(seed uint64, games, lo, hi int) []Position {
	stream := umpire.RandomStream(seed, games, hi)
	u := umpire.New(umpire.ICC())
	var out []Position
	for _, game := range stream.Games {
		u.Reset(stream.Start)
		bel := [2]belief.State{belief.New(chess.White, nil), belief.New(chess.Black, nil)}
		fresh := true
		for _, m := range game {
			side := u.Side()
			if fresh && u.Plies() >= lo {
				var mv men
				mv.fromBelief(&bel[side])
				var l chess.MoveList
				mv.attempts(nil, &l)
				if l.N > 0 {
					out = append(out, Position{Belief: bel[side], Moves: append([]chess.Move(nil), l.Slice()...)})
				}
			}
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			bel[side].Ours(m, a.For(side))
			fresh = a.Legal
			if a.Legal {
				bel[side.Other()].Theirs(a.For(side.Other()))
			}
			if u.Ending() != umpire.NotOver {
				break
			}
		}
	}
	return out
}

// Speed measures approach C's iterations per second with threads trees on
// middlegame beliefs (plies 20 to 60 of random games), searching each
// position afresh with a budget of perSearch iterations, for at least min.
func Speed(threads int, perSearch int64, min time.Duration) (float64, error) {
	ps := Middlegames(3, 8, 20, 60)
	if len(ps) == 0 {
		return 0, fmt.Errorf("search: no middlegame positions")
	}
	cfg := DefaultConfig()
	cfg.Threads = threads
	cfg.MemoryMB = 32
	// The trees' pace, as before the root's mate count was sized to the
	// budget: sized, it would take a good share of each search here
	// (BenchmarkRootThreats times the count).
	cfg.ItersPerBoard = 0
	s, err := New(cfg, nil)
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	s.Search(ctx, &ps[0].Belief, ps[0].Moves, Limits{Nodes: 1}) // allocate the pools
	var iters int64
	start := time.Now()
	for i := 0; ; i++ {
		p := &ps[i%len(ps)]
		s.NewGame(uint64(i), umpire.ICC())
		iters += s.Search(ctx, &p.Belief, p.Moves, Limits{Nodes: perSearch}).Iterations
		if el := time.Since(start); el >= min {
			return float64(iters) / el.Seconds(), nil
		}
	}
}
