package search

import (
	"fmt"
	"time"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// Approach is one of the paper's three searches.
type Approach uint8

// The approaches of the paper, section 5.
const (
	// ApproachC evaluates each new node once, by the probability-weighted
	// value of the referee's answers (k = 1), and backs up the maximum.
	ApproachC Approach = iota
	// ApproachB simulates K moves of referee messages from the belief and
	// backs up the mean.
	ApproachB
	// ApproachA samples concrete boards from the belief and plays
	// pseudo-random games on them, backing up the mean.
	ApproachA
)

// String returns "a", "b" or "c".
func (a Approach) String() string {
	switch a {
	case ApproachA:
		return "a"
	case ApproachB:
		return "b"
	}
	return "c"
}

// ParseApproach reads "a", "b" or "c".
func ParseApproach(s string) (Approach, error) {
	switch s {
	case "a", "A":
		return ApproachA, nil
	case "b", "B":
		return ApproachB, nil
	case "c", "C":
		return ApproachC, nil
	}
	return 0, fmt.Errorf("search: unknown approach %q (want a, b or c)", s)
}

// Config sets up a Searcher.
type Config struct {
	Approach Approach
	// Threads is the number of goroutines that search the trees in
	// parallel (root parallelism).
	Threads int
	// Trees is the number of independent trees, their root statistics summed
	// for the choice; 0 means one per thread. A thread with several takes
	// them in turns, each with its share of the budget.
	Trees int
	// Exploration is UCT's constant c, in pawns: the bonus a child gets for
	// being little visited.
	Exploration float64
	// K is approach B's simulation length in moves.
	K int
	// MemoryMB caps each tree's node and state pools; a tree that fills them
	// is pruned and the search goes on.
	MemoryMB int
	// Solver backs up proven wins and draws as exact values (approach C).
	Solver bool
	// Mix is the weight, 0 to 1, of the visit-weighted mean of a decision
	// node's attempts in its backed-up value; the rest is their maximum (the
	// paper's max backup is 0).
	Mix float64
	// Tempo is the value, in pawns, of having the move: a decision node
	// reached by the opponent's reply backs up its best attempt less Tempo,
	// never below its static value (see backup). 0 backs up the maximum.
	Tempo float64
	// Widen forces each root attempt to widen·√N visits (N the root's)
	// before UCT chooses among them; 0 leaves the root to UCT.
	Widen float64
	// MateThreat is the chance that the opponent finds a mate in one that
	// it has, for approach C's root (see countMates); 0 does not look.
	// ThreatBoards is the number of boards drawn from the belief to count
	// the mates on, or with ItersPerBoard the least number: then the count
	// is one board for each ItersPerBoard iterations the search may run
	// (Searcher.threatBoards).
	// OwnMates adds, on the same boards, the chance that each root attempt
	// mates (the answers know mate only against a bare king).
	MateThreat    float64
	ThreatBoards  int
	ItersPerBoard int
	OwnMates      bool
	// Critical lets a search on a clock plan to the plan's Max instead of
	// its soft budget where the root's choice is critical (see critical).
	// Off by default: on against off at 10+0.1 scored 48.8 % over 120
	// games (docs/strength.md, round 11).
	Critical bool
	// Shield is the value, in pawns, of each pawn before our king on a
	// wing (pawnShield) while the opponent has 4 or more units. Off by
	// default: 53.1 % over 600 games at 2,000 nodes (docs/strength.md,
	// round 12).
	Shield float64
	// Repeat is, under rules that draw a position repeated three times,
	// the chance that a quiet root attempt placing our men as they stood
	// twice before repeats the whole position (a draw); with k times more
	// it is 1-(1-Repeat)^(k+1) (repetition.go). 0 does not look. 1 (the
	// default) beat 0.5 at 100 ms (docs/strength.md, round 17).
	Repeat float64
	// ReplyChecks adds to the opponent's replies in the tree the checks
	// its move may give our king (checkReplies). Off by default: 48.2 %
	// over 200 games at 2,000 nodes (docs/strength.md, round 18).
	ReplyChecks bool
	// DeepDrops offers, in crazykrieg, the root's kept drops again at our
	// turns below the root while the man is in our pocket (drops.go).
	DeepDrops bool
	// Samples is approach A's number of boards drawn from the belief per
	// search; Playout bounds its playouts in plies.
	Samples, Playout int
	// Seed is the source of all randomness.
	Seed uint64
}

// DefaultConfig returns approach C with one thread.
func DefaultConfig() Config {
	return Config{
		Approach:      ApproachC,
		Threads:       1,
		Exploration:   0.3,
		K:             1,
		MemoryMB:      32,
		Solver:        true,
		Tempo:         1,
		Samples:       64,
		Playout:       40,
		MateThreat:    0.5,
		ThreatBoards:  32,
		ItersPerBoard: 32,
		OwnMates:      true,
		Repeat:        1,
		DeepDrops:     true,
	}
}

// MaxThreatBoards bounds the boards a search counts the root's mates on.
const MaxThreatBoards = 4096

// MaxTrees bounds the threads and the trees of a search.
const MaxTrees = 256

// MaxRecordedIterations bounds a recorded search's iterations, and each
// tree's: far above any search on a clock (a day at a million a second is
// 2^36), low enough that 256 trees' counts cannot overflow their sum.
const MaxRecordedIterations = 1 << 40

// CheckRecorded reports whether a search's record could be this package's:
// iterations in 0..MaxRecordedIterations, trees (each tree's iterations,
// nil for one tree) at most MaxTrees, each in that range and summing to
// iterations, and boards in 0..MaxThreatBoards (0: none counted, or a record
// from before the count was sized). Readers of records and match files
// check what a replay will hand back to a search (Limits.Trees,
// Limits.Boards).
func CheckRecorded(iterations int64, trees []int64, boards int) error {
	if iterations < 0 || iterations > MaxRecordedIterations {
		return fmt.Errorf("%d iterations not in 0..%d", iterations, int64(MaxRecordedIterations))
	}
	if len(trees) > MaxTrees {
		return fmt.Errorf("%d trees, more than %d", len(trees), MaxTrees)
	}
	var sum int64
	for i, n := range trees {
		if n < 0 || n > MaxRecordedIterations {
			return fmt.Errorf("tree %d: %d iterations not in 0..%d", i+1, n, int64(MaxRecordedIterations))
		}
		sum += n
	}
	if trees != nil && sum != iterations {
		return fmt.Errorf("the trees' iterations sum to %d, not %d", sum, iterations)
	}
	if boards < 0 || boards > MaxThreatBoards {
		return fmt.Errorf("%d boards not in 0..%d", boards, MaxThreatBoards)
	}
	return nil
}

// Check reports a configuration that cannot work.
func (c Config) Check() error {
	switch {
	case c.Approach > ApproachA:
		return fmt.Errorf("search: unknown approach %d", c.Approach)
	case c.Threads < 1 || c.Threads > MaxTrees:
		return fmt.Errorf("search: threads %d not in 1..%d", c.Threads, MaxTrees)
	case c.Trees != 0 && (c.Trees < c.Threads || c.Trees > MaxTrees):
		return fmt.Errorf("search: trees %d not in threads (%d)..%d", c.Trees, c.Threads, MaxTrees)
	case !(c.Exploration >= 0 && c.Exploration <= 100):
		return fmt.Errorf("search: exploration %g not in 0..100", c.Exploration)
	case !(c.Widen >= 0 && c.Widen <= 100):
		return fmt.Errorf("search: widen %g not in 0..100", c.Widen)
	case !(c.Shield >= 0 && c.Shield <= 2):
		return fmt.Errorf("search: shield %g not in 0..2", c.Shield)
	case !(c.MateThreat >= 0 && c.MateThreat <= 1):
		return fmt.Errorf("search: mate threat %g not in 0..1", c.MateThreat)
	case (c.MateThreat > 0 || c.OwnMates) && (c.ThreatBoards < 1 || c.ThreatBoards > MaxThreatBoards):
		return fmt.Errorf("search: threat boards %d not in 1..%d", c.ThreatBoards, MaxThreatBoards)
	case c.ItersPerBoard < 0 || c.ItersPerBoard > 1<<20:
		return fmt.Errorf("search: iterations per board %d not in 0..%d", c.ItersPerBoard, 1<<20)
	case !(c.Tempo >= 0 && c.Tempo <= 10):
		return fmt.Errorf("search: tempo %g not in 0..10", c.Tempo)
	case !(c.Repeat >= 0 && c.Repeat <= 1):
		return fmt.Errorf("search: repeat %g not in 0..1", c.Repeat)
	case !(c.Mix >= 0 && c.Mix <= 1):
		return fmt.Errorf("search: mix %g not in 0..1", c.Mix)
	case c.K < 1 || c.K > 100:
		return fmt.Errorf("search: k %d not in 1..100", c.K)
	case c.MemoryMB < 1 || c.MemoryMB > 1<<16:
		return fmt.Errorf("search: memory %d MB not in 1..65536", c.MemoryMB)
	case c.Approach == ApproachA && (c.Samples < 1 || c.Samples > 1<<16 || c.Playout < 0 || c.Playout > 2000):
		return fmt.Errorf("search: approach A needs 1..65536 samples and 0..2000 playout plies")
	}
	return nil
}

// TreeCount is the number of trees.
func (c Config) TreeCount() int {
	if c.Trees > 0 {
		return c.Trees
	}
	return c.Threads
}

// Limits bound one search. The context's deadline is the hard limit.
type Limits struct {
	// Nodes is the number of iterations over all trees (0: no bound). With
	// Nodes set and Time zero the result depends on the seed alone.
	Nodes int64
	// Time is the thinking time to aim for (0: no bound). The search stops
	// earlier once its choice cannot change in the time left, and with
	// MaxTime past Time goes on to MaxTime while the choice is open (see
	// timeUp).
	Time, MaxTime time.Duration
	// Trees, when it has one entry per tree, is the exact number of
	// iterations each tree runs (0: none), instead of Nodes and Time: a
	// search on a clock with several trees is repeated exactly from its
	// Searcher.TreeIterations (each tree stopped at its own count).
	Trees []int64
	// Boards, when not 0, is the number of boards the root counts its mate
	// chances on, a recorded search's (Result.Boards), instead of the number
	// sized to the search's work: a replay repeats the count exactly.
	Boards int
}

// bareExploration multiplies the UCT constant against a bare king when our
// mating men are a rook or minor pieces (no queen). There the values span the
// pawns between the won ending (evalParams.bareWon less the gap) and a mate,
// and a child searched deeper finds mate chances its siblings' k = 1 values
// cannot show: with the middlegame constant the first child to look better
// took nearly every visit (11,972 of 12,000 in one position). KR-K drills
// with the king hidden, 50 games at 3,000 nodes (bareWon 80): ×1 22 % mated,
// ×5 78 %, ×10 80 % (slower), ×30 62 %. With a queen ×10 did worse (100 % in
// 67 plies -> 92 % in 149) and pawn endings gained nothing (66 % -> 68 %,
// slower): there the constant stays. At bareWonEnding the span is less than
// half as wide (K+R 11 pawns below a mate, not 26), yet ×2.5 did worse than
// ×5 (1,000 nodes, seeds 23 and 24: 7 ply caps in 50 drills and 7 in the next
// 34, against 4 and 2 in 50 each; docs/strength.md, round 15).
const bareExploration = 5

// exploration is the UCT constant for a search from root.
func exploration(cfg *Config, root *belief.State) float64 {
	if root.Units() != 0 || root.Own(chess.Queen) != 0 ||
		root.Own(chess.Rook)|root.Own(chess.Bishop)|root.Own(chess.Knight) == 0 {
		return cfg.Exploration
	}
	return cfg.Exploration * bareExploration
}
