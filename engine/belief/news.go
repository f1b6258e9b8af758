package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// The announcements of kriegspiel.org's variants beside wild 16's
// (docs/rulesets.md): the other kinds of pawn news, the answers to "Any?",
// and crazykrieg's drops. Each update keeps the soundness rule: a square
// leaves a support only on proof.

// SetVariant tells the belief the variant it hears, for the rules that
// change what an answer means beyond the answer itself: whether a failed
// pawn try releases a player from the obligation of "has pawn captures"
// (not in berkeley_any), and whether the men we take go to our pocket
// (crazykrieg: a search's capture of an unnamed kind counts there too).
// Without it the belief assumes the weaker reading, which is sound in
// every variant.
func (s *State) SetVariant(v umpire.Variant) {
	s.dueStays = v.AskAny && !v.ReleaseAfterFailedTry
	s.drops = v.Drops
}

// ourPawnNews learns from the pawn news about our pawns heard after the
// opponent's move, in the variant's form.
func (s *State) ourPawnNews(v *umpire.View) {
	switch v.PawnNews {
	case umpire.PawnCount:
		s.ourTriesEvidence(v.PawnTries)
	case umpire.PawnHas:
		if v.HasPawnCapture {
			s.ourTriesSome(s.own[chess.Pawn])
		} else {
			s.ourTriesEvidence(0)
			s.ourTries = 0 // a count after all, for Sample
		}
	case umpire.PawnSquares:
		s.ourTrySquares(v.TrySquares)
		if v.TrySquares == 0 {
			s.ourTries = 0
		}
	}
}

// ourTrySquares learns from the squares of our pawns that have a legal
// capture (rand): the others have none, and each of these has one.
func (s *State) ourTrySquares(squares chess.Bitboard) {
	if squares&^s.own[chess.Pawn] != 0 {
		s.surprises++ // no pawn of ours stands there
		squares &= s.own[chess.Pawn]
	}
	var tm triesModel
	s.ourTriesTerms(&tm, s.own[chess.Pawn]&^squares)
	var post [40]float64
	if tm.posterior(0, &post) {
		s.ourTriesPosterior(&tm, &post)
	}
	for b := squares; b != 0; {
		s.ourTriesSome(b.PopFirst().Bit())
	}
}

// theirPawnNews learns from the pawn news about the opponent's pawns heard
// after our move v.
func (s *State) theirPawnNews(v *umpire.View) {
	checked := v.Checks[0] != chess.NoCheck
	s.theirNoPawnFrom, s.theirPawnDue = 0, false
	switch v.PawnNews {
	case umpire.PawnCount:
		s.theirTriesEvidence(v.PawnTries, checked)
	case umpire.PawnHas:
		if v.HasPawnCapture {
			s.theirTriesSome(checked)
		} else {
			s.theirTriesEvidence(0, checked)
			s.theirNoPawnFrom = ^chess.Bitboard(0)
		}
	case umpire.PawnSquares:
		s.theirNoPawnFrom = ^v.TrySquares
		s.theirTrySquares(v.TrySquares, checked)
	}
}

// theirTrySquares learns from the squares of the opponent's pawns that have
// a legal capture (rand): a pawn stands on each of them for sure, and the
// pawns elsewhere have none.
func (s *State) theirTrySquares(squares chess.Bitboard, checked bool) {
	if squares&^s.supp[pawn] != 0 {
		s.surprises++ // a pawn where none could be
		squares &= s.supp[pawn]
	}
	s.zero(king, squares)
	s.zero(piece, squares)
	s.full |= squares
	s.fresh |= squares
	for b := squares; b != 0; {
		s.p[pawn][b.PopFirst()] = 1
	}
	s.pawnExp = max(s.pawnExp, float32(squares.Count()))
	var tm triesModel
	s.theirTriesTerms(&tm, s.supp[pawn]&^squares, checked)
	var post [40]float64
	if tm.posterior(0, &post) {
		s.theirTriesPosterior(&tm, &post)
	}
}

// ourAnyAnswer learns from the answer to our "Any?": whether we have a
// legal pawn capture now.
func (s *State) ourAnyAnswer(has bool) {
	if has {
		s.ourTriesSome(s.own[chess.Pawn])
	} else {
		s.ourTriesEvidence(0)
		if s.ourTries < 0 {
			s.ourTries = 0
		}
	}
	s.normalize()
}

// theirAnyAnswer learns from the answer to the opponent's "Any?": whether
// its pawns have a legal capture now.
func (s *State) theirAnyAnswer(has bool) {
	if s.ourTurn {
		s.surprises++ // it is not the opponent's turn
		return
	}
	if has {
		s.theirTriesSome(s.theirCheck)
		s.theirPawnDue = true
	} else {
		s.theirTriesEvidence(0, s.theirCheck)
		s.theirNoPawnFrom = ^chess.Bitboard(0)
	}
	s.normalize()
}

// ourDrop plays our legal drop m (crazykrieg): its square was empty.
func (s *State) ourDrop(m chess.Move, v umpire.View) {
	pt, to := m.Promotion(), m.To()
	if s.own[0].Has(to) || v.Capture.Kind != umpire.NoCapture || pt == chess.Pawn && pawnRanks.Has(to) {
		s.surprises++ // not a drop the referee would play
		return
	}
	if s.ourPocket[pt] > 0 {
		s.ourPocket[pt]--
	}
	s.zeroAll(to.Bit())
	s.putOwn(pt, to)
	s.epProb = [8]float32{}
	s.ourDouble = chess.NoSquare
	s.lastCapture, s.exchange, s.chain = chess.NoSquare, chess.NoSquare, 0
	s.afterOurMove(v, 0, 0)
}

// dropIllegal learns from our refused drop m: out of check a drop is refused
// only when an enemy man stands on its square; in check it may also have
// failed to block, and nothing is learnt.
func (s *State) dropIllegal(m chess.Move) {
	to := m.To()
	if s.own[0].Has(to) || s.checks[0] != chess.NoCheck || m.Promotion() == chess.Pawn && pawnRanks.Has(to) {
		return
	}
	if !(s.supp[king] | s.supp[pawn] | s.supp[piece]).Has(to) {
		s.surprises++
		return
	}
	s.full |= to.Bit()
	s.normalize()
}

// theirDrop puts the man of type pt that the opponent dropped (its square
// unannounced) on any square it may have used: every square not proven
// occupied and not ours (for a pawn, not on the first or last rank). Nothing
// else moved.
func (s *State) theirDrop(pt chess.PieceType) {
	where := ^(s.own[0] | s.full)
	c := piece
	if pt == chess.Pawn {
		where &^= pawnRanks
		c = pawn
	}
	n := where.Count()
	if n == 0 || pt > chess.Queen {
		s.surprises++ // nowhere to drop it
		return
	}
	if s.theirPocket[pt] == 0 {
		s.surprises++ // nothing of that type to drop; the man is there all the same
	} else {
		s.theirPocket[pt]--
	}
	s.units++
	if pt == chess.Pawn {
		s.pawnMax++
		s.pawnExp++
	}
	share := 1 / float32(n)
	for b := where; b != 0; {
		s.p[c][b.PopFirst()] += share
	}
	s.supp[c] |= where
	switch pt {
	case chess.Knight:
		s.moves[jumper] |= where
	case chess.Bishop:
		s.moves[diagonal] |= where
	case chess.Rook:
		s.moves[straight] |= where
	case chess.Queen:
		s.moves[diagonal] |= where
		s.moves[straight] |= where
	}
}
