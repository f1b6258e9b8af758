package search

import (
	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// Values are in pawns from our side. A won game is worth more than any
// material; a drawn game nothing. Mating material against a bare king is
// worth nearly a win (bareWon): valued by material alone, a search gambles
// its queen on a 10 % mate chance in KQ-K, where patience wins for sure.
// At 80 a K+R against K (about 74) still gambles the rook on a check that
// mates 60 % and loses it 10 %, so a search whose root already faces a bare
// king values it at bareWonEnding (95: 2 rooks lost in 100 drills, not 13).
// Everywhere at 95 lost ground at 100 ms (docs/strength.md, round 15): with
// the opponent down to a few men the deep lines taking them all looked
// better than the sound ones.
const (
	winValue      = 100
	drawValue     = 0
	bareWon       = 80
	bareWonEnding = 95
)

// evalParams are the valuation's settings for one search.
type evalParams struct {
	// shield is Config.Shield, the weight of our king's pawn shield.
	shield float32
	// bareWon is what mating men against a bare king are worth less
	// their gap (bareWon, or bareWonEnding from a bare king's root).
	bareWon float32
	// hand is treeSettings.hand: the share of its value a pocketed man
	// counts for (0: no pockets).
	hand float32
	// stalemate is treeSettings.stalemate, the value of stalemating the
	// opponent.
	stalemate float32
}

// evalFor returns the valuation's settings for a search from root with the
// trees' settings set. Where the referee draws a repeated position or
// 50 quiet moves (drawRules) mating men stay at bareWon: the patience of
// bareWonEnding shuffles into those draws (KR-K drills under the Olympiad's
// rules: 32 % mated at 80, 16 % at 95; docs/strength.md, round 16).
func evalFor(root *belief.State, set *treeSettings) evalParams {
	p := evalParams{shield: set.shield, bareWon: bareWon, hand: set.hand, stalemate: set.stalemate}
	if root.Units() == 0 && !set.drawRules {
		p.bareWon = bareWonEnding
	}
	return p
}

// Evaluation weights. Each beyond material was kept because a match showed it
// wins (docs/strength.md).
const (
	// pieceAverage is the value of an unknown opponent piece (Q, 2R, 2B, 2N
	// average a little over 4; the ones left late are more often minor).
	pieceAverage = 3.5
	// pawnTake is the chance the opponent takes a man its pawn attacks: the
	// referee tells it about the pawn try.
	pawnTake = 0.9
	// blindTake is the chance the opponent takes a man one of its pieces
	// attacks without being told it is there.
	blindTake = 0.25
	// recapturerValue is the expected value of the opponent's man we take
	// back on a capture square we defend.
	recapturerValue = 2.5
	// illegalCost is what a refusal costs against playing the turn's best
	// attempt at once: time on the clock, nothing on the board.
	illegalCost = 0.02
	// winningLead is the material lead from which we press for mate even
	// while the opponent keeps some men: restrict its king, bring ours.
	winningLead = 5
	// pawnAdvance values each rank a pawn of ours has advanced (promotion
	// drive).
	pawnAdvance = 0.03
	// kingHome is the cost of each rank our king stands away from home
	// while the opponent has men; kingMoveCost that of any king move then
	// (the king is the one man whose loss the material count does not see),
	// castleBonus the value of castling.
	kingHome     = 0.25
	kingMoveCost = 0.15
	castleBonus  = 0.2
	// checkBonus values the information a check gives.
	checkBonus = 0.02
	// roomWeight is the cost of each square a bare king may reach.
	roomWeight = 0.06
	// hangQuiet and hangCheck are the chances that a bare king takes an
	// undefended man next to it, unchecked or checked (then taking the
	// checker is one of its few ways out).
	hangQuiet = 0.5
	hangCheck = 0.9
	// kingDistWeight is the cost per square of distance between our king and
	// a bare king: ours must come to help mate.
	kingDistWeight = 0.08
)

var manValue = [chess.King + 1]float32{0, 1, 3, 3, 5, 9, 0}

// material is our men's value less the opponent's expected.
func material(s *belief.State) float32 {
	var ours float32
	for pt := chess.Pawn; pt < chess.King; pt++ {
		ours += manValue[pt] * float32(s.Own(pt).Count())
	}
	pawns, _ := s.Pawns()
	units := float64(s.Units())
	pawns = min(pawns, units)
	return ours - float32(pawns+(units-pawns)*pieceAverage)
}

// defended reports whether our men other than the one on sq attack sq,
// with occupancy own.
func defended(m *men, sq chess.Square, own chess.Bitboard) bool {
	other := own &^ sq.Bit()
	by := &m.by
	if chess.KnightAttacks(sq)&by[chess.Knight]&other != 0 ||
		chess.KingAttacks(sq)&by[chess.King]&other != 0 ||
		chess.PawnAttacks(m.us.Other(), sq)&by[chess.Pawn]&other != 0 ||
		chess.BishopAttacks(sq, own)&(by[chess.Bishop]|by[chess.Queen])&other != 0 ||
		chess.RookAttacks(sq, own)&(by[chess.Rook]|by[chess.Queen])&other != 0 {
		return true
	}
	return false
}

// pawnAttack is the chance that an opponent pawn attacks sq.
func pawnAttack(s *belief.State, us chess.Color, sq chess.Square) float64 {
	none := 1.0
	for b := chess.PawnAttacks(us, sq) & s.Support(oppmodel.Pawn); b != 0; {
		none *= 1 - s.Prob(oppmodel.Pawn, b.PopFirst())
	}
	return 1 - none
}

// hangLoss is the expected loss of our man of value v on sq to the
// opponent's next move, with pAny the chance it is attacked at all and
// pPawn by a pawn; def says whether we take back.
func hangLoss(v float32, def bool, pAny, pPawn float64) float32 {
	if v == 0 {
		return 0
	}
	lossPawn, lossPiece := float64(v), float64(v)
	if def {
		lossPawn = max(lossPawn-1, 0)
		lossPiece = max(lossPiece-pieceAverage, 0)
	}
	pOther := max(pAny-pPawn, 0)
	return float32(pPawn*pawnTake*lossPawn + pOther*blindTake*lossPiece)
}

// staticValue values a belief at our turn: material, less the expected blind
// losses of our men (filled into hang), less, against a bare king, the room
// its king has; p.shield weighs our king's pawn shield (pawnShield).
func staticValue(s *belief.State, hang *[64]float32, p evalParams) float32 {
	var m men
	m.fromBelief(s)
	*hang = [64]float32{}
	v := baseValue(s, &m, p.bareWon)
	if p.hand > 0 {
		ours := pocketValue(s.OurPocket()) + pieceAverage*float32(s.OurPocketPieces())
		v += p.hand * (ours - pocketValue(s.TheirPocket()))
	}
	own := m.by[0]
	for b := own &^ m.by[chess.King]; b != 0; {
		sq := b.PopFirst()
		h := hangLoss(manValue[m.at[sq]], defended(&m, sq, own), s.ProbAttacked(sq), pawnAttack(s, m.us, sq))
		hang[sq] = h
		v -= h
	}
	v += pawnAdvance * float32(pawnRanks(&m))
	v -= promotionThreat(s)
	if s.Units() > kingWalkUnits {
		v -= kingHome * float32(relRank(m.us, m.by[chess.King].First()))
	}
	if p.shield != 0 && s.Units() >= shieldUnits {
		v += p.shield * pawnShield(m.us, m.by[chess.King].First(), m.by[chess.Pawn])
	}
	if cannotMate(&m) && (p.hand == 0 || s.OurPocket() == [chess.King]uint8{} && s.OurPocketPieces() == 0) {
		v = min(v, drawValue) // a lead we cannot turn into mate is a draw
	}
	if pressing(s, v) {
		v -= roomWeight * float32(s.Support(oppmodel.King).Count())
		if s.Units() <= kingWalkUnits {
			v -= kingDistWeight * float32(kingDistance(s, m.by[chess.King].First()))
		}
	}
	return v
}

// handShare is the share of its value a man in a crazykrieg pocket counts
// for, ours and the opponent's: a man on the board works (it probes, takes,
// checks), one in hand only may; below 1, a drop on a safe square gains
// the rest.
const handShare = 0.8

// pocketValue is the value of the men in a crazykrieg pocket.
func pocketValue(pocket [chess.King]uint8) float32 {
	var v float32
	for pt := chess.Pawn; pt < chess.King; pt++ {
		v += manValue[pt] * float32(pocket[pt])
	}
	return v
}

// baseValue is the material balance, or against a bare king with mating
// material, nearly a win (won, less the gap).
func baseValue(s *belief.State, m *men, won float32) float32 {
	v := material(s)
	if s.Units() == 0 && !cannotMate(m) {
		return won + v/10 - promotionDistance(m)
	}
	return v
}

// What our men against a bare king lack of a sure win (promotionDistance).
// Valued as a win wherever it stood, a lone pawn gained 0.8 by promoting,
// less than the stalemate chance a new queen brings: a K+P against K game
// walked its king beside the pawn on g2 for 300 plies and never promoted.
// A rook mates a king it cannot see more slowly than a queen does (drills,
// king hidden: 78 % against 100 %), so its pawns still run to promote: a
// K+R+P game shuffled its king in a corner for 450 plies, the pawn at home.
const (
	// minorGap is the whole gap with minor pieces and pawns only (two
	// bishops or bishop and knight mate only a king they can find).
	minorGap = 42
	// rookGap is the gap with a rook and no queen.
	rookGap = 4
)

// promotionDistance is what our men m against a bare king lack of a sure
// win: nothing with a queen, else the gap of our best piece, less a seventh
// of it for each rank our most advanced pawn has come (it promotes at 7).
func promotionDistance(m *men) float32 {
	if m.by[chess.Queen] != 0 {
		return 0
	}
	gap := float32(minorGap)
	if m.by[chess.Rook] != 0 {
		gap = rookGap
	}
	best := 0
	for b := m.by[chess.Pawn]; b != 0; {
		best = max(best, relRank(m.us, b.PopFirst()))
	}
	return gap * float32(7-best) / 7
}

// kingWalkUnits is the opponent's unit count up to which our king walks
// toward its king to help mate; with more men about it stays home.
const kingWalkUnits = 2

// pressing reports whether the search plays for mate: against a bare king,
// or with a winning material lead.
func pressing(s *belief.State, v float32) bool {
	return s.Units() == 0 || v >= winningLead
}

// cannotMate reports whether our men cannot mate even a bare king: no pawn,
// rook or queen, and at most one minor piece.
func cannotMate(m *men) bool {
	return m.by[chess.Pawn]|m.by[chess.Rook]|m.by[chess.Queen] == 0 &&
		(m.by[chess.Knight]|m.by[chess.Bishop]).Count() <= 1
}

// pawnRanks sums how far our pawns have advanced from their starting rank.
func pawnRanks(m *men) int {
	n := 0
	for b := m.by[chess.Pawn]; b != 0; {
		r := b.PopFirst().Rank()
		if m.us == chess.White {
			n += r - 1
		} else {
			n += 6 - r
		}
	}
	return n
}

// maxAnswers bounds the referee answers kept for one attempt.
const maxAnswers = 12

// answers is the distribution of the referee's answers to one attempt, each
// with its k = 1 value.
type answers struct {
	n       int
	prob    [maxAnswers]float32
	value   [maxAnswers]float32
	illegal [maxAnswers]bool
	term    [maxAnswers]bool // mate or stalemate: exact
	capture [maxAnswers]umpire.CaptureKind
	check   [maxAnswers]chess.CheckKind
}

func (a *answers) add(p, v float32, illegal, term bool, c umpire.CaptureKind, k chess.CheckKind) {
	if p <= 0 || a.n == maxAnswers {
		return
	}
	i := a.n
	a.prob[i], a.value[i], a.illegal[i], a.term[i], a.capture[i], a.check[i] = p, v, illegal, term, c, k
	a.n++
}

// mean is the probability-weighted value: approach C's evaluation.
func (a *answers) mean() float32 {
	var sum, w float32
	for i := range a.n {
		sum += a.prob[i] * a.value[i]
		w += a.prob[i]
	}
	if w == 0 {
		return 0
	}
	return sum / w
}

// certainWin reports whether every answer is a mate.
func (a *answers) certainWin() bool {
	if a.n == 0 {
		return false
	}
	for i := range a.n {
		if !a.term[i] || a.value[i] != winValue {
			return false
		}
	}
	return true
}

// certainRefusal is the chance of "Illegal move" from which an attempt is
// never asked: the refusal is certain, so asking teaches nothing and costs
// an attempt. Valued as the turn's best less illegalCost, such attempts
// took as many visits as the best one and were played by visit count: a
// pawn try on an empty square, five in a row, instead of the recapture.
const certainRefusal = 0.999

// sureRefusal reports whether the referee refuses the attempt for certain.
func (a *answers) sureRefusal() bool {
	return a.n > 0 && a.illegal[0] && a.prob[0] >= certainRefusal
}

// minCheck is the least chance of a check kind kept as an answer of its own;
// rarer checks are folded into the silent answer.
const minCheck = 0.03

// evalAttempt fills out with the referee's answers to attempt mv from the
// decision belief e, valued at k = 1; alt is the value of the turn should the
// attempt be refused (we then play another); p is staticValue's.
func evalAttempt(e *stateEntry, m *men, mv chess.Move, alt float32, p evalParams, out *answers) {
	out.n = 0
	s := &e.bel
	if s.Units() == 0 && s.Support(oppmodel.King) != 0 {
		evalBare(e, m, mv, alt, p, out)
		return
	}
	o := s.Outcomes(mv)
	from, to := mv.From(), mv.To()
	pt := m.at[from]
	drop := umpire.IsDrop(mv)
	if drop {
		pt = mv.Promotion()
	}
	vm := manValue[pt]
	own := m.by[0]&^from.Bit() | to.Bit()
	def := pt != chess.King && defended(m, to, own)
	base := e.static + e.hang[from]
	switch {
	case drop:
		// From the pocket to the board: the man counts whole.
		base += (1 - p.hand) * vm
		if pt == chess.Pawn {
			base += pawnAdvance * float32(relRank(m.us, to)-1)
		}
	case pt == chess.Pawn:
		base += pawnAdvance * float32(abs(to.Rank()-from.Rank()))
		if mv.Promotion() != chess.NoPieceType {
			base += manValue[mv.Promotion()] - 1 - pawnAdvance*float32(pawnRanks(m))
			vm = manValue[mv.Promotion()]
		}
	}
	if pt == chess.King && s.Units() > kingWalkUnits {
		// The king stays home while the opponent has men to hunt it with.
		base -= kingHome * float32(relRank(m.us, to)-relRank(m.us, from))
		if chess.Castles(from, to) {
			base += castleBonus
		} else {
			base -= kingMoveCost
		}
	}
	if p.shield != 0 && (pt == chess.Pawn || pt == chess.King) && s.Units() >= shieldUnits {
		king, pawns := m.by[chess.King].First(), m.by[chess.Pawn]
		before := pawnShield(m.us, king, pawns)
		if pt == chess.King {
			king = to
		} else if pawns &^= from.Bit(); mv.Promotion() == chess.NoPieceType || drop {
			pawns |= to.Bit()
		}
		base += p.shield * (pawnShield(m.us, king, pawns) - before)
	}
	if pt == chess.King && pressing(s, e.static) && s.Units() <= kingWalkUnits {
		base -= kingDistWeight * float32(kingDistance(s, to)-kingDistance(s, from))
	}
	alt -= illegalCost
	pAny := s.ProbAttacked(to)
	var pPawn float64
	if pt != chess.King {
		pPawn = pawnAttack(s, m.us, to)
	}
	quiet := base - hangLoss(vm, def, pAny, pPawn)
	if s.Units() <= fewUnits {
		quiet = kingEndgame(s, m, mv, quiet)
	}
	out.add(float32(o.Illegal), alt, true, false, umpire.NoCapture, chess.NoCheck)
	legal := o.Legal()
	if legal > 0 && o.Quiet > 0 {
		rest := o.Quiet
		for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
			if c := o.Quiet * o.Check[k] / legal; c >= minCheck {
				out.add(float32(c), quiet+checkBonus, false, false, umpire.NoCapture, k)
				rest -= c
			}
		}
		out.add(float32(rest), quiet, false, false, umpire.NoCapture, chess.NoCheck)
	}
	// A capture tells the opponent where we stand: it takes back if it can.
	var re float32
	if pt != chess.King || pAny > 0 {
		lost := float64(vm)
		if def {
			lost = max(lost-recapturerValue, 0)
		}
		if pt == chess.King {
			lost = 0 // the king cannot be taken: a capture next to a defender is refused instead
		}
		re = float32(pAny * lost)
	}
	if s.Units() == 1 {
		// The capture leaves the king bare: nearly a win, or a draw if the
		// king takes back our last mating man.
		v := lastCapture(s, m, mv, p.bareWon)
		out.add(float32(o.CapturePawn), v, false, false, umpire.PawnCaptured, chess.NoCheck)
		out.add(float32(o.CapturePiece), v, false, false, umpire.PieceCaptured, chess.NoCheck)
		return
	}
	taken := 1 + pawnThreat[relRank(m.us.Other(), to)] // the pawn no longer threatens to promote
	// Under drops the man taken goes to our pocket.
	out.add(float32(o.CapturePawn), base+taken+p.hand-re, false, false, umpire.PawnCaptured, chess.NoCheck)
	out.add(float32(o.CapturePiece), base+pieceAverage*(1+p.hand)-re, false, false, umpire.PieceCaptured, chess.NoCheck)
}

