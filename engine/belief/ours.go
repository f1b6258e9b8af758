package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// uncertainLegal is the chance we give a pawn capture whose legality we
// cannot prove (possible pin, check, en passant) of counting as a try.
const uncertainLegal = 0.9

// Ours updates the belief with the referee's answer v to our attempt m.
// v.Move is not needed (the referee does not repeat an illegal attempt).
func (s *State) Ours(m chess.Move, v umpire.View) {
	if !wellFormed(&v) {
		s.surprises++
		return
	}
	if v.EnPassant && v.Capture.Kind != umpire.NoCapture {
		// Announced on our destination (english): the pawn we took stood
		// behind it, and a pawn it was.
		v.Capture = umpire.Capture{Square: chess.Square(int(m.To()) - forward(s.me)), Kind: umpire.PawnCaptured}
	}
	switch {
	case v.Illegal && umpire.IsDrop(m):
		s.dropIllegal(m)
	case v.Illegal:
		s.illegal(m)
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		if v.Own {
			s.ourAnyAnswer(v.Verdict == umpire.HasAny)
		}
	case v.Verdict != umpire.IllegalMove:
		// Off the askable list (IMPOSSIBLE_TO_ASK, NONSENSE): the list
		// depends on our men alone, so the refusal says nothing of theirs.
	case v.Heard && v.Own && umpire.IsDrop(m):
		s.ourDrop(m, v)
	case v.Heard && v.Own:
		s.ourMove(m, v)
	}
}

// ourMove plays our legal move m on our board and learns from its
// announcements: squares passed are empty, the capture, the checks on the
// enemy king and the opponent's pawn tries.
func (s *State) ourMove(m chess.Move, v umpire.View) {
	from, to := m.From(), m.To()
	pt := s.typeAt(from)
	if pt == chess.NoPieceType || s.own[0].Has(to) || m.Promotion() > chess.Queen || !s.shaped(pt, from, to) {
		s.surprises++ // not a move of ours: the referee would not have played it
		return
	}
	var empty, noPawn, noKing chess.Bitboard
	switch pt {
	case chess.Bishop, chess.Rook, chess.Queen:
		empty = chess.Between(from, to)
	case chess.Pawn:
		empty = chess.Between(from, to) // the skipped square of a double step
	case chess.King:
		if rookFrom, _, ok := chess.CastleRook(from, to); ok {
			if !s.own[chess.Rook].Has(rookFrom) {
				s.surprises++
				return
			}
			empty = chess.Between(from, rookFrom)
			// Castling out of, through or into check is illegal.
			for _, sq := range [3]chess.Square{from, (from + to) / 2, to} {
				noPawn |= chess.PawnAttacks(s.me, sq)
				noKing |= chess.KingAttacks(sq)
			}
		}
	}
	pt = s.moveOwn(pt, m)
	// Our man on a corner means the opponent's rook is not there.
	s.oppCastle &^= rookRight(to)
	s.zeroAll(empty)

	s.epProb = [8]float32{}
	s.ourDouble = chess.NoSquare
	if pt == chess.Pawn && relRank(s.me, from) == 1 && relRank(s.me, to) == 3 {
		s.ourDouble = to
	}
	if v.Capture.Kind != umpire.NoCapture {
		x := v.Capture.Square
		// An untyped capture took a pawn with the chance the matrices give.
		pawnShare := float32(0)
		if w, c := s.p[pawn][x], s.p[piece][x]; v.Capture.Kind == umpire.ManCaptured && w+c > 0 {
			pawnShare = w / (w + c)
		}
		s.zeroAll(x.Bit())
		if s.units == 0 || v.Capture.Kind == umpire.PawnCaptured && s.pawnMax == 0 {
			s.surprises++ // nothing of that kind was left to capture
		} else {
			s.units--
			switch v.Capture.Kind {
			case umpire.PawnCaptured:
				// Sound in crazykrieg too, where a promoted man is announced
				// as a pawn: its promotion took a pawn off unseen.
				s.pawnMax--
				s.pawnExp = max(s.pawnExp-1, 0)
			case umpire.ManCaptured:
				s.pawnExp = max(s.pawnExp-pawnShare, 0)
			}
			switch pt, ok := v.Capture.Kind.Exact(); {
			case ok:
				s.ourPocket[pt]++
			case !s.drops:
			case v.Capture.Kind == umpire.PawnCaptured:
				s.ourPocket[chess.Pawn]++
			case s.ourPocketPieces < 255:
				s.ourPocketPieces++
			}
		}
		s.oppCastle &^= rookRight(x)
		// An exchange goes on when we take back on the square where the
		// opponent just took.
		if to != s.exchange {
			s.chain = 0
		}
		s.lastCapture, s.exchange = to, to
		s.chain++
	} else {
		s.lastCapture, s.exchange, s.chain = chess.NoSquare, chess.NoSquare, 0
	}
	s.afterOurMove(v, noPawn, noKing)
}

