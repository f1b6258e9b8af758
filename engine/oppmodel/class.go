package oppmodel

import "kriegbot/engine/chess"

// Class is one of the three unit classes the paper's belief tracks for the
// opponent: its king, its pawns, and its other pieces taken together
// (Kriegspiel rarely tells a queen from a rook, so neither do we).
type Class uint8

// The unit classes, in the order of the belief's matrices.
const (
	King Class = iota
	Pawn
	Piece
	NumClasses
)

var classNames = [...]string{"king", "pawn", "piece"}

// String returns "king", "pawn" or "piece".
func (c Class) String() string {
	if c < NumClasses {
		return classNames[c]
	}
	return "unknown"
}

// ClassOf returns the class of a piece type (NoPieceType gives Piece; callers
// check emptiness first).
func ClassOf(pt chess.PieceType) Class {
	switch pt {
	case chess.King:
		return King
	case chess.Pawn:
		return Pawn
	}
	return Piece
}
