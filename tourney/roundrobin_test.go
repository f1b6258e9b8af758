package tourney

import (
	"fmt"
	"strings"
	"testing"
)

// The Berger tables of the FIDE Handbook, C.05 Annex 1, copied by hand
// (white first).
var bergerTables = map[int][]string{
	4: {
		"1-4 2-3",
		"4-3 1-2",
		"2-4 3-1",
	},
	6: {
		"1-6 2-5 3-4",
		"6-4 5-3 1-2",
		"2-6 3-1 4-5",
		"6-5 1-4 2-3",
		"3-6 4-2 5-1",
	},
	8: {
		"1-8 2-7 3-6 4-5",
		"8-5 6-4 7-3 1-2",
		"2-8 3-1 4-7 5-6",
		"8-6 7-5 1-4 2-3",
		"3-8 4-2 5-1 6-7",
		"8-7 1-6 2-5 3-4",
		"4-8 5-3 6-2 7-1",
	},
}

func TestBergerTables(t *testing.T) {
	for n, table := range bergerTables {
		for r, want := range table {
			var got []string
			for _, p := range BergerRound(n, r+1) {
				got = append(got, fmt.Sprintf("%d-%d", p[0], p[1]))
			}
			if g := strings.Join(got, " "); g != want {
				t.Errorf("n=%d round %d: got %s want %s", n, r+1, g, want)
			}
		}
	}
	if BergerRound(5, 1) != nil || BergerRound(6, 6) != nil || BergerRound(6, 0) != nil {
		t.Error("bad arguments should give nil")
	}
}

// Every pair meets exactly once per cycle, with each colour once over a
// double round robin; no player has more than two of a colour in a row
// in one cycle's Berger table except across the cycle seam; odd fields
// rest once per cycle.
func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 12; n++ {
		for _, sys := range []System{RoundRobin, DoubleRoundRobin} {
			e := field(t, sys, n, 0)
			size := n + n%2
			cycles := 1
			if sys == DoubleRoundRobin {
				cycles = 2
			}
			if e.Rounds != cycles*(size-1) {
				t.Fatalf("n=%d %v: %d rounds", n, sys, e.Rounds)
			}
			met := map[[2]int]int{}
			asWhite := map[[2]int]int{}
			rests := make([]int, n)
			for !e.Done() {
				rd, err := e.PairNext()
				if err != nil {
					t.Fatal(err)
				}
				seen := map[int]bool{}
				for _, g := range rd.Games {
					for _, p := range []int{g.White, g.Black} {
						if seen[p] {
							t.Fatalf("n=%d round %d: player %d twice", n, rd.Number, p)
						}
						seen[p] = true
					}
					met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]++
					asWhite[[2]int{g.White, g.Black}]++
					if err := e.SetResult(rd.Number, g.Board, Draw); err != nil {
						t.Fatal(err)
					}
				}
				for _, b := range rd.Byes {
					if b.Kind != RestBye || seen[b.Player] {
						t.Fatalf("n=%d round %d: bad bye %+v", n, rd.Number, b)
					}
					seen[b.Player] = true
					rests[b.Player]++
				}
				if len(seen) != n {
					t.Fatalf("n=%d round %d: %d players seated", n, rd.Number, len(seen))
				}
			}
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if met[[2]int{i, j}] != cycles {
						t.Errorf("n=%d %v: %d-%d met %d times", n, sys, i, j, met[[2]int{i, j}])
					}
					if sys == DoubleRoundRobin && (asWhite[[2]int{i, j}] != 1 || asWhite[[2]int{j, i}] != 1) {
						t.Errorf("n=%d: %d-%d colours not reversed", n, i, j)
					}
				}
				if rests[i] != cycles*(n%2) {
					t.Errorf("n=%d %v: player %d rested %d times", n, sys, i, rests[i])
				}
			}
		}
	}
}

// Five players: the dummy is number 6, so in round 1 (1-6 2-5 3-4)
// player 1 rests; a withdrawn player's later games are forfeits.
func TestRoundRobinOddAndWithdrawal(t *testing.T) {
	e := field(t, RoundRobin, 5, 0)
	mustPair(t, e, "2-5 3-4 bye:1(rest)")
	results(t, e, WhiteWins, Draw)
	if err := e.Withdraw("p2"); err != nil {
		t.Fatal(err)
	}
	if err := e.Absent("p1"); err != nil {
		t.Fatal(err)
	}
	// Round 2 of the 6-table: 6-4 5-3 1-2; 4 rests; p2 withdrew, p1 absent.
	rd := mustPair(t, e, "5-3 1-2 bye:4(rest)")
	if rd.Games[1].Result != DoubleForfeit {
		t.Fatalf("1-2 with p1 absent and p2 withdrawn: %v", rd.Games[1].Result)
	}
	results(t, e, BlackWins, DoubleForfeit)
	// Round 3: 2-6 3-1 4-5: p2 rests, 3-1 and 4-5 played.
	rd = mustPair(t, e, "3-1 4-5 bye:2(rest)")
	if rd.Games[0].Result != Pending {
		t.Fatal("p1 is back in round 3")
	}
	results(t, e, Draw, Draw)
	// Round 4: 6-5 1-4 2-3: 2-3 is a forfeit win for p3.
	rd = mustPair(t, e, "1-4 2-3 bye:5(rest)")
	if rd.Games[1].Result != BlackForfeitWin {
		t.Fatalf("2-3: %v", rd.Games[1].Result)
	}
	if err := e.LateJoin("late", 1000); err == nil {
		t.Fatal("late join accepted in a round robin")
	}
}
