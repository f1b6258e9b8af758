package belief

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// benchStream records, from random games, the belief before each opponent
// move and what its side heard of that move, so that benchmarks time the
// update alone.
func benchStream(b *testing.B) ([]State, []umpire.View) {
	b.Helper()
	stream := umpire.RandomStream(7, 20, 200)
	u := umpire.New(umpire.ICC())
	var states []State
	var views []umpire.View
	for _, game := range stream.Games {
		u.Reset(stream.Start)
		bel := [2]State{New(chess.White, nil), New(chess.Black, nil)}
		for _, m := range game {
			side := u.Side()
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			bel[side].Ours(m, a.For(side))
			if a.Legal {
				other := side.Other()
				states = append(states, bel[other])
				views = append(views, a.For(other))
				bel[other].Theirs(a.For(other))
			}
		}
	}
	return states, views
}

// BenchmarkTheirs times the update after an opponent move with its
// announcements (the target: at most 5 µs, no allocation).
func BenchmarkTheirs(b *testing.B) {
	states, views := benchStream(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s State
	for i := 0; b.Loop(); i++ {
		k := i % len(states)
		s = states[k]
		s.Theirs(views[k])
	}
}

// BenchmarkOutcomes times the referee-message distribution of one attempt.
func BenchmarkOutcomes(b *testing.B) {
	states, _ := benchStream(b)
	var moves []chess.Move
	for i := range states {
		var l chess.MoveList
		var pos chess.Position
		_ = pos
		// Any own man's step one square forward or sideways is a fair mix.
		own := states[i].Own(chess.NoPieceType)
		from := own.First()
		for _, d := range []int{8, -8, 1, -1, 9, 7} {
			to := int(from) + d
			if to >= 0 && to < 64 {
				l.Add(chess.NewMove(from, chess.Square(to), chess.NoPieceType))
			}
		}
		moves = append(moves, l.Moves[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	for i := 0; b.Loop(); i++ {
		k := i % len(states)
		o := states[k].Outcomes(moves[k])
		sink += o.Illegal
	}
	_ = sink
}
