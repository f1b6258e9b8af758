package belief

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// The ways a piece other than king and pawn moves: the opponent's pieces are
// one class, but which squares each could reach depends on how it moves.
const (
	jumper   = iota // knight
	diagonal        // bishop or queen
	straight        // rook or queen
)

// lineKind returns how a piece must move to go along direction d.
func lineKind(d int) int {
	if orthogonal(d) {
		return straight
	}
	return diagonal
}

// The unit classes, as indices of State's matrices.
const (
	king  = oppmodel.King
	pawn  = oppmodel.Pawn
	piece = oppmodel.Piece
)

// floor is the least probability a square keeps while its class may stand
// there: small enough not to distort the figures, far above float32 underflow.
const floor = 1e-5

// maxOcc caps the occupancy used in products of "square empty" chances, so
// that nothing short of proof makes a move certainly illegal.
const maxOcc = 1 - 1e-4

// State is one side's belief. It is a plain value: copy it to keep it.
// The zero value is not usable; start with New or FromPosition.
type State struct {
	prior  Prior
	params oppmodel.Params
	me     chess.Color
	// kindShare[mask][k] is the chance that an opponent piece moves in way k
	// given the ways its square's support allows (mask bit k set for
	// moves[k]), from the starting set's make-up (Params' factors).
	kindShare [8][3]float32

	// own holds our men by piece type; own[0] is all of them.
	own [7]chess.Bitboard
	// castle holds our remaining castling rights; oppCastle the opponent's
	// rights not yet disproved (its king or that rook provably left home).
	castle, oppCastle chess.CastleRights

	// p[c][sq] is the chance (for pawns and pieces, the expected number) of an
	// opponent unit of class c on sq; supp[c] the squares where one may stand.
	p    [oppmodel.NumClasses][64]float32
	supp [oppmodel.NumClasses]chess.Bitboard
	// moves[k] holds the squares where an opponent piece moving in way k
	// (jumper, diagonal, straight) may stand; supp[piece] is their union.
	moves [3]chess.Bitboard
	// full holds the squares proven to hold an opponent unit.
	full chess.Bitboard
	// fresh holds the squares whose values the last evidence set: the next
	// normalisation keeps them and rescales the others.
	fresh chess.Bitboard

	// units is the opponent's exact number of men besides the king; pawnMax
	// bounds its pawns (captures seen; promotions are unseen); pawnExp is the
	// expected number of its pawns.
	units, pawnMax int
	pawnExp        float32

	oppMoves int // opponent moves made so far
	ourTurn  bool
	// ourTries is the pawn-try count in force for us, theirTries for the opponent.
	ourTries, theirTries int
	// theirCheck says whether our last move checked the opponent's king (its
	// pawn captures are then not proven legal), for its "Any?" answer.
	theirCheck bool
	// theirNoPawnFrom holds the squares from which, by what was announced
	// this turn ("no pawn captures", rand's try squares, a "no" to "Any?"),
	// the opponent's move cannot be a pawn capture; theirPawnDue says that
	// its move must be a pawn capture (a "has pawn captures" to its "Any?"
	// with no refusal heard since).
	theirNoPawnFrom chess.Bitboard
	theirPawnDue    bool
	// dueStays says that a refused pawn try does not release from the
	// obligation of a "has pawn captures" (berkeley_any; see SetVariant).
	dueStays bool
	// ownPromoted holds our men that were pawns (a captured one goes to
	// the captor's crazykrieg pocket as a pawn). theirPocket counts, by type
	// as a pocket holds them, the men the opponent took from us less those it
	// dropped; ourPocket the men we took whose type was announced (exactly
	// our pocket in crazykrieg) less our drops.
	ownPromoted            chess.Bitboard
	theirPocket, ourPocket [chess.King]uint8
	// drops says the game has pockets (crazykrieg; SetVariant), and
	// ourPocketPieces counts the pieces we took there whose type was not
	// announced: the referee names every one, so only a search's imagined
	// capture (PieceCaptured) counts here, and PawnCaptured goes to
	// ourPocket as a pawn.
	drops           bool
	ourPocketPieces uint8
	// checks on our king while it is our turn (NoCheck-padded).
	checks [2]chess.CheckKind
	// checker[sq] is, while we are in check, the chance that the checking
	// unit stands on sq.
	checker [64]float32
	// epProb[f] is the chance that the opponent's last move was a double pawn
	// step on file f (so that we may take en passant).
	epProb [8]float32
	// ourDouble is the square our last move's double pawn step reached, or
	// NoSquare: the opponent may take it en passant.
	ourDouble chess.Square
	// lastCapture is where our last move captured (NoSquare if it did not);
	// exchange is the square of the capture sequence under way (we took
	// there, or the opponent took back there) and chain counts our captures
	// in it, for the retaliation model.
	lastCapture, exchange chess.Square
	chain                 int
	// surprises counts events the support did not foresee; it stays 0 unless
	// the event stream is inconsistent with the rules.
	surprises int
}

