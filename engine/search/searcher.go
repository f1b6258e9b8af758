package search

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/stoprule"
	"kriegbot/engine/umpire"
)

// Searcher searches one game's decisions. It keeps its trees between calls
// for reuse; it is used by one goroutine at a time (it runs its own for the
// trees).
type Searcher struct {
	cfg    Config
	params oppmodel.Params
	trees  []*tree
	// rooted says the trees hold a root for the current decision: set by a
	// search, kept by Refused and Played when they could reuse the trees,
	// cleared by the next search otherwise.
	rooted bool
	// set is what the trees read of the configuration and the game.
	set treeSettings
	// rep is the game's history of our men, for the repetition rule.
	rep repetitions
	// reuse says Refused or Played moved the roots since the last search.
	reuse bool
	// visits and values summed over the trees, per root child.
	visits []int64
	values []float64
	// rootMoves, drops and dropState are keepDrops' scratch (drops.go).
	rootMoves []chess.Move
	drops     []scoredDrop
	dropState *stateEntry
	// live counts the current search's iterations for Progress, readable
	// from other goroutines while the search runs.
	live atomic.Int64
	// rate is the iterations a second of the recent searches on this
	// machine (0 before the first), to size a clocked search's mate count
	// (threatBoards). It follows the wall clock: a search records the count
	// it made (Result.Boards), and a replay repeats that, not the rate.
	rate float64
}

// Result is the outcome of one search.
type Result struct {
	// Move is the attempt chosen: a proven win if there is one, else the
	// root child most visited over all trees.
	Move chess.Move
	// Value is Move's value in pawns (mean over the trees).
	Value float64
	// Proven says Move's value is exact (a forced win or draw).
	Proven bool
	// Iterations is the number of iterations run over all trees.
	Iterations int64
	// Visits is Move's visit count over all trees.
	Visits int64
	// Nodes is the number of nodes held by the trees.
	Nodes int64
	// Prunes is the number of times the trees' pools filled up and their
	// least visited subtrees were collapsed to make room (see prune.go).
	Prunes int64
	// Critical says the search on a clock planned to its Max (see
	// critical).
	Critical bool
	// Boards is the number of boards the root counted its mate chances on
	// (0: none): a replay repeats the count with Limits.Boards.
	Boards int
}

// TreeIterations appends to dst the iterations each tree ran in the last
// search (they sum to its Result.Iterations): a search on a clock is
// repeated exactly with them as Limits.Trees.
func (s *Searcher) TreeIterations(dst []int64) []int64 {
	for _, t := range s.trees {
		dst = append(dst, t.iters)
	}
	return dst
}

// New makes a Searcher; prior supplies the opponent model's constants.
func New(cfg Config, prior belief.Prior) (*Searcher, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if prior == nil {
		prior = belief.UniformPrior{}
	}
	s := &Searcher{cfg: cfg, params: prior.Params()}
	s.set.shield, s.set.replyChecks = float32(cfg.Shield), cfg.ReplyChecks
	s.visits = make([]int64, maxChildren)
	s.values = make([]float64, maxChildren)
	s.rootMoves = make([]chess.Move, 0, maxChildren)
	s.drops = make([]scoredDrop, 0, maxChildren)
	s.dropState = &stateEntry{}
	s.set.drops = make([]chess.Move, 0, maxChildren)
	return s, nil
}

// Config returns the searcher's configuration.
func (s *Searcher) Config() Config { return s.cfg }

// alloc makes the trees on first use (their pools are large).
func (s *Searcher) alloc() {
	if s.trees != nil {
		return
	}
	s.trees = make([]*tree, s.cfg.TreeCount())
	for i := range s.trees {
		t := newTree(s.cfg.MemoryMB, 0)
		t.set = &s.set
		t.src.Seed(treeSeed(s.cfg.Seed, i), treeSeed(s.cfg.Seed, i)^0x6a09e667f3bcc909)
		s.trees[i] = t
	}
}

// treeSeed gives tree i its own stream (splitmix64 of seed and i).
func treeSeed(seed uint64, i int) uint64 {
	return chess.Mix64(seed + uint64(i+1)*0x9e3779b97f4a7c15)
}

