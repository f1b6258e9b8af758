package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// Theirs updates the belief after the opponent's unseen legal move, from what
// we hear of it (v as umpire.Answer.For gives it to us): the capture of one of
// our men, a drop, a promotion, checks on our king and our pawn news; or
// with the answer to the opponent's "Any?". The opponent's refused attempts
// change nothing: where they are public the attempt itself is not told, and
// some attempt on its list is refused in nearly every position.
func (s *State) Theirs(v umpire.View) {
	if !v.Heard || v.Own {
		return
	}
	if v.Illegal {
		// Under the obligation it was a failed pawn try, which releases the
		// opponent in english and crazykrieg (and in any variant not set).
		s.theirPawnDue = s.theirPawnDue && s.dueStays
		return
	}
	switch v.Verdict {
	case umpire.HasAny, umpire.NoAny:
		s.theirAnyAnswer(v.Verdict == umpire.HasAny)
		return
	case umpire.IllegalMove:
	default:
		return // a refusal off its list: the site does not tell us
	}
	if v.EnPassant && v.Capture.Kind != umpire.NoCapture && v.Capture.Square <= 63 {
		// Announced on the capturer's destination (english): our pawn
		// stood beyond it.
		v.Capture.Square = chess.Square(int(v.Capture.Square) + forward(s.me))
	}
	if !wellFormed(&v) || v.Capture.Kind != umpire.NoCapture && !s.own[0].Has(v.Capture.Square) ||
		s.own[chess.King].Has(v.Capture.Square) && v.Capture.Kind != umpire.NoCapture {
		s.surprises++ // no man of ours stood there to be taken
		return
	}
	s.oppMoves++
	var a [oppmodel.NumClasses][64]float32
	flat := s.attraction(&a)
	captured := v.Capture.Kind != umpire.NoCapture
	s.epProb = [8]float32{}
	switch {
	case v.Drop != chess.NoPieceType:
		s.theirDrop(v.Drop)
	case captured:
		s.captureMove(v.Capture.Square)
	case s.theirPawnDue:
		s.surprises++ // it had to take with a pawn
		s.spread(&a, flat)
	default:
		s.spread(&a, flat)
	}
	s.theirNoPawnFrom, s.theirPawnDue = 0, false
	if v.Promotion && s.pawnMax > 0 {
		// Announced (rand): one pawn fewer for sure.
		s.pawnMax--
		s.pawnExp = max(s.pawnExp-1, 0)
	}
	s.ourDouble, s.lastCapture = chess.NoSquare, chess.NoSquare
	if !captured || v.Capture.Square != s.exchange {
		s.exchange, s.chain = chess.NoSquare, 0
	}
	s.checks = v.Checks
	s.ourTurn = true
	if v.Checks[0] == chess.NoCheck {
		// No enemy pawn gives check.
		s.zero(pawn, chess.PawnAttacks(s.me, s.OurKing()))
	}
	// The opponent's king is not left attacked by its own move.
	s.zero(king, s.definiteAttacks())
	if v.Checks[0] != chess.NoCheck {
		s.locateChecker(v.Checks)
	}
	s.ourTries = v.PawnTries
	if v.Ending == umpire.NotOver {
		s.ourPawnNews(&v)
	}
	s.updateCastling()
	s.normalize()
}

// attraction fills a[c][sq] with how attractive sq is to the opponent's
// units of class c on this move: the paper's f of the model's trend, centred
// on 1. Past the model's horizon all squares are equally attractive: flat[c]
// is then set and a[c] left unset.
func (s *State) attraction(a *[oppmodel.NumClasses][64]float32) (flat [oppmodel.NumClasses]bool) {
	opp := s.me.Other()
	for c := range a {
		d, ok := s.prior.Trend(opp, oppmodel.Class(c), s.oppMoves-1)
		var big float32
		if ok {
			for _, x := range d {
				big = max(big, x, -x)
			}
		}
		if big == 0 {
			flat[c] = true
			continue
		}
		for i, x := range d {
			a[c][i] = min(max(1+0.9*x/big, 0.1), 1.9)
		}
	}
	return flat
}

// ones is the attraction of every square when all are equally attractive.
var ones = func() (a [64]float32) {
	for i := range a {
		a[i] = 1
	}
	return a
}()

// massFloor is the least mass worth moving in the spread: lighter squares
// keep theirs (their support still grows).
const massFloor = 1e-2

