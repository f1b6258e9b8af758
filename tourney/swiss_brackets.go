package tourney

import "sort"

// candidate is one way to pair a bracket.
type candidate struct {
	pairs    [][2]*spl // higher-ranked player first
	floaters []*spl
	key      [7]int // lower is better; see (*pairer).key
}

// key orders candidates (lexicographically, lower is better):
//
//	0 unpaired players (C.04.3 C.5/C.6: maximise the number of pairs)
//	1 MDPs left unpaired (C.6/C.7: pair the moved-down players first)
//	2 repeated pairings (only at relaxation level 2)
//	3 players not getting their colour preference (C.12)
//	4 players not getting a strong or absolute preference (C.13)
//	5 downfloaters who also floated down in the last round, and
//	  upfloaters who also floated up in the last round (C.14, C.15)
//	6 score differences of the pairs, in half-points (C.18-C.19)
func (p *pairer) key(c *candidate, mdps []*spl) [7]int {
	var k [7]int
	k[0] = len(c.floaters)
	isMDP := map[*spl]bool{}
	for _, m := range mdps {
		isMDP[m] = true
	}
	for _, f := range c.floaters {
		if isMDP[f] {
			k[1]++
		}
		if f.float == 1 {
			k[5]++
		}
	}
	for _, pp := range c.pairs {
		a, b := pp[0], pp[1]
		if a.met[b.id] {
			k[2]++
		}
		ca, sa := a.pref()
		cb, sb := b.pref()
		if sa > prefNone && sb > prefNone && ca == cb {
			k[3]++
			if sa >= prefStrong && sb >= prefStrong {
				k[4]++
			}
		}
		if a.score != b.score {
			hi, lo := a, b
			if b.score > a.score {
				hi, lo = b, a
			}
			if lo.float == -1 {
				k[5]++
			}
			_ = hi
			k[6] += hi.score - lo.score
		}
	}
	return k
}