// afterOurMove learns what every legal move of ours (a drop too) tells:
// our king is not attacked (nor, for castling, the squares in noPawn and
// noKing), the checks on the enemy king and the opponent's pawn news.
func (s *State) afterOurMove(v umpire.View, noPawn, noKing chess.Bitboard) {
	ksq := s.OurKing()
	noPawn |= chess.PawnAttacks(s.me, ksq)
	s.zero(pawn, noPawn)
	s.zero(king, noKing)
	s.checks = [2]chess.CheckKind{}
	s.ourTurn = false
	s.theirCheck = v.Checks[0] != chess.NoCheck
	s.normalize()
	s.placeTheirKing(v.Checks)
	s.theirTries = v.PawnTries
	if v.Ending == umpire.NotOver {
		s.normalize()
		s.theirPawnNews(&v)
	}
	s.updateCastling()
	s.normalize()
}

// moveOwn moves our man of type pt by m on our board (the rook too when the
// king castles, the new man on promotion) with the castling rights it costs,
// and returns the type that stands on m.To().
func (s *State) moveOwn(pt chess.PieceType, m chess.Move) chess.PieceType {
	from, to := m.From(), m.To()
	if pt == chess.King {
		if rookFrom, rookTo, ok := chess.CastleRook(from, to); ok {
			s.removeOwn(rookFrom)
			s.putOwn(chess.Rook, rookTo)
		}
		s.castle = 0
	}
	promoted := s.ownPromoted.Has(from)
	s.removeOwn(from)
	if pt == chess.Pawn && relRank(s.me, to) == 7 {
		pt = chess.Queen // a promotion the referee played without a letter
		if promo := m.Promotion(); promo >= chess.Knight {
			pt = promo
		}
		promoted = true
	}
	s.removeOwn(to)
	s.putOwn(pt, to)
	if promoted {
		s.ownPromoted |= to.Bit()
	}
	return pt
}

// shaped reports whether our man of type pt could go from from to to on a
// board without other men (the geometry of a move, castling included).
func (s *State) shaped(pt chess.PieceType, from, to chess.Square) bool {
	switch pt {
	case chess.Pawn:
		if to.File() == from.File() {
			steps := relRank(s.me, to) - relRank(s.me, from)
			return steps == 1 || steps == 2 && relRank(s.me, from) == 1
		}
		return chess.PawnAttacks(s.me, from).Has(to)
	case chess.King:
		if chess.KingAttacks(from).Has(to) {
			return true
		}
		home := chess.E1
		if s.me == chess.Black {
			home = chess.E8
		}
		return from == home && (to == home+2 || to == home-2)
	}
	return chess.Attacks(s.me, pt, from, 0).Has(to)
}

// wellFormed reports whether v could come from the referee: a capture on a
// square of the board, known check kinds.
func wellFormed(v *umpire.View) bool {
	if v.Capture.Kind > umpire.QueenCaptured || v.Capture.Kind != umpire.NoCapture && v.Capture.Square > 63 {
		return false
	}
	for _, k := range v.Checks {
		if k > chess.CheckKnight {
			return false
		}
	}
	return true
}

// maybeOccupied is every square an opponent unit may stand on, plus our men:
// the blockers to use when proving that a line is open.
func (s *State) maybeOccupied() chess.Bitboard {
	return s.own[0] | s.supp[king] | s.supp[pawn] | s.supp[piece]
}

