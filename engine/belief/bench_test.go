package belief

import (
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// benchStream records the belief before each opponent move of random games
// and what its side heard of that move, so that benchmarks time the update
// alone.
func benchStream(b *testing.B) ([]State, []umpire.View) {
	b.Helper()
	r := RecordUpdates(7, 20, 200)
	return r.states, r.views
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

func TestUpdateStreamAllocatesNothing(t *testing.T) {
	r := RecordUpdates(3, 2, 60)
	if r.Len() == 0 {
		t.Fatal("empty stream")
	}
	if n := testing.AllocsPerRun(5, func() { r.Replay() }); n != 0 {
		t.Errorf("%g allocations per replay", n)
	}
}
