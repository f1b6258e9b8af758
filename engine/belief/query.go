package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// pieceAttackWeight tempers the chance that a piece able to attack a square
// does so: measured on the fixture games, the plain product overstates the
// danger to our king's squares (the pieces' matrices are diffuse, and a
// piece's line is more often blocked than the independent-squares model says).
const pieceAttackWeight = 0.5

// attackers lists the opponent units that may attack one square, each with
// the chance that it is there and does attack.
type attackers struct {
	n     int
	sq    [48]chess.Square
	class [48]oppmodel.Class
	r     [48]float64
}

func (a *attackers) add(sq chess.Square, c oppmodel.Class, r float64) {
	if r <= 0 || a.n == len(a.sq) {
		return
	}
	a.sq[a.n], a.class[a.n], a.r[a.n] = sq, c, min(r, 1)
	a.n++
}

// prob is the chance that at least one of them attacks; the king terms are
// one unit's alternatives, so they add up rather than multiply.
func (a *attackers) prob() float64 {
	none, k := 1.0, 0.0
	for i := range a.n {
		if a.class[i] == king {
			k += a.r[i]
		} else {
			none *= 1 - a.r[i]
		}
	}
	return 1 - none*(1-min(k, 1))
}

// attackersOf lists the opponent units that may attack target, treating our
// man on ignore as gone (our king stepping away along a checking line).
func (s *State) attackersOf(target, ignore chess.Square, at *attackers) {
	at.n = 0
	for b := chess.KingAttacks(target) & s.supp[king]; b != 0; {
		sq := b.PopFirst()
		at.add(sq, king, float64(s.p[king][sq]))
	}
	for b := chess.PawnAttacks(s.me, target) & s.supp[pawn]; b != 0; {
		sq := b.PopFirst()
		at.add(sq, pawn, float64(s.p[pawn][sq]))
	}
	for b := chess.KnightAttacks(target) & s.moves[jumper]; b != 0; {
		sq := b.PopFirst()
		at.add(sq, piece, pieceAttackWeight*s.kind(sq, jumper)*float64(s.p[piece][sq]))
	}
	own := s.own[0] &^ ignore.Bit()
	for d := range geo.rays[target] {
		r := &geo.rays[target][d]
		k := lineKind(d)
		movers := s.moves[k]
		clear := 1.0
		for i := range r.n {
			sq := r.sq[i]
			if own.Has(sq) {
				break
			}
			if movers.Has(sq) {
				w := pieceAttackWeight
				if s.checker[sq] > 0 {
					w = 1 // the checker's line is known
				}
				at.add(sq, piece, w*clear*s.kind(sq, k)*float64(s.p[piece][sq]))
			}
			clear *= 1 - s.occ(sq)
			if clear < 1e-4 {
				break
			}
		}
	}
}

// ProbControl is the paper's Prob_control of sq: the expected number of
// opponent units attacking it (king on a neighbouring square, pawns on the
// capturing squares, and c1·c2^distance for the other pieces along lines, knight
// jumps weighted by KnightFactor). It can exceed 1.
func (s *State) ProbControl(sq chess.Square) float64 {
	var c float64
	for b := chess.KingAttacks(sq) & s.supp[king]; b != 0; {
		c += float64(s.p[king][b.PopFirst()])
	}
	for b := chess.PawnAttacks(s.me, sq) & s.supp[pawn]; b != 0; {
		c += float64(s.p[pawn][b.PopFirst()])
	}
	for b := chess.KnightAttacks(sq) & s.moves[jumper]; b != 0; {
		c += s.params.KnightFactor * float64(s.p[piece][b.PopFirst()])
	}
	for d := range geo.rays[sq] {
		r := &geo.rays[sq][d]
		w := s.params.LineFactor
		movers := s.moves[lineKind(d)]
		for i := range r.n {
			t := r.sq[i]
			if s.own[0].Has(t) {
				break
			}
			if movers.Has(t) {
				c += w * float64(s.p[piece][t])
			}
			w *= s.params.Damping
		}
	}
	return c
}