// definiteAttacks returns the squares where the opponent's king would surely
// be attacked: lines count only when every square before the target is proven
// empty of our men and of the opponent's other units. The king's own possible
// squares do not block: a king on the target cannot also stand in the line
// (nor shield itself by leaving a square on it). Counting them as blockers
// left a bare king a whole rank our queen swept, wherever else it might be.
func (s *State) definiteAttacks() chess.Bitboard {
	occ := s.own[0] | s.supp[pawn] | s.supp[piece]
	var att chess.Bitboard
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		for b := s.own[pt]; b != 0; {
			att |= chess.Attacks(s.me, pt, b.PopFirst(), occ)
		}
	}
	return att
}

// placeTheirKing learns where the enemy king is from the checks announced
// after our move: with none it stands on no square we surely attack; with
// check kinds it stands where our men may give exactly those checks.
func (s *State) placeTheirKing(checks [2]chess.CheckKind) {
	if checks[0] == chess.NoCheck {
		s.zero(king, s.definiteAttacks())
		return
	}
	var announced [chess.CheckKnight + 1]bool
	for _, k := range checks {
		announced[k] = true
	}
	occ := s.maybeOccupied()
	var possible [chess.CheckKnight + 1]chess.Bitboard
	var excluded chess.Bitboard
	for pt := chess.Pawn; pt < chess.King; pt++ {
		for b := s.own[pt]; b != 0; {
			u := b.PopFirst()
			for a := chess.Attacks(s.me, pt, u, s.own[0]) &^ s.own[0]; a != 0; {
				sq := a.PopFirst()
				possible[chess.ClassifyCheck(sq, u)] |= sq.Bit()
			}
			for a := chess.Attacks(s.me, pt, u, occ) &^ s.own[0]; a != 0; {
				sq := a.PopFirst()
				if !announced[chess.ClassifyCheck(sq, u)] {
					excluded |= sq.Bit()
				}
			}
		}
	}
	allowed := ^excluded
	for _, k := range checks {
		if k != chess.NoCheck {
			allowed &= possible[k]
		}
	}
	s.zero(king, ^allowed)
}

// updateCastling drops the opponent's castling rights once its king or
// rook has provably left home.
func (s *State) updateCastling() {
	opp := s.me.Other()
	home := chess.NewSquare(4, 0)
	k, q := chess.WhiteKingside, chess.WhiteQueenside
	if opp == chess.Black {
		home, k, q = chess.NewSquare(4, 7), chess.BlackKingside, chess.BlackQueenside
	}
	if !s.supp[king].Has(home) {
		s.oppCastle &^= k | q
	}
	if !s.moves[straight].Has(home + 3) {
		s.oppCastle &^= k
	}
	if !s.moves[straight].Has(home - 4) {
		s.oppCastle &^= q
	}
}

// pinRay returns, for our man on from moving to to, the direction from our
// king through from when from stands on an open line from the king and to
// leaves that line (so an enemy slider beyond from would pin it), else -1.
func (s *State) pinRay(from, to chess.Square) int {
	k := s.OurKing()
	d := dirFrom(k, from)
	if d < 0 || chess.Between(k, from)&s.own[0] != 0 || chess.Line(k, from).Has(to) {
		return -1
	}
	return d
}

// possiblyPinned reports whether our man on from might be pinned for a move
// to to: an enemy piece may stand beyond it on an open line from our king.
func (s *State) possiblyPinned(from, to chess.Square) bool {
	d := s.pinRay(from, to)
	if d < 0 {
		return false
	}
	r := &geo.rays[from][d]
	pinners := s.moves[lineKind(d)]
	for i := range r.n {
		sq := r.sq[i]
		if s.own[0].Has(sq) || s.full.Has(sq) && !pinners.Has(sq) {
			return false
		}
		if pinners.Has(sq) {
			return true
		}
	}
	return false
}

// pinProb is the chance that our man on from is pinned for a move to to:
// an enemy rook, bishop or queen (as fits the line) beyond it with nothing
// between.
func (s *State) pinProb(from, to chess.Square) float64 {
	d := s.pinRay(from, to)
	if d < 0 {
		return 0
	}
	r := &geo.rays[from][d]
	clear, pin := 1.0, 0.0
	pinners := s.moves[lineKind(d)]
	for i := range r.n {
		sq := r.sq[i]
		if s.own[0].Has(sq) {
			break
		}
		if pinners.Has(sq) {
			pin += clear * s.kind(sq, lineKind(d)) * float64(s.p[piece][sq])
		}
		clear *= 1 - s.occ(sq)
	}
	return min(pin, 1)
}

