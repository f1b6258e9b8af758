package tourney

// Round robins follow the Berger tables of the FIDE Handbook, C.05 Annex 1
// ("Berger Tables for Round-Robin Tournaments"). For n players (n even; an
// odd field adds a dummy number n, whose opponent rests), round 1 is
//
//	1-n, 2-(n-1), 3-(n-2), ..., n/2-(n/2+1)
//
// and each next round adds n/2 to every number except n, modulo n-1 (in
// 1..n-1), keeping each board's colours; player n stays on board 1 and
// alternates colours: Black in odd rounds, White in even rounds. For n = 6
// this gives the published table
//
//	Rd 1: 1-6 2-5 3-4   Rd 2: 6-4 5-3 1-2   Rd 3: 2-6 3-1 4-5
//	Rd 4: 6-5 1-4 2-3   Rd 5: 3-6 4-2 5-1
//
// A double round robin repeats the cycle with colours reversed.

// BergerRound returns the pairings (white, black pairing numbers, 1-based)
// of round r (1..n-1) of the Berger table for n players, n even.
func BergerRound(n, r int) [][2]int {
	if n < 2 || n%2 == 1 || r < 1 || r > n-1 {
		return nil
	}
	num := func(base int) int { // base is the round-1 number (1..n-1)
		return (base-1+(r-1)*(n/2))%(n-1) + 1
	}
	out := make([][2]int, 0, n/2)
	x := num(1)
	if r%2 == 1 {
		out = append(out, [2]int{x, n})
	} else {
		out = append(out, [2]int{n, x})
	}
	for k := 2; k <= n/2; k++ {
		out = append(out, [2]int{num(k), num(n + 1 - k)})
	}
	return out
}

func (e *Event) pairRoundRobin(r int) Round {
	n := len(e.Players)
	size := n
	if size%2 == 1 {
		size++
	}
	cycle := size - 1
	rr, swap := r, false
	if r > cycle {
		rr, swap = r-cycle, true
	}
	rd := Round{Number: r}
	board := 0
	for _, p := range BergerRound(size, rr) {
		w, b := p[0]-1, p[1]-1
		if swap {
			w, b = b, w
		}
		if w >= n || b >= n { // the dummy: the other player rests
			rest := w
			if w >= n {
				rest = b
			}
			rd.Byes = append(rd.Byes, Bye{Player: rest, Kind: RestBye})
			continue
		}
		board++
		g := Game{Board: board, White: w, Black: b}
		wOut := !e.Players[w].Active(r) || e.isAbsent(r, w)
		bOut := !e.Players[b].Active(r) || e.isAbsent(r, b)
		switch {
		case wOut && bOut:
			g.Result = DoubleForfeit
		case wOut:
			g.Result = BlackForfeitWin
		case bOut:
			g.Result = WhiteForfeitWin
		}
		rd.Games = append(rd.Games, g)
	}
	return rd
}

func (e *Event) isAbsent(r, id int) bool {
	k, ok := e.requested(r, id)
	return ok && k == ZeroBye
}
