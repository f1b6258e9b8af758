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
