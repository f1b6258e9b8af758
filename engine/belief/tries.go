package belief

import "kriegbot/engine/chess"

// maxCount bounds the pawn-try counts the evidence model uses: a larger
// count (possible in theory, never seen in the fixtures, whose largest is 8)
// is ignored, which is sound, and keeps the tables small.
const maxCount = 8

// triesTerm is one uncertain square in the pawn-try evidence: if occupied
// (chance q), it adds c tries with chance dist[c].
type triesTerm struct {
	sq   chess.Square
	ep   bool // the square stands for an en passant chance on its file
	q    float64
	dist [4]float64
}

// triesModel is the independent-squares model of a pawn-try count: the count
// is the sum of the terms' contributions.
type triesModel struct {
	n    int
	term [40]triesTerm
}

// add appends a term for sq with occupancy q whose pairs count with the
// given chances (1 for a capture proven legal).
func (t *triesModel) add(sq chess.Square, ep bool, q float64, legal []float64) {
	if q <= 0 || t.n == len(t.term) {
		return
	}
	tm := &t.term[t.n]
	t.n++
	tm.sq, tm.ep, tm.q = sq, ep, min(q, maxOcc)
	tm.dist = [4]float64{1}
	for _, l := range legal {
		var nd [4]float64
		for c := range 4 {
			if tm.dist[c] == 0 {
				continue
			}
			nd[c] += tm.dist[c] * (1 - l)
			if c < 3 {
				nd[c+1] += tm.dist[c] * l
			}
		}
		tm.dist = nd
	}
}

// posterior returns, for each term, the chance that its square is occupied
// given that the count is n, written into post; ok is false when the model
// gives the count no chance at all (the evidence is then ignored).
func (t *triesModel) posterior(n int, post *[40]float64) bool {
	if n < 0 || n > maxCount {
		return false
	}
	if n == 0 {
		// Every term adds nothing: the terms are independent.
		for i := range t.n {
			tm := &t.term[i]
			post[i] = tm.q * tm.dist[0] / (1 - tm.q + tm.q*tm.dist[0])
		}
		return true
	}
	// prefix[i][c]: chance that terms before i add c; suffix likewise after i.
	var prefix, suffix [41][maxCount + 1]float64
	prefix[0][0] = 1
	for i := range t.n {
		tm := &t.term[i]
		for c := 0; c <= n; c++ {
			v := prefix[i][c]
			if v == 0 {
				continue
			}
			prefix[i+1][c] += v * (1 - tm.q)
			for k := range 4 {
				if c+k <= n {
					prefix[i+1][c+k] += v * tm.q * tm.dist[k]
				}
			}
		}
	}
	total := prefix[t.n][n]
	if total <= 0 {
		return false
	}
	suffix[t.n][0] = 1
	for i := t.n - 1; i >= 0; i-- {
		tm := &t.term[i]
		for c := 0; c <= n; c++ {
			v := suffix[i+1][c]
			if v == 0 {
				continue
			}
			suffix[i][c] += v * (1 - tm.q)
			for k := range 4 {
				if c+k <= n {
					suffix[i][c+k] += v * tm.q * tm.dist[k]
				}
			}
		}
	}
	for i := range t.n {
		tm := &t.term[i]
		like := 0.0
		for k := range 4 {
			if tm.dist[k] == 0 || k > n {
				continue
			}
			// Chance that the other terms add n-k.
			rest := 0.0
			for c := 0; c <= n-k; c++ {
				rest += prefix[i][c] * suffix[i+1][n-k-c]
			}
			like += tm.dist[k] * rest
		}
		post[i] = tm.q * like / total
	}
	return true
}