// New returns the belief of colour me at the start of a standard game, with
// the opponent moving by prior (UniformPrior{} when there is no model).
func New(me chess.Color, prior Prior) State {
	return FromPosition(me, chess.StartPosition(), prior)
}

// FromPosition returns the belief of colour me in a game that starts from the
// known position start (both sides' men, the side to move, castling rights
// and en passant square are public at the start), with the opponent moving
// by prior (UniformPrior{} when nil).
func FromPosition(me chess.Color, start chess.Position, prior Prior) State {
	if prior == nil {
		prior = UniformPrior{}
	}
	s := State{prior: prior, params: prior.Params(), me: me, ourDouble: chess.NoSquare, lastCapture: chess.NoSquare, exchange: chess.NoSquare}
	s.kindShare = kindShares(s.params)
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		s.own[pt] = start.Pieces(me, pt)
	}
	s.own[0] = start.ByColor(me)
	opp := me.Other()
	white := chess.WhiteKingside | chess.WhiteQueenside
	s.castle, s.oppCastle = start.Castling()&white, start.Castling()&^white
	if me == chess.Black {
		s.castle, s.oppCastle = s.oppCastle, s.castle
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		c := oppmodel.ClassOf(pt)
		for b := start.Pieces(opp, pt); b != 0; {
			sq := b.PopFirst()
			s.p[c][sq] = 1
			s.supp[c] |= sq.Bit()
		}
	}
	s.full = start.ByColor(opp)
	s.moves[jumper] = start.Pieces(opp, chess.Knight)
	s.moves[diagonal] = start.Pieces(opp, chess.Bishop) | start.Pieces(opp, chess.Queen)
	s.moves[straight] = start.Pieces(opp, chess.Rook) | start.Pieces(opp, chess.Queen)
	s.units = start.ByColor(opp).Count() - 1
	s.pawnMax = start.Pieces(opp, chess.Pawn).Count()
	s.pawnExp = float32(s.pawnMax)
	s.ourTurn = start.Side() == me
	// The position is public: the side to move's pawn tries and checks, and
	// the double step just made (the en passant square).
	ep := start.EnPassant()
	if s.ourTurn {
		s.ourTries = start.PawnTries()
		s.checks[0], s.checks[1] = start.CheckKinds()
		for b := start.Checkers(); b != 0; {
			s.checker[b.PopFirst()] = 1
		}
		if ep != chess.NoSquare {
			s.epProb[ep.File()] = 1
		}
	} else {
		s.theirTries = start.PawnTries()
		first, _ := start.CheckKinds()
		s.theirCheck = first != chess.NoCheck
		if ep != chess.NoSquare {
			s.ourDouble = chess.Square(int(ep) + forward(me))
		}
	}
	return s
}

// kindShares works out State.kindShare. The factors say which share of the
// pieces slide along a line (LineFactor: queen, two rooks or two bishops out
// of seven) and jump (KnightFactor); the queen's share is what makes the
// shares of the four kinds of piece add up to one.
func kindShares(p oppmodel.Params) (t [8][3]float32) {
	n, lf := p.KnightFactor, p.LineFactor
	q := min(max(n+2*lf-1, 0), lf)
	b, r := lf-q, lf-q
	for mask := range t {
		var wn, wb, wr, wq float64
		if mask&(1<<jumper) != 0 {
			wn = n
		}
		if mask&(1<<diagonal) != 0 {
			wb = b
		}
		if mask&(1<<straight) != 0 {
			wr = r
		}
		if mask&(1<<diagonal) != 0 && mask&(1<<straight) != 0 {
			wq = q
		}
		total := wn + wb + wr + wq
		if total <= 0 {
			continue
		}
		t[mask][jumper] = float32(wn / total)
		t[mask][diagonal] = float32((wb + wq) / total)
		t[mask][straight] = float32((wr + wq) / total)
	}
	return t
}

