package tourney

import (
	"fmt"
	"strings"
	"testing"
)

// field returns a started event of n players "p1".."pn" whose pairing
// numbers follow their names (p1 is the top seed).
func field(t testing.TB, sys System, n, rounds int) *Event {
	t.Helper()
	e := New("Test", sys, rounds)
	for i := 1; i <= n; i++ {
		if err := e.AddPlayer(fmt.Sprintf("p%d", i), 2000-10*i); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	return e
}

// show renders a round as "w-b w-b ... bye:x(kind)" with pairing numbers.
func show(e *Event, rd Round) string {
	var parts []string
	for _, g := range rd.Games {
		parts = append(parts, fmt.Sprintf("%d-%d", e.Players[g.White].Seed, e.Players[g.Black].Seed))
	}
	for _, b := range rd.Byes {
		parts = append(parts, fmt.Sprintf("bye:%d(%s)", e.Players[b.Player].Seed, b.Kind))
	}
	return strings.Join(parts, " ")
}

// mustPair pairs the next round and checks it against want (show format).
func mustPair(t *testing.T, e *Event, want string) Round {
	t.Helper()
	rd, err := e.PairNext()
	if err != nil {
		t.Fatalf("round %d: %v", len(e.Played)+1, err)
	}
	if got := show(e, rd); got != want {
		t.Fatalf("round %d:\n got %s\nwant %s", rd.Number, got, want)
	}
	return rd
}

// results sets the results of the last round, board by board.
func results(t *testing.T, e *Event, rs ...Result) {
	t.Helper()
	r := len(e.Played)
	if len(rs) != len(e.Played[r-1].Games) {
		t.Fatalf("round %d has %d games, %d results given", r, len(e.Played[r-1].Games), len(rs))
	}
	for i, res := range rs {
		if err := e.SetResult(r, i+1, res); err != nil {
			t.Fatal(err)
		}
	}
}
