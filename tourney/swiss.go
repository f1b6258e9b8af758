package tourney

import (
	"fmt"
	"sort"
	"strings"
)

// spl is a player's state for the Swiss pairing, computed from the rounds
// played so far (nothing is stored between rounds).
type spl struct {
	id      int
	seed    int
	score   int      // half-points
	colours []Colour // colours of the games played on the board, in order
	met     map[int]bool
	hadBye  bool // a pairing-allocated bye or a forfeit win (C.04.1.d)
	float   int  // in the last round: +1 downfloat, -1 upfloat, 0 none
}

// cd is the colour difference: games with White minus games with Black.
func (p *spl) cd() int {
	d := 0
	for _, c := range p.colours {
		if c == White {
			d++
		} else {
			d--
		}
	}
	return d
}

// Preference strengths (C.04.3 A.6).
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// pref returns the colour preference and its strength.
func (p *spl) pref() (Colour, int) {
	n := len(p.colours)
	if n == 0 {
		return NoColour, prefNone
	}
	d := p.cd()
	last := p.colours[n-1]
	twice := n >= 2 && p.colours[n-2] == last
	switch {
	case d < -1 || (twice && last == Black):
		return White, prefAbsolute
	case d > 1 || (twice && last == White):
		return Black, prefAbsolute
	case d == -1:
		return White, prefStrong
	case d == 1:
		return Black, prefStrong
	}
	return last.Opposite(), prefMild
}

// swissState computes every player's pairing state before round r.
func (e *Event) swissState(r int) []*spl {
	st := make([]*spl, len(e.Players))
	for i, p := range e.Players {
		st[i] = &spl{id: i, seed: p.Seed, met: map[int]bool{}}
	}
	for _, rd := range e.Played[:r-1] {
		before := make([]int, len(st))
		for i, p := range st {
			before[i] = p.score
			p.float = 0
		}
		for _, g := range rd.Games {
			w, b := st[g.White], st[g.Black]
			w.met[g.Black], b.met[g.White] = true, true
			pw, pb := g.Result.Points2()
			w.score += pw
			b.score += pb
			if g.Result.Played() {
				w.colours = append(w.colours, White)
				b.colours = append(b.colours, Black)
				switch {
				case before[g.White] > before[g.Black]:
					w.float, b.float = 1, -1
				case before[g.White] < before[g.Black]:
					w.float, b.float = -1, 1
				}
				continue
			}
			if g.Result == WhiteForfeitWin {
				w.hadBye, w.float = true, 1
			}
			if g.Result == BlackForfeitWin {
				b.hadBye, b.float = true, 1
			}
		}
		for _, by := range rd.Byes {
			p := st[by.Player]
			p.score += by.Kind.Points2()
			if by.Kind == PairingBye {
				p.hadBye = true
			}
			if by.Kind.Points2() > 0 {
				p.float = 1 // C.04.3 A.4: scoring without playing is a downfloat
			}
		}
	}
	return st
}

// compat tells whether two players may meet at a relaxation level:
// level 0: never met and no clash of absolute colour preferences (C.04.3
// C.1, C.3); level 1: never met (C.1 only); level 2: anything (a repeat is
// then unavoidable this round).
func compat(a, b *spl, level int) bool {
	if level >= 2 {
		return true
	}
	if a.met[b.id] {
		return false
	}
	if level == 0 {
		ca, sa := a.pref()
		cb, sb := b.pref()
		if sa == prefAbsolute && sb == prefAbsolute && ca == cb {
			return false
		}
	}
	return true
}

// pairer holds one round's Swiss pairing work.
type pairer struct {
	ps     []*spl // players to pair, in pairing order (score desc, seed asc)
	level  int
	ok     [][]bool        // ok[i][j]: compat at level, by index in ps
	memo   map[uint64]bool // matchable cache
	rank   map[*spl]int    // index in ps
	budget int
	// look is the number of rounds after this one that must stay
	// pairable without repeats (0: no lookahead); backtracks bounds the
	// alternative bracket pairings tried for it.
	look       int
	backtracks int
}

func newPairer(ps []*spl, level int) *pairer {
	p := &pairer{ps: ps, level: level, memo: map[uint64]bool{}, rank: map[*spl]int{}}
	p.ok = make([][]bool, len(ps))
	for i := range ps {
		p.rank[ps[i]] = i
		p.ok[i] = make([]bool, len(ps))
		for j := range ps {
			p.ok[i][j] = i != j && compat(ps[i], ps[j], level)
		}
	}
	return p
}

