package chess

// Perft counts the leaf positions reached from p in depth plies, making every move
// down to the leaves (no bulk counting), so it measures move generation and
// copy-make together, as a playout does.
func Perft(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var l MoveList
	p.GenerateLegal(&l)
	var n uint64
	for _, m := range l.Moves[:l.N] {
		child := p
		child.Make(m)
		n += Perft(child, depth-1)
	}
	return n
}