// moveShares returns, for each class, the chance that one given unit of
// the opponent's is the one it moves, by the prior (the paper's rule gives
// every unit 1/(k1+k2+1)).
func (s *State) moveShares() [oppmodel.NumClasses]float64 {
	pawns := int(s.pawnExp + 0.5)
	if s.pawnExp > 0 {
		pawns = max(pawns, 1) // a pawn's last share still moves
	}
	pawns = min(pawns, s.units)
	return s.prior.UnitMoveChances(s.me.Other(), pawns, s.units-pawns)
}

// lineShares returns the parts of a piece's move along one line direction
// (of four) and by a knight jump.
func (s *State) lineShares() (line, knight float64) {
	lf, kf := s.params.LineFactor, s.params.KnightFactor
	t := 4*lf + kf
	return lf / t, kf / t
}

// homeKing returns the opponent king's starting square.
func (s *State) homeKing() chess.Square {
	if s.me == chess.White {
		return chess.E8
	}
	return chess.E1
}

// spread moves the opponent's units by one unseen quiet move: each unit
// moves with the same chance; the king walks to a neighbouring square it may
// stand on (or castles), pawns step forward (promoting on the last rank), the
// other pieces slide along open stretches of ranks, files and diagonals or
// jump. Squares proven occupied before the move (full) can be neither crossed
// nor entered; afterwards only the full squares whose unit could not move stay
// proven.
func (s *State) spread(a *[oppmodel.NumClasses][64]float32, flat [oppmodel.NumClasses]bool) {
	u := s.moveShares()
	blocked := s.own[0] | s.full
	free := ^blocked
	opp := s.me.Other()
	stuck := s.full

	// King.
	var nk [64]float32
	reach := s.supp[king]
	kingBar := blocked | chess.KingAttacks(s.OurKing()) | s.definiteAttacks()
	home := s.homeKing()
	for b := s.supp[king]; b != 0; {
		o := b.PopFirst()
		m := float64(s.p[king][o])
		dests := chess.KingAttacks(o) &^ kingBar
		if o == home {
			if s.oppCastle&(chess.WhiteKingside|chess.BlackKingside) != 0 && chess.Between(o, o+3)&blocked == 0 {
				dests |= (o + 2).Bit() &^ kingBar
			}
			if s.oppCastle&(chess.WhiteQueenside|chess.BlackQueenside) != 0 && chess.Between(o, o-4)&blocked == 0 {
				dests |= (o - 2).Bit() &^ kingBar
			}
		}
		if dests != 0 {
			stuck &^= o.Bit()
		}
		reach |= dests
		if dests == 0 || m < massFloor {
			nk[o] += float32(m)
			continue
		}
		mv := m * u[king]
		nk[o] += float32(m - mv)
		spreadTo(&nk, dests, mv, &a[king], flat[king])
	}
	s.p[king], s.supp[king] = nk, reach

	// Pawns: one-way chains.
	dir := forward(opp)
	reachMoves := s.moves
	var promoReach chess.Bitboard
	np := s.p[piece]
	nw := s.p[pawn]
	reach = s.supp[pawn]
	promoted := 0.0
	for b := s.supp[pawn]; b != 0; {
		o := b.PopFirst()
		one := chess.Square(int(o) + dir)
		if blocked.Has(one) {
			continue
		}
		stuck &^= o.Bit()
		m := float64(s.p[pawn][o])
		two := chess.NoSquare
		w1, w2 := 1.0, 0.0
		if !flat[pawn] {
			w1 = float64(a[pawn][one])
		}
		if relRank(opp, o) == 1 {
			if t := chess.Square(int(one) + dir); !blocked.Has(t) {
				two, w2 = t, 1
				if !flat[pawn] {
					w2 = float64(a[pawn][t])
				}
			}
		}
		mv := m * u[pawn]
		nw[o] -= float32(mv)
		if relRank(opp, one) == 7 {
			np[one] += float32(mv)
			promoReach |= one.Bit()
			promoted += mv
			continue
		}
		reach |= one.Bit()
		if two == chess.NoSquare {
			nw[one] += float32(mv)
			continue
		}
		reach |= two.Bit()
		nw[one] += float32(mv * w1 / (w1 + w2))
		d := mv * w2 / (w1 + w2)
		nw[two] += float32(d)
		s.epProb[two.File()] = min(s.epProb[two.File()]+float32(d), 1)
	}
	s.p[pawn], s.supp[pawn] = nw, reach
	s.pawnExp = max(s.pawnExp-float32(promoted), 0)

	// Pieces: density spreading along open stretches (paper, Fig. 7). The
	// support grows by every square a piece of each way of moving could reach;
	// the mass moves only where there is enough of it to matter.
	lineShare, knightShare := s.lineShares()
	ap := &a[piece]
	if flat[piece] {
		ap = &ones
	}
	share := u[piece] * lineShare
	queens := s.moves[diagonal] & s.moves[straight]
	for g := range 4 {
		k, other := straight, diagonal
		if g >= 2 {
			k, other = diagonal, straight
		}
		movers := s.moves[k]
		// Stretches of free squares along this orientation's lines: every
		// piece in one may go anywhere in it, so they feed it together.
		for free := movers &^ blocked; free != 0; {
			o := free.First()
			run := lineAttacks(g, o, blocked)&^blocked | o.Bit()
			free &^= run
			if !run.More() {
				continue
			}
			reachMoves[k] |= run
			if run&queens != 0 {
				// A queen keeps both ways of moving wherever it goes.
				reachMoves[other] |= run
			}
			if flat[piece] {
				// Each piece sends out/(k-1) to every other square of the stretch.
				inv := 1 / float32(run.Count()-1)
				var feed float32
				for mb := run & movers; mb != 0; {
					sq := mb.PopFirst()
					if m := s.p[piece][sq]; m >= massFloor {
						out := m * float32(share)
						feed += out * inv
						np[sq] -= out + out*inv // not to itself
					}
				}
				if feed != 0 {
					for r := run; r != 0; {
						np[r.PopFirst()] += feed
					}
				}
				continue
			}
			sumA := sumAttraction(run, ap, false)
			feed := 0.0 // mass per unit of attraction sent into the stretch
			for mb := run & movers; mb != 0; {
				sq := mb.PopFirst()
				m := float64(s.p[piece][sq])
				if m < massFloor {
					continue
				}
				out := m * share
				f := out / (sumA - float64(ap[sq]))
				feed += f
				np[sq] -= float32(out + f*float64(ap[sq])) // not to itself
			}
			if feed != 0 {
				for r := run; r != 0; {
					sq := r.PopFirst()
					np[sq] += float32(feed * float64(ap[sq]))
				}
			}
		}
		// Pieces on proven-occupied squares move into the stretches beside them.
		for b := movers & blocked; b != 0; {
			o := b.PopFirst()
			dests := lineAttacks(g, o, blocked) &^ blocked
			if dests == 0 {
				continue
			}
			stuck &^= o.Bit()
			reachMoves[k] |= dests
			if queens.Has(o) {
				reachMoves[other] |= dests
			}
			if m := float64(s.p[piece][o]); m >= massFloor {
				out := m * share
				np[o] -= float32(out)
				spreadTo(&np, dests, out, ap, flat[piece])
			}
		}
	}
	for b := s.moves[jumper]; b != 0; {
		o := b.PopFirst()
		dests := chess.KnightAttacks(o) & free
		if dests == 0 {
			continue
		}
		stuck &^= o.Bit()
		reachMoves[jumper] |= dests
		m := float64(s.p[piece][o])
		if m < massFloor {
			continue
		}
		out := m * u[piece] * knightShare
		np[o] -= float32(out)
		spreadTo(&np, dests, out, ap, flat[piece])
	}
	for i, v := range np {
		if v < 0 {
			np[i] = 0
		}
	}
	s.p[piece], s.moves = np, reachMoves
	s.addPieces(promoReach)
	s.supp[piece] |= s.moves[jumper] | s.moves[diagonal] | s.moves[straight]
	s.full = stuck
}

