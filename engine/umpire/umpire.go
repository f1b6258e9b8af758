package umpire

import (
	"errors"

	"kriegbot/engine/chess"
)

// ErrGameOver is returned for an attempt made after the game ended.
var ErrGameOver = errors.New("umpire: the game is over")

// Umpire referees one game. It is not safe for concurrent use.
type Umpire struct {
	rules   Rules
	pos     chess.Position
	tries   int // pawn tries in force for the side to move
	plies   int
	ending  Ending
	result  string
	refused chess.MoveList // attempts refused in the current turn
	// trySquares holds the squares of the pawns with a legal capture, for the
	// variants that announce them (PawnSquares).
	trySquares chess.Bitboard
	// The ask-any state of the turn: asked once "Any?" is off the list (asked,
	// or released from its obligation); mustPawn after "has pawn captures"
	// until a move or a release; noAny after "no pawn captures".
	asked, mustPawn, noAny bool
	// The men each side may drop, and the squares of promoted men (crazykrieg).
	pockets  Pockets
	promoted chess.Bitboard
	// refusedDrops holds the drops refused this turn, by piece type: a turn
	// may refuse more drops than a MoveList holds.
	refusedDrops [chess.King]chess.Bitboard
	// listed caches the askable board attempts of the turn's state, its
	// refusals aside (listedOK: current), so that the word of a refusal
	// costs one listing per state rather than one per refusal.
	listed   chess.MoveList
	listedOK bool
	// keys holds the Zobrist keys of the positions since the last capture or
	// pawn move, the current one last, for the repetition rule.
	keys  []uint64
	moves []chess.Move // legal moves played, for game records
}

// New returns an umpire for a game from the standard initial position.
func New(rules Rules) *Umpire {
	u := &Umpire{rules: rules, keys: make([]uint64, 0, 256), moves: make([]chess.Move, 0, 256)}
	u.Reset(chess.StartPosition())
	return u
}

// Reset starts a new game from pos, keeping the rules and the buffers.
func (u *Umpire) Reset(pos chess.Position) {
	u.pos = pos
	u.tries = pos.PawnTries()
	u.plies = 0
	u.ending, u.result = NotOver, ""
	u.refused.N = 0
	u.pockets, u.promoted = Pockets{}, 0
	u.listedOK = false
	u.refusedDrops = [chess.King]chess.Bitboard{}
	u.newTurn()
	u.keys = append(u.keys[:0], pos.Hash())
	u.moves = u.moves[:0]
	// A position handed over already finished (mate, stalemate, bare kings)
	// ends the game before any attempt.
	u.ending = u.boardEnding()
	if u.ending != NotOver {
		u.result = u.resultOf(u.ending)
	}
}

// Rules returns the rule set in force.
func (u *Umpire) Rules() Rules { return u.rules }

// Position returns the true position.
func (u *Umpire) Position() chess.Position { return u.pos }

// Side returns the colour to move.
func (u *Umpire) Side() chess.Color { return u.pos.Side() }

// PawnTries returns the pawn-try count in force for the side to move (the one
// announced after the opponent's last move; computed for the start position).
func (u *Umpire) PawnTries() int { return u.tries }

// Plies returns the number of legal moves played.
func (u *Umpire) Plies() int { return u.plies }

// Moves returns the legal moves played so far (do not modify).
func (u *Umpire) Moves() []chess.Move { return u.moves }

// Refused returns the attempts refused in the current turn (do not modify),
// drops aside.
func (u *Umpire) Refused() []chess.Move { return u.refused.Slice() }

// Ending returns why the game ended, or NotOver.
func (u *Umpire) Ending() Ending { return u.ending }

// Result returns "1-0", "0-1", "1/2-1/2" or "*" once the game is over, else "".
func (u *Umpire) Result() string { return u.result }