// NewGame forgets the trees and reseeds them with seed for a game under
// rules (whether they draw repeated positions or 50 quiet moves changes the
// valuation against a bare king: evalFor).
func (s *Searcher) NewGame(seed uint64, rules umpire.Rules) {
	s.cfg.Seed = seed
	s.rooted = false
	s.set.drawRules = rules.Repetition || rules.FiftyMoves
	s.set.hand, s.set.stalemate = 0, drawValue
	if rules.Variant.StalemateLoses {
		s.set.stalemate = winValue
	}
	if rules.Variant.Drops {
		s.set.hand = handShare
	}
	s.rep.reset(rules.Repetition, s.cfg.Repeat)
	for i, t := range s.trees {
		t.src.Seed(treeSeed(seed, i), treeSeed(seed, i)^0x6a09e667f3bcc909)
	}
}

// Refused tells the searcher that the referee refused root attempt m and
// that bel is the belief after it. The root moves to the tree's "Illegal
// move" node below m, whose subtree was searched on that belief; the other
// attempts' statistics at the old root were not, and kept, they never
// learnt what the refusal told: their answers' chances stayed those of the
// belief before it (a rook check that the refused king step had made 59 %
// likely to meet the king next to the rook went on being valued at 13 %,
// and the rook was lost; docs/strength.md, round 14). With no such node,
// or one whose belief cannot stand for bel, the next search starts afresh.
func (s *Searcher) Refused(m chess.Move, bel *belief.State) {
	if !s.rooted {
		return
	}
	s.moveRoots(bel, func(t *tree) int32 { return t.refusal(m) })
}

// moveRoots makes node next(t) of each tree its root, with belief bel; where
// a tree has no such node, or one whose belief cannot stand for bel, the next
// search starts afresh.
func (s *Searcher) moveRoots(bel *belief.State, next func(t *tree) int32) {
	for _, t := range s.trees {
		n := next(t)
		if n < 0 || !t.agrees(n, bel) {
			s.rooted = false
			return
		}
		t.reroot(n)
		if !t.setState(0, bel) {
			s.rooted = false
			return
		}
		t.nodes[0].illegal = false
		t.nodes[0].flags &^= fSolved | fCollapsed
	}
	s.reuse = true
}

// refusal finds the "Illegal move" node below root attempt m, or -1.
func (t *tree) refusal(m chess.Move) int32 {
	return t.childWhere(t.rootAttempt(m), func(n *node) bool { return n.illegal })
}

// rootAttempt returns the root's child for attempt m, unless pruned, or -1.
func (t *tree) rootAttempt(m chess.Move) int32 {
	return t.childWhere(0, func(n *node) bool { return n.move == m && n.flags&fPruned == 0 })
}

// childWhere returns node i's first child for which ok holds, or -1 (also
// for i < 0, so that lookups chain).
func (t *tree) childWhere(i int32, ok func(*node) bool) int32 {
	if i < 0 || t.nodes[i].first < 0 {
		return -1
	}
	n := &t.nodes[i]
	for c := n.first; c < n.first+int32(n.nchild); c++ {
		if ok(&t.nodes[c]) {
			return c
		}
	}
	return -1
}

// Played tells the searcher our attempt m was accepted with answer ours and
// the opponent replied with what we heard, theirs; bel is the belief now. The
// subtree below what was heard becomes the root where the tree has it.
func (s *Searcher) Played(m chess.Move, ours, theirs umpire.View, bel *belief.State) {
	s.rep.played(m, ours.Capture.Kind != umpire.NoCapture, theirs.Capture.Kind != umpire.NoCapture)
	if !s.rooted || s.cfg.Approach == ApproachA {
		s.rooted = false
		return
	}
	s.moveRoots(bel, func(t *tree) int32 { return t.follow(m, ours, theirs) })
}

// agrees reports whether decision node i's belief can stand for bel, the
// belief after what was really heard: the tree's belief heard less (no pawn
// tries), so every square where bel places an opponent man must be in its
// supports, and the unit counts must match. A subtree built on a belief
// that lost the bare king (no square left for it) valued every attempt the
// same, and reused move after move it kept a queen, bishop and knight
// shuffling their king for 450 plies.
func (t *tree) agrees(i int32, bel *belief.State) bool {
	st := t.nodes[i].state
	if st < 0 {
		return true // no belief yet: computed from the new root's
	}
	tb := &t.states[st].bel
	if tb.Units() != bel.Units() {
		return false
	}
	for _, c := range [...]oppmodel.Class{oppmodel.King, oppmodel.Pawn, oppmodel.Piece} {
		if bel.Support(c)&^tb.Support(c) != 0 {
			return false
		}
	}
	return true
}

