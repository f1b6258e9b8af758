package alphabeta

import "kriegbot/engine/chess"

// entry is one position's result in the transposition table: its value
// from a search of depth plies (a bound or exact) and the best move found.
type entry struct {
	key   uint64
	value int32
	move  chess.Move
	depth int8
	bound uint8
}

// Bounds of an entry's value.
const (
	exact uint8 = iota + 1
	lower       // the value is at least this (a cut-off)
	upper       // the value is at most this (no move raised alpha)
)

// NewWithTable returns a Searcher with a transposition table of 2^bits
// entries (bits 0: none, as New; at most 26): across the iterations of one
// search its best moves are tried first, and across searches (the attempts
// on one board, the boards of one game) a position searched deep enough
// is not searched again. The table is allocated here, once.
func NewWithTable(bits int) *Searcher {
	s := New()
	if bits > 0 {
		bits = min(bits, 26)
		s.table = make([]entry, 1<<bits)
		s.mask = 1<<bits - 1
	}
	return s
}

// Clear empties the transposition table (a new game: searches then repeat
// whatever came before).
func (s *Searcher) Clear() { clear(s.table) }

// probe returns the table's entry for p, or nil.
func (s *Searcher) probe(p *chess.Position) *entry {
	if s.table == nil {
		return nil
	}
	e := &s.table[p.Hash()&s.mask]
	if e.key != p.Hash() || e.bound == 0 {
		return nil
	}
	return e
}

// store keeps a search's result for p (always replacing).
func (s *Searcher) store(p *chess.Position, value int32, move chess.Move, depth, ply int, bound uint8) {
	if s.table == nil {
		return
	}
	// A mate's distance is kept from this position, not from the root.
	switch {
	case value >= MateBound:
		value += int32(ply)
	case value <= -MateBound:
		value -= int32(ply)
	}
	s.table[p.Hash()&s.mask] = entry{key: p.Hash(), value: value, move: move, depth: int8(depth), bound: bound}
}

// tableValue is e's value seen from ply plies below the root.
func tableValue(e *entry, ply int) int32 {
	switch v := e.value; {
	case v >= MateBound:
		return v - int32(ply)
	case v <= -MateBound:
		return v + int32(ply)
	default:
		return v
	}
}