// matchable reports whether the players in set (bits by index in ps) can
// all be paired with each other (a perfect matching).
func (p *pairer) matchable(set uint64) bool {
	if set == 0 {
		return true
	}
	if v, ok := p.memo[set]; ok {
		return v
	}
	i := 0
	for set&(1<<uint(i)) == 0 {
		i++
	}
	rest := set &^ (1 << uint(i))
	res := false
	for j := i + 1; j < len(p.ps) && !res; j++ {
		if rest&(1<<uint(j)) != 0 && p.ok[i][j] {
			res = p.matchable(rest &^ (1 << uint(j)))
		}
	}
	p.memo[set] = res
	return res
}

func (p *pairer) bits(list []*spl) uint64 {
	var s uint64
	for _, x := range list {
		s |= 1 << uint(p.rank[x])
	}
	return s
}

// swissField returns the players to pair in round r, in pairing order
// (score descending, then pairing number), and the byes already decided
// (requested half-point byes, absences).
func (e *Event) swissField(r int) ([]*spl, []Bye) {
	st := e.swissState(r)
	var byes []Bye
	var ps []*spl
	for i, pl := range e.Players {
		if !pl.Active(r) {
			continue
		}
		if k, ok := e.requested(r, i); ok {
			byes = append(byes, Bye{Player: i, Kind: k})
			continue
		}
		ps = append(ps, st[i])
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].score != ps[j].score {
			return ps[i].score > ps[j].score
		}
		return ps[i].seed < ps[j].seed
	})
	return ps, byes
}

// pairSwiss pairs round r of a Swiss. It tries the strict criteria first
// and relaxes them only when no pairing of the whole field meets them
// (see compat).
func (e *Event) pairSwiss(r int) (Round, error) {
	ps, byes := e.swissField(r)
	rd := Round{Number: r, Byes: byes}
	if len(ps) > 64 {
		return Round{}, fmt.Errorf("tourney: the Swiss pairing handles at most 64 players (%d)", len(ps))
	}
	// The relaxation order: the lookahead (no repeat forced in a later
	// round) before the absolute colours, those before a second bye, and a
	// repeated pairing last.
	type attempt struct {
		level   int
		anyBye  bool
		look    bool
		witness bool // pair as the lookahead's own solution does
	}
	tries := []attempt{
		{0, false, true, false}, {1, false, true, false}, {1, false, true, true},
		{0, false, false, false}, {1, false, false, false},
		{0, true, true, false}, {1, true, true, false}, {0, true, false, false}, {1, true, false, false},
		{2, false, false, false}, {2, true, false, false},
	}
	left := e.Rounds - r
	if e.NoLookahead {
		left = 0
	}
	// If even this round and the later ones together cannot be paired
	// without repeats, the lookahead has nothing to save: skip it.
	var wit [][2]int
	if left > 0 {
		var ok bool
		if ok, wit = newPairer(ps, 1).witness(min(left, lookHorizon) + 1); !ok {
			left = 0
		}
	}
	for _, try := range tries {
		if left == 0 && !try.look && try.level < 2 {
			continue // the same as the attempt with the lookahead
		}
		if try.witness && wit == nil {
			continue
		}
		pr := newPairer(ps, try.level)
		if try.look {
			pr.look = min(left, lookHorizon)
		}
		if try.witness {
			// Only the solution's pairs; the bye is its sit-out.
			pr.look = 0
			for i := range pr.ok {
				clear(pr.ok[i])
			}
			for _, w := range wit {
				pr.ok[w[0]][w[1]], pr.ok[w[1]][w[0]] = true, true
			}
		}
		if try.level == 2 {
			pr.fewestRepeats(try.anyBye)
		}
		var notes []string
		if try.level == 1 {
			notes = append(notes, "absolute colour preferences relaxed")
		}
		if try.witness {
			notes = append(notes, "paired by the lookahead's solution, not in Dutch order")
		}
		if try.anyBye && len(ps)%2 == 1 {
			notes = append(notes, "a second pairing bye allowed")
		}
		if try.level == 2 {
			notes = append(notes, "repeated pairings allowed")
		} else if !try.look && left > 0 {
			notes = append(notes, "a later round may need a repeated pairing")
		}
		rd.Note = strings.Join(notes, "; ")
		var bye *spl
		var pairs [][2]*spl
		found := false
		for _, b := range pr.byeCandidates(try.anyBye) {
			if pairs = pr.pairBrackets(b); pairs != nil || len(ps) < 2 {
				bye, found = b, true
				break
			}
			if pr.look == 0 {
				break // without the lookahead the first candidate always pairs
			}
		}
		if !found {
			continue
		}
		sort.SliceStable(pairs, func(i, j int) bool {
			a, b := pairs[i], pairs[j]
			ma, mb := max(a[0].score, a[1].score), max(b[0].score, b[1].score)
			if ma != mb {
				return ma > mb
			}
			if sa, sb := a[0].score+a[1].score, b[0].score+b[1].score; sa != sb {
				return sa > sb
			}
			return min(pr.rank[a[0]], pr.rank[a[1]]) < min(pr.rank[b[0]], pr.rank[b[1]])
		})
		if bye != nil {
			rd.Byes = append(rd.Byes, Bye{Player: bye.id, Kind: PairingBye})
		}
		for i, pp := range pairs {
			w, b := e.allocateColours(pp[0], pp[1])
			rd.Games = append(rd.Games, Game{Board: i + 1, White: w.id, Black: b.id})
		}
		sort.SliceStable(rd.Byes, func(i, j int) bool { return rd.Byes[i].Player < rd.Byes[j].Player })
		return rd, nil
	}
	return Round{}, fmt.Errorf("tourney: no pairing found for round %d", r)
}