// kind returns the chance that an opponent piece on sq moves in way k
// (0 where no piece may stand).
func (s *State) kind(sq chess.Square, k int) float64 {
	mask := 0
	for i, b := range s.moves {
		if b.Has(sq) {
			mask |= 1 << i
		}
	}
	return float64(s.kindShare[mask][k])
}

// Color returns the side whose belief this is.
func (s *State) Color() chess.Color { return s.me }

// Own returns our men of type pt (chess.NoPieceType: all of them).
func (s *State) Own(pt chess.PieceType) chess.Bitboard { return s.own[pt] }

// OurKing returns our king's square.
func (s *State) OurKing() chess.Square { return s.own[chess.King].First() }

// Prob returns the chance that an opponent unit of class c stands on sq (for
// pawns and pieces, the expected number there, at most 1).
func (s *State) Prob(c oppmodel.Class, sq chess.Square) float64 { return float64(s.p[c][sq]) }

// Matrix returns the probability matrix of class c.
func (s *State) Matrix(c oppmodel.Class) *[64]float32 { return &s.p[c] }

// Support returns the squares where an opponent unit of class c may stand;
// every other square is proven free of that class.
func (s *State) Support(c oppmodel.Class) chess.Bitboard { return s.supp[c] }

// Units returns the opponent's exact number of men besides its king.
func (s *State) Units() int { return s.units }

// Pawns returns the expected number of opponent pawns and its upper bound.
func (s *State) Pawns() (expected float64, max int) { return float64(s.pawnExp), s.pawnMax }

// OurTurn reports whether we are to move.
func (s *State) OurTurn() bool { return s.ourTurn }

// Checks returns the checks on our king announced after the opponent's last move.
func (s *State) Checks() [2]chess.CheckKind { return s.checks }

// PawnTries returns the pawn-try counts in force for us and for the opponent.
func (s *State) PawnTries() (ours, theirs int) { return s.ourTries, s.theirTries }

// OpponentMoves returns how many moves the opponent has made.
func (s *State) OpponentMoves() int { return s.oppMoves }

// PieceMoves returns the squares where an opponent piece that jumps like a
// knight, slides diagonally (bishop, queen) or slides straight (rook, queen)
// may stand; together they make Support(oppmodel.Piece).
func (s *State) PieceMoves() (jumpers, diagonals, straights chess.Bitboard) {
	return s.moves[jumper], s.moves[diagonal], s.moves[straight]
}

// addPieces puts the squares of b into the support of pieces of every kind
// (a promotion, or a capturer of unknown kind).
func (s *State) addPieces(b chess.Bitboard) {
	for k := range s.moves {
		s.moves[k] |= b
	}
	s.supp[piece] |= b
}

// TheirPocket returns, by type (chess.Pawn to chess.Queen), the men the
// opponent has taken from us and not dropped back: its crazykrieg pocket.
func (s *State) TheirPocket() [chess.King]uint8 { return s.theirPocket }

// OurPocket returns, by type, the men we have taken whose type was
// announced (in crazykrieg all of them: our pocket) and not dropped.
func (s *State) OurPocket() [chess.King]uint8 { return s.ourPocket }

// OurPocketPieces returns how many pieces of unknown type we hold in a
// crazykrieg pocket: a search's imagined captures (see ourPocketPieces).
func (s *State) OurPocketPieces() int { return int(s.ourPocketPieces) }

// Full returns the squares proven to hold an opponent unit.
func (s *State) Full() chess.Bitboard { return s.full }

// Surprises counts events the belief's support had ruled out; a non-zero value
// means the events contradict the rules (or a defect in the belief).
func (s *State) Surprises() int { return s.surprises }

// occ is the chance that sq holds an opponent unit, capped below 1.
func (s *State) occ(sq chess.Square) float64 {
	o := float64(s.p[king][sq] + s.p[pawn][sq] + s.p[piece][sq])
	if o > maxOcc || s.full.Has(sq) {
		return maxOcc
	}
	return o
}

// men returns the chance that sq holds an opponent pawn or piece (a unit our
// men could capture), capped below 1.
func (s *State) men(sq chess.Square) float64 {
	o := float64(s.p[pawn][sq] + s.p[piece][sq])
	if o > maxOcc {
		return maxOcc
	}
	return o
}

