package tourney

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// history is the test's own account of who met whom and the colours each
// played, rebuilt from the rounds (independent of the pairing code).
type history struct {
	met     map[[2]int]bool
	colours [][]Colour
}

func historyOf(e *Event) history {
	h := history{met: map[[2]int]bool{}, colours: make([][]Colour, len(e.Players))}
	for _, rd := range e.Played {
		for _, g := range rd.Games {
			h.met[[2]int{g.White, g.Black}] = true
			h.met[[2]int{g.Black, g.White}] = true
			if g.Result.Played() {
				h.colours[g.White] = append(h.colours[g.White], White)
				h.colours[g.Black] = append(h.colours[g.Black], Black)
			}
		}
	}
	return h
}

// absolute returns the colour a player must get (C.04.3 A.6.a), if any.
func (h history) absolute(p int) Colour {
	cs := h.colours[p]
	d := 0
	for _, c := range cs {
		if c == White {
			d++
		} else {
			d--
		}
	}
	n := len(cs)
	switch {
	case d < -1 || (n >= 2 && cs[n-1] == Black && cs[n-2] == Black):
		return White
	case d > 1 || (n >= 2 && cs[n-1] == White && cs[n-2] == White):
		return Black
	}
	return NoColour
}

// perfect reports whether players can all be paired with allowed pairs
// (plain backtracking), leaving out one player when the count is odd.
func perfect(players []int, allowed func(a, b int) bool) bool {
	if len(players)%2 == 1 {
		for i := range players {
			rest := append(append([]int(nil), players[:i]...), players[i+1:]...)
			if perfect(rest, allowed) {
				return true
			}
		}
		return false
	}
	if len(players) == 0 {
		return true
	}
	a := players[0]
	for j := 1; j < len(players); j++ {
		if allowed(a, players[j]) {
			rest := append(append([]int(nil), players[1:j]...), players[j+1:]...)
			if perfect(rest, allowed) {
				return true
			}
		}
	}
	return false
}

func randomResult(rng *rand.Rand, forfeits bool) Result {
	x := rng.IntN(100)
	switch {
	case x < 40:
		return WhiteWins
	case x < 70:
		return BlackWins
	case x < 95 || !forfeits:
		return Draw
	case x < 98:
		return WhiteForfeitWin
	}
	return BlackForfeitWin
}

// runSwiss plays a whole Swiss with random results from seed and checks
// every round's properties; it returns the pairings as text.
func runSwiss(t *testing.T, seed uint64, n, rounds int, forfeits bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	e := field(t, Swiss, n, rounds)
	var log strings.Builder
	for !e.Done() {
		r := len(e.Played) + 1
		h := historyOf(e)
		var active []int
		for i, p := range e.Players {
			if p.Active(r) {
				active = append(active, i)
			}
		}
		unmet := func(a, b int) bool { return !h.met[[2]int{a, b}] }
		colours := func(a, b int) bool {
			ca := h.absolute(a)
			return unmet(a, b) && (ca == NoColour || ca != h.absolute(b))
		}
		hadBye := map[int]bool{}
		for _, prev := range e.Played {
			for _, b := range prev.Byes {
				if b.Kind == PairingBye {
					hadBye[b.Player] = true
				}
			}
			for _, g := range prev.Games {
				if g.Result == WhiteForfeitWin {
					hadBye[g.White] = true
				}
				if g.Result == BlackForfeitWin {
					hadBye[g.Black] = true
				}
			}
		}
		// withBye: can the field be paired with allowed pairs, the bye (odd
		// field) going to a player for whom ok holds?
		withBye := func(ok func(int) bool, allowed func(a, b int) bool) bool {
			if len(active)%2 == 0 {
				return perfect(active, allowed)
			}
			for i, x := range active {
				if !ok(x) {
					continue
				}
				rest := append(append([]int(nil), active[:i]...), active[i+1:]...)
				if perfect(rest, allowed) {
					return true
				}
			}
			return false
		}
		anyone := func(int) bool { return true }
		fresh := func(x int) bool { return !hadBye[x] }
		noRepeat := withBye(anyone, unmet)
		byeOK := withBye(fresh, unmet)
		// The pairing keeps the bye rule before the colour rule.
		colourOK := withBye(fresh, colours) || (!byeOK && withBye(anyone, colours))
		rd, err := e.PairNext()
		if err != nil {
			t.Fatalf("seed %d n=%d round %d: %v", seed, n, r, err)
		}
		fmt.Fprintf(&log, "%s\n", show(e, rd))
		seen := map[int]int{}
		for _, g := range rd.Games {
			seen[g.White]++
			seen[g.Black]++
			if noRepeat && h.met[[2]int{g.White, g.Black}] {
				t.Errorf("seed %d n=%d round %d: %s-%s meet again though a pairing without repeats existed",
					seed, n, r, e.Players[g.White].Handle, e.Players[g.Black].Handle)
			}
		}
		byes := 0
		for _, b := range rd.Byes {
			seen[b.Player]++
			if b.Kind == PairingBye {
				byes++
				if byeOK && hadBye[b.Player] {
					t.Errorf("seed %d n=%d round %d: a second bye for %s though another player could have had it",
						seed, n, r, e.Players[b.Player].Handle)
				}
			}
		}
		if byes != len(active)%2 {
			t.Errorf("seed %d n=%d round %d: %d pairing byes for %d players", seed, n, r, byes, len(active))
		}
		for _, p := range active {
			if seen[p] != 1 {
				t.Fatalf("seed %d n=%d round %d: player %d seated %d times", seed, n, r, p, seen[p])
			}
		}
		for _, g := range rd.Games {
			if err := e.SetResult(r, g.Board, randomResult(rng, forfeits)); err != nil {
				t.Fatal(err)
			}
		}
		if colourOK && !strings.Contains(rd.Note, "colour") {
			// only this round's colours: earlier rounds may have been forced
			after := historyOf(e)
			for _, p := range active {
				cs := after.colours[p]
				if len(cs) == len(h.colours[p]) {
					continue // did not play on the board this round
				}
				k := len(cs) - 1
				if k >= 2 && cs[k-2] == cs[k] && cs[k-1] == cs[k] {
					t.Errorf("seed %d n=%d round %d: %s has three %v in a row", seed, n, r, e.Players[p].Handle, cs[k])
				}
				before, d := 0, 0
				for i, c := range cs {
					if c == White {
						d++
					} else {
						d--
					}
					if i == k-1 {
						before = d
					}
				}
				if (d > 2 || d < -2) && abs(d) > abs(before) {
					t.Errorf("seed %d n=%d round %d: %s colour difference %d", seed, n, r, e.Players[p].Handle, d)
				}
			}
		}
	}
	return log.String()
}

