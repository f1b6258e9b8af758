package umpire

import "kriegbot/engine/chess"

// Promotions is a set of the pieces a pawn stepping onto its last rank may
// be asked to become. Askable lists one attempt per piece in the set, in the
// order queen, rook, bishop, knight.
type Promotions uint8

// The promotion pieces, one bit each.
const (
	PromoteQueen Promotions = 1 << iota
	PromoteRook
	PromoteBishop
	PromoteKnight

	// AllPromotions is what the referee accepts (the askable list of the rules).
	AllPromotions = PromoteQueen | PromoteRook | PromoteBishop | PromoteKnight
)

// Men is what the askable rule reads of the side to move: where its men
// stand and what they are, its castling rights, the en passant square and
// its pawn-try count. The opponent's men play no part: a player's own
// knowledge gives the same list as the true position.
type Men struct {
	Color chess.Color
	// Own holds the squares of the side's men; Types gives the type of the
	// man on each of them (other squares are not read).
	Own   chess.Bitboard
	Types *[64]chess.PieceType
	// Castling holds the castling rights (the other side's are ignored).
	Castling chess.CastleRights
	// EnPassant is the en passant square, or chess.NoSquare when it is not
	// known (a player cannot know the opponent's double step).
	EnPassant chess.Square
	// Tries is the pawn-try count announced for this turn; negative when
	// unknown, which lists the pawn captures as with a try in force.
	Tries int
	// TryFrom, when not 0, limits the diagonal tries to the pawns on these
	// squares (rand announces them); the en passant step stays for the others.
	TryFrom chess.Bitboard
}

// Askable lists into out the attempts the side may ask, minus those in
// refused:
//   - every move of its own men that would be legal with all enemy men off
//     the board (pushes and slides into or through enemy men, king moves
//     onto attacked squares), the men taken in square order;
//   - while Tries ≠ 0, every forward-diagonal pawn step onto a square
//     without an own man; with no try in force, the en passant step of a
//     pawn on its fifth rank when EnPassant is that step's square;
//   - a pawn's step onto its last rank once per piece of promos;
//   - castling with the right and no own man between king and rook
//     (kingside first).
//
// This is ks-game's rule (the fixtures' "possible") with AllPromotions and
// the true en passant square; the players' and the search's candidate
// lists are the same rule over what they know. The list stops at
// chess.MaxMoves attempts. Askable allocates nothing.
func (m *Men) Askable(promos Promotions, refused []chess.Move, out *chess.MoveList) {
	out.N = 0
	us, own := m.Color, m.Own
	add := func(mv chess.Move) {
		for _, r := range refused {
			if r == mv {
				return
			}
		}
		if out.N < chess.MaxMoves {
			out.Add(mv)
		}
	}
	last, dir, start, fifth := 7, 8, 1, 4
	if us == chess.Black {
		last, dir, start, fifth = 0, -8, 6, 3
	}
	pawn := func(from, to chess.Square) {
		if to.Rank() != last {
			add(chess.NewMove(from, to, chess.NoPieceType))
			return
		}
		for i, pt := range [4]chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight} {
			if promos&(1<<i) != 0 {
				add(chess.NewMove(from, to, pt))
			}
		}
	}
	var king chess.Square = chess.NoSquare
	for s := own; s != 0; {
		from := s.PopFirst()
		pt := m.Types[from]
		if pt != chess.Pawn {
			if pt == chess.King {
				king = from
			}
			for t := chess.Attacks(us, pt, from, own) &^ own; t != 0; {
				add(chess.NewMove(from, t.PopFirst(), chess.NoPieceType))
			}
			continue
		}
		one := chess.Square(int(from) + dir)
		if !own.Has(one) {
			pawn(from, one)
			two := chess.Square(int(one) + dir)
			if from.Rank() == start && !own.Has(two) {
				add(chess.NewMove(from, two, chess.NoPieceType))
			}
		}
		diag := chess.PawnAttacks(us, from) &^ own
		if m.Tries != 0 && (m.TryFrom == 0 || m.TryFrom.Has(from)) {
			for t := diag; t != 0; {
				pawn(from, t.PopFirst())
			}
		} else if m.EnPassant != chess.NoSquare && from.Rank() == fifth && diag.Has(m.EnPassant) {
			add(chess.NewMove(from, m.EnPassant, chess.NoPieceType))
		}
	}
	ks, qs := chess.WhiteKingside, chess.WhiteQueenside
	if us == chess.Black {
		ks, qs = chess.BlackKingside, chess.BlackQueenside
	}
	if m.Castling&(ks|qs) == 0 || king == chess.NoSquare {
		return
	}
	if m.Castling&ks != 0 && own&(chess.Bitboard(3)<<(king+1)) == 0 {
		add(chess.NewMove(king, king+2, chess.NoPieceType))
	}
	if m.Castling&qs != 0 && own&(chess.Bitboard(7)<<(king-3)) == 0 {
		add(chess.NewMove(king, king-2, chess.NoPieceType))
	}
}
