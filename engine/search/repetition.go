package search

import (
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
)

// Repetition draws at the root. Under rules that draw a position occurring
// for the third time (the Olympiad's, the embedded server's default) the
// tree knows no such draw, and a search far ahead shuffled a rook between
// two squares while the opponent's bishop shuffled too, until the referee
// called the game drawn (11 of 100 games against the heuristic at 1,000
// nodes, docs/strength.md round 17). The position is the same only if our
// men are, which we know exactly: the game's OwnKeys since the last capture
// or pawn move we know of are kept, and a root attempt that would place our
// men a third time as they stood twice before (with the opponent to move
// after it, or with us to move after a reply that takes nothing) is a
// draw with the chance Config.Repeat, times the chance that it is legal and
// takes nothing. The opponent's men are not known, so this is a guess, and
// a cautious one by default (1): a lead is rarely short of other squares,
// while at 0.5 a lottery for the opponent's last man (a knight shuffled
// b1-a3 at 25 to 33 pawns, the quiet moves at 4) was still worth the
// draw (docs/strength.md, round 17). The guess is trusted to keep a lead,
// never to play for a draw: only a value above a draw is pulled toward it.

// repetitions is the game's history of our men for the repetition rule.
type repetitions struct {
	// on says the game's rules draw a position repeated three times;
	// first is Config.Repeat.
	on    bool
	first float64
	// keys holds belief.OwnKey of every position since the last move we
	// know to have started the count afresh (a capture by either side, our
	// pawn move), both sides' turns; the opponent's pawn moves are unseen,
	// so the count may run long, which only makes the guess cautious.
	keys []uint64
	// rooted says keys holds the current turn's own position.
	rooted bool
	// moves are the last root's attempts, after[j] the OwnKey after
	// moves[j] with the opponent to move (0 for a pawn move), chance[j] its
	// chance of a draw by repetition.
	moves  []chess.Move
	after  []uint64
	chance []float32
}

// repeatFirst is the count of earlier occurrences of our men's placement
// from which an attempt may complete a threefold repetition.
const repeatFirst = 2

// reset starts a game; on says its rules draw repeated positions, first
// is the chance of a draw at a third placement of our men.
func (r *repetitions) reset(on bool, first float64) {
	r.on, r.first = on && first > 0, first
	r.keys = r.keys[:0]
	r.rooted = false
	r.moves, r.after, r.chance = r.moves[:0], r.after[:0], r.chance[:0]
}

// root records the position of the turn (once per turn: a search after a
// refusal is the same position) and sets chance for each attempt in moves.
// It leaves chance empty when the rules draw no repetition.
func (r *repetitions) root(bel *belief.State, moves []chess.Move) {
	r.moves, r.after, r.chance = r.moves[:0], r.after[:0], r.chance[:0]
	if !r.on {
		return
	}
	if !r.rooted {
		r.keys = append(r.keys, bel.OwnKey())
		r.rooted = true
	}
	for _, m := range moves {
		theirs, ours, ok := bel.OwnKeysAfter(m) // 0, 0 for a pawn move
		var p float32
		if ok {
			if n := max(r.count(theirs), r.count(ours)); n >= repeatFirst {
				// first at the third placement, each one after takes
				// the same share of the doubt left; a capture or a
				// refusal repeats nothing.
				o := bel.Outcomes(m)
				p = float32(o.Quiet * (1 - math.Pow(1-r.first, float64(n-repeatFirst+1))))
			}
		}
		r.moves = append(r.moves, m)
		r.after = append(r.after, theirs)
		r.chance = append(r.chance, p)
	}
}

// count is how often key occurs in the history.
func (r *repetitions) count(key uint64) int {
	n := 0
	for _, k := range r.keys {
		if k == key {
			n++
		}
	}
	return n
}

// played records our move m (captured: it took a man) and the opponent's
// reply (took: it took one of ours); the next root is a new turn.
func (r *repetitions) played(m chess.Move, captured, took bool) {
	if !r.on {
		return
	}
	r.rooted = false
	var key uint64
	for j, a := range r.moves {
		if a == m {
			key = r.after[j]
		}
	}
	if captured || key == 0 {
		r.keys = r.keys[:0] // a fresh count, or a move the last root did not offer
	} else {
		r.keys = append(r.keys, key)
	}
	if took {
		r.keys = r.keys[:0]
	}
}

// RepeatGivesWay is the chance of a draw by repetition from which the most
// visited root attempt gives way to one the root values above it
// (notRepeating); replays explain the choice by it.
const RepeatGivesWay = 0.5

// notRepeating returns the root child to play instead of best, the most
// visited, when best repeats the position (RepeatGivesWay or more) and
// another attempt is valued above it at the root: the most visited of
// those. A tree reused from earlier turns brings the visits best earned
// before the root knew it repeats, and a replay showed them outweighing
// fifteen thousand iterations spent elsewhere (a knight's shuffle played
// at a 91 % chance of the draw, valued at 2 pawns against 36).
func (s *Searcher) notRepeating(best, nm int) int {
	if best >= len(s.rep.chance) || s.rep.chance[best] < RepeatGivesWay {
		return best
	}
	v := s.rootMean(best)
	alt := -1
	for j := range nm {
		if j != best && s.visits[j] > 0 && s.rootMean(j) > v && (alt < 0 || s.visits[j] > s.visits[alt]) {
			alt = j
		}
	}
	if alt < 0 {
		return best
	}
	return alt
}

// rootMean is root child j's value at the root (rootValue), the mean over
// the trees.
func (s *Searcher) rootMean(j int) float32 {
	var sum float32
	for _, t := range s.trees {
		sum += t.rootValue(t.nodes[0].first + int32(j))
	}
	return sum / float32(len(s.trees))
}