// ProbAttacked is the chance that at least one opponent unit attacks sq
// (a probability, unlike ProbControl).
func (s *State) ProbAttacked(sq chess.Square) float64 {
	var at attackers
	s.attackersOf(sq, chess.NoSquare, &at)
	return at.prob()
}

// ProbMenAttack is the chance that at least one opponent man other than its
// king attacks sq: the men that could take a checker there, which the king,
// weighed square by square, does not cover.
func (s *State) ProbMenAttack(sq chess.Square) float64 {
	var at attackers
	s.attackersOf(sq, chess.NoSquare, &at)
	none := 1.0
	for i := range at.n {
		if at.class[i] != king {
			none *= 1 - at.r[i]
		}
	}
	return 1 - none
}

// Outcome is the distribution of the referee's answers to one attempt of ours.
// Illegal+Quiet+CapturePawn+CapturePiece is 1.
type Outcome struct {
	Illegal      float64
	Quiet        float64 // legal, no capture
	CapturePawn  float64 // legal, "Pawn at X captured"
	CapturePiece float64 // legal, "Piece at X captured"
	// Check[k] is the chance that the attempt is legal and gives a check of
	// kind k; Check[chess.NoCheck] that it is legal and gives none.
	Check [chess.CheckKnight + 1]float64
}

// Legal returns the chance that the attempt is legal.
func (o *Outcome) Legal() float64 { return 1 - o.Illegal }

// ProbLegal is the paper's Prob_legal: the chance that our attempt m is legal
// (its path empty, a pawn capture finding a man, our king's square not
// attacked) less the chance that the man is pinned or leaves a check unanswered.
func (s *State) ProbLegal(m chess.Move) float64 {
	o := s.Outcomes(m)
	return 1 - o.Illegal
}

// ProbCheck is the chance that our attempt m is legal and gives check.
func (s *State) ProbCheck(m chess.Move) float64 {
	o := s.Outcomes(m)
	return o.Legal() - o.Check[chess.NoCheck]
}

// ProbCapture returns the chances that our attempt m is legal and captures a
// pawn, or a piece.
func (s *State) ProbCapture(m chess.Move) (pawn, piece float64) {
	o := s.Outcomes(m)
	return o.CapturePawn, o.CapturePiece
}

// Outcomes returns the distribution of the referee's messages for our attempt m.
func (s *State) Outcomes(m chess.Move) Outcome {
	if umpire.IsDrop(m) {
		return s.dropOutcomes(m)
	}
	var o Outcome
	from, to := m.From(), m.To()
	pt := s.typeAt(from)
	if pt == chess.NoPieceType || s.own[0].Has(to) || !s.shaped(pt, from, to) {
		o.Illegal = 1 // nonsense on our own board
		return o
	}
	qw, qc := float64(s.p[pawn][to]), float64(s.p[piece][to])
	switch {
	case pt == chess.King:
		if rookFrom, _, ok := chess.CastleRook(from, to); ok {
			if s.checks[0] != chess.NoCheck || s.castle&rookRight(rookFrom) == 0 ||
				!s.own[chess.Rook].Has(rookFrom) || chess.Between(from, rookFrom)&s.own[0] != 0 {
				o.Illegal = 1 // in check, no right, or our own man in the way
				return o
			}
			e := 1.0
			for b := chess.Between(from, rookFrom); b != 0; {
				e *= 1 - s.occ(b.PopFirst())
			}
			for _, sq := range [3]chess.Square{from, (from + to) / 2, to} {
				e *= 1 - s.ProbAttacked(sq)
			}
			o.Quiet = e
			break
		}
		var at attackers
		s.attackersOf(to, from, &at)
		safe := 1 - at.prob()
		o.CapturePawn, o.CapturePiece = safe*qw, safe*qc
		o.Quiet = safe * max(1-qw-qc, 0)
	case s.checks[0] != chess.NoCheck:
		// In check, a man's move is legal only if it takes the checker or
		// steps between it and our king (on a square then empty).
		capture, block := s.answers(to)
		e := 1 - s.pinProb(from, to)
		for b := chess.Between(from, to); b != 0; {
			e *= 1 - s.occ(b.PopFirst())
		}
		pawnStep := pt == chess.Pawn && from.File() == to.File()
		if pt == chess.Pawn && !pawnStep {
			block = 0 // a pawn moves diagonally only to capture
		}
		if !pawnStep && capture > 0 {
			w := qw / max(qw+qc, 1e-9)
			o.CapturePawn, o.CapturePiece = e*capture*w, e*capture*(1-w)
		}
		o.Quiet = e * block
	case pt == chess.Pawn && from.File() != to.File():
		g := 1 - s.pinProb(from, to)
		ep := s.epChance(from, to) * (1 - s.men(to))
		o.CapturePawn = g * min(qw+ep, 1)
		o.CapturePiece = g * qc
	default:
		path := chess.Between(from, to)
		if pt == chess.Pawn {
			path |= to.Bit()
		}
		e := 1 - s.pinProb(from, to)
		for b := path; b != 0; {
			e *= 1 - s.occ(b.PopFirst())
		}
		if pt != chess.Pawn {
			o.CapturePawn, o.CapturePiece = e*qw, e*qc
			e *= max(1-qw-qc-float64(s.p[king][to]), 0)
		}
		o.Quiet = e
	}
	legal := o.Quiet + o.CapturePawn + o.CapturePiece
	if legal > 1 {
		o.Quiet /= legal
		o.CapturePawn /= legal
		o.CapturePiece /= legal
		legal = 1
	}
	o.Illegal = 1 - legal
	s.addChecks(&o, legal, from, to, pt, m.Promotion())
	return o
}

