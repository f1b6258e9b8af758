package search

import (
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/opponent"
)

// Values are in pawns from our side. A won game is worth more than any
// material; a drawn game nothing. Mating material against a bare king is
// worth nearly a win (bareWon): valued by material alone, a search gambles
// its queen on a 10 % mate chance in KQ-K, where patience wins for sure.
const (
	winValue  = 100
	drawValue = 0
	bareWon   = 80
)

// Evaluation weights. Each beyond material was kept because a match showed it
// wins (docs/strength.md).
const (
	// pieceAverage is the value of an unknown opponent piece (Q, 2R, 2B, 2N
	// average a little over 4; the ones left late are more often minor).
	pieceAverage = 3.5
	// promotionGain is what a queen promotion adds to a pawn.
	promotionGain = 8
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
	for b := chess.PawnAttacks(us, sq) & s.Support(opponent.Pawn); b != 0; {
		none *= 1 - s.Prob(opponent.Pawn, b.PopFirst())
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
// its king has.
func staticValue(s *belief.State, hang *[64]float32) float32 {
	var m men
	m.fromBelief(s)
	*hang = [64]float32{}
	v := baseValue(s, &m)
	own := m.by[0]
	for b := own &^ m.by[chess.King]; b != 0; {
		sq := b.PopFirst()
		h := hangLoss(manValue[m.at[sq]], defended(&m, sq, own), s.ProbAttacked(sq), pawnAttack(s, m.us, sq))
		hang[sq] = h
		v -= h
	}
	v += pawnAdvance * float32(pawnRanks(&m))
	if s.Units() > kingWalkUnits {
		v -= kingHome * float32(kingRanks(m.us, m.by[chess.King].First()))
	}
	if cannotMate(&m) {
		v = min(v, drawValue) // a lead we cannot turn into mate is a draw
	}
	if pressing(s, v) {
		v -= roomWeight * float32(s.Support(opponent.King).Count())
		if s.Units() <= kingWalkUnits {
			v -= kingDistWeight * float32(kingDistance(s, m.by[chess.King].First()))
		}
	}
	return v
}

// baseValue is the material balance, or against a bare king with mating
// material, nearly a win.
func baseValue(s *belief.State, m *men) float32 {
	v := material(s)
	if s.Units() == 0 && !cannotMate(m) {
		return bareWon + v/10
	}
	return v
}

// kingRanks is how far our king on k stands from our first rank.
func kingRanks(us chess.Color, k chess.Square) int {
	if us == chess.White {
		return k.Rank()
	}
	return 7 - k.Rank()
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

// minCheck is the least chance of a check kind kept as an answer of its own;
// rarer checks are folded into the silent answer.
const minCheck = 0.03

// evalAttempt fills out with the referee's answers to attempt mv from the
// decision belief e, valued at k = 1; alt is the value of the turn should the
// attempt be refused (we then play another).
func evalAttempt(e *stateEntry, m *men, mv chess.Move, alt float32, out *answers) {
	out.n = 0
	s := &e.bel
	if s.Units() == 0 && s.Support(opponent.King) != 0 {
		evalBare(e, m, mv, alt, out)
		return
	}
	o := s.Outcomes(mv)
	from, to := mv.From(), mv.To()
	pt := m.at[from]
	vm := manValue[pt]
	own := m.by[0]&^from.Bit() | to.Bit()
	def := pt != chess.King && defended(m, to, own)
	base := e.static + e.hang[from]
	if pt == chess.Pawn {
		base += pawnAdvance * float32(abs(to.Rank()-from.Rank()))
		if mv.Promotion() != chess.NoPieceType {
			base += manValue[mv.Promotion()] - 1 - pawnAdvance*float32(pawnRanks(m))
			vm = manValue[mv.Promotion()]
		}
	}
	if pt == chess.King && s.Units() > kingWalkUnits {
		// The king stays home while the opponent has men to hunt it with.
		base -= kingHome * float32(kingRanks(m.us, to)-kingRanks(m.us, from))
		if d := to.File() - from.File(); d == 2 || d == -2 {
			base += castleBonus
		} else {
			base -= kingMoveCost
		}
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
	out.add(float32(o.CapturePawn), base+1-re, false, false, umpire.PawnCaptured, chess.NoCheck)
	out.add(float32(o.CapturePiece), base+pieceAverage-re, false, false, umpire.PieceCaptured, chess.NoCheck)
}

// kingOdds enumerates the squares the opponent's king may stand on (with
// their chances) against our men after attempt mv (after): the chance that mv
// is refused because of the king, mates, leaves it without a move (a
// stalemate if nothing else of its side can move), checks it by kind or
// passes; alive collects the king squares of the last two, hang the chance
// that the moved man is left undefended next to the king.
type kingOdds struct {
	illegal, mate, stale, quiet, total, hang float64
	dist                                     float64 // our king's distance to the king, summed over alive
	check                                    [chess.CheckKnight + 1]float64
	alive, att                               chess.Bitboard
}

func (ko *kingOdds) compute(s *belief.State, m *men, mv chess.Move, after *men) {
	*ko = kingOdds{}
	from, to := mv.From(), mv.To()
	pt := m.at[from]
	*after = *m
	after.by[pt] &^= from.Bit()
	after.at[from] = chess.NoPieceType
	npt := pt
	if pt == chess.Pawn && mv.Promotion() != chess.NoPieceType {
		npt = mv.Promotion()
	}
	after.by[npt] |= to.Bit()
	after.at[to] = npt
	after.by[0] = m.by[0]&^from.Bit() | to.Bit()
	own := after.by[0]
	var att chess.Bitboard
	for b := own; b != 0; {
		sq := b.PopFirst()
		att |= chess.Attacks(m.us, after.at[sq], sq, own)
	}
	ko.att = att
	path := chess.Between(from, to) | to.Bit()
	pawnCapture := pt == chess.Pawn && from.File() != to.File()
	castle := pt == chess.King && (to.File()-from.File() == 2 || from.File()-to.File() == 2)
	for b := s.Support(opponent.King); b != 0; {
		k := b.PopFirst()
		p := s.Prob(opponent.King, k)
		ko.total += p
		illegal := pawnCapture && s.Units() == 0 || path.Has(k)
		if pt == chess.King {
			illegal = path.Has(k) || chess.KingAttacks(k).Has(to) || castle && (chess.KingAttacks(k)&(path|from.Bit()) != 0)
		}
		if illegal {
			ko.illegal += p
			continue
		}
		escapes := chess.KingAttacks(k) &^ att
		inCheck := att.Has(k)
		switch {
		case inCheck && escapes == 0:
			ko.mate += p
			continue
		case escapes == 0:
			ko.stale += p
			continue
		case inCheck:
			ko.check[checkKind(after, k, own)] += p
		default:
			ko.quiet += p
		}
		ko.alive |= k.Bit()
		ko.dist += p * float64(chebyshev(after.by[chess.King].First(), k))
		if npt != chess.King && chess.KingAttacks(k).Has(to) && !att.Has(to) {
			if inCheck {
				ko.hang += p * hangCheck
			} else {
				ko.hang += p * hangQuiet
			}
		}
	}
	if ko.total == 0 {
		ko.total, ko.illegal = 1, 1
	}
}

// evalBare computes the answers exactly against a bare king: for every square
// its king may stand on, whether the attempt is refused, mates, stalemates,
// checks (of which kind) or passes silently, and how much room the king keeps.
func evalBare(e *stateEntry, m *men, mv chess.Move, alt float32, out *answers) {
	s := &e.bel
	var after men
	var ko kingOdds
	ko.compute(s, m, mv, &after)
	npt := after.at[mv.To()]
	room := (spread(ko.alive) &^ ko.att).Count()
	v := baseValue(s, &after) - roomWeight*float32(room) + pawnAdvance*float32(pawnRanks(&after))
	if m.at[mv.From()] == chess.Pawn && mv.Promotion() != chess.NoPieceType {
		v += (manValue[mv.Promotion()] - 1) / 10
	}
	alt -= illegalCost
	if legal := ko.total - ko.illegal - ko.mate - ko.stale; legal > 0 {
		var left men = after
		left.by[npt] &^= mv.To().Bit()
		left.by[0] &^= mv.To().Bit()
		lost := v - baseValue(s, &left) + manValue[npt]/10
		if cannotMate(&left) {
			lost = v - drawValue
		}
		v -= float32(ko.hang/legal) * lost
		v -= float32(kingDistWeight * ko.dist / legal)
	}
	t := ko.total
	out.add(float32(ko.illegal/t), alt, true, false, umpire.NoCapture, chess.NoCheck)
	out.add(float32(ko.mate/t), winValue, false, true, umpire.NoCapture, chess.NoCheck)
	out.add(float32(ko.stale/t), drawValue, false, true, umpire.NoCapture, chess.NoCheck)
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		out.add(float32(ko.check[k]/t), v+checkBonus, false, false, umpire.NoCapture, k)
	}
	out.add(float32(ko.quiet/t), v, false, false, umpire.NoCapture, chess.NoCheck)
}

// fewUnits is the opponent's unit count up to which a legal attempt is also
// weighed for leaving its king without a move: with so few men a stalemate
// (all of them blocked) or a mate (none able to help) is likely.
const fewUnits = 8

// mateShare is the chance, with a few opponent units left, that a checked
// king without a move is mated (its men may still block or take).
const mateShare = 0.3

// immobile is the chance that none of the opponent's men besides its king
// can move, which makes a king without a move a stalemate: its pawns are
// stuck when our men stand in front of them with nothing to take, its
// pieces (rarely stuck) are counted as a 10 % chance.
func immobile(s *belief.State, m *men) float64 {
	pawns, _ := s.Pawns()
	if float64(s.Units())-pawns > 0.5 {
		return 0.1
	}
	own, opp := m.by[0], m.us.Other()
	step := 8
	if opp == chess.Black {
		step = -8
	}
	var mobile float64
	for b := s.Support(opponent.Pawn); b != 0; {
		sq := b.PopFirst()
		front := int(sq) + step
		if front < 0 || front > 63 || !own.Has(chess.Square(front)) || chess.PawnAttacks(opp, sq)&own != 0 {
			mobile += s.Prob(opponent.Pawn, sq)
		}
	}
	return math.Exp(-mobile)
}

// kingEndgame adjusts legal answers' values with a few opponent units left:
// the chance of stalemating costs our material lead, mating gains a win.
func kingEndgame(s *belief.State, m *men, mv chess.Move, legalValue float32) float32 {
	var after men
	var ko kingOdds
	ko.compute(s, m, mv, &after)
	legal := ko.total - ko.illegal
	if legal <= 0 {
		return legalValue
	}
	pStale := immobile(s, m) * ko.stale / legal
	pMate := mateShare * ko.mate / legal
	return legalValue + float32(pStale)*(drawValue-legalValue) + float32(pMate)*(winValue-legalValue)
}

// checkKind classifies the check our men (after our move) give a king on k.
func checkKind(m *men, k chess.Square, own chess.Bitboard) chess.CheckKind {
	by := &m.by
	at := chess.KnightAttacks(k)&by[chess.Knight] |
		chess.PawnAttacks(m.us.Other(), k)&by[chess.Pawn] |
		chess.BishopAttacks(k, own)&(by[chess.Bishop]|by[chess.Queen]) |
		chess.RookAttacks(k, own)&(by[chess.Rook]|by[chess.Queen])
	if at == 0 {
		return chess.CheckRank // the king "checks": cannot happen, keep a kind
	}
	return chess.ClassifyCheck(k, at.First())
}

// spread returns b with every square a king step away.
func spread(b chess.Bitboard) chess.Bitboard {
	out := b
	for x := b; x != 0; {
		out |= chess.KingAttacks(x.PopFirst())
	}
	return out
}

// chebyshev is the king-step distance between two squares.
func chebyshev(a, b chess.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// kingDistance is the expected distance from our king on k to the
// opponent's king.
func kingDistance(s *belief.State, k chess.Square) float64 {
	var d, w float64
	for b := s.Support(opponent.King); b != 0; {
		sq := b.PopFirst()
		p := s.Prob(opponent.King, sq)
		d += p * float64(chebyshev(k, sq))
		w += p
	}
	if w == 0 {
		return 0
	}
	return d / w
}
