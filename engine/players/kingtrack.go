package players

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// KingTrack keeps the set of squares where the opponent's king may stand,
// by elimination from what the referee says, and counts the opponent's men.
// The rules are exact once the opponent has a bare king (then the whole
// position is known up to the king's square). Before, unseen men may block
// our lines: with many men left the rules stay sound (never drop the true
// square) and loose; with a few, they assume open lines, sharper but
// occasionally wrong, and an emptied set starts afresh.
type KingTrack struct {
	// Squares holds the possible king squares (never empty).
	Squares chess.Bitboard
	// TheirMen counts the opponent's men, king included.
	TheirMen int
}

// fewMen is the man count from which our lines are taken as open.
const fewMen = 3

// Bare reports whether the opponent has only its king.
func (t *KingTrack) Bare() bool { return t.TheirMen == 1 }

// Reset starts a game in which we play us.
func (t *KingTrack) Reset(us chess.Color) {
	t.TheirMen = 16
	t.Squares = chess.E8.Bit()
	if us == chess.Black {
		t.Squares = chess.E1.Bit()
	}
}

// TheirMove updates the set after the opponent's legal move, given our board
// after it.
func (t *KingTrack) TheirMove(v umpire.View, own *OwnBoard) {
	captured := v.Capture.Kind != umpire.NoCapture
	switch {
	case v.Drop != chess.NoPieceType:
		t.TheirMen++ // a man from the pocket; the king stayed (crazykrieg)
	case t.Bare() && captured:
		t.Squares = v.Capture.Square.Bit() // only the king can have taken
	case t.Bare():
		t.Squares = spread(t.Squares) // the king had to move
	default:
		t.Squares |= spread(t.Squares) | castlings(t.Squares)
	}
	t.Squares &^= own.Men()
	// A king never stands next to ours.
	t.Squares &^= chess.KingAttacks(own.King())
	t.fallback(own)
}

// OurMove updates the set after the referee's answer to our attempt m. before
// is our board before the attempt, after our board once the answer applied.
func (t *KingTrack) OurMove(m chess.Move, v umpire.View, before, after *OwnBoard) {
	if v.Illegal {
		if t.Bare() {
			if why := blockers(m, before); why != 0 {
				t.Squares &= why // the king is what made it illegal
			}
		}
		t.fallback(after)
		return
	}
	if v.Capture.Kind != umpire.NoCapture {
		t.TheirMen--
	}
	t.Squares &^= after.Men() | path(m, before)
	// With many enemy men about, any of them may block our lines: only the
	// first square of each line is surely attacked. With a few, take our lines
	// as open: rarely wrong, and much sharper (fallback repairs a miss).
	occ := ^chess.Bitboard(0)
	if t.TheirMen <= fewMen {
		occ = after.Men()
	}
	att := after.AttackMap(occ)
	if v.Checks[0] == chess.NoCheck {
		t.Squares &^= att
	} else {
		t.Squares &= checkedFrom(after, v.Checks)
	}
	t.fallback(after)
}

// fallback resets an emptied set (our approximations failed) to every square
// free of our men and not next to our king.
func (t *KingTrack) fallback(own *OwnBoard) {
	if t.Squares == 0 {
		t.Squares = ^own.Men() &^ chess.KingAttacks(own.King())
	}
}

// spread returns the squares one king step from a square of b.
func spread(b chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	for b != 0 {
		out |= chess.KingAttacks(b.PopFirst())
	}
	return out
}

// castlings adds the castled king squares while the king may be home.
func castlings(b chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	if b.Has(chess.E8) {
		out |= chess.C8.Bit() | chess.G8.Bit()
	}
	if b.Has(chess.E1) {
		out |= chess.C1.Bit() | chess.G1.Bit()
	}
	return out
}

// path returns the squares attempt m crosses or lands on (which were empty of
// enemy men if it was played without capture, or held the captured man).
func path(m chess.Move, own *OwnBoard) chess.Bitboard {
	from, to := m.From(), m.To()
	switch own.At(from) {
	case chess.Knight:
		return to.Bit()
	case chess.King:
		if chess.Castles(from, to) {
			return chess.Between(from, to) | to.Bit()
		}
		return to.Bit()
	}
	return chess.Between(from, to) | to.Bit()
}

// blockers returns where a bare king must stand to make our attempt m
// illegal, or 0 if m is illegal whatever the king does (a pawn capture onto
// an empty square) or the reason cannot be told.
func blockers(m chess.Move, own *OwnBoard) chess.Bitboard {
	from, to := m.From(), m.To()
	switch own.At(from) {
	case chess.Pawn:
		if from.File() != to.File() {
			return 0
		}
		return chess.Between(from, to) | to.Bit()
	case chess.King:
		if chess.Castles(from, to) {
			return 0 // castling through attacked squares: too many reasons
		}
		return chess.KingAttacks(to) | to.Bit()
	}
	// A pinned man cannot be: the opponent has no men to pin with. The man
	// was blocked or the king stands on the target, or our king is exposed
	// (we never are: a bare king gives no check).
	return path(m, own)
}

// checkedFrom returns the squares where a king is checked by our men with
// the announced kinds.
func checkedFrom(own *OwnBoard, kinds [2]chess.CheckKind) chess.Bitboard {
	var out chess.Bitboard
	occ := own.Men()
	for s := occ; s != 0; {
		from := s.PopFirst()
		for a := own.attacks(from, occ) &^ occ; a != 0; {
			k := a.PopFirst()
			kind := chess.ClassifyCheck(k, from)
			if kind == kinds[0] || kind == kinds[1] {
				out |= k.Bit()
			}
		}
	}
	return out
}

// attacks returns the squares our man on s attacks given occupancy occ.
func (b *OwnBoard) attacks(s chess.Square, occ chess.Bitboard) chess.Bitboard {
	return chess.Attacks(b.us, b.men[s], s, occ)
}

// AttackMap returns every square our men attack given occupancy occ
// (squares of our own men included: they are defended).
func (b *OwnBoard) AttackMap(occ chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	for s := b.own; s != 0; {
		from := s.PopFirst()
		out |= b.attacks(from, occ)
	}
	return out
}
