package umpire

import (
	"fmt"
	"strings"

	"kriegbot/engine/chess"
)

// Pockets holds the men each side has captured and may drop (crazykrieg),
// counted by colour and piece type (Pawn to Queen; the other entries stay 0).
type Pockets [2][chess.King]uint8

// Empty reports whether neither side holds a man.
func (p Pockets) Empty() bool { return p == Pockets{} }

// String lists the men as python-chess does in a crazyhouse FEN, White's
// (upper case) then Black's, queens first: "QNPbp".
func (p Pockets) String() string {
	var sb strings.Builder
	for c := chess.White; c <= chess.Black; c++ {
		for pt := chess.Queen; pt >= chess.Pawn; pt-- {
			l := pt.Letter()
			if c == chess.White {
				l -= 'a' - 'A'
			}
			for range p[c][pt] {
				sb.WriteByte(l)
			}
		}
	}
	return sb.String()
}

// DropMove is the drop of a man of type pt from the pocket onto sq. A drop
// is a Move whose origin is its destination and whose promotion field holds
// the dropped man's type: no board move has that shape.
func DropMove(pt chess.PieceType, sq chess.Square) chess.Move { return chess.NewMove(sq, sq, pt) }

// IsDrop reports whether m is a drop (see DropMove).
func IsDrop(m chess.Move) bool {
	pt := m.Promotion()
	return m.From() == m.To() && pt >= chess.Pawn && pt <= chess.Queen
}

// MoveText writes m in the site's notation: UCI, or "N@e4" for a drop.
func MoveText(m chess.Move) string {
	if IsDrop(m) {
		return string(m.Promotion().Letter()-('a'-'A')) + "@" + m.To().String()
	}
	return m.String()
}

// ParseMoveText reads UCI or a drop ("N@e4", "P@e4"; syntax only).
func ParseMoveText(s string) (chess.Move, error) {
	if len(s) == 4 && s[1] == '@' {
		i := strings.IndexByte("PNBRQ", s[0])
		sq, ok := chess.ParseSquare(s[2:])
		pt := chess.Pawn + chess.PieceType(i)
		if i < 0 || !ok {
			return chess.NullMove, fmt.Errorf("umpire: drop %q: want a piece letter PNBRQ, '@' and a square", s)
		}
		return DropMove(pt, sq), nil
	}
	return chess.ParseUCI(s)
}

// Pockets returns the men each side may drop (crazykrieg).
func (u *Umpire) Pockets() Pockets { return u.pockets }

// Promoted returns the squares of the promoted men (crazykrieg: a promoted
// man is announced, and pocketed, as a pawn when captured).
func (u *Umpire) Promoted() chess.Bitboard { return u.promoted }

// dropTargets returns the squares the side to move may drop a man of type
// pt on when only occupied squares and the pawn's back-rank rule count.
func dropTargets(occupied chess.Bitboard, pt chess.PieceType) chess.Bitboard {
	t := ^occupied
	if pt == chess.Pawn {
		t &^= chess.Bitboard(0xff) | chess.Bitboard(0xff)<<56
	}
	return t
}

// dropLegal reports whether the drop m is legal on the true board: the man
// is in the pocket, the square is empty (a pawn not on a back rank), and
// under a single check the drop blocks it.
func (u *Umpire) dropLegal(m chess.Move) bool {
	us, pt, sq := u.pos.Side(), m.Promotion(), m.To()
	if u.pockets[us][pt] == 0 || !dropTargets(u.pos.Occupied(), pt).Has(sq) {
		return false
	}
	return u.blockMask().Has(sq)
}

// blockMask returns the squares where a drop leaves the side to move's king
// safe: all when not in check, the line to a single slider's check, none
// under a double or contact check.
func (u *Umpire) blockMask() chess.Bitboard {
	checkers := u.pos.Checkers()
	switch {
	case checkers == 0:
		return ^chess.Bitboard(0)
	case checkers.More():
		return 0
	}
	return chess.Between(u.pos.KingSquare(u.pos.Side()), checkers.First())
}