// follow finds the decision node reached from the root by attempt m, answer
// ours and reply theirs, or -1.
func (t *tree) follow(m chess.Move, ours, theirs umpire.View) int32 {
	b := t.childWhere(t.rootAttempt(m), func(n *node) bool {
		return n.kind == answer && n.capture == ours.Capture.Kind && n.check == ours.Checks[0]
	})
	if theirs.Capture.Kind == umpire.NoCapture && theirs.Checks[0] != chess.NoCheck {
		// A check the tree foresaw; else the silent reply, as before the
		// tree had checks (the new root's belief replaces its own).
		if c := t.childWhere(b, func(n *node) bool {
			return n.kind == decision && n.square == chess.NoSquare && n.check == theirs.Checks[0]
		}); c >= 0 {
			return c
		}
	}
	return t.childWhere(b, func(n *node) bool {
		if n.kind != decision {
			return false // a reply found impossible: not this one
		}
		if theirs.Capture.Kind == umpire.NoCapture {
			return n.square == chess.NoSquare && n.check == chess.NoCheck
		}
		return n.square == theirs.Capture.Square
	})
}

// rescore recomputes decision node i's value from its unpruned children.
func (t *tree) rescore(i int32) {
	n := &t.nodes[i]
	best := float32(math.Inf(-1))
	for c := n.first; n.first >= 0 && c < n.first+int32(n.nchild); c++ {
		ch := &t.nodes[c]
		if ch.flags&fPruned == 0 && ch.visits > 0 {
			best = max(best, t.childValue(i, c))
		}
	}
	if !math.IsInf(float64(best), -1) {
		n.value = best
	}
}

// root prepares every tree's root for belief bel and the askable attempts
// moves (in this order: the trees' root children line up by index).
func (s *Searcher) root(bel *belief.State, moves []chess.Move) bool {
	s.alloc()
	keep := s.rooted && s.reuse
	s.reuse = false
	for _, t := range s.trees {
		t.prunes = 0
		// A tree valued for another root (the opponent has just lost
		// its last man) starts afresh: its values are not this one's.
		if !keep || t.eval != evalFor(bel, t.set) || t.full() && !t.prune() || !t.setState(0, bel) {
			t.reset(bel)
		}
		if !t.rootChildren(moves) {
			t.reset(bel)
			if !t.rootChildren(moves) {
				return false
			}
		}
	}
	s.rooted = true
	return true
}

