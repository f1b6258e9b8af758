package search

import "kriegbot/engine/chess"

// Principal appends to pv the principal line of the last search from root
// attempt first (normally Result.Move): first itself, then, at every one of
// our later decisions on the way, the most visited attempt; between them it
// follows the most visited referee answer (including "Illegal move") and,
// after a legal answer, the most visited of what we may hear of the
// opponent's reply. The answers and replies assumed are not in the line. It
// stops at a node not yet searched, a mate or stalemate, or after max
// attempts (max <= 0: no bound).
//
// With several trees it follows the one in which first has the most visits.
// It walks one path, child blocks only, after the search (never during one);
// it allocates nothing beyond pv's growth. The line's length is the
// search's depth along it, in our attempts. It returns pv unchanged before
// the first search of a decision or when first is not a root attempt.
func (s *Searcher) Principal(first chess.Move, pv []chess.Move, max int) []chess.Move {
	if !s.rooted || len(s.trees) == 0 {
		return pv
	}
	var t *tree
	at := int32(noChild)
	var best int32 = -1
	for _, tr := range s.trees {
		r := &tr.nodes[0]
		for c := r.first; r.first >= 0 && c < r.first+int32(r.nchild); c++ {
			if tr.nodes[c].move == first && tr.nodes[c].visits > best {
				t, at, best = tr, c, tr.nodes[c].visits
			}
		}
	}
	if t == nil {
		return pv
	}
	for n := 0; at != noChild && (max <= 0 || n < max); n++ {
		pv = append(pv, t.nodes[at].move)
		at = t.nextAttempt(at)
	}
	return pv
}

// nextAttempt goes down from attempt node a to the next decision's most
// visited attempt along the most visited answers; noChild at the line's end.
func (t *tree) nextAttempt(a int32) int32 {
	i := t.mostVisited(a)
	for i != noChild {
		switch t.nodes[i].kind {
		case decision:
			return t.mostVisited(i)
		case answer:
			i = t.mostVisited(i)
		default: // terminal
			return noChild
		}
	}
	return noChild
}

// mostVisited is node i's most visited child with at least one visit and
// not pruned (an attempt known to be refused), the first of equals; noChild
// when there is none.
func (t *tree) mostVisited(i int32) int32 {
	n := &t.nodes[i]
	best := int32(noChild)
	var visits int32
	for c := n.first; n.first >= 0 && c < n.first+int32(n.nchild); c++ {
		if v := t.nodes[c].visits; v > visits && t.nodes[c].flags&fPruned == 0 {
			best, visits = c, v
		}
	}
	return best
}

// Progress returns the iterations run so far by the search in progress, over
// all trees, counted every checkEvery iterations; after a search, about its
// Result.Iterations. It may be called from any goroutine while Search runs:
// it reads one atomic counter, which the trees add to when they look at the
// clock.
func (s *Searcher) Progress() int64 { return s.live.Load() }
