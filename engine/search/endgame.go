package search

import (
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// The endgame: exact answers against a bare king (every square it may stand
// on), and with few opponent units the chances of mating or stalemating it.

// kingOdds enumerates the squares the opponent's king may stand on (with
// their chances) against our men after attempt mv (after): the chance that mv
// is refused because of the king, mates, leaves it without a move (a
// stalemate if nothing else of its side can move), checks it by kind or
// passes; alive collects the king squares of the last two, box the expected
// size of the box our men confine the king to (boxSize), hangP the chance that the king takes each of our
// men left undefended next to it (hangSq).
type kingOdds struct {
	illegal, mate, stale, quiet, total float64
	dist                               float64 // our king's distance to its goal, summed over alive
	check                              [chess.CheckKnight + 1]float64
	alive, att                         chess.Bitboard
	box                                float64
	pawnEnding                         bool // no piece but pawns: no box to shrink
	nhang                              int
	hangSq                             [maxHang]chess.Square
	hangP                              [maxHang]float64
}

// maxHang bounds the undefended men weighed for the king taking them.
const maxHang = 4

func (ko *kingOdds) compute(s *belief.State, m *men, mv chess.Move, after *men) {
	*ko = kingOdds{}
	from, to := mv.From(), mv.To()
	pt := m.at[from]
	m.play(mv, after)
	own := after.by[0]
	att := after.attacks()
	ko.att = att
	// A king square our men attacked before the move is shielded by unseen
	// men (the opponent's king is never left in check on our turn): the king
	// there is neither mated nor stalemated by a move that keeps the line.
	before := m.attacks()
	// Our undefended men the king may take. In a pawn ending only the moved
	// man: there the pawn is the whole win, and weighing it wherever the
	// king might reach froze our king beside it (measured: more unfinished
	// games, no more mates).
	pawnEnding := after.by[chess.Knight]|after.by[chess.Bishop]|after.by[chess.Rook]|after.by[chess.Queen] == 0
	cand := own &^ after.by[chess.King] &^ att
	if pawnEnding {
		cand &= to.Bit()
	}
	for b := cand; b != 0 && ko.nhang < maxHang; {
		ko.hangSq[ko.nhang] = b.PopFirst()
		ko.nhang++
	}
	path := chess.Between(from, to) | to.Bit()
	pawnCapture := pt == chess.Pawn && from.File() != to.File()
	castle := pt == chess.King && chess.Castles(from, to)
	for b := s.Support(oppmodel.King); b != 0; {
		k := b.PopFirst()
		p := s.Prob(oppmodel.King, k)
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
		case before.Has(k):
			ko.quiet += p
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
		w := hangQuiet
		if inCheck {
			w = hangCheck
		}
		for i := range ko.nhang {
			if chess.KingAttacks(k).Has(ko.hangSq[i]) {
				ko.hangP[i] += p * w
			}
		}
	}
	if ko.total == 0 {
		ko.total, ko.illegal = 1, 1
	}
	ko.box = boxSize(s, ko.alive, confine(ko.alive, ^(att|own)))
	ko.pawnEnding = pawnEnding
}

// boxSize is the expected size of the box the king is confined to: region
// (every square the king may walk to from alive through squares our men do
// not attack) falls into parts a king
// cannot walk between, and each part counts with the chance that the king
// stands in it. Against a king that may be anywhere, region is the whole
// board whatever our men do; this measure still sees a cut that leaves the
// king, probably, on the smaller side.
func boxSize(s *belief.State, alive, region chess.Bitboard) float64 {
	var sum, w float64
	for rest := alive; rest != 0; {
		part := confine(rest&-rest, region)
		var p float64
		for b := part & alive; b != 0; {
			p += s.Prob(oppmodel.King, b.PopFirst())
		}
		sum += p * float64(part.Count())
		w += p
		rest &^= part
	}
	if w == 0 {
		return 0
	}
	return sum / w
}

// kingStep returns b with every square a king step away: shifts, no loop
// over squares.
func kingStep(b chess.Bitboard) chess.Bitboard {
	x := b | (b&^chess.FileH)<<1 | (b&^chess.FileA)>>1
	return x | x<<8 | x>>8
}

// confine returns the squares a king starting anywhere in from can walk to
// through free squares (from included): the region our men confine it to.
func confine(from, free chess.Bitboard) chess.Bitboard {
	r := from
	for {
		n := r | kingStep(r)&free
		if n == r {
			return r
		}
		r = n
	}
}

// evalBare computes the answers exactly against a bare king: for every square
// its king may stand on, whether the attempt is refused, mates, stalemates,
// checks (of which kind) or passes silently, and how much room the king keeps.
// p gives what mating men are worth (bareWon) and a stalemate.
func evalBare(e *stateEntry, m *men, mv chess.Move, alt float32, p evalParams, out *answers) {
	s := &e.bel
	won := p.bareWon
	var after men
	var ko kingOdds
	ko.compute(s, m, mv, &after)
	room := (kingStep(ko.alive) &^ ko.att).Count()
	v := baseValue(s, &after, won) - roomWeight*float32(room) + pawnAdvance*float32(pawnRanks(&after))
	if !ko.pawnEnding && after.by[chess.Queen] == 0 {
		// A rook or minor pieces box the king in; a pawn has first to
		// promote, and a queen's lines box it wherever she stands.
		v -= regionWeight * float32(ko.box)
	}
	if m.at[mv.From()] == chess.Pawn && mv.Promotion() != chess.NoPieceType {
		v += (manValue[mv.Promotion()] - 1) / 10
	}
	alt -= illegalCost
	if legal := ko.total - ko.illegal - ko.mate - ko.stale; legal > 0 {
		base := v
		for i := range ko.nhang {
			sq := ko.hangSq[i]
			var left men = after
			left.remove(sq)
			lost := base - baseValue(s, &left, won) + manValue[after.at[sq]]/10
			if cannotMate(&left) {
				lost = base - drawValue
			}
			v -= float32(min(ko.hangP[i]/legal, 1)) * lost
		}
		v -= float32(kingDistWeight * ko.dist / legal)
	}
	t := ko.total
	out.add(float32(ko.illegal/t), alt, true, false, umpire.NoCapture, chess.NoCheck)
	out.add(float32(ko.mate/t), winValue, false, true, umpire.NoCapture, chess.NoCheck)
	out.add(float32(ko.stale/t), p.stalemate, false, true, umpire.NoCapture, chess.NoCheck)
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		out.add(float32(ko.check[k]/t), v+checkBonus, false, false, umpire.NoCapture, k)
	}
	out.add(float32(ko.quiet/t), v, false, false, umpire.NoCapture, chess.NoCheck)
}