// maxRepeatSearch is the largest field for which a round that must repeat
// pairings is searched for the fewest repeats (the search is exponential).
const maxRepeatSearch = 24

// fewestRepeats restricts a level-2 pairer so that the round repeats as
// few pairings as possible: it finds a pairing of the field (with the bye
// candidate the Dutch rules prefer among those that allow it) with the
// fewest repeated pairs, and then allows only those repeats, next to the
// pairs that have not met. Fields over maxRepeatSearch are left as they
// are (any repeat allowed).
func (p *pairer) fewestRepeats(anyone bool) {
	n := len(p.ps)
	if n > maxRepeatSearch {
		return
	}
	memo := map[uint64]int{}
	met := func(i, j int) int {
		if p.ps[i].met[p.ps[j].id] {
			return 1
		}
		return 0
	}
	var cost func(set uint64) int
	cost = func(set uint64) int {
		if set == 0 {
			return 0
		}
		if v, ok := memo[set]; ok {
			return v
		}
		i := 0
		for set&(1<<uint(i)) == 0 {
			i++
		}
		rest := set &^ (1 << uint(i))
		best := n
		for j := i + 1; j < n; j++ {
			if rest&(1<<uint(j)) != 0 {
				best = min(best, met(i, j)+cost(rest&^(1<<uint(j))))
			}
		}
		memo[set] = best
		return best
	}
	all := p.bits(p.ps)
	set := all
	if n%2 == 1 {
		bestBye, bestCost := -1, n+1
		for pass := 0; pass < 2 && bestBye < 0; pass++ {
			for i := n - 1; i >= 0; i-- {
				if pass == 0 && !anyone && p.ps[i].hadBye {
					continue
				}
				if c := cost(all &^ (1 << uint(i))); c < bestCost {
					bestBye, bestCost = i, c
				}
			}
			if !anyone && pass == 0 && bestBye >= 0 {
				break
			}
		}
		set = all &^ (1 << uint(bestBye))
	}
	allowed := make([][]bool, n)
	for i := range allowed {
		allowed[i] = make([]bool, n)
	}
	for set != 0 { // walk one optimal pairing back from the memo
		i := 0
		for set&(1<<uint(i)) == 0 {
			i++
		}
		rest := set &^ (1 << uint(i))
		for j := i + 1; j < n; j++ {
			if rest&(1<<uint(j)) != 0 && met(i, j)+cost(rest&^(1<<uint(j))) == cost(set) {
				allowed[i][j], allowed[j][i] = true, true
				set = rest &^ (1 << uint(j))
				break
			}
		}
	}
	for i := range p.ok {
		for j := range p.ok[i] {
			p.ok[i][j] = i != j && (met(i, j) == 0 || allowed[i][j])
		}
	}
	clear(p.memo)
}