// posteriorSome returns, for each term, the chance that its square is
// occupied given that the count is at least 1, written into post; ok is
// false when the model gives that no chance. No posterior is 0: the
// evidence proves no square empty.
func (t *triesModel) posteriorSome(post *[40]float64) bool {
	// suffix[i]: chance that the terms from i on add nothing.
	var suffix [41]float64
	suffix[t.n] = 1
	for i := t.n - 1; i >= 0; i-- {
		tm := &t.term[i]
		suffix[i] = suffix[i+1] * (1 - tm.q + tm.q*tm.dist[0])
	}
	some := 1 - suffix[0]
	if some <= 0 {
		return false
	}
	prefix := 1.0
	for i := range t.n {
		tm := &t.term[i]
		// P(occupied and some) = q - q·P(it adds nothing)·P(the others add nothing).
		post[i] = tm.q * (1 - tm.dist[0]*prefix*suffix[i+1]) / some
		prefix *= 1 - tm.q + tm.q*tm.dist[0]
	}
	return true
}

// ourTriesEvidence learns from our pawn-try count n, announced after the
// opponent's move: how many of our pawn-capture squares hold an opponent man
// (plus en passant chances). A square whose occupation the count rules out is
// proven empty only when every capture onto it is proven legal.
func (s *State) ourTriesEvidence(n int) {
	if n < 0 {
		return
	}
	var tm triesModel
	s.ourTriesTerms(&tm, s.own[chess.Pawn])
	var post [40]float64
	if !tm.posterior(n, &post) {
		if n > 0 {
			s.surprises++
		}
		return
	}
	s.ourTriesPosterior(&tm, &post)
}

// ourTriesSome learns that our pawns on the squares of pawns have at least
// one legal capture between them ("has pawn captures", a rand try square).
// No square is proven empty by it.
func (s *State) ourTriesSome(pawns chess.Bitboard) {
	var tm triesModel
	s.ourTriesTerms(&tm, pawns)
	var post [40]float64
	if !tm.posteriorSome(&post) {
		s.surprises++ // no man of theirs could be taken
		return
	}
	s.ourTriesPosterior(&tm, &post)
}

// ourTriesTerms fills tm with the terms of the captures that our pawns on
// the squares of pawns may make: the squares they attack, and the en
// passant chances next to them.
func (s *State) ourTriesTerms(tm *triesModel, pawns chess.Bitboard) {
	inCheck := s.checks[0] != chess.NoCheck
	var targets chess.Bitboard
	for b := pawns; b != 0; {
		targets |= chess.PawnAttacks(s.me, b.PopFirst())
	}
	targets &^= s.own[0]
	var legal [2]float64
	targets &= s.supp[pawn] | s.supp[piece]
	for b := targets; b != 0; {
		t := b.PopFirst()
		k := 0
		for f := chess.PawnAttacks(s.me.Other(), t) & pawns; f != 0; {
			from := f.PopFirst()
			legal[k] = 1
			if inCheck || s.possiblyPinned(from, t) {
				legal[k] = uncertainLegal
			}
			k++
		}
		tm.add(t, false, max(s.men(t), floor), legal[:k])
	}
	for f := range s.epProb {
		if s.epProb[f] <= 0 {
			continue
		}
		// The pawn that stepped twice stands on our fifth rank.
		sq := chess.NewSquare(f, 4)
		if s.me == chess.Black {
			sq = chess.NewSquare(f, 3)
		}
		k := 0
		for b := chess.PawnAttacks(s.me.Other(), chess.Square(int(sq)+forward(s.me))) & pawns; b != 0; b.PopFirst() {
			legal[k] = uncertainLegal
			k++
		}
		if k > 0 {
			tm.add(sq, true, float64(s.epProb[f]), legal[:k])
		}
	}
}

// ourTriesPosterior sets each term's square to its posterior chance.
func (s *State) ourTriesPosterior(tm *triesModel, post *[40]float64) {
	for i := range tm.n {
		term := &tm.term[i]
		if term.ep {
			s.epProb[term.sq.File()] = float32(post[i])
			continue
		}
		if post[i] == 0 {
			s.zero(pawn, term.sq.Bit())
			s.zero(piece, term.sq.Bit())
			continue
		}
		s.scaleMen(term.sq, post[i]/term.q)
		s.fresh |= term.sq.Bit()
	}
}