// rootChildren makes the root's children exactly moves, keeping the
// statistics and subtrees of those already there.
func (t *tree) rootChildren(moves []chess.Move) bool {
	r := &t.nodes[0]
	if r.first >= 0 && int(r.nchild) == len(moves) {
		same := true
		for j, m := range moves {
			ch := &t.nodes[r.first+int32(j)]
			if ch.move != m || ch.flags&fPruned != 0 {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	oldFirst, oldN := r.first, int32(r.nchild)
	if !t.addAttempts(0, moves) {
		return false
	}
	r = &t.nodes[0]
	if oldFirst >= 0 {
		for j := r.first; j < r.first+int32(r.nchild); j++ {
			for o := oldFirst; o < oldFirst+oldN; o++ {
				if t.nodes[o].move == t.nodes[j].move && t.nodes[o].flags&fPruned == 0 {
					t.nodes[j] = t.nodes[o]
					break
				}
			}
		}
	}
	r.visits = 0
	for j := r.first; j < r.first+int32(r.nchild); j++ {
		r.visits += t.nodes[j].visits
	}
	r.flags &^= fSolved | fCollapsed
	t.rescore(0)
	return true
}

// Search chooses an attempt from belief bel among moves (the askable
// attempts, none refused), within lim and ctx. It returns at once when ctx
// is done, with the best attempt found so far.
func (s *Searcher) Search(ctx context.Context, bel *belief.State, moves []chess.Move, lim Limits) Result {
	if len(moves) == 0 {
		return Result{}
	}
	moves = s.keepDrops(bel, moves)
	if len(moves) > maxChildren {
		moves = moves[:maxChildren]
	}
	s.setDeepDrops(moves)
	s.rep.root(bel, moves)
	if !s.root(bel, moves) {
		return Result{Move: moves[0]}
	}
	n := len(s.trees)
	if len(lim.Trees) == n {
		lim.Time = 0 // exact counts per tree: no clock
	}
	start := time.Now()
	s.live.Store(0)
	done := ctx.Done()
	stop := func(t *tree) bool {
		select {
		case <-done:
			return true
		default:
		}
		return lim.Time > 0 && t.timeUp(time.Since(start), &lim)
	}
	count := s.cfg.Approach == ApproachC && (s.cfg.MateThreat > 0 || s.cfg.OwnMates)
	for _, t := range s.trees {
		t.threat, t.mates, t.counts = t.threat[:0], t.mates[:0], t.counts[:0]
		t.repeat = s.rep.chance
		if !count && len(t.repeat) > 0 {
			t.rescore(0)
		}
	}
	boards := 0
	if count {
		boards = s.threatBoards(lim)
	}
	s.parallel(func(i int, t *tree) { s.prepare(t, i, bel, moves, boards) })
	s.mergeCounts(bel, count)
	planned := lim.Time
	lim = s.horizon(bel, moves, lim)
	counted := time.Now()
	s.runTrees(func(i int) (int64, bool) { return lim.share(i, n) }, stop)
	res := s.result(moves)
	res.Critical = lim.Time != planned
	res.Boards = boards
	s.live.Store(res.Iterations)
	s.measureRate(res.Iterations, time.Since(counted))
	return res
}

// threatBoards is the number of boards the search bounded by lim counts
// the root's mates on: lim.Boards when it repeats a recorded search, else
// Config.ThreatBoards, or with Config.ItersPerBoard one board for each
// ItersPerBoard iterations the search may run (its Nodes, or its Time at
// the recent rate), ThreatBoards at least and MaxThreatBoards at most.
//
// On 32 boards, an attempt that leaves a mate in one on 1 of them has a
// 1.6 % chance of being mated (at threat 0.5), 1.6 pawns off its value:
// one board decided between attempts whose values differ by tenths of a
// pawn, and two trees differing only in their seed chose different
// attempts in a third of the positions, at 2,000 iterations as at 8,000.
// 512 boards against 32 scored 57.4 % over 400 games at 2,000 nodes and
// 54.4 % over 195 at 100 ms. The count must come before the iterations
// (boards drawn during the search won nothing: the values the first
// iterations see decide which attempt leads), and a board costs a few
// iterations (three or four in games, more in BenchmarkRootThreats' random
// middlegames), so the count is sized to the search's work: at one board per
// 32 iterations some 400-600 boards at 100 ms an attempt, about a tenth of
// its time (docs/strength.md, rounds 19 and 20).
func (s *Searcher) threatBoards(lim Limits) int {
	if lim.Boards > 0 {
		return min(lim.Boards, MaxThreatBoards)
	}
	least := s.cfg.ThreatBoards
	if s.cfg.ItersPerBoard == 0 {
		return least
	}
	work := lim.Nodes
	if lim.Time > 0 && len(lim.Trees) == 0 {
		// Unknown before the first search's rate: the least count.
		clocked := int64(lim.Time.Seconds() * s.rate)
		if work == 0 || clocked < work {
			work = clocked
		}
	}
	return int(min(max(work/int64(s.cfg.ItersPerBoard), int64(least)), MaxThreatBoards))
}

// measureRate folds a search's iterations in elapsed into the recent rate
// (searches shorter than rateFloor say too little to count).
func (s *Searcher) measureRate(iterations int64, elapsed time.Duration) {
	if elapsed < rateFloor || iterations <= 0 {
		return
	}
	r := float64(iterations) / elapsed.Seconds()
	if s.rate == 0 {
		s.rate = r
		return
	}
	s.rate += (r - s.rate) / 4
}

// rateFloor is the shortest search measureRate counts.
const rateFloor = 2 * time.Millisecond

// parallel calls f for every tree, on Config.Threads goroutines (see
// threads), and waits.
func (s *Searcher) parallel(f func(i int, t *tree)) {
	s.threads(func(k int) {
		for i := k; i < len(s.trees); i += s.cfg.Threads {
			f(i, s.trees[i])
		}
	})
}

// threads calls f(k) for k from 0 to Config.Threads-1, each on its own
// goroutine (on this one when there is one thread), and waits. Goroutine k
// has trees k, k+Threads, ...
func (s *Searcher) threads(f func(k int)) {
	if s.cfg.Threads == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for k := range s.cfg.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k)
		}()
	}
	wg.Wait()
}

// prepare draws tree i's boards for this search: approach A's boards to play
// on, or its share of approach C's boards to count the mates of the root
// attempts on (boards in all, none when 0; the trees share the count, so
// that two threads pay half of it each). Every search counts, an emergency
// one too, on as many boards as its work allows (threatBoards).
func (s *Searcher) prepare(t *tree, i int, bel *belief.State, moves []chess.Move, boards int) {
	switch {
	case s.cfg.Approach == ApproachA:
		t.sampleBoards(bel, s.cfg.Samples)
	case boards > 0:
		n := int(budget(int64(boards), i, len(s.trees)))
		t.countMates(bel, moves, n, s.cfg.MateThreat > 0)
	}
}