// addChecks splits the chance legal of our move from→to into the check
// kinds it may give.
func (s *State) addChecks(o *Outcome, legal float64, from, to chess.Square, pt, promo chess.PieceType) {
	var ck [chess.CheckKnight + 1]float64
	s.checkProbs(from, to, pt, promo, &ck)
	none := 1.0
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		none -= ck[k]
		o.Check[k] = legal * ck[k]
	}
	o.Check[chess.NoCheck] = legal * max(none, 0)
}

// dropOutcomes is Outcomes for our drop m (crazykrieg): legal when its
// square is empty and, in check, when it blocks; it captures nothing.
func (s *State) dropOutcomes(m chess.Move) Outcome {
	var o Outcome
	pt, to := m.Promotion(), m.To()
	if s.own[0].Has(to) || pt == chess.Pawn && pawnRanks.Has(to) {
		o.Illegal = 1
		return o
	}
	legal := 1 - s.occ(to)
	if s.checks[0] != chess.NoCheck {
		_, block := s.answers(to)
		legal *= block
	}
	o.Quiet = legal
	o.Illegal = 1 - legal
	s.addChecks(&o, legal, to, to, pt, chess.NoPieceType)
	return o
}

// checkProbs fills ck[k] with the chance that our move from→to gives a check
// of kind k, by the moved man or by a line it uncovers.
func (s *State) checkProbs(from, to chess.Square, pt, promo chess.PieceType, ck *[chess.CheckKnight + 1]float64) {
	if promo != chess.NoPieceType && pt == chess.Pawn {
		pt = promo
	}
	own := s.own[0]&^from.Bit() | to.Bit()
	pk := &s.p[king]
	switch pt {
	case chess.King:
	case chess.Pawn, chess.Knight:
		for b := chess.Attacks(s.me, pt, to, 0) & s.supp[king]; b != 0; {
			sq := b.PopFirst()
			ck[chess.ClassifyCheck(sq, to)] += float64(pk[sq])
		}
	default:
		for d := range geo.rays[to] {
			if slides(pt, d) {
				s.rayChecks(to, to, d, 1, own, ck)
			}
		}
	}
	// Lines our move uncovers (a drop, from == to, uncovers none).
	for pt2 := chess.Bishop; pt2 <= chess.Queen && from != to; pt2++ {
		for b := s.own[pt2] &^ from.Bit(); b != 0; {
			u := b.PopFirst()
			d := dirFrom(u, from)
			if d < 0 || !slides(pt2, d) || chess.Between(u, from)&own != 0 {
				continue
			}
			clear := 1.0
			for bb := chess.Between(u, from); bb != 0; {
				clear *= 1 - s.men(bb.PopFirst())
			}
			s.rayChecks(u, from, d, clear, own, ck)
		}
	}
	total := 0.0
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		total += ck[k]
	}
	if total > 1 {
		for k := range ck {
			ck[k] /= total
		}
	}
}