// lineAttacks returns the squares a slider on o reaches along the line of
// orientation g (rank, file, diagonal, anti-diagonal) given the blockers.
func lineAttacks(g int, o chess.Square, blocked chess.Bitboard) chess.Bitboard {
	if g < 2 {
		return chess.RookAttacks(o, blocked) & geo.lineMask[o][g]
	}
	return chess.BishopAttacks(o, blocked) & geo.lineMask[o][g]
}

// sumAttraction is the attraction of the squares of b (their number when flat).
func sumAttraction(b chess.Bitboard, a *[64]float32, flat bool) float64 {
	if flat {
		return float64(b.Count())
	}
	sum := 0.0
	for b != 0 {
		sum += float64(a[b.PopFirst()])
	}
	return sum
}

// spreadTo adds out to m over the squares of dests in proportion to their
// attraction a (evenly when flat).
func spreadTo(m *[64]float32, dests chess.Bitboard, out float64, a *[64]float32, flat bool) {
	if flat {
		per := float32(out / float64(dests.Count()))
		for dests != 0 {
			m[dests.PopFirst()] += per
		}
		return
	}
	sum := 0.0
	for d := dests; d != 0; {
		sum += float64(a[d.PopFirst()])
	}
	per := out / sum
	for dests != 0 {
		sq := dests.PopFirst()
		m[sq] += float32(per * float64(a[sq]))
	}
}