// resolveProb is the chance that our non-king move to to answers the check on
// our king (capturing or blocking the checker); 1 when not in check.
func (s *State) resolveProb(to chess.Square) float64 {
	if s.checks[0] == chess.NoCheck {
		return 1
	}
	capture, block := s.answers(to)
	return min(capture+block, 1)
}

// answers splits, while we are in check, the ways a non-king move to to
// answers it: capture is the chance that the checker stands on to, block
// that it stands beyond to on the same ray from our king (to is then empty).
// A double check is answered by no such move.
func (s *State) answers(to chess.Square) (capture, block float64) {
	if s.checks[1] != chess.NoCheck {
		return 0, 0
	}
	capture = float64(s.checker[to])
	if d := dirFrom(s.OurKing(), to); d >= 0 {
		ry := &geo.rays[to][d]
		for i := range ry.n {
			block += float64(s.checker[ry.sq[i]])
		}
	}
	return min(capture, 1), min(block, 1)
}

// illegal learns from "Illegal move" to our attempt m. Each cause that the
// attempt could have (a blocked path, an empty pawn-capture square, an
// attacked king square, a pin, an unanswered check) is made more likely in
// proportion; squares become proven only when one cause alone remains.
func (s *State) illegal(m chess.Move) {
	from, to := m.From(), m.To()
	pt := s.typeAt(from)
	if pt == chess.NoPieceType || s.own[0].Has(to) || !s.shaped(pt, from, to) || chess.Between(from, to)&s.own[0] != 0 {
		return // nonsense on our own board: refused whatever the opponent has
	}
	inCheck := s.checks[0] != chess.NoCheck
	switch {
	case pt == chess.King:
		if _, _, ok := chess.CastleRook(from, to); ok {
			return // castling: too many causes to tell apart
		}
		s.kingIllegal(from, to)
	case pt == chess.Pawn && from.File() != to.File():
		ep := s.epChance(from, to)
		if !inCheck && !s.possiblyPinned(from, to) {
			// Nothing to capture there, and no en passant either.
			s.zero(pawn, to.Bit())
			s.zero(piece, to.Bit())
			if ep > 0 {
				s.epProb[to.File()] = 0
			}
			break
		}
		g := (1 - s.pinProb(from, to)) * s.resolveProb(to)
		q := s.men(to)
		pIll := 1 - (q+ep)*g
		if pIll > 0 {
			// P(man on to | illegal) = q (1-g) / P(illegal).
			s.scaleSquare(to, (1-g)/pIll)
		}
	default:
		var path chess.Bitboard
		switch pt {
		case chess.Pawn:
			path = chess.Between(from, to) | to.Bit()
		case chess.Bishop, chess.Rook, chess.Queen:
			path = chess.Between(from, to)
		}
		if path == 0 {
			return // a knight: only a pin or the check can explain it
		}
		exact := !inCheck && !s.possiblyPinned(from, to)
		g := (1 - s.pinProb(from, to)) * s.resolveProb(to)
		if exact {
			g = 1
		}
		e := 1.0
		for b := path; b != 0; {
			e *= 1 - s.occ(b.PopFirst())
		}
		pIll := 1 - e*g
		if pIll <= 0 {
			if exact {
				s.surprises++
			}
			break
		}
		if exact && !path.More() {
			s.full |= path
			break
		}
		for b := path; b != 0; {
			s.scaleSquare(b.PopFirst(), 1/pIll)
		}
	}
	s.normalize()
}

// epChance is the chance that our pawn's diagonal step from→to is an en
// passant capture of a pawn that just made its double step.
func (s *State) epChance(from, to chess.Square) float64 {
	if relRank(s.me, from) != 4 {
		return 0
	}
	return float64(s.epProb[to.File()])
}

// kingIllegal learns from our king's refused step to to: the square is
// attacked (or holds a protected man). Every possible attacker becomes more
// likely by the same factor, 1/P(illegal).
func (s *State) kingIllegal(from, to chess.Square) {
	var at attackers
	s.attackersOf(to, from, &at)
	pIll := at.prob()
	if pIll <= 0 {
		return
	}
	f := 1 / pIll
	for i := range at.n {
		sq := at.sq[i]
		c := at.class[i]
		v := float64(s.p[c][sq]) * f
		s.p[c][sq] = float32(min(v, 1))
	}
}
