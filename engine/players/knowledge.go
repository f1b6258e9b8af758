package players

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Knowledge is what a player learns from the referee during a game about its
// own side and the current turn: its men, the pawn tries and checks announced
// to it, the attempts refused this turn, and where the last captures happened.
// The simple kinds decide from it alone; a search keeps it beside its belief.
//
// It follows every variant of the umpire (Variant): the pawn news as the
// variant gives it, the "Any?" question and its obligation, the public
// refusals of the opponent, and crazykrieg's pocket and drops.
type Knowledge struct {
	Board OwnBoard
	// Variant is the game's rule variant (the zero value is wild 16).
	Variant umpire.Variant
	// Tries is the pawn-try count announced to us for this turn, as the
	// askable rule reads it (umpire.Men.Tries): in the variants without a
	// count, 1 for "has pawn captures" or announced try squares, 0 for
	// none, and -1 when nothing is announced (every pawn try is askable).
	Tries int
	// TrySquares are the squares of our pawns with a capture, where the
	// variant announces them (rand); 0 otherwise.
	TrySquares chess.Bitboard
	// AskedAny says "Any?" is spent this turn (asked, or impossible);
	// MustPawn that "has pawn captures" binds us to pawn tries; NoAny that
	// "no pawn captures" took the pawn tries off the list.
	AskedAny, MustPawn, NoAny bool
	// Pocket holds the men we may drop (crazykrieg), by type.
	Pocket [chess.King]uint8
	// refusedDrops holds the drops refused this turn, by type.
	refusedDrops [chess.King]chess.Bitboard
	// TheirRefused counts the opponent's refused attempts we heard in its
	// last turn (the variants with public refusals); TheirAny is its last
	// "Any?" answer heard (umpire.HasAny or NoAny), else IllegalMove.
	TheirRefused int
	TheirAny     umpire.Verdict
	// Checks holds the checks on our king announced after the opponent's move.
	Checks [2]chess.CheckKind
	// Refused lists our attempts refused this turn.
	Refused chess.MoveList
	// PrevRefused lists our attempts refused in our previous turn.
	PrevRefused chess.MoveList
	// TheirCapture is where the opponent captured with its last move, or
	// NoSquare: the square to recapture on.
	TheirCapture chess.Square
	// OurCapture is where our last move captured, or NoSquare.
	OurCapture chess.Square
	// OurCheck holds the checks our last move gave.
	OurCheck [2]chess.CheckKind
	// Plies counts the legal moves of the game so far (both sides).
	Plies int
	// pending is the attempt awaiting the referee's answer.
	pending chess.Move
}

// Start starts game g: Reset, or ResetFrom its set-up position, under its
// variant.
func (k *Knowledge) Start(g *Game) {
	if g.Start != nil {
		k.ResetFrom(g.Color, g.Start)
	} else {
		k.Reset(g.Color)
	}
	k.setVariant(g.Rules.Variant)
}

// setVariant reads the first turn's pawn news in the variant's terms.
func (k *Knowledge) setVariant(v umpire.Variant) {
	k.Variant = v
	switch v.PawnNews {
	case umpire.PawnNothing:
		k.Tries = -1
	case umpire.PawnHas, umpire.PawnSquares:
		// A set-up position's try squares are not worked out: every pawn
		// try stays askable, and an off-list one is refused (Hear).
		k.Tries = min(k.Tries, 1)
	}
}

// Reset starts a game as colour us.
func (k *Knowledge) Reset(us chess.Color) {
	*k = Knowledge{TheirCapture: chess.NoSquare, OurCapture: chess.NoSquare}
	k.Board.Reset(us) // no pawn can capture in the initial position: Tries is 0
}

// ResetFrom starts a game as colour us from the known position pos: our men
// as they stand there and, when we are to move, the pawn tries and checks the
// position holds (the referee announces nothing before the first move).
func (k *Knowledge) ResetFrom(us chess.Color, pos *chess.Position) {
	*k = Knowledge{TheirCapture: chess.NoSquare, OurCapture: chess.NoSquare}
	k.Board.ResetFrom(us, pos)
	if pos.Side() == us {
		k.Tries = pos.PawnTries()
		k.Checks[0], k.Checks[1] = pos.CheckKinds()
	}
}

// InCheck reports whether the referee announced a check on our king.
func (k *Knowledge) InCheck() bool { return k.Checks[0] != chess.NoCheck }

// Asked records the attempt just proposed, so that its answer can be applied.
func (k *Knowledge) Asked(m chess.Move) { k.pending = m }

// Askable lists the board attempts worth asking now (the drops are
// AskableDrops'): after "has pawn captures" only the pawn tries, after "no
// pawn captures" none of them.
func (k *Knowledge) Askable(out *chess.MoveList) {
	k.Board.AskableFrom(k.Tries, k.TrySquares, k.Refused.Slice(), out)
	if !k.MustPawn && !k.NoAny {
		return
	}
	w := 0
	for _, m := range out.Moves[:out.N] {
		if k.IsPawnTry(m) == k.MustPawn {
			out.Moves[w] = m
			w++
		}
	}
	out.N = w
}

// IsPawnTry reports whether m, one of our askable attempts, is a pawn try:
// a pawn's diagonal step.
func (k *Knowledge) IsPawnTry(m chess.Move) bool {
	return !umpire.IsDrop(m) && k.Board.At(m.From()) == chess.Pawn && m.From().File() != m.To().File()
}

