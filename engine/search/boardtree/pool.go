package boardtree

import "kriegbot/engine/chess"

// nodeBytes is what a node costs of the memory cap: its 32 bytes and a
// share of the opponent's pool (24-byte nodes, half as many); under Reuse
// the spare half doubles it, and New halves the nodes.
const nodeBytes = 40

// firstPool is a pool's length before it grows: a few hundred iterations'
// nodes.
const firstPool = 1 << 12

// Capacity is the nodes the tree may hold, the cap MemoryMB sets.
func (s *Searcher) Capacity() int { return s.maxNodes }

// grow returns pool with room for need elements, its first used ones
// kept: pool itself when it has it, else a copy twice as long (or need
// long) up to limit; ok false when need passes limit. A pool grows a few
// times a game, never once it has reached what the searches use.
func grow[T any](pool []T, used, need, limit int) (_ []T, ok bool) {
	if need <= len(pool) {
		return pool, true
	}
	if need > limit {
		return pool, false
	}
	p := make([]T, min(max(2*len(pool), need, firstPool), limit))
	copy(p, pool[:used])
	return p, true
}

// compact copies the subtree of node r into the spare half of the pool,
// breadth first (the copy is its own queue, as in Cheney's collector), and
// makes that half the pool; it returns r's new index, 0.
func (s *Searcher) compact(r int32) int32 {
	dst, _ := grow(s.spare, 0, 1, s.maxNodes)
	dst[0] = s.nodes[r]
	dst[0].next = -1
	n := int32(1)
	for scan := int32(0); scan < n; scan++ {
		prev := int32(-1)
		for c := dst[scan].child; c >= 0; c = s.nodes[c].next {
			dst, _ = grow(dst, int(n), int(n)+1, s.maxNodes) // the subtree fits: it is in s.nodes
			dst[n] = s.nodes[c]
			if prev < 0 {
				dst[scan].child = n
			} else {
				dst[prev].next = n
			}
			prev = n
			n++
		}
		if prev >= 0 {
			dst[prev].next = -1
		}
	}
	s.nodes, s.spare, s.nn = dst, s.nodes, n
	s.compactions++
	return 0
}

// newNode takes a fresh node, or -1 when the pool is full.
func (s *Searcher) newNode(k kind, key uint64, m chess.Move) int32 {
	var ok bool
	if s.nodes, ok = grow(s.nodes, int(s.nn), int(s.nn)+1, s.maxNodes); !ok {
		return -1
	}
	i := s.nn
	s.nn++
	s.nodes[i] = node{child: -1, next: -1, key: key, move: m, kind: k}
	return i
}

// expandWith gives decision node d the attempts moves, in their order. It
// reports false when the pool is full.
func (s *Searcher) expandWith(d int32, moves []chess.Move) bool {
	var ok bool
	if s.nodes, ok = grow(s.nodes, int(s.nn), int(s.nn)+len(moves), s.maxNodes); !ok {
		return false
	}
	prev := int32(-1)
	for _, m := range moves {
		c := s.newNode(attempt, 0, m)
		if prev < 0 {
			s.nodes[d].child = c
		} else {
			s.nodes[prev].next = c
		}
		prev = c
	}
	s.nodes[d].expanded = true
	return true
}