// typeAt returns the type of our man on sq, or NoPieceType.
func (s *State) typeAt(sq chess.Square) chess.PieceType {
	if !s.own[0].Has(sq) {
		return chess.NoPieceType
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		if s.own[pt].Has(sq) {
			return pt
		}
	}
	return chess.NoPieceType
}

// removeOwn takes our man off sq.
func (s *State) removeOwn(sq chess.Square) {
	for pt := range s.own {
		s.own[pt] &^= sq.Bit()
	}
	s.ownPromoted &^= sq.Bit()
	s.castle &^= rookRight(sq)
}

// putOwn puts our man of type pt on sq.
func (s *State) putOwn(pt chess.PieceType, sq chess.Square) {
	s.own[pt] |= sq.Bit()
	s.own[0] |= sq.Bit()
}

// rookRight returns the castling right lost when the corner sq changes.
func rookRight(sq chess.Square) chess.CastleRights {
	switch sq {
	case chess.H1:
		return chess.WhiteKingside
	case chess.A1:
		return chess.WhiteQueenside
	case chess.H8:
		return chess.BlackKingside
	case chess.A8:
		return chess.BlackQueenside
	}
	return 0
}

// forward is the step of colour c's pawns.
func forward(c chess.Color) int {
	if c == chess.White {
		return 8
	}
	return -8
}

// relRank returns sq's rank as seen from colour c (0 = c's back rank).
func relRank(c chess.Color, sq chess.Square) int {
	if c == chess.White {
		return sq.Rank()
	}
	return 7 - sq.Rank()
}

// pawnRanks are the squares where no pawn can ever stand.
const pawnRanks = chess.Rank1 | chess.Rank8

// zero takes the squares of b out of class c's support: they are proven
// free of that class.
func (s *State) zero(c oppmodel.Class, b chess.Bitboard) {
	s.supp[c] &^= b
	if c == piece {
		for k := range s.moves {
			s.moves[k] &^= b
		}
	}
	for b != 0 {
		s.p[c][b.PopFirst()] = 0
	}
}

// zeroAll takes the squares of b out of every class's support: they are
// proven empty.
func (s *State) zeroAll(b chess.Bitboard) {
	s.full &^= b
	for c := range s.supp {
		s.zero(oppmodel.Class(c), b)
	}
}

// scaleSquare multiplies every class's value on sq by f (keeping the
// square's total at most 1).
func (s *State) scaleSquare(sq chess.Square, f float64) {
	tot := float64(s.p[king][sq]+s.p[pawn][sq]+s.p[piece][sq]) * f
	if tot > 1 {
		f /= tot
	}
	for c := range s.p {
		s.p[c][sq] = float32(float64(s.p[c][sq]) * f)
	}
}

// normalize restores the invariants after an update: nothing outside the
// supports, at least floor inside them, a king total of 1, pawns and pieces
// summing to the known number of men, and no square above 1.
func (s *State) normalize() {
	free := ^s.own[0]
	s.zero(king, ^free|chess.KingAttacks(s.OurKing()))
	s.zero(pawn, ^free|pawnRanks)
	s.zero(piece, ^free)
	if s.units == 0 {
		s.zero(pawn, s.supp[pawn])
		s.zero(piece, s.supp[piece])
	}
	s.supp[piece] = s.moves[jumper] | s.moves[diagonal] | s.moves[straight]
	if s.supp[pawn] == 0 {
		s.pawnMax = 0
	}
	pawns := float64(s.pawnExp)
	hi := float64(min(s.pawnMax, s.units, s.supp[pawn].Count()))
	lo := float64(s.units - s.supp[piece].Count())
	pawns = max(min(pawns, hi), lo, 0)
	s.pawnExp = float32(pawns)
	// A proven-occupied square holds one unit for sure: its classes share 1,
	// and the fits below keep it so.
	s.full &= s.supp[king] | s.supp[pawn] | s.supp[piece]
	for b := s.full; b != 0; {
		sq := b.PopFirst()
		if t := s.p[king][sq] + s.p[pawn][sq] + s.p[piece][sq]; t > 0 {
			s.scaleSquare(sq, 1/float64(t))
		}
	}
	s.fit(king, 1)
	s.fit(pawn, pawns)
	s.fit(piece, float64(s.units)-pawns)
	s.fresh = 0
}