// regionWeight is the cost of each square of the region a bare king is
// confined to (Bolognesi and Ciancarini's KRK evaluation: shrink the box),
// without a queen. With a queen the term is left out: it made KQ-K drills
// from a known king faster, but from a king that may be anywhere (after a
// pawn promotes) it kept the queen idle in a corner, and KP-K drills
// converted 36 % instead of 52 % against random.
const regionWeight = 0.06

// fewUnits is the opponent's unit count up to which a legal attempt is also
// weighed for leaving its king without a move: with so few men a stalemate
// (all of them blocked) or a mate (none able to help) is likely.
const fewUnits = 8

// mateShare is the chance, with a few opponent units left, that a checked
// king without a move is mated, before its men's help (helpless).
const mateShare = 0.3

// pieceBlock is the chance that one opponent piece (not a pawn) can step
// into a check's line or take the checker from where it stands unseen.
const pieceBlock = 0.5

// helpless is the chance that the opponent's men other than its king can
// neither take our man on sq (the checker, as a rule) nor block its check:
// no man attacks sq, and each piece fails to step in. Without it a queen
// check along the first rank, with eight opponent men left, was valued as a
// 20 % mate: worth 20 pawns, more than any capture, so the queen shuttled
// on the back rank while pawns recaptured and promoted (docs/strength.md,
// round 7).
func helpless(s *belief.State, sq chess.Square) float64 {
	pawns, _ := s.Pawns()
	pieces := max(float64(s.Units())-pawns, 0)
	return (1 - s.ProbMenAttack(sq)) * math.Pow(1-pieceBlock, pieces)
}

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
	for b := s.Support(oppmodel.Pawn); b != 0; {
		sq := b.PopFirst()
		front := int(sq) + step
		if front < 0 || front > 63 || !own.Has(chess.Square(front)) || chess.PawnAttacks(opp, sq)&own != 0 {
			mobile += s.Prob(oppmodel.Pawn, sq)
		}
	}
	return math.Exp(-mobile)
}

// kingEndgame adjusts legal answers' values with a few opponent units left:
// the chance of stalemating costs our material lead, mating gains a win.
// The stalemate stays a draw where the stalemated side loses (rand): with
// men about, valued as a win it made the search chase guessed stalemates
// (rand against heuristic, 300 nodes, 80 games: 92.5 % against 95 %).
func kingEndgame(s *belief.State, m *men, mv chess.Move, legalValue float32) float32 {
	var after men
	var ko kingOdds
	ko.compute(s, m, mv, &after)
	legal := ko.total - ko.illegal
	if legal <= 0 {
		return legalValue
	}
	pStale := immobile(s, m) * ko.stale / legal
	var pMate float64
	if ko.mate > 0 { // helpless walks the opponent's lines: only when it counts
		pMate = mateShare * helpless(s, mv.To()) * ko.mate / legal
	}
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
	for b := s.Support(oppmodel.King); b != 0; {
		sq := b.PopFirst()
		p := s.Prob(oppmodel.King, sq)
		d += p * float64(chebyshev(k, sq))
		w += p
	}
	if w == 0 {
		return 0
	}
	return d / w
}