// CanAskAny reports whether "Any?" may be asked now.
func (k *Knowledge) CanAskAny() bool { return k.Variant.AskAny && !k.AskedAny }

// AskableDrops appends to out the drops worth asking now (crazykrieg): each
// pocketed man on each square without a man of ours, pawns not on a back
// rank, minus those refused this turn; none under "has pawn captures".
func (k *Knowledge) AskableDrops(out []chess.Move) []chess.Move {
	if !k.Variant.Drops || k.MustPawn {
		return out
	}
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		if k.Pocket[pt] == 0 {
			continue
		}
		t := ^k.Board.Men() &^ k.refusedDrops[pt]
		if pt == chess.Pawn {
			t &^= chess.RankMask(0) | chess.RankMask(7)
		}
		for t != 0 {
			out = append(out, umpire.DropMove(pt, t.PopFirst()))
		}
	}
	return out
}

// Moved reports whether a heard view is a legal move (ours or the
// opponent's), not a refusal nor an answer to "Any?".
func Moved(v umpire.View) bool {
	return v.Heard && !v.Illegal && v.Verdict == umpire.IllegalMove
}

// refuse notes our attempt m refused this turn.
func (k *Knowledge) refuse(m chess.Move) {
	switch {
	case umpire.IsDrop(m):
		k.refusedDrops[m.Promotion()] |= m.To().Bit()
	case m == chess.NullMove:
		k.AskedAny = true
	case !k.Refused.Contains(m) && k.Refused.N < chess.MaxMoves:
		k.Refused.Add(m)
	}
}

// Hear applies one answer heard from our side.
func (k *Knowledge) Hear(v umpire.View) {
	switch {
	case !v.Heard:
	case v.Own && v.Illegal:
		if k.MustPawn && k.Variant.ReleaseAfterFailedTry {
			// Released: the referee's list is rebuilt whole, without "Any?"
			// and this try.
			k.MustPawn = false
			k.Refused.N = 0
			k.refusedDrops = [chess.King]chess.Bitboard{}
		}
		k.refuse(k.pending)
	case v.Own && (v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny):
		k.AskedAny = true
		k.MustPawn, k.NoAny = v.Verdict == umpire.HasAny, v.Verdict == umpire.NoAny
	case v.Own && v.Verdict != umpire.IllegalMove:
		// Off the referee's list (our knowledge of it was short): never
		// again this turn.
		k.refuse(k.pending)
	case v.Own:
		m := v.Move
		if m == chess.NullMove {
			m = k.pending
		}
		k.ourMove(m, v)
		k.PrevRefused = k.Refused
		k.Refused.N = 0
		k.Checks = [2]chess.CheckKind{}
		k.OurCapture = chess.NoSquare
		if v.Capture.Kind != umpire.NoCapture {
			k.OurCapture = v.Capture.Square
		}
		k.OurCheck = v.Checks
		k.Tries = 0
		k.Plies++
		k.TheirRefused, k.TheirAny = 0, umpire.IllegalMove
	case v.Illegal: // the opponent's refused attempt, made public
		k.TheirRefused++
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		k.TheirAny = v.Verdict
	case v.Verdict != umpire.IllegalMove: // an answer nobody else hears
	default: // the opponent's move
		k.TheirCapture = chess.NoSquare
		if v.Capture.Kind != umpire.NoCapture {
			k.Board.Lose(CapturedSquare(v, k.Board.Color().Other()))
			k.TheirCapture = v.Capture.Square
		}
		k.Checks = v.Checks
		k.theirNews(v)
		k.Plies++
	}
}

// ourMove plays our accepted move or drop m on our board, pocketing what it
// captured (crazykrieg announces what it was).
func (k *Knowledge) ourMove(m chess.Move, v umpire.View) {
	k.AskedAny, k.MustPawn, k.NoAny = false, false, false
	k.refusedDrops = [chess.King]chess.Bitboard{}
	if umpire.IsDrop(m) {
		pt := m.Promotion()
		k.Pocket[pt] = max(k.Pocket[pt], 1) - 1
		k.Board.Drop(m)
		return
	}
	k.Board.Play(m)
	if k.Variant.Drops {
		if pt, ok := v.Capture.Kind.Exact(); ok {
			k.Pocket[pt]++
		}
	}
}

// CapturedSquare is the square of the man the move heard in v captured,
// mover the side that moved: the announced square, but for an announced en
// passant (english), which names the capturing pawn's destination, the
// square of the pawn it took, beside it.
func CapturedSquare(v umpire.View, mover chess.Color) chess.Square {
	sq := v.Capture.Square
	if !v.EnPassant {
		return sq
	}
	if mover == chess.White {
		return sq - 8
	}
	return sq + 8
}

// theirNews reads the pawn news the opponent's move brought us, in the
// variant's terms (see Tries).
func (k *Knowledge) theirNews(v umpire.View) {
	k.TrySquares = 0
	switch k.Variant.PawnNews {
	case umpire.PawnNothing:
		k.Tries = -1
	case umpire.PawnHas:
		k.Tries = 0
		if v.HasPawnCapture {
			k.Tries = 1
		}
	case umpire.PawnSquares:
		k.Tries, k.TrySquares = 0, v.TrySquares
		if v.TrySquares != 0 {
			k.Tries = 1
		}
	default:
		k.Tries = max(v.PawnTries, 0)
	}
}