// captureMove handles the opponent's move that captured our man on x: that
// move is the only one, so the other units stay where they were, and the
// capturer (king, pawn, pawn taking en passant or promoting, or piece) is
// weighed by how likely each could have made it.
func (s *State) captureMove(x chess.Square) {
	taken := s.typeAt(x)
	if s.ownPromoted.Has(x) {
		taken = chess.Pawn
	}
	if taken < chess.King && s.theirPocket[taken] < 255 {
		s.theirPocket[taken]++
	}
	s.removeOwn(x)
	opp := s.me.Other()
	var wk, wp, we, wc float64
	kingFrom := chess.KingAttacks(x) & s.supp[king]
	for b := kingFrom; b != 0; {
		wk += float64(s.p[king][b.PopFirst()])
	}
	pawnFrom := chess.PawnAttacks(s.me, x) & s.supp[pawn] &^ s.theirNoPawnFrom
	for b := pawnFrom; b != 0; {
		wp += float64(s.p[pawn][b.PopFirst()])
	}
	var epFrom chess.Bitboard
	epTo := chess.NoSquare
	if x == s.ourDouble {
		epTo = chess.Square(int(x) - forward(s.me))
		epFrom = chess.PawnAttacks(s.me, epTo) & s.supp[pawn] &^ s.theirNoPawnFrom
		for b := epFrom; b != 0; {
			we += float64(s.p[pawn][b.PopFirst()])
		}
	}
	lineShare, knightShare := s.lineShares()
	var wFrom [64]float32
	// The capturer's ways of moving, for the support of X afterwards.
	var landed [3]bool
	for b := chess.KnightAttacks(x) & s.moves[jumper]; b != 0; {
		sq := b.PopFirst()
		w := max(float64(s.p[piece][sq])*knightShare, floor*floor)
		wFrom[sq] = float32(w)
		wc += w
		landed[jumper] = true
	}
	for d := range geo.rays[x] {
		r := &geo.rays[x][d]
		k := lineKind(d)
		clear := 1.0
		for i := range r.n {
			sq := r.sq[i]
			if s.own[0].Has(sq) {
				break
			}
			if s.moves[k].Has(sq) {
				w := float64(s.p[piece][sq]) * clear * lineShare
				w = max(w, floor*floor)
				wFrom[sq] += float32(w)
				wc += w
				landed[k] = true
				if s.moves[diagonal].Has(sq) && s.moves[straight].Has(sq) {
					landed[diagonal], landed[straight] = true, true
				}
			}
			if s.full.Has(sq) {
				break
			}
			clear *= 1 - s.occ(sq)
		}
	}
	if s.theirPawnDue {
		wk, wc = 0, 0 // only a pawn may have taken
	}
	total := wk + wp + we + wc
	if total <= 0 {
		// Nothing we thought possible could have captured there.
		s.surprises++
		s.addPieces(x.Bit())
		s.p[piece][x] = 1
		return
	}
	promo := relRank(opp, x) == 7
	// Only the capturer moved: the other proven squares stay proven.
	origins := kingFrom | pawnFrom | epFrom
	for sq := range wFrom {
		if wFrom[sq] > 0 {
			origins |= chess.Square(sq).Bit()
		}
	}
	s.full &^= origins
	s.fresh |= x.Bit()
	switch {
	case we == 0:
		s.full |= x.Bit()
	case wk+wp+wc == 0:
		s.full |= epTo.Bit()
	}
	if wk > 0 {
		f := wk / total
		if wp+we+wc == 0 {
			// Only the king could have taken: it stands on x now.
			s.zero(king, s.supp[king]&^x.Bit())
		}
		for b := kingFrom; b != 0; {
			sq := b.PopFirst()
			s.p[king][sq] -= float32(f * float64(s.p[king][sq]) / wk)
		}
		s.p[king][x] += float32(f)
		s.supp[king] |= x.Bit()
	}
	if wp > 0 {
		f := wp / total
		for b := pawnFrom; b != 0; {
			sq := b.PopFirst()
			s.p[pawn][sq] -= float32(f * float64(s.p[pawn][sq]) / wp)
		}
		if promo {
			s.p[piece][x] += float32(f)
			s.addPieces(x.Bit())
			s.pawnExp = max(s.pawnExp-float32(f), 0)
		} else {
			s.p[pawn][x] += float32(f)
			s.supp[pawn] |= x.Bit()
		}
	}
	if we > 0 {
		f := we / total
		for b := epFrom; b != 0; {
			sq := b.PopFirst()
			s.p[pawn][sq] -= float32(f * float64(s.p[pawn][sq]) / we)
		}
		s.p[pawn][epTo] += float32(f)
		s.supp[pawn] |= epTo.Bit()
	}
	if wc > 0 {
		f := wc / total
		for sq := range wFrom {
			if wFrom[sq] > 0 {
				s.p[piece][sq] = max(s.p[piece][sq]-float32(f*float64(wFrom[sq])/wc), 0)
			}
		}
		s.p[piece][x] += float32(f)
		for k, ok := range landed {
			if ok {
				s.moves[k] |= x.Bit()
			}
		}
		s.supp[piece] |= x.Bit()
	}
	for c := range s.p {
		for sq := range s.p[c] {
			s.p[c][sq] = max(s.p[c][sq], 0)
		}
	}
}

