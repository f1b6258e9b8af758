package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// UpdateStream is a recording, from games of random askable attempts, of the
// belief before each opponent move and what its side heard of that move: a
// fixed workload that times the update alone (kriegbot bench, benchmarks).
type UpdateStream struct {
	states []State
	views  []umpire.View
}

// RecordUpdates plays games of random attempts (umpire.RandomStream with
// seed, games and maxPlies) through both sides' beliefs and records every
// opponent-move update. The same arguments give the same stream.
func RecordUpdates(seed uint64, games, maxPlies int) *UpdateStream {
	stream := umpire.RandomStream(seed, games, maxPlies)
	u := umpire.New(umpire.ICC())
	rec := new(UpdateStream)
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
				v := a.For(other)
				rec.states = append(rec.states, bel[other])
				rec.views = append(rec.views, v)
				bel[other].Theirs(v)
			}
		}
	}
	return rec
}

// Len returns the number of recorded updates (benchmarks report it).
func (r *UpdateStream) Len() int { return len(r.states) }

// Replay applies every recorded update to a copy of its belief and returns
// how many it applied. It allocates nothing.
func (r *UpdateStream) Replay() int {
	var s State
	for i := range r.states {
		s = r.states[i]
		s.Theirs(r.views[i])
	}
	return len(r.states)
}
