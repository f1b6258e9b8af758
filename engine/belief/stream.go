package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// UpdateStream is a recording, from games of random askable attempts, of the
// belief before each update and what its side heard: a fixed workload that
// times the updates alone (kriegbot bench, benchmarks). The opponent's side
// (Theirs) and the mover's side (Ours) are kept apart.
type UpdateStream struct {
	states []State
	views  []umpire.View

	ourStates []State
	ourMoves  []chess.Move
	ourViews  []umpire.View
}

// RecordUpdates plays games of random attempts (umpire.RandomStream with
// seed, games and maxPlies) through both sides' beliefs and records every
// opponent-move update. The same arguments give the same stream.
func RecordUpdates(seed uint64, games, maxPlies int) *UpdateStream {
	return RecordUpdatesFor(umpire.ICC(), seed, games, maxPlies)
}

// RecordUpdatesFor is RecordUpdates under rules (umpire.RandomStreamFor: the
// "Any?" question and drops where the variant has them): every answer the
// opponent hears is a Theirs update, every answer the mover hears an Ours one.
func RecordUpdatesFor(rules umpire.Rules, seed uint64, games, maxPlies int) *UpdateStream {
	stream := umpire.RandomStreamFor(rules, seed, games, maxPlies)
	rules.MaxPlies = 0
	u := umpire.New(rules)
	rec := new(UpdateStream)
	for _, game := range stream.Games {
		u.Reset(stream.Start)
		bel := [2]State{New(chess.White, nil), New(chess.Black, nil)}
		for _, m := range game {
			side := u.Side()
			var a umpire.Answer
			var err error
			if m == chess.NullMove {
				a, err = u.AskAny()
			} else {
				a, err = u.Attempt(m)
			}
			if err != nil {
				break
			}
			own := a.For(side)
			rec.ourStates = append(rec.ourStates, bel[side])
			rec.ourMoves = append(rec.ourMoves, m)
			rec.ourViews = append(rec.ourViews, own)
			bel[side].Ours(m, own)
			other := side.Other()
			if v := a.For(other); v.Heard {
				rec.states = append(rec.states, bel[other])
				rec.views = append(rec.views, v)
				bel[other].Theirs(v)
			}
		}
	}
	return rec
}

// Len returns the number of recorded opponent-side updates (benchmarks report it).
func (r *UpdateStream) Len() int { return len(r.states) }

// Replay applies every recorded opponent-side update (Theirs) to a copy of
// its belief and returns how many it applied. It allocates nothing.
func (r *UpdateStream) Replay() int {
	var s State
	for i := range r.states {
		s = r.states[i]
		s.Theirs(r.views[i])
	}
	return len(r.states)
}

// ReplayOurs applies every recorded mover-side update (Ours) to a copy of
// its belief and returns how many it applied. It allocates nothing.
func (r *UpdateStream) ReplayOurs() int {
	var s State
	for i := range r.ourStates {
		s = r.ourStates[i]
		s.Ours(r.ourMoves[i], r.ourViews[i])
	}
	return len(r.ourStates)
}