// rayChecks walks from start along direction d and adds, for each square,
// the chance that the enemy king stands there with the line open to our
// checker on u.
func (s *State) rayChecks(u, start chess.Square, d int, clear float64, own chess.Bitboard, ck *[chess.CheckKnight + 1]float64) {
	r := &geo.rays[start][d]
	for i := range r.n {
		sq := r.sq[i]
		if own.Has(sq) {
			return
		}
		if s.supp[king].Has(sq) {
			ck[chess.ClassifyCheck(sq, u)] += clear * float64(s.p[king][sq])
		}
		clear *= 1 - s.men(sq)
		if clear < 1e-6 {
			return
		}
	}
}

// ReplyCaptureRisk fills risk[sq], for each of our men except the king, with
// the chance that the opponent's reply captures it (the paper's model: after
// a capture the capturing man is taken back with its Prob_control capped at
// 1, after our first at least with RecaptureFirst; the other men share a fixed
// CaptureOnMove chance in proportion to their Prob_control). Other squares
// get 0.
func (s *State) ReplyCaptureRisk(risk *[64]float32) {
	*risk = [64]float32{}
	var ctrl [64]float64
	total := 0.0
	for b := s.own[0] &^ s.own[chess.King]; b != 0; {
		sq := b.PopFirst()
		ctrl[sq] = s.ProbControl(sq)
		if sq != s.lastCapture {
			total += ctrl[sq]
		}
	}
	for b := s.own[0] &^ s.own[chess.King]; b != 0; {
		sq := b.PopFirst()
		var r float64
		if total > 0 {
			r = s.params.CaptureOnMove * ctrl[sq] / total
		}
		if sq == s.lastCapture {
			// RecaptureFirst is fitted over every capture, defended or
			// not; where the opponent surely controls the square it takes
			// back as surely (the evaluation assumes the same).
			r = min(ctrl[sq], 1)
			if s.chain <= 1 {
				r = max(r, s.params.RecaptureFirst)
			}
		}
		risk[sq] = float32(r)
	}
}

// ReplyCheckRisk fills risk[k], for each check kind k, with the chance that
// the opponent's reply (the belief at its turn) gives our king a check of
// that kind: the attacks on our king the model's spread of its men brings,
// less those already there (which our legal move rules out but the
// marginals keep a trace of). The opponent's king gives no check.
func (s *State) ReplyCheckRisk(risk *[chess.CheckKnight + 1]float64) {
	*risk = [chess.CheckKnight + 1]float64{}
	if s.units == 0 {
		return
	}
	king := s.OurKing()
	var before [chess.CheckKnight + 1]float64
	s.checkChances(king, &before)
	next := *s
	var a [oppmodel.NumClasses][64]float32
	flat := next.attraction(&a)
	next.spread(&a, flat)
	next.normalize()
	next.checkChances(king, risk)
	for k := range risk {
		risk[k] = max(risk[k]-before[k], 0)
	}
	risk[chess.NoCheck] = 0
}

// checkChances fills p[k] with the chance that an opponent man other than
// its king attacks our king on sq along a line (or jump) of check kind k.
func (s *State) checkChances(sq chess.Square, p *[chess.CheckKnight + 1]float64) {
	var at attackers
	s.attackersOf(sq, chess.NoSquare, &at)
	none := [chess.CheckKnight + 1]float64{1, 1, 1, 1, 1, 1}
	for i := range at.n {
		if at.class[i] != king {
			k := chess.ClassifyCheck(sq, at.sq[i])
			none[k] *= 1 - at.r[i]
		}
	}
	for k := range p {
		p[k] = 1 - none[k]
	}
}
