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

// Refused returns the attempts refused in the current turn (do not modify).
func (u *Umpire) Refused() []chess.Move { return u.refused.Slice() }

// Ending returns why the game ended, or NotOver.
func (u *Umpire) Ending() Ending { return u.ending }

// Result returns "1-0", "0-1", "1/2-1/2" or "*" once the game is over, else "".
func (u *Umpire) Result() string { return u.result }

// Attempt judges the side to move's attempt m, plays it if legal and returns
// the answer. Any Move value is accepted: nonsense is simply illegal.
func (u *Umpire) Attempt(m chess.Move) (Answer, error) {
	a := Answer{Mover: u.pos.Side(), Attempt: m, PawnTries: -1}
	if u.ending != NotOver {
		return a, ErrGameOver
	}
	if !u.pos.IsLegal(m) {
		if !u.refused.Contains(m) && u.refused.N < chess.MaxMoves {
			u.refused.Add(m)
		}
		return a, nil
	}
	a.Legal = true
	if sq := u.pos.CapturedSquare(m); sq != chess.NoSquare {
		a.Capture = Capture{Square: sq, Kind: PieceCaptured}
		if u.pos.PieceAt(sq).Type() == chess.Pawn {
			a.Capture.Kind = PawnCaptured
		}
	}
	u.pos.Make(m)
	u.plies++
	u.refused.N = 0
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
	a.PawnTries = u.tries
	return a, nil
}

// boardEnding applies ks-game's order: stalemate, insufficient material, checkmate.
func (u *Umpire) boardEnding() Ending {
	hasMove := u.pos.HasLegalMove()
	inCheck := u.pos.InCheck()
	switch {
	case !hasMove && !inCheck:
		return Stalemate
	case u.pos.IsInsufficientMaterial():
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
func (u *Umpire) Askable(out *chess.MoveList) {
	Askable(&u.pos, u.tries, u.refused.Slice(), out)
}

// Askable lists into out the attempts the side to move of pos may ask, given
// its pawn-try count and the attempts already refused this turn: Men.Askable
// over the mover's men, castling rights and en passant square, with every
// promotion piece. Enemy men on pos are ignored, so a position holding only
// what a player knows of its own side (with both kings, as chess.Position
// requires) gives the same list.
func Askable(pos *chess.Position, tries int, refused []chess.Move, out *chess.MoveList) {
	us := pos.Side()
	m := Men{Color: us, Own: pos.ByColor(us), Castling: pos.Castling(), EnPassant: pos.EnPassant(), Tries: tries}
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