// mergeCounts sums the trees' mate counts and gives every tree the root
// values they make.
func (s *Searcher) mergeCounts(bel *belief.State, count bool) {
	if !count {
		return
	}
	t0 := s.trees[0]
	boards := len(t0.boards)
	for _, t := range s.trees[1:] {
		boards += len(t.boards)
		for j, c := range t.counts {
			t0.counts[j].legal += c.legal
			t0.counts[j].mated += c.mated
			t0.counts[j].won += c.won
		}
	}
	for _, t := range s.trees {
		t.setMates(bel, t0.counts, boards, s.cfg.MateThreat, s.cfg.OwnMates)
	}
}

// budget is tree i's share of nodes over n trees (0: unbounded).
func budget(nodes int64, i, n int) int64 {
	if nodes <= 0 {
		return 0
	}
	b := nodes / int64(n)
	if int64(i) < nodes%int64(n) {
		b++
	}
	return max(b, 1)
}

// share is tree i's iterations of n trees under lim (0: no bound): its
// recorded count when lim.Trees has one per tree (skip when that is 0),
// else its share of lim.Nodes.
func (lim *Limits) share(i, n int) (nodes int64, skip bool) {
	if len(lim.Trees) == n {
		return lim.Trees[i], lim.Trees[i] <= 0
	}
	return budget(lim.Nodes, i, n), false
}

// checkEvery is how many iterations pass between looks at the clock.
const checkEvery = 16

// runTrees searches every tree: share(i) is tree i's iterations (0: no
// bound) or skip, the tree does not search this time. Config.Threads
// goroutines share the trees, goroutine k trees k, k+Threads, ..., and take
// them in turns of checkEvery iterations: on a clock each tree gets an equal
// share of its goroutine's time, and a tree's iterations do not depend on
// the others', so a search is repeated exactly from each tree's count.
func (s *Searcher) runTrees(share func(i int) (nodes int64, skip bool), stop func(*tree) bool) {
	s.threads(func(k int) {
		left := 0
		for i := k; i < len(s.trees); i += s.cfg.Threads {
			t := s.trees[i]
			var skip bool
			t.budget, skip = share(i)
			t.iters, t.running = 0, !skip
			if t.running {
				t.explore = exploration(&s.cfg, t.rootState())
				left++
			}
		}
		for left > 0 {
			for i := k; i < len(s.trees); i += s.cfg.Threads {
				if t := s.trees[i]; t.running && s.slice(t, t.budget, stop) {
					t.running = false
					left--
				}
			}
		}
	})
}

// slice iterates on tree t up to its next look at the clock (every
// checkEvery iterations) and reports whether its search is over: its budget
// or the clock ended it, or the root is solved. When the pools fill up the
// tree is pruned; only when pruning cannot free room does the search stop
// early.
func (s *Searcher) slice(t *tree, nodes int64, stop func(*tree) bool) bool {
	cfg := &s.cfg
	for first := true; ; first = false {
		if nodes > 0 && t.iters >= nodes {
			return true
		}
		// At least checkEvery iterations: a search on the clock that
		// the root's mate count left no time still searches, so that its
		// replay with the recorded iteration count (never 0) is the same.
		if t.iters > 0 && t.iters%checkEvery == 0 {
			if !first {
				return false // the look is the next slice's
			}
			s.live.Add(checkEvery)
			if stop(t) {
				return true
			}
		}
		if t.nodes[0].flags&fSolved != 0 {
			return true
		}
		if k := len(t.prefix); k > 0 && t.nodes[t.prefix[k-1]].flags&fSolved != 0 {
			return true // pondering: every reply is proven
		}
		if t.full() {
			// Look at the clock before a prune, never after it: a search
			// stopped here leaves its tree unpruned, as does its replay,
			// which stops at the loop's top with the recorded iteration
			// count. Stopped after the prune, the live tree was pruned
			// and the replayed one not, and the next search, which reuses
			// the tree, differed (a prune takes milliseconds, so on a
			// clock one search in thirty or so stopped there).
			if t.iters > 0 && stop(t) || !t.prune() {
				return true
			}
		}
		var ok bool
		if cfg.Approach == ApproachA {
			ok = t.iterateA(cfg)
		} else {
			ok = t.iterate(cfg)
		}
		if !ok {
			return true
		}
		t.iters++
	}
}