// locateChecker learns from the checks announced on our king: for each kind,
// the checker is the first unit along one of that line's two rays (or on a
// knight square, or a pawn on a capturing square); each candidate's chance is
// raised to at least its share of the explanation.
func (s *State) locateChecker(checks [2]chess.CheckKind) {
	s.checker = [64]float32{}
	k := s.OurKing()
	for _, kind := range checks {
		if kind == chess.NoCheck {
			continue
		}
		var wPiece, wPawn [64]float64
		total := 0.0
		if kind == chess.CheckKnight {
			cands := chess.KnightAttacks(k) & s.moves[jumper]
			for b := cands; b != 0; {
				sq := b.PopFirst()
				wPiece[sq] = s.kind(sq, jumper) * float64(s.p[piece][sq])
				total += wPiece[sq]
			}
			if cands != 0 && !cands.More() {
				s.full |= cands // the only square a knight could check from
			}
		} else {
			pawnSq := chess.PawnAttacks(s.me, k) & s.supp[pawn]
			var nearest chess.Square
			var rayCands chess.Bitboard
			rays := 0
			for d := range geo.rays[k] {
				r := &geo.rays[k][d]
				if r.n == 0 || chess.ClassifyCheck(k, r.sq[0]) != kind {
					continue
				}
				clear := 1.0
				lk := lineKind(d)
				movers := s.moves[lk]
				var cands chess.Bitboard
				for i := range r.n {
					sq := r.sq[i]
					if s.own[0].Has(sq) {
						break
					}
					if movers.Has(sq) {
						wPiece[sq] = clear * s.kind(sq, lk) * float64(s.p[piece][sq])
					}
					if i == 0 && pawnSq.Has(sq) {
						wPawn[sq] = float64(s.p[pawn][sq])
					}
					if movers.Has(sq) || i == 0 && pawnSq.Has(sq) {
						if cands == 0 {
							nearest = sq
						}
						cands |= sq.Bit()
					}
					total += wPiece[sq] + wPawn[sq]
					if s.full.Has(sq) {
						break // nothing checks through a proven unit
					}
					clear *= 1 - s.occ(sq)
				}
				if cands != 0 {
					rays++
					rayCands = cands
				}
			}
			if rays == 1 {
				// One ray can hold the checker: the line up to its nearest
				// possible square is empty, and a lone candidate is proven.
				s.zeroAll(chess.Between(k, nearest))
				if !rayCands.More() {
					s.full |= rayCands
				}
			}
		}
		if total <= 0 {
			s.surprises++
			continue
		}
		for sq := range 64 {
			if wPiece[sq] == 0 && wPawn[sq] == 0 {
				continue
			}
			post := (wPiece[sq] + wPawn[sq]) / total
			s.checker[sq] += float32(post)
			s.fresh |= chess.Square(sq).Bit()
			s.p[piece][sq] = max(s.p[piece][sq], float32(wPiece[sq]/total))
			s.p[pawn][sq] = max(s.p[pawn][sq], float32(wPawn[sq]/total))
			if t := s.p[king][sq] + s.p[pawn][sq] + s.p[piece][sq]; t > 1 {
				s.scaleSquare(chess.Square(sq), 1/float64(t))
			}
		}
	}
}