// fit scales class c's values on its support to sum to total, none above 1
// and none below floor. Squares outside the support already hold 0 (zero
// keeps it so), which lets the sums run over the whole board.
func (s *State) fit(c oppmodel.Class, total float64) {
	m := &s.p[c]
	supp := s.supp[c]
	if supp == 0 {
		return
	}
	// Values set by fresh evidence or on proven squares stay, the others make
	// up the total.
	keep := (s.fresh | s.full) & supp
	sum, kept := float64(sum64(m)), 0.0
	for b := keep; b != 0; {
		kept += float64(m[b.PopFirst()])
	}
	sum -= kept
	if kept > total || keep == supp {
		sum += kept
		keep, kept = 0, 0
	}
	scale := supp &^ keep
	if sum < 1e-20 {
		sum = 0 // too little left to scale: share the total evenly instead
	}
	if sum > 0 {
		// The common case: one scaling, nothing reaches 1.
		f := float32(max(total-kept, 0) / sum)
		over := false
		if keep == 0 {
			over = scale64(m, f) >= 1
		} else {
			for b := scale; b != 0; {
				sq := b.PopFirst()
				v := m[sq] * f
				m[sq] = v
				if v >= 1 {
					over = true
				}
			}
		}
		if !over {
			s.floorSupport(c)
			return
		}
		sum = 0
		for b := scale; b != 0; {
			sum += float64(m[b.PopFirst()])
		}
	}
	// Some values reached 1: cap them and share the rest among the others.
	capped := keep
	fixed := kept
	for range 4 {
		free := supp &^ capped
		if free == 0 {
			break
		}
		if sum <= 0 {
			v := float32(max(total-fixed, 0) / float64(free.Count()))
			for b := free; b != 0; {
				m[b.PopFirst()] = v
			}
			break
		}
		f := max(total-fixed, 0) / sum
		over := false
		next := 0.0
		for b := free; b != 0; {
			sq := b.PopFirst()
			v := float64(m[sq]) * f
			if v >= 1 {
				v = 1
				capped |= sq.Bit()
				fixed++
				over = true
			} else {
				next += v
			}
			m[sq] = float32(v)
		}
		if !over {
			break
		}
		sum = next
	}
	s.floorSupport(c)
}

// sum64 returns the sum of the 64 values (unrolled: the loop runs on every
// update).
func sum64(m *[64]float32) float32 {
	var a, b, c, d float32
	for i := 0; i < 64; i += 4 {
		a += m[i]
		b += m[i+1]
		c += m[i+2]
		d += m[i+3]
	}
	return a + b + c + d
}

// scale64 multiplies the 64 values by f and returns the largest result.
func scale64(m *[64]float32, f float32) float32 {
	var hi float32
	for i := 0; i < 64; i += 4 {
		a, b, c, d := m[i]*f, m[i+1]*f, m[i+2]*f, m[i+3]*f
		m[i], m[i+1], m[i+2], m[i+3] = a, b, c, d
		if a > hi {
			hi = a
		}
		if b > hi {
			hi = b
		}
		if c > hi {
			hi = c
		}
		if d > hi {
			hi = d
		}
	}
	return hi
}

// floorSupport lifts class c's values on its support to at least floor.
func (s *State) floorSupport(c oppmodel.Class) {
	m := &s.p[c]
	for b := s.supp[c]; b != 0; {
		sq := b.PopFirst()
		if m[sq] < floor {
			m[sq] = floor
		}
	}
}

// HideKing forgets where the opponent's king stands: it may be on any square
// a king of its side could occupy now, each as likely. This is the belief of
// a drill that starts from a position reached unseen (after a promotion the
// king has long been out of sight), not of a public start. On our turn the
// opponent's king is not in check, so squares our men attack are out.
func (s *State) HideKing() {
	s.full &^= s.supp[king] // the king's square is no longer known to be held
	allowed := ^s.own[0] &^ s.full &^ chess.KingAttacks(s.OurKing())
	if s.ourTurn {
		allowed &^= s.definiteAttacks()
	}
	n := allowed.Count()
	if n == 0 {
		return
	}
	s.p[king] = [64]float32{}
	for b := allowed; b != 0; {
		s.p[king][b.PopFirst()] = 1 / float32(n)
	}
	s.supp[king] = allowed
}