// dropAskable reports whether the drop m is on the askable list: the man is
// in the pocket and the square holds no own man (a pawn not on a back
// rank), it was not refused this turn, and no "has pawn captures" binds.
func (u *Umpire) dropAskable(m chess.Move) bool {
	us, pt := u.pos.Side(), m.Promotion()
	if u.mustPawn || u.pockets[us][pt] == 0 || !dropTargets(u.pos.ByColor(us), pt).Has(m.To()) {
		return false
	}
	return !u.refusedDrops[pt].Has(m.To())
}

// AskableDrops appends the askable drops to out (crazykrieg; none in the
// other variants): a drop of every pocketed man on every square without an
// own man, pawns not on a back rank. Askable lists the board attempts.
func (u *Umpire) AskableDrops(out []chess.Move) []chess.Move {
	if !u.rules.Variant.Drops || u.mustPawn {
		return out
	}
	us := u.pos.Side()
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		if u.pockets[us][pt] == 0 {
			continue
		}
		for t := dropTargets(u.pos.ByColor(us), pt) &^ u.refusedDrops[pt]; t != 0; {
			out = append(out, DropMove(pt, t.PopFirst()))
		}
	}
	return out
}

// AskableCount returns how many attempts the side to move may ask: the
// board attempts of Askable and the drops of AskableDrops (ks-game's
// "possible" without the ask-any question). It allocates nothing.
func (u *Umpire) AskableCount() int {
	var l chess.MoveList
	u.Askable(&l)
	n := l.N
	if !u.rules.Variant.Drops || u.mustPawn {
		return n
	}
	us := u.pos.Side()
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		if u.pockets[us][pt] > 0 {
			n += (dropTargets(u.pos.ByColor(us), pt) &^ u.refusedDrops[pt]).Count()
		}
	}
	return n
}

// canDrop reports whether the side to move has a legal drop.
func (u *Umpire) canDrop() bool {
	us := u.pos.Side()
	block := u.blockMask()
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		if u.pockets[us][pt] > 0 && dropTargets(u.pos.Occupied(), pt)&block != 0 {
			return true
		}
	}
	return false
}

// dropInsufficient is python-chess's crazyhouse rule, with ks-game's "never
// while a pocket holds a man": at most three men on the board, none
// promoted, no pawn, rook or queen.
func (u *Umpire) dropInsufficient() bool {
	p := &u.pos
	if !u.pockets.Empty() || p.Occupied().Count() > 3 {
		return false
	}
	heavy := p.ByType(chess.Pawn) | p.ByType(chess.Rook) | p.ByType(chess.Queen)
	return heavy == 0 && u.promoted&^p.ByType(chess.King) == 0
}

// pocketCapture moves the man m captures into the mover's pocket (a
// promoted man as a pawn) and keeps the promoted squares in step with m.
func (u *Umpire) pocketCapture(m chess.Move, captured chess.Square) {
	us := u.pos.Side()
	if captured != chess.NoSquare {
		pt := u.pos.PieceAt(captured).Type()
		if u.promoted.Has(captured) {
			pt = chess.Pawn
		}
		u.pockets[us][pt]++
		u.promoted &^= captured.Bit()
	}
	if u.promoted.Has(m.From()) {
		u.promoted = u.promoted&^m.From().Bit() | m.To().Bit()
	}
	if m.Promotion() != chess.NoPieceType {
		u.promoted |= m.To().Bit()
	}
}

// makeDrop plays the legal drop m: the man leaves the pocket for the board,
// the turn passes, the en passant chance goes, and the half-move clock runs
// on (python-chess zeroes it for no drop).
func (u *Umpire) makeDrop(m chess.Move) {
	u.pockets[u.pos.Side()][m.Promotion()]--
	u.pos.Drop(m.Promotion(), m.To())
}
