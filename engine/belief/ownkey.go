package belief

import "kriegbot/engine/chess"

// OwnKey identifies the part of the position we know exactly: our men's
// placement, our castling rights and whose turn it is. Two positions can
// only be the same for the repetition rule when their OwnKeys agree.
func (s *State) OwnKey() uint64 { return ownKey(&s.own, s.castle, s.ourTurn) }

// OwnKeysAfter returns OwnKey after our move m, with the opponent to move
// (theirTurn) and again with us to move after a reply that takes nothing
// (ourTurn). ok is false for a pawn move, after which no earlier position
// can recur, and for a move that is not ours to make.
func (s *State) OwnKeysAfter(m chess.Move) (theirTurn, ourTurn uint64, ok bool) {
	pt := s.typeAt(m.From())
	if pt == chess.NoPieceType || pt == chess.Pawn || s.own[0].Has(m.To()) {
		return 0, 0, false
	}
	after := State{me: s.me, own: s.own, castle: s.castle}
	after.moveOwn(pt, m)
	return ownKey(&after.own, after.castle, false), ownKey(&after.own, after.castle, true), true
}

// ownKey hashes our men by type, our castling rights and the turn (a chain
// of splitmix64 steps: collisions are as unlikely as a Zobrist key's).
func ownKey(own *[7]chess.Bitboard, castle chess.CastleRights, ourTurn bool) uint64 {
	h := uint64(castle) << 1
	if ourTurn {
		h |= 1
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		h = chess.Mix64(h ^ uint64(own[pt]) + 0x9e3779b97f4a7c15)
	}
	return h
}