// Attempt judges the side to move's attempt m, plays it if legal and returns
// the answer. Any Move value is accepted: nonsense is refused in the
// variant's word (Variant.OffList), and under the pawn-capture obligation of
// a "has pawn captures" every attempt but a pawn try is ImpossibleToAsk.
func (u *Umpire) Attempt(m chess.Move) (Answer, error) {
	a := Answer{Mover: u.pos.Side(), Attempt: m, PawnTries: -1}
	if u.ending != NotOver {
		return a, ErrGameOver
	}
	v := &u.rules.Variant
	legal := u.pos.IsLegal(m)
	if !legal && v.Drops && IsDrop(m) {
		legal = u.dropLegal(m)
	}
	if !legal || (u.mustPawn && !u.isPawnTry(m)) {
		a.Verdict = u.refusal(m)
		if a.Verdict == IllegalMove {
			a.Public = v.PublicIllegal
			if u.mustPawn && v.ReleaseAfterFailedTry {
				// Released: ks-game rebuilds the list whole, so the attempts
				// refused before "Any?" are askable again.
				u.mustPawn, u.asked, u.listedOK = false, true, false
				u.refused.N = 0
				u.refusedDrops = [chess.King]chess.Bitboard{}
			}
			switch {
			case v.Drops && IsDrop(m):
				u.refusedDrops[m.Promotion()] |= m.To().Bit()
			case !u.refused.Contains(m) && u.refused.N < chess.MaxMoves:
				u.refused.Add(m)
			}
		}
		return a, nil
	}
	a.Legal, a.Verdict, a.Public = true, MoveDone, true
	if v.Drops && IsDrop(m) {
		a.Drop = m.Promotion()
		u.makeDrop(m)
	} else {
		sq := u.pos.CapturedSquare(m)
		if sq != chess.NoSquare {
			pt := u.pos.PieceAt(sq).Type()
			if u.promoted.Has(sq) {
				pt = chess.Pawn // announced, and pocketed, as what it was born
			}
			a.Capture = Capture{Square: sq, Kind: captureKind(v.Captures, pt)}
			if v.AnnounceEnPassant && sq != m.To() {
				a.Capture.Square, a.EnPassant = m.To(), true
			}
		}
		a.Promotion = v.AnnouncePromotion && m.Promotion() != chess.NoPieceType
		if v.Drops {
			u.pocketCapture(m, sq)
		}
		u.pos.Make(m)
	}
	u.plies++
	u.refused.N = 0
	u.refusedDrops = [chess.King]chess.Bitboard{}
	u.asked, u.mustPawn, u.noAny, u.listedOK = false, false, false, false
	u.moves = append(u.moves, m)
	if u.pos.HalfmoveClock() == 0 {
		u.keys = u.keys[:0]
	}
	u.keys = append(u.keys, u.pos.Hash())

	a.Checks[0], a.Checks[1] = u.pos.CheckKinds()
	u.ending = u.boardEnding()
	if u.ending == NotOver {
		u.ending = u.ruleEnding()
	}
	if u.ending != NotOver {
		u.result = u.resultOf(u.ending)
		u.tries = 0
		a.Ending, a.Result = u.ending, u.result
		return a, nil
	}
	u.tries = u.pos.PawnTries()
	a.PawnNews = v.PawnNews
	switch v.PawnNews {
	case PawnCount:
		a.PawnTries = u.tries
	case PawnHas:
		a.HasPawnCapture = u.tries > 0
	case PawnSquares:
		u.trySquares = pawnTrySources(&u.pos, u.tries)
		a.TrySquares = u.trySquares
	}
	return a, nil
}

// AskAny puts the side to move's "Any?" question: HasAny when it has a legal
// pawn capture (it must then try pawn captures), NoAny when not (its pawn
// tries leave the askable list for the turn); both sides hear the answer.
// Where the variant has no such question, or it was asked this turn, the
// answer is ImpossibleToAsk, heard by nobody else.
func (u *Umpire) AskAny() (Answer, error) {
	a := Answer{Mover: u.pos.Side(), PawnTries: -1}
	if u.ending != NotOver {
		return a, ErrGameOver
	}
	if !u.CanAskAny() {
		a.Verdict = ImpossibleToAsk
		return a, nil
	}
	a.Public, u.asked, u.listedOK = true, true, false
	if u.tries > 0 {
		a.Verdict, u.mustPawn = HasAny, true
	} else {
		a.Verdict, u.noAny = NoAny, true
	}
	return a, nil
}

// CanAskAny reports whether the side to move may ask "Any?" now.
func (u *Umpire) CanAskAny() bool {
	return u.rules.Variant.AskAny && u.ending == NotOver && !u.asked
}

// MustTryPawns reports whether the side to move is under the obligation of
// a "has pawn captures": only pawn tries may be asked.
func (u *Umpire) MustTryPawns() bool { return u.mustPawn }

// TrySquares returns the pawn-try squares in force for the side to move in
// the variants that announce them (else 0).
func (u *Umpire) TrySquares() chess.Bitboard { return u.trySquares }

// newTurn sets the pawn news and the ask-any state of a turn starting on
// the current position.
func (u *Umpire) newTurn() {
	u.asked, u.mustPawn, u.noAny = false, false, false
	u.trySquares = 0
	if u.rules.Variant.PawnNews == PawnSquares {
		u.trySquares = pawnTrySources(&u.pos, u.tries)
	}
}