// theirTriesEvidence learns from the opponent's pawn-try count n, announced
// after our move: how many captures of our men its pawns have. checked says
// whether our move gave check (then none of its captures is proven legal).
func (s *State) theirTriesEvidence(n int, checked bool) {
	if n < 0 {
		return
	}
	var tm triesModel
	s.theirTriesTerms(&tm, s.supp[pawn], checked)
	var post [40]float64
	if !tm.posterior(n, &post) {
		if n > 0 {
			s.surprises++
		}
		return
	}
	s.theirTriesPosterior(&tm, &post)
}

// theirTriesSome learns that the opponent's pawns have at least one legal
// capture ("has pawn captures").
func (s *State) theirTriesSome(checked bool) {
	var tm triesModel
	s.theirTriesTerms(&tm, s.supp[pawn], checked)
	var post [40]float64
	if !tm.posteriorSome(&post) {
		s.surprises++
		return
	}
	s.theirTriesPosterior(&tm, &post)
}

// theirTriesTerms fills tm with the terms of the captures that opponent
// pawns on the squares of where may make.
func (s *State) theirTriesTerms(tm *triesModel, where chess.Bitboard, checked bool) {
	opp := s.me.Other()
	prey := s.own[0] &^ s.own[chess.King]
	var epFrom chess.Bitboard
	if s.ourDouble != chess.NoSquare {
		epFrom = chess.PawnAttacks(s.me, chess.Square(int(s.ourDouble)-forward(s.me)))
	}
	var legal [3]float64
	for b := where & s.supp[pawn]; b != 0; {
		p := b.PopFirst()
		k := 0
		for t := chess.PawnAttacks(opp, p) & prey; t != 0; {
			to := t.PopFirst()
			legal[k] = 1
			if checked || s.enemyPossiblyPinned(p, to) {
				legal[k] = uncertainLegal
			}
			k++
		}
		if epFrom.Has(p) {
			legal[k] = uncertainLegal
			k++
		}
		if k > 0 {
			tm.add(p, false, max(float64(s.p[pawn][p]), floor), legal[:k])
		}
	}
}

// theirTriesPosterior sets each term's pawn chance to its posterior.
func (s *State) theirTriesPosterior(tm *triesModel, post *[40]float64) {
	for i := range tm.n {
		term := &tm.term[i]
		if post[i] == 0 {
			s.zero(pawn, term.sq.Bit())
			continue
		}
		s.p[pawn][term.sq] = float32(min(float64(s.p[pawn][term.sq])*post[i]/term.q, 1))
	}
}

// enemyPossiblyPinned reports whether an enemy pawn on p capturing onto to
// might be pinned to its king by one of our sliders.
func (s *State) enemyPossiblyPinned(p, to chess.Square) bool {
	for pt := chess.Bishop; pt <= chess.Queen; pt++ {
		for b := s.own[pt]; b != 0; {
			u := b.PopFirst()
			d := dirFrom(u, p)
			if d < 0 || !slides(pt, d) || u == to || chess.Line(u, p).Has(to) || chess.Between(u, p)&s.own[0] != 0 {
				continue
			}
			r := &geo.rays[p][d]
			for i := range r.n {
				sq := r.sq[i]
				if s.own[0].Has(sq) {
					break
				}
				if s.supp[king].Has(sq) {
					return true
				}
			}
		}
	}
	return false
}

// scaleMen multiplies the pawn and piece chances on sq by f, keeping the
// square's total at most 1.
func (s *State) scaleMen(sq chess.Square, f float64) {
	w, c := float64(s.p[pawn][sq])*f, float64(s.p[piece][sq])*f
	if t := w + c + float64(s.p[king][sq]); t > 1 {
		w, c = w/t, c/t
	}
	s.p[pawn][sq], s.p[piece][sq] = float32(w), float32(c)
}
