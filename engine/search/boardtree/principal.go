package boardtree

import "kriegbot/engine/chess"

// Principal appends to pv the principal line of the last choice from its
// root attempt first: first itself, then at each of our later decisions on
// the way the most visited attempt, going between them to the most visited
// of what we may hear (a refusal, or our move's answer with the opponent's
// reply). What is heard is not in the line. It stops at a node not yet
// searched, a game's end, or after max attempts (max <= 0: no bound). Call
// it after Choose, never during one; it allocates nothing beyond pv's
// growth, and returns pv unchanged when first is not a root attempt.
func (s *Searcher) Principal(first chess.Move, pv []chess.Move, max int) []chess.Move {
	a := s.rootAttempt(first)
	for n := 0; a >= 0 && (max <= 0 || n < max); n++ {
		pv = append(pv, s.nodes[a].move)
		d := s.mostVisited(a)
		if d < 0 || s.nodes[d].kind == end {
			break
		}
		a = s.mostVisited(d)
	}
	return pv
}

// RootVisits is the visits of root attempt m in the last choice (0: not
// a root attempt, or none searched).
func (s *Searcher) RootVisits(m chess.Move) int64 {
	if a := s.rootAttempt(m); a >= 0 {
		return int64(s.nodes[a].visits)
	}
	return 0
}

// rootAttempt is the last choice's root attempt node of m, or -1.
func (s *Searcher) rootAttempt(m chess.Move) int32 {
	if s.nn == 0 {
		return -1
	}
	for c := s.nodes[s.root].child; c >= 0; c = s.nodes[c].next {
		if s.nodes[c].move == m {
			return c
		}
	}
	return -1
}

// mostVisited is node i's most visited child, the first of equals; -1
// when none has a visit.
func (s *Searcher) mostVisited(i int32) int32 {
	best, visits := int32(-1), int32(0)
	for c := s.nodes[i].child; c >= 0; c = s.nodes[c].next {
		if v := s.nodes[c].visits; v > visits {
			best, visits = c, v
		}
	}
	return best
}

// Progress is the iterations the choice in progress has run so far,
// counted each time it reads the clock (the last choice's, between
// choices). Unlike the other methods it may be called from any goroutine
// while Choose runs.
func (s *Searcher) Progress() int64 { return s.live.Load() }