func less(a, b [7]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// bracketBudget caps the candidates examined in one bracket; past it the
// best candidate found so far is used.
const bracketBudget = 20000

// pairBracket chooses the pairing of one bracket: MDPs (moved down, higher
// scores) and residents, given the players of the lower brackets (rest).
// Every candidate must leave floaters+rest pairable (C.04.3 C.4, the
// completion criterion). Candidates are generated in the Dutch order
// (MDPs first against the residents in order, then the remainder as S1
// against S2 with transpositions, then exchanges) and the first one with
// the best key wins.
//
// With all, it returns every legal candidate examined, best first (ties in
// Dutch order); without, only the best one.
func (p *pairer) bracketCandidates(mdps, residents, rest []*spl, all bool) []candidate {
	restBits := p.bits(rest)
	var best candidate
	var list []candidate
	found := false
	budget := bracketBudget
	n := len(mdps) + len(residents)
	// At least half MDPs: the bracket is paired as if homogeneous (the
	// 2012 rule A.3; it keeps MDPs from floating on past each other).
	homog := 2*len(mdps) >= n && len(mdps) > 0
	// Lower bounds of key[0] and key[1], to stop at the first optimum.
	lb0, lb1 := n%2, 0
	if !homog && len(mdps) > len(residents) {
		lb1 = len(mdps) - len(residents)
		lb0 = max(lb0, lb1)
	}
	if len(rest) == 0 {
		lb0 = 0
	}
	yield := func(pairs [][2]*spl, floaters []*spl) bool {
		budget--
		if len(rest) == 0 && len(floaters) > 0 {
			return budget > 0
		}
		if !p.matchable(restBits | p.bits(floaters)) {
			return budget > 0
		}
		c := candidate{pairs: append([][2]*spl(nil), pairs...), floaters: append([]*spl(nil), floaters...)}
		c.key = p.key(&c, mdps)
		if all {
			list = append(list, c)
			found = true
			return budget > 0
		}
		if !found || less(c.key, best.key) {
			best, found = c, true
		}
		k := best.key
		if k[0] == lb0 && k[1] == lb1 && k[2] == 0 && k[3] == 0 && k[4] == 0 && k[5] == 0 {
			return false
		}
		return budget > 0
	}
	members := append(append([]*spl(nil), mdps...), residents...)
	if homog || len(mdps) == 0 {
		p.homogeneous(members, yield)
	} else {
		p.heterogeneous(mdps, residents, yield)
	}
	if !found {
		// Past the budget without a legal candidate: search plainly.
		budget = bracketBudget
		p.budget = 1 << 22
		p.anyPairing(members, yield)
	}
	if all {
		sort.SliceStable(list, func(i, j int) bool { return less(list[i].key, list[j].key) })
		return list
	}
	if !found {
		return nil
	}
	return []candidate{best}
}

// heterogeneous enumerates the pairings of a bracket with MDPs: as many
// MDPs as possible, highest first, each against residents in order (the
// transpositions of the MDP-pairing, C.04.3 B.3), then the remainder as a
// homogeneous bracket. Unpaired MDPs float on.
func (p *pairer) heterogeneous(mdps, residents []*spl, yield func([][2]*spl, []*spl) bool) bool {
	maxM := min(len(mdps), len(residents))
	for m1 := maxM; m1 >= 0; m1-- {
		cont := combinations(len(mdps), m1, func(chosen []int) bool {
			var pairedM []*spl
			var floatM []*spl
			in := map[int]bool{}
			for _, c := range chosen {
				in[c] = true
				pairedM = append(pairedM, mdps[c])
			}
			for i, m := range mdps {
				if !in[i] {
					floatM = append(floatM, m)
				}
			}
			return p.selections(pairedM, residents, nil, func(pairs [][2]*spl, left []*spl) bool {
				return p.homogeneous(left, func(rp [][2]*spl, rf []*spl) bool {
					all := append(append([][2]*spl(nil), pairs...), rp...)
					fl := append(append([]*spl(nil), floatM...), rf...)
					return yield(all, fl)
				})
			})
		})
		if !cont {
			return false
		}
	}
	return true
}

// homogeneous enumerates the pairings of a bracket of equal scores: for
// p pairs (most first), S1 is the top p players, S2 the others; S2 is
// permuted in lexicographic order (transpositions, C.04.3 D.1), then one
// and two players are exchanged between S1 and S2 (exchanges, D.2: the
// fewest, then the smallest difference in pairing order, then the lowest
// S1 players) and S2 permuted again.
func (p *pairer) homogeneous(list []*spl, yield func([][2]*spl, []*spl) bool) bool {
	n := len(list)
	for np := n / 2; np >= 0; np-- {
		if np == 0 {
			if !yield(nil, list) {
				return false
			}
			continue
		}
		for _, s1 := range exchanges(n, np) {
			in := map[int]bool{}
			var a, b []*spl
			for _, i := range s1 {
				in[i] = true
				a = append(a, list[i])
			}
			for i := range list {
				if !in[i] {
					b = append(b, list[i])
				}
			}
			if !p.selections(a, b, nil, yield) {
				return false
			}
		}
	}
	return true
}

// selections pairs each player of s1 in order with a distinct player of
// s2, trying s2's players in order (so the k-permutations of s2 come in
// lexicographic order), pruning incompatible pairs; the s2 players left
// over are passed on as floaters.
func (p *pairer) selections(s1, s2 []*spl, acc [][2]*spl, yield func([][2]*spl, []*spl) bool) bool {
	if len(s1) == 0 {
		return yield(acc, s2)
	}
	a := s1[0]
	for j, b := range s2 {
		if !p.ok[p.rank[a]][p.rank[b]] {
			continue
		}
		left := make([]*spl, 0, len(s2)-1)
		left = append(left, s2[:j]...)
		left = append(left, s2[j+1:]...)
		hi, lo := a, b
		if p.rank[b] < p.rank[a] {
			hi, lo = b, a
		}
		if !p.selections(s1[1:], left, append(acc, [2]*spl{hi, lo}), yield) {
			return false
		}
	}
	return true
}

// anyPairing is the fallback search: every pairing of list with the most
// pairs first, in plain order.
func (p *pairer) anyPairing(list []*spl, yield func([][2]*spl, []*spl) bool) {
	var rec func(left []*spl, acc [][2]*spl, fl []*spl) bool
	rec = func(left []*spl, acc [][2]*spl, fl []*spl) bool {
		p.budget--
		if p.budget < 0 {
			return false
		}
		if len(left) == 0 {
			return yield(acc, fl)
		}
		a := left[0]
		for j := 1; j < len(left); j++ {
			b := left[j]
			if !p.ok[p.rank[a]][p.rank[b]] {
				continue
			}
			nl := append(append([]*spl(nil), left[1:j]...), left[j+1:]...)
			if !rec(nl, append(acc, [2]*spl{a, b}), fl) {
				return false
			}
		}
		return rec(left[1:], acc, append(fl, a))
	}
	rec(list, nil, nil)
}

// exchanges lists the index sets used as S1 for a bracket of n players
// and np pairs: first the natural S1 (0..np-1), then single exchanges,
// then double exchanges, each ordered by the smallest sum of differences
// in pairing order, then by the S1 players given away lowest first.
func exchanges(n, np int) [][]int {
	s1 := make([]int, np)
	for i := range s1 {
		s1[i] = i
	}
	out := [][]int{s1}
	type ex struct {
		out, in []int
		diff    int
	}
	var list []ex
	for k := 1; k <= 2 && k <= np && k <= n-np; k++ {
		var sl []ex
		combinations(np, k, func(o []int) bool {
			oc := append([]int(nil), o...)
			combinations(n-np, k, func(i []int) bool {
				ic := make([]int, k)
				d := 0
				for x := range i {
					ic[x] = i[x] + np
					d += ic[x]
				}
				for _, y := range oc {
					d -= y
				}
				sl = append(sl, ex{out: oc, in: ic, diff: d})
				return true
			})
			return true
		})
		sort.SliceStable(sl, func(a, b int) bool {
			if sl[a].diff != sl[b].diff {
				return sl[a].diff < sl[b].diff
			}
			// the S1 players given away: lowest-ranked (highest index) first
			sa, sb := 0, 0
			for _, y := range sl[a].out {
				sa += y
			}
			for _, y := range sl[b].out {
				sb += y
			}
			return sa > sb
		})
		list = append(list, sl...)
	}
	for _, x := range list {
		gone := map[int]bool{}
		for _, y := range x.out {
			gone[y] = true
		}
		var s []int
		for i := 0; i < np; i++ {
			if !gone[i] {
				s = append(s, i)
			}
		}
		s = append(s, x.in...)
		sort.Ints(s)
		out = append(out, s)
	}
	return out
}

// combinations calls f with each k-subset of 0..n-1 in lexicographic
// order; it stops when f returns false and reports whether it finished.
func combinations(n, k int, f func([]int) bool) bool {
	if k > n || k < 0 {
		return true
	}
	idx := make([]int, k)
	var rec func(start, d int) bool
	rec = func(start, d int) bool {
		if d == k {
			return f(idx)
		}
		for i := start; i <= n-(k-d); i++ {
			idx[d] = i
			if !rec(i+1, d+1) {
				return false
			}
		}
		return true
	}
	return rec(0, 0)
}
