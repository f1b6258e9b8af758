package kep

import (
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

func TestSettings(t *testing.T) {
	kinds := players.Kinds()
	site, err := umpire.ParseVariant("berkeley_any")
	if err != nil {
		t.Fatal(err)
	}
	const (
		bt = "boardtree:threads=1,mem=32"
		c  = "mcts:approach=c,threads=1,mem=32"
	)
	// spec is a wild 16 game's player, site a berkeley_any game's ("":
	// the same).
	tests := []struct {
		sets       [][2]string // name, value
		spec, site string
		err        string // of the last set, "" for none
	}{
		{spec: bt, site: c},
		{sets: [][2]string{{"Threads", "4"}, {"Hash", "256"}}, spec: "boardtree:threads=4,mem=64", site: "mcts:approach=c,threads=4,mem=64"},
		{sets: [][2]string{{"threads", "8"}, {"HASH", "4"}}, spec: "boardtree:threads=8,mem=1", site: "mcts:approach=c,threads=8,mem=1"},
		{sets: [][2]string{{"Hash", "65536"}}, spec: "boardtree:threads=1,mem=4096", site: "mcts:approach=c,threads=1,mem=4096"},
		{sets: [][2]string{{"Approach", "B"}}, spec: "mcts:approach=b,threads=1,mem=32"},
		{sets: [][2]string{{"Approach", "c"}}, spec: c},
		{sets: [][2]string{{"Approach", "c"}, {"Approach", "AUTO"}}, spec: bt, site: c},
		{sets: [][2]string{{"Player", "heuristic:noise=0"}, {"Threads", "2"}}, spec: "heuristic:noise=0"},
		{sets: [][2]string{{"Player", "heuristic"}, {"Player", "<empty>"}}, spec: bt, site: c},
		{sets: [][2]string{{"Threads", "65"}}, spec: bt, site: c, err: `option Threads: "65" is not an integer from 1 to 64`},
		{sets: [][2]string{{"Threads", ""}}, spec: bt, site: c, err: "is not an integer"},
		{sets: [][2]string{{"Hash", "0"}}, spec: bt, site: c, err: "from 1 to 65536"},
		{sets: [][2]string{{"Seed", "-1"}}, spec: bt, site: c, err: "from 0 to"},
		{sets: [][2]string{{"Approach", "d"}}, spec: bt, site: c, err: "is not auto, a, b or c"},
		{sets: [][2]string{{"Player", "mcts:threads=0"}}, spec: bt, site: c, err: "option Player: players: spec"},
		{sets: [][2]string{{"Player", "alphazero"}}, spec: bt, site: c, err: `unknown kind "alphazero"`},
		{sets: [][2]string{{"Ponder", "true"}}, spec: bt, site: c, err: `no option "Ponder"`},
	}
	for _, tc := range tests {
		s := defaultSettings()
		var err error
		for _, kv := range tc.sets {
			err = s.set(kv[0], kv[1], kinds)
		}
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v: error %v, want %q", tc.sets, err, tc.err)
		}
		if tc.site == "" {
			tc.site = tc.spec
		}
		for _, v := range []struct {
			v    umpire.Variant
			want string
		}{{umpire.Variant{}, tc.spec}, {umpire.Wild16(), tc.spec}, {site, tc.site}} {
			got := s.spec(v.v)
			if got != v.want {
				t.Errorf("%v, variant %q: spec %q, want %q", tc.sets, v.v.Name, got, v.want)
			}
			if _, err := players.Parse(got, kinds); err != nil {
				t.Errorf("%v: %v", tc.sets, err)
			}
		}
	}
	s := defaultSettings()
	if err := s.set("MoveOverhead", "250", kinds); err != nil || s.overhead != 250*time.Millisecond {
		t.Fatalf("MoveOverhead: %v, %v", err, s.overhead)
	}
	// every 64-bit seed, as kriegbot match's side seeds use them
	if err := s.set("Seed", "18446744073709551615", kinds); err != nil || s.seed != 1<<64-1 {
		t.Fatalf("Seed: %v, %v", err, s.seed)
	}
	if err := s.set("Seed", "18446744073709551616", kinds); err == nil || s.seed != 1<<64-1 {
		t.Fatalf("Seed 2^64: %v, %v", err, s.seed)
	}
}

// TestBudget checks how go's limits become the player's budget.
func TestBudget(t *testing.T) {
	e := &engine{set: defaultSettings()}
	ms := time.Millisecond
	b, hard := e.budget(GoLimits{Nodes: 500})
	if b != (players.Budget{Nodes: 500}) || hard != clock.NoLimit {
		t.Fatalf("nodes: %+v %v", b, hard)
	}
	b, hard = e.budget(GoLimits{MoveTime: 250 * ms})
	if b.Time != 240*ms || hard != 240*ms {
		t.Fatalf("movetime: %+v %v", b, hard)
	}
	b, _ = e.budget(GoLimits{MoveTime: 5 * ms})
	if b.Time != ms {
		t.Fatalf("movetime below the overhead: %+v", b)
	}
	// Clocks: our colour's clock counts, not the opponent's.
	e.color = chess.Black
	b, hard = e.budget(GoLimits{Clock: [2]time.Duration{time.Hour, 60 * time.Second}, HasClock: [2]bool{true, true}})
	if b.Time <= 0 || b.Time > 2*time.Second || hard < b.Time || hard > 60*time.Second/8 || b.Emergency {
		t.Fatalf("60 s left: %+v hard %v", b, hard)
	}
	b, _ = e.budget(GoLimits{Clock: [2]time.Duration{time.Hour, 100 * ms}, HasClock: [2]bool{true, true}})
	if !b.Emergency {
		t.Fatalf("100 ms left: %+v", b)
	}
	b, hard = e.budget(GoLimits{Clock: [2]time.Duration{time.Hour, 0}, HasClock: [2]bool{true, false}})
	if b != (players.Budget{}) || hard != clock.NoLimit {
		t.Fatalf("only the opponent's clock: %+v %v", b, hard)
	}
}