// result sums the trees' root statistics and picks the attempt.
func (s *Searcher) result(moves []chess.Move) Result {
	nm := len(moves)
	res := Result{Move: moves[0]}
	for j := range nm {
		s.visits[j], s.values[j] = 0, 0
	}
	provenAt := -1
	for _, t := range s.trees {
		res.Iterations += t.iters
		res.Nodes += int64(t.nn)
		res.Prunes += t.prunes
		r := &t.nodes[0]
		for j := range nm {
			ch := &t.nodes[r.first+int32(j)]
			s.visits[j] += int64(ch.visits)
			s.values[j] += float64(ch.value)
			if ch.flags&fSolved != 0 && ch.value >= winValue && ch.flags&fPruned == 0 {
				provenAt = j
			}
		}
	}
	best := 0
	for j := 1; j < nm; j++ {
		if s.visits[j] > s.visits[best] || s.visits[j] == s.visits[best] && s.values[j] > s.values[best] {
			best = j
		}
	}
	if provenAt >= 0 {
		best = provenAt
		res.Proven = true
	} else {
		best = s.notRepeating(best, nm)
	}
	res.Move = moves[best]
	res.Visits = s.visits[best]
	res.Value = s.values[best] / float64(len(s.trees))
	return res
}

// timeUp is the time manager's stop rule (engine/search/stoprule) for tree
// t, el into a search on the clock (lim.Time > 0), looked at every
// checkEvery iterations. The rule reads the tree and the clock only; a
// search it stops is repeated exactly from the iterations each tree ran.
func (t *tree) timeUp(el time.Duration, lim *Limits) bool {
	r := stoprule.Root{Iterations: t.iters}
	if lim.MaxTime != 0 {
		best, second, open := t.rootLead()
		r.Best, r.Second, r.Open = int64(best), int64(second), open
	}
	return stoprule.TimeUp(el, lim.Time, lim.MaxTime, r)
}

// Where a position is critical. A search on a clock plans to its Plan.Max
// instead of its soft budget (the stop rule's horizon, see timeUp) when the
// root's choice decides more than a little material: the attempts differ by
// at least criticalMate in the chance of being mated at once or one may
// mate with that chance (the mate counts, countMates), we are in check (the
// escapes decide the game), or an attempt takes a man with at least
// criticalCapture (a recapture, a capture on a pawn try). The extra time
// comes out of later moves: the time manager shares what is left of the
// clock anew at each attempt.
const (
	criticalMate    = 0.05 // about 3 of 32 boards at threat 0.5
	criticalCapture = 0.5
)

// horizon is lim with a clock's soft budget raised to its Max where the
// root is critical (after the mates are counted). A search repeated from
// recorded counts (no Time) is left alone.
func (s *Searcher) horizon(bel *belief.State, moves []chess.Move, lim Limits) Limits {
	if s.cfg.Critical && lim.Time > 0 && lim.MaxTime > lim.Time && s.trees[0].critical(bel, moves) {
		lim.Time = lim.MaxTime
	}
	return lim
}

// critical reports whether tree t's root (belief bel, attempts moves, its
// mates counted) is critical.
func (t *tree) critical(bel *belief.State, moves []chess.Move) bool {
	if bel.Checks()[0] != chess.NoCheck {
		return true
	}
	lo, hi := float32(1), float32(0)
	for j := range t.threat {
		lo, hi = min(lo, t.threat[j]), max(hi, t.threat[j])
		if t.mates[j] >= criticalMate {
			return true
		}
	}
	if hi-lo >= criticalMate {
		return true
	}
	for _, mv := range moves {
		if pawn, piece := bel.ProbCapture(mv); pawn+piece >= criticalCapture {
			return true
		}
	}
	return false
}

// rootLead returns the visits of the root's two most visited attempts that
// are still open (not refused, not proven) and how many are open.
func (t *tree) rootLead() (best, second int32, open int) {
	r := &t.nodes[0]
	for c := r.first; r.first >= 0 && c < r.first+int32(r.nchild); c++ {
		n := &t.nodes[c]
		if n.flags&(fPruned|fSolved) != 0 {
			continue
		}
		open++
		switch {
		case n.visits > best:
			best, second = n.visits, best
		case n.visits > second:
			second = n.visits
		}
	}
	return best, second, open
}