// Over many random events: every active player is seated once a round; no
// repeated pairing when one could be avoided (including N <= rounds+1,
// where the last rounds are tight); colour difference within ±2 and never
// three of a colour in a row whenever the field allowed it; one pairing
// bye for an odd field, never twice to a player; the same seed gives the
// same event.
func TestSwissProperties(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 60
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < trials; i++ {
		n := 2 + rng.IntN(15) // 2..16
		rounds := 1 + rng.IntN(n)
		if i%3 == 0 {
			rounds = max(1, n-1) // N = rounds+1: a full round robin's worth
		}
		seed := rng.Uint64()
		a := runSwiss(t, seed, n, rounds, i%4 == 0)
		if t.Failed() {
			t.Fatalf("trial %d (seed %d, n=%d, rounds=%d) failed:\n%s", i, seed, n, rounds, a)
		}
		if i%10 == 0 {
			if b := runSwiss(t, seed, n, rounds, i%4 == 0); a != b {
				t.Fatalf("seed %d: not deterministic:\n%s\n---\n%s", seed, a, b)
			}
		}
	}
}

// Random events with late joins, withdrawals, requested byes and
// absences: every round seats each active player exactly once, the
// points add up, and the standings and pages render.
func TestSwissChaos(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		n := 2 + rng.IntN(12)
		e := field(t, Swiss, n, 1+rng.IntN(9))
		joined := 0
		for !e.Done() {
			r := len(e.Played) + 1
			for _, p := range e.Players {
				switch x := rng.IntN(40); {
				case x == 0:
					_ = e.Withdraw(p.Handle)
				case x == 1:
					_ = e.RequestBye(p.Handle)
				case x == 2:
					_ = e.Absent(p.Handle)
				}
			}
			if rng.IntN(5) == 0 {
				joined++
				if err := e.LateJoin(fmt.Sprintf("late%d", joined), rng.IntN(2000)); err != nil {
					t.Fatal(err)
				}
			}
			rd, err := e.PairNext()
			if err == ErrNothingToPair {
				break
			}
			if err != nil {
				t.Fatalf("trial %d round %d: %v", trial, r, err)
			}
			seen := map[int]int{}
			for _, g := range rd.Games {
				seen[g.White]++
				seen[g.Black]++
			}
			for _, b := range rd.Byes {
				seen[b.Player]++
			}
			for i, p := range e.Players {
				if want := map[bool]int{true: 1}[p.Active(r)]; seen[i] != want {
					t.Fatalf("trial %d round %d: %s seated %d times", trial, r, p.Handle, seen[i])
				}
			}
			for _, g := range rd.Games {
				_ = e.SetResult(r, g.Board, randomResult(rng, true))
			}
		}
		total, want := 0, 0
		for _, v := range e.Points2() {
			total += v
		}
		for _, rd := range e.Played {
			for _, g := range rd.Games {
				w, b := g.Result.Points2()
				want += w + b
			}
			for _, b := range rd.Byes {
				want += b.Kind.Points2()
			}
		}
		if total != want {
			t.Fatalf("trial %d: points %d, want %d", trial, total, want)
		}
		var sb strings.Builder
		if err := e.WriteStandings(&sb, DefaultTieBreaks(Swiss)...); err != nil {
			t.Fatal(err)
		}
		if err := e.WriteHTML(&sb, DefaultTieBreaks(Swiss)...); err != nil {
			t.Fatal(err)
		}
	}
}

// A Swiss as long as a round robin (N = rounds+1 players, or N = rounds
// for an odd N) never repeats a pairing, up to 16 players: the lookahead
// keeps the later rounds pairable. (Measured once over 100 events per
// size: no repeat either.)
func TestSwissFullLengthNoRepeat(t *testing.T) {
	events := 30
	if testing.Short() {
		events = 5
	}
	for n := 3; n <= 16; n++ {
		rounds := n - 1 + n%2
		events := events
		if n > 11 {
			events = max(1, events/3)
		}
		for ev := 0; ev < events; ev++ {
			rng := rand.New(rand.NewPCG(uint64(ev), uint64(n)))
			e := field(t, Swiss, n, rounds)
			met := map[[2]int]bool{}
			for !e.Done() {
				rd, err := e.PairNext()
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range rd.Games {
					k := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
					if met[k] {
						t.Fatalf("n=%d event %d round %d: %s and %s meet again (note: %q)", n, ev, rd.Number,
							e.Players[g.White].Handle, e.Players[g.Black].Handle, rd.Note)
					}
					met[k] = true
					if err := e.SetResult(rd.Number, g.Board, randomResult(rng, false)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if len(met) != n*(n-1)/2 {
				t.Fatalf("n=%d event %d: %d pairs met, want all %d", n, ev, len(met), n*(n-1)/2)
			}
		}
	}
}
