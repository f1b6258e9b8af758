package tourney

// future reports whether, after this round's pairs, the players can still
// be paired without a repeat in each of the p.look rounds left (one of
// them sitting out each round when their number is odd). The search is
// bounded; past the bound it answers yes.
func (p *pairer) future(pairs [][2]*spl, rounds int) bool {
	n := len(p.ps)
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
		for j := range adj[i] {
			adj[i][j] = i != j && !p.ps[i].met[p.ps[j].id]
		}
	}
	for _, pp := range pairs {
		i, j := p.rank[pp[0]], p.rank[pp[1]]
		adj[i][j], adj[j][i] = false, false
	}
	budget := futureBudget
	return futureOK(adj, rounds, &budget, nil)
}

// witness answers whether the field can be paired without repeats in this
// round and the next rounds-1, and when that is proved (not assumed after
// the search bound), returns this round's pairs of such a solution.
func (p *pairer) witness(rounds int) (ok bool, pairs [][2]int) {
	n := len(p.ps)
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
		for j := range adj[i] {
			adj[i][j] = i != j && !p.ps[i].met[p.ps[j].id]
		}
	}
	budget := futureBudget
	var w [][2]int
	ok = futureOK(adj, rounds, &budget, &w)
	if !ok || budget < 0 {
		return ok, nil
	}
	return true, w
}

// lookHorizon is how many later rounds the lookahead keeps pairable.
const lookHorizon = 4

// futureBudget bounds the lookahead search of one round candidate.
const futureBudget = 200000

// futureOK reports whether the graph adj has k edge-disjoint perfect
// matchings (near-perfect, one vertex left out, for an odd vertex count).
//
// When witness is not nil and the answer is yes, it receives the first
// matching of the solution (pairs of vertex indices).
func futureOK(adj [][]bool, k int, budget *int, witness *[][2]int) bool {
	if k == 0 {
		return true
	}
	n := len(adj)
	need := k
	if n%2 == 1 {
		need = k - 1
	}
	for i := 0; i < n; i++ {
		d := 0
		for j := 0; j < n; j++ {
			if adj[i][j] {
				d++
			}
		}
		if d < need {
			return false
		}
	}
	used := make([]bool, n)
	var stack [][2]int
	var match func(left int, out bool) bool
	// match pairs the unused vertices, lowest first; out: the sit-out of
	// an odd field is still to choose.
	match = func(left int, out bool) bool {
		if *budget--; *budget < 0 {
			return true
		}
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			if futureOK(adj, k-1, budget, nil) {
				if witness != nil {
					*witness = append([][2]int(nil), stack...)
				}
				return true
			}
			return false
		}
		used[i] = true
		for j := i + 1; j < n; j++ {
			if used[j] || !adj[i][j] {
				continue
			}
			used[j] = true
			adj[i][j], adj[j][i] = false, false
			stack = append(stack, [2]int{i, j})
			ok := match(left-2, out)
			stack = stack[:len(stack)-1]
			adj[i][j], adj[j][i] = true, true
			used[j] = false
			if ok {
				used[i] = false
				return true
			}
		}
		if out && match(left-1, false) {
			used[i] = false
			return true
		}
		used[i] = false
		return false
	}
	return match(n, n%2 == 1)
}