// refusal words the refusal of m: IllegalMove when m was on the askable
// list (the true board refused it), else the variant's word for an attempt
// off the list, or ImpossibleToAsk under the pawn-capture obligation.
func (u *Umpire) refusal(m chess.Move) Verdict {
	v := &u.rules.Variant
	if v.OffList == IllegalMove && !u.mustPawn {
		return IllegalMove // wild 16 and english say the same either way
	}
	onList := false
	if v.Drops && IsDrop(m) {
		onList = u.dropAskable(m)
	} else {
		if !u.listedOK {
			u.askableBut(nil, &u.listed)
			u.listedOK = true
		}
		onList = u.listed.Contains(m) && !u.refused.Contains(m)
	}
	if onList {
		return IllegalMove
	}
	if u.mustPawn {
		return ImpossibleToAsk
	}
	return v.OffList
}

// isPawnTry reports whether m is a pawn try of the side to move: an own
// pawn's forward-diagonal step onto a square without an own man, with a
// promotion piece exactly when it reaches the last rank.
func (u *Umpire) isPawnTry(m chess.Move) bool {
	return isPawnTry(&u.pos, m)
}

func isPawnTry(pos *chess.Position, m chess.Move) bool {
	us := pos.Side()
	from := m.From()
	if pos.PieceAt(from) != chess.MakePiece(us, chess.Pawn) {
		return false
	}
	if !(chess.PawnAttacks(us, from) &^ pos.ByColor(us)).Has(m.To()) {
		return false
	}
	last := m.To().Rank() == 7 || m.To().Rank() == 0
	return last == (m.Promotion() != chess.NoPieceType)
}

// pawnTrySources returns the squares of the side to move's pawns that have a
// legal capture (nothing to look for when the count is 0).
func pawnTrySources(pos *chess.Position, tries int) chess.Bitboard {
	if tries == 0 {
		return 0
	}
	var l chess.MoveList
	pos.GenerateLegalFrom(&l, pos.Pieces(pos.Side(), chess.Pawn))
	var b chess.Bitboard
	for _, m := range l.Moves[:l.N] {
		if (m.From()^m.To())&7 != 0 {
			b |= m.From().Bit()
		}
	}
	return b
}

// Exact returns the type of man an exact capture announcement names (a
// pawn for PawnCaptured, which in crazykrieg covers a promoted man): the
// inverse of captureKind under CaptureExact. ok is false for NoCapture,
// PieceCaptured and ManCaptured.
func (k CaptureKind) Exact() (pt chess.PieceType, ok bool) {
	switch k {
	case PawnCaptured:
		return chess.Pawn, true
	case KnightCaptured:
		return chess.Knight, true
	case BishopCaptured:
		return chess.Bishop, true
	case RookCaptured:
		return chess.Rook, true
	case QueenCaptured:
		return chess.Queen, true
	}
	return chess.NoPieceType, false
}

// captureKind says what the variant announces of a captured man of type pt.
func captureKind(d CaptureDetail, pt chess.PieceType) CaptureKind {
	switch d {
	case CaptureUntyped:
		return ManCaptured
	case CaptureExact:
		switch pt {
		case chess.Knight:
			return KnightCaptured
		case chess.Bishop:
			return BishopCaptured
		case chess.Rook:
			return RookCaptured
		case chess.Queen:
			return QueenCaptured
		}
		return PawnCaptured
	}
	if pt == chess.Pawn {
		return PawnCaptured
	}
	return PieceCaptured
}

// boardEnding applies ks-game's order: stalemate, insufficient material, checkmate.
func (u *Umpire) boardEnding() Ending {
	drops := u.rules.Variant.Drops
	hasMove := u.pos.HasLegalMove() || drops && u.canDrop()
	inCheck := u.pos.InCheck()
	switch {
	case !hasMove && !inCheck:
		return Stalemate
	case drops && u.dropInsufficient(), !drops && u.pos.IsInsufficientMaterial():
		return InsufficientMaterial
	case !hasMove:
		return Checkmate
	}
	return NotOver
}

// ruleEnding applies the endings the rule set switches on.
func (u *Umpire) ruleEnding() Ending {
	r := &u.rules
	switch {
	case r.FiftyMoves && u.pos.HalfmoveClock() >= 100:
		return FiftyMoves
	case r.Repetition && u.repetitions() >= 3:
		return Repetition
	case r.MaxReversible > 0 && u.pos.HalfmoveClock() >= r.MaxReversible:
		return TooManyReversible
	case r.DeadMaterial && cannotForceMate(&u.pos):
		return DeadMaterial
	case r.MaxPlies > 0 && u.plies >= r.MaxPlies:
		return PlyLimit
	}
	return NotOver
}