// byeCandidates lists the possible pairing-allocated byes, best first,
// when the number of players is odd: the lowest-ranked player (lowest
// score, then highest pairing number) first, among those who have had no
// bye and no forfeit win (C.04.1.c-d, C.04.3 C.2), or among everyone with
// anyone; only players whose absence leaves a pairable field. For an even
// field it is [nil] if the field can be paired, else empty.
func (p *pairer) byeCandidates(anyone bool) []*spl {
	all := p.bits(p.ps)
	if len(p.ps)%2 == 0 {
		if p.matchable(all) {
			return []*spl{nil}
		}
		return nil
	}
	var out []*spl
	for i := len(p.ps) - 1; i >= 0; i-- {
		if !anyone && p.ps[i].hadBye {
			continue
		}
		if p.matchable(all &^ (1 << uint(i))) {
			out = append(out, p.ps[i])
		}
	}
	return out
}

// pairBrackets pairs score bracket after score bracket, from the top, with
// players left over floating down to the next bracket as MDPs. With a
// lookahead, a round whose pairing would leave the later rounds without
// a repeat-free pairing is refused, and the brackets are paired again
// with their next-best candidates (backtracking, bounded).
func (p *pairer) pairBrackets(bye *spl) [][2]*spl {
	var remaining []*spl
	for _, x := range p.ps {
		if x != bye {
			remaining = append(remaining, x)
		}
	}
	p.backtracks = backtrackBudget
	out, ok := p.pairFrom(remaining, nil, nil)
	if !ok {
		return nil
	}
	return out
}

// backtrackBudget bounds the alternative bracket pairings tried in one
// round when the lookahead refuses the first choice.
const backtrackBudget = 2000

func (p *pairer) pairFrom(remaining, mdps []*spl, acc [][2]*spl) ([][2]*spl, bool) {
	if len(remaining) == 0 {
		if len(mdps) > 0 {
			return nil, false
		}
		if p.look > 0 && !p.future(acc, p.look) {
			return nil, false
		}
		return acc, true
	}
	score := remaining[0].score
	k := 0
	for k < len(remaining) && remaining[k].score == score {
		k++
	}
	residents, rest := remaining[:k], remaining[k:]
	cands := p.bracketCandidates(mdps, residents, rest, false)
	if len(cands) == 0 {
		return nil, false
	}
	try := func(c candidate) ([][2]*spl, bool) {
		next := append(append([][2]*spl(nil), acc...), c.pairs...)
		return p.pairFrom(rest, c.floaters, next)
	}
	if out, ok := try(cands[0]); ok {
		return out, true
	}
	if p.look == 0 {
		return nil, false
	}
	first := cands[0].key
	for i, c := range p.bracketCandidates(mdps, residents, rest, true) {
		if i == 0 && c.key == first {
			continue // the one tried above
		}
		if p.backtracks--; p.backtracks < 0 {
			return nil, false
		}
		if out, ok := try(c); ok {
			return out, true
		}
	}
	return nil, false
}

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

// allocateColours gives the colours of a pair, a ranked above b, by the
// rules of C.04.3 E:
//
//	E.1 grant both preferences;
//	E.2 grant the stronger preference (for two absolute ones, the wider
//	    colour difference);
//	E.3 alternate both relative to the latest game where they had
//	    different colours;
//	E.4 grant the higher-ranked player's preference;
//	E.5 no preferences: the higher-ranked player gets the initial colour
//	    if his pairing number is odd, else the other.
func (e *Event) allocateColours(a, b *spl) (white, black *spl) {
	give := func(p *spl, c Colour) (*spl, *spl) {
		if p == a {
			if c == White {
				return a, b
			}
			return b, a
		}
		if c == White {
			return b, a
		}
		return a, b
	}
	ca, sa := a.pref()
	cb, sb := b.pref()
	switch {
	case sa == prefNone && sb == prefNone:
		c := e.InitialColour
		if a.seed%2 == 0 {
			c = c.Opposite()
		}
		return give(a, c)
	case sa == prefNone:
		return give(b, cb)
	case sb == prefNone:
		return give(a, ca)
	case ca != cb:
		return give(a, ca)
	case sa != sb:
		if sa > sb {
			return give(a, ca)
		}
		return give(b, cb)
	}
	if sa == prefAbsolute {
		da, db := abs(a.cd()), abs(b.cd())
		if da > db {
			return give(a, ca)
		}
		if db > da {
			return give(b, cb)
		}
	}
	// E.3: walk back through the games both played.
	for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a.colours[i] != b.colours[j] {
			return give(a, a.colours[i].Opposite())
		}
	}
	return give(a, ca)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