// lastCapture values attempt mv taking the opponent's last man: our men
// against a bare king, less what we lose should the king take the capturer
// back (it can when it stands next to an undefended capturer). Counted as
// material, a queen that took the last knight next to the king was worth
// its 9 pawns at risk, not the won game.
func lastCapture(s *belief.State, m *men, mv chess.Move, won float32) float32 {
	var after men
	m.play(mv, &after)
	v := bareValue(&after, won)
	to := mv.To()
	if after.at[to] == chess.King || defended(&after, to, after.by[0]) {
		return v
	}
	var pKing float64
	for b := chess.KingAttacks(to) & s.Support(oppmodel.King); b != 0; {
		pKing += s.Prob(oppmodel.King, b.PopFirst())
	}
	if pKing == 0 {
		return v
	}
	left := after
	left.remove(to)
	p := float32(min(pKing, 1))
	return (1-p)*v + p*bareValue(&left, won)
}

// bareValue is what our men m are worth against a bare king, mating men
// being worth won less their gap.
func bareValue(m *men, won float32) float32 {
	if cannotMate(m) {
		return drawValue
	}
	var ours float32
	for pt := chess.Pawn; pt < chess.King; pt++ {
		ours += manValue[pt] * float32(m.by[pt].Count())
	}
	return won + ours/10 - promotionDistance(m)
}
