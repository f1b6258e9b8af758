package chess

// CheckKind names how a check reaches the king, as the Kriegspiel referee
// announces it. Diagonal checks are "long" or "short" by the length of the
// diagonal through the checked king's square.
type CheckKind uint8

// Check kinds.
const (
	NoCheck CheckKind = iota
	CheckRank
	CheckFile
	CheckLongDiagonal
	CheckShortDiagonal
	CheckKnight
)

// String returns the fixture spelling: rank, file, long_diagonal, short_diagonal, knight.
func (k CheckKind) String() string {
	switch k {
	case CheckRank:
		return "rank"
	case CheckFile:
		return "file"
	case CheckLongDiagonal:
		return "long_diagonal"
	case CheckShortDiagonal:
		return "short_diagonal"
	case CheckKnight:
		return "knight"
	}
	return "none"
}

// DiagonalLengths returns the number of squares on the a1-h8-direction diagonal
// and on the a8-h1-direction diagonal through s, edge to edge, s included.
func DiagonalLengths(s Square) (rising, falling int) {
	f, r := s.File(), s.Rank()
	return 8 - abs(f-r), 8 - abs(f+r-7)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ClassifyCheck returns the kind of check a man on from gives a king on king,
// judged by geometry alone (the caller knows it is a check). A pawn's check is a
// diagonal check like any other.
func ClassifyCheck(king, from Square) CheckKind {
	switch {
	case king.File() == from.File():
		return CheckFile
	case king.Rank() == from.Rank():
		return CheckRank
	case tab.knight[king].Has(from):
		return CheckKnight
	}
	rising, falling := DiagonalLengths(king)
	onRising := king.File()-king.Rank() == from.File()-from.Rank()
	if onRising == (rising > falling) {
		return CheckLongDiagonal
	}
	return CheckShortDiagonal
}

// CheckKinds classifies the checks on the side to move: none, one kind, or two
// for a double check (in ascending order of the checkers' squares).
func (p *Position) CheckKinds() (first, second CheckKind) {
	checkers := p.Checkers()
	if checkers == 0 {
		return NoCheck, NoCheck
	}
	ksq := p.KingSquare(p.side)
	first = ClassifyCheck(ksq, checkers.PopFirst())
	if checkers != 0 {
		second = ClassifyCheck(ksq, checkers.First())
	}
	return first, second
}

// PawnTries counts the legal pawn captures of the side to move as the referee
// announces them: distinct (from, to) pairs, en passant included, the four
// promotion choices of one capture counted once.
func (p *Position) PawnTries() int {
	pawns := p.Pieces(p.side, Pawn)
	enemy := p.byColor[p.side.Other()]
	// Cheap exit: no pawn attacks an enemy man or the en passant square.
	var targets Bitboard
	if p.side == White {
		targets = (pawns&^FileA)<<7 | (pawns&^FileH)<<9
	} else {
		targets = (pawns&^FileA)>>9 | (pawns&^FileH)>>7
	}
	epBit := Bitboard(0)
	if p.ep != NoSquare {
		epBit = p.ep.Bit()
	}
	if targets&(enemy|epBit) == 0 {
		return 0
	}
	var l MoveList
	p.generate(&l, pawns)
	n := 0
	for _, m := range l.Moves[:l.N] {
		if (m.From()^m.To())&7 != 0 && (m.Promotion() == NoPieceType || m.Promotion() == Queen) {
			n++
		}
	}
	return n
}

// HasInsufficientMaterial reports whether colour c cannot possibly mate, by
// material alone (python-chess's rule, which the wild 16 fixtures follow): no
// pawn, rook or queen, and either a bare king; a single knight while the
// opponent has only king and queens; or bishops only, all on one square colour,
// with no knight and no pawn on the board.
func (p *Position) HasInsufficientMaterial(c Color) bool {
	own := p.byColor[c]
	if own&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return false
	}
	if own&p.byType[Knight] != 0 {
		return own.Count() <= 2 && p.byColor[c.Other()]&^p.byType[King]&^p.byType[Queen] == 0
	}
	if own&p.byType[Bishop] != 0 {
		b := p.byType[Bishop]
		sameColour := b&DarkSquares == 0 || b&LightSquares == 0
		return sameColour && p.byType[Pawn] == 0 && p.byType[Knight] == 0
	}
	return true
}

// IsInsufficientMaterial reports whether neither side can possibly mate.
func (p *Position) IsInsufficientMaterial() bool {
	return p.HasInsufficientMaterial(White) && p.HasInsufficientMaterial(Black)
}

// CanForceMate reports whether a side with these men besides its king can
// force mate against a lone king: any pawn, rook or queen, or two minor
// pieces other than two knights. One minor piece, or two knights, cannot.
func CanForceMate(pawnsRooksQueens, knights, bishops int) bool {
	return pawnsRooksQueens > 0 || knights+bishops > 1 && !(knights == 2 && bishops == 0)
}