// cannotForceMate reports dead material: neither side can force mate.
func cannotForceMate(pos *chess.Position) bool {
	for c := chess.White; c <= chess.Black; c++ {
		prq := pos.Pieces(c, chess.Pawn) | pos.Pieces(c, chess.Rook) | pos.Pieces(c, chess.Queen)
		if chess.CanForceMate(prq.Count(), pos.Pieces(c, chess.Knight).Count(), pos.Pieces(c, chess.Bishop).Count()) {
			return false
		}
	}
	return true
}

// repetitions counts how often the current position has occurred, itself included.
func (u *Umpire) repetitions() int {
	n := len(u.keys) - 1
	cur := u.keys[n]
	count := 1
	for i := n - 2; i >= 0; i -= 2 {
		if u.keys[i] == cur {
			count++
		}
	}
	return count
}

func (u *Umpire) resultOf(e Ending) string {
	switch e {
	case Stalemate:
		if !u.rules.Variant.StalemateLoses {
			break
		}
		fallthrough // the stalemated side, to move, loses
	case Checkmate:
		if u.pos.Side() == chess.White {
			return "0-1"
		}
		return "1-0"
	case PlyLimit:
		return "*"
	}
	return "1/2-1/2"
}

// Askable lists the attempts the side to move may ask under ks-game's rule
// (the fixtures' "possible"), minus those already refused this turn. It reads
// only what the mover knows: its own men, castling rights, the en passant square
// and its pawn-try count. This is the natural candidate set for an engine.
func (u *Umpire) Askable(out *chess.MoveList) { u.askableBut(u.refused.Slice(), out) }

// askableBut is Askable with the refusals given.
func (u *Umpire) askableBut(refused []chess.Move, out *chess.MoveList) {
	tries := u.tries
	if u.rules.Variant.PawnNews == PawnNothing {
		tries = -1 // every pawn try is askable
	}
	askable(&u.pos, tries, u.trySquares, refused, out)
	if !u.mustPawn && !u.noAny {
		return
	}
	// After "Any?": only the pawn tries, or none of them.
	w := 0
	for _, m := range out.Moves[:out.N] {
		if isPawnTry(&u.pos, m) == u.mustPawn {
			out.Moves[w] = m
			w++
		}
	}
	out.N = w
}

// Askable lists into out the attempts the side to move of pos may ask, given
// its pawn-try count and the attempts already refused this turn: Men.Askable
// over the mover's men, castling rights and en passant square, with every
// promotion piece. Enemy men on pos are ignored, so a position holding only
// what a player knows of its own side (with both kings, as chess.Position
// requires) gives the same list.
func Askable(pos *chess.Position, tries int, refused []chess.Move, out *chess.MoveList) {
	askable(pos, tries, 0, refused, out)
}

// askable is Askable with the pawns allowed diagonal tries limited to
// tryFrom when it is not 0 (rand's announced squares).
func askable(pos *chess.Position, tries int, tryFrom chess.Bitboard, refused []chess.Move, out *chess.MoveList) {
	us := pos.Side()
	m := Men{Color: us, Own: pos.ByColor(us), Castling: pos.Castling(), EnPassant: pos.EnPassant(), Tries: tries, TryFrom: tryFrom}
	var types [64]chess.PieceType
	for b := m.Own; b != 0; {
		sq := b.PopFirst()
		types[sq] = pos.PieceAt(sq).Type()
	}
	m.Types = &types
	m.Askable(AllPromotions, refused, out)
	pawnsAfterPieces(out, &types)
}

// pawnsAfterPieces reorders a list from Men.Askable into the umpire's
// historical order: the pieces' attempts, then the pawns', then castling
// (Men.Askable takes the men in square order). RandomStream and the
// other random drivers draw attempts by index, so this keeps the recorded
// test and benchmark games what they were. Stable, no allocation.
func pawnsAfterPieces(l *chess.MoveList, types *[64]chess.PieceType) {
	body := l.Moves[:l.N]
	for len(body) > 0 { // castling comes last: the king's only two-square step
		mv := body[len(body)-1]
		if d := int(mv.To()) - int(mv.From()); types[mv.From()] != chess.King || (d != 2 && d != -2) {
			break
		}
		body = body[:len(body)-1]
	}
	var pawns [chess.MaxMoves]chess.Move
	np, w := 0, 0
	for _, mv := range body {
		if types[mv.From()] == chess.Pawn {
			pawns[np] = mv
			np++
			continue
		}
		body[w] = mv
		w++
	}
	copy(body[w:], pawns[:np])
}
