package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError reports why a FEN string was refused.
type FENError struct {
	FEN    string
	Field  string // "placement", "side", "castling", "en passant", "halfmove", "fullmove", "position"
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("chess: fen %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// StartPosition returns the standard initial position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // the constant above is valid; a failure here is a programming error
	}
	return p
}

// ParseFEN reads a position in Forsyth-Edwards Notation. The move counters may be
// omitted (they default to 0 and 1). It refuses positions the move generator
// cannot handle: not exactly one king per side, pawns on the first or last rank,
// the side not to move in check, castling rights without the king and rook on
// their squares, and an en passant square with no pawn that could have just
// made the double step.
func ParseFEN(fen string) (Position, error) {
	var p Position
	bad := func(field, format string, args ...any) (Position, error) {
		return Position{}, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if len(fen) > 256 {
		return bad("position", "longer than 256 bytes")
	}
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return bad("position", "want 6 fields (or 4 without move counters), got %d", len(fields))
	}
	p.ep = NoSquare

	rank, file := 7, 0
	for i := 0; i < len(fields[0]); i++ {
		c := fields[0][i]
		switch {
		case c == '/':
			if file != 8 {
				return bad("placement", "rank %d has %d squares, want 8", rank+1, file)
			}
			if rank == 0 {
				return bad("placement", "more than 8 ranks")
			}
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
			if file > 8 {
				return bad("placement", "rank %d has more than 8 squares", rank+1)
			}
		default:
			idx := strings.IndexByte("pnbrqk", c|0x20)
			if idx < 0 {
				return bad("placement", "unexpected character %q", c)
			}
			pt := PieceType(idx + 1)
			if file >= 8 {
				return bad("placement", "rank %d has more than 8 squares", rank+1)
			}
			col := White
			if c >= 'a' {
				col = Black
			}
			p.put(MakePiece(col, pt), NewSquare(file, rank))
			file++
		}
	}
	if rank != 0 || file != 8 {
		return bad("placement", "want 8 ranks of 8 squares")
	}

	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return bad("side", "want w or b, got %q", fields[1])
	}

	if fields[2] != "-" {
		for i := 0; i < len(fields[2]); i++ {
			var r CastleRights
			switch fields[2][i] {
			case 'K':
				r = WhiteKingside
			case 'Q':
				r = WhiteQueenside
			case 'k':
				r = BlackKingside
			case 'q':
				r = BlackQueenside
			default:
				return bad("castling", "unexpected character %q", fields[2][i])
			}
			if p.castle&r != 0 {
				return bad("castling", "right %q given twice", fields[2][i])
			}
			p.castle |= r
		}
	}

	if fields[3] != "-" {
		s, ok := ParseSquare(fields[3])
		if !ok {
			return bad("en passant", "bad square %q", fields[3])
		}
		p.ep = s
	}

	p.halfmove, p.fullmove = 0, 1
	if len(fields) == 6 {
		hm, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return bad("halfmove", "want a number up to 65535, got %q", fields[4])
		}
		fm, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil || fm == 0 {
			return bad("fullmove", "want a number from 1 to 65535, got %q", fields[5])
		}
		p.halfmove, p.fullmove = uint16(hm), uint16(fm)
	}

	if f := p.check(); f.kind != noFlaw {
		return bad("position", "%s", f)
	}
	p.hash = p.computeHash()
	return p, nil
}

// flaw is why a position cannot be played (kind noFlaw: it can), kept as
// data so that FromBoard can refuse a position without formatting a message.
type flaw struct {
	kind  flawKind
	color Color
	kings int
	// a and b are the squares named: the castling king's and rook's, or
	// the en passant square (a).
	a, b Square
}

type flawKind uint8

const (
	noFlaw flawKind = iota
	flawKings
	flawPawnRank
	flawCheck
	flawCastling
	flawEnPassant
)

// String says what the flaw is, for ParseFEN's error.
func (f flaw) String() string {
	switch f.kind {
	case flawKings:
		return fmt.Sprintf("%s has %d kings, want 1", f.color, f.kings)
	case flawPawnRank:
		return "pawn on the first or last rank"
	case flawCheck:
		return "the side not to move is in check"
	case flawCastling:
		return fmt.Sprintf("castling right needs the %s king on %s and rook on %s", f.color, f.a, f.b)
	case flawEnPassant:
		return fmt.Sprintf("en passant square %s does not follow a double pawn step", f.a)
	}
	return ""
}

// check finds the first reason the position cannot be played.
func (p *Position) check() flaw {
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return flaw{kind: flawKings, color: c, kings: n}
		}
	}
	if p.byType[Pawn]&(Rank1|Rank8) != 0 {
		return flaw{kind: flawPawnRank}
	}
	if p.attackedWith(p.KingSquare(p.side.Other()), p.side, p.byType[0]) {
		return flaw{kind: flawCheck}
	}
	for _, h := range castleHomes() {
		if p.castle&h.right != 0 && !h.at(&p.board) {
			return flaw{kind: flawCastling, color: h.color, a: h.king, b: h.rook}
		}
	}
	if p.ep != NoSquare {
		// The side to move captures; the opponent's pawn just stepped over ep.
		wantRank, pushed, origin := 5, p.ep-8, p.ep+8
		if p.side == Black {
			wantRank, pushed, origin = 2, p.ep+8, p.ep-8
		}
		if p.ep.Rank() != wantRank || p.board[pushed] != MakePiece(p.side.Other(), Pawn) ||
			p.board[p.ep] != NoPiece || p.board[origin] != NoPiece {
			return flaw{kind: flawEnPassant, a: p.ep}
		}
	}
	return flaw{}
}

// castleHome is where a castling right needs its king and rook.
type castleHome struct {
	right      CastleRights
	king, rook Square
	color      Color
}

func castleHomes() [4]castleHome {
	return [4]castleHome{
		{WhiteKingside, E1, H1, White}, {WhiteQueenside, E1, A1, White},
		{BlackKingside, E8, H8, Black}, {BlackQueenside, E8, A8, Black},
	}
}

// at reports whether the right's king and rook stand at home on board.
func (h castleHome) at(board *[64]Piece) bool {
	return board[h.king] == MakePiece(h.color, King) && board[h.rook] == MakePiece(h.color, Rook)
}

// HomeRights are the castling rights whose king and rook stand at home on
// board: the most a position with these men may hold.
func HomeRights(board *[64]Piece) CastleRights {
	var out CastleRights
	for _, h := range castleHomes() {
		if h.at(board) {
			out |= h.right
		}
	}
	return out
}

// FromBoard makes the position with board's men, side to move and castling
// rights (no en passant square, counters 0 and 1), as ParseFEN would from its
// FEN, without allocating: the search draws boards from its belief for every
// search (the root's mate counts). It reports false for a position ParseFEN
// refuses.
func FromBoard(board *[64]Piece, side Color, castle CastleRights) (Position, bool) {
	var p Position
	for sq, pc := range board {
		if pc != NoPiece {
			p.put(pc, Square(sq))
		}
	}
	p.side, p.castle, p.ep = side, castle, NoSquare
	p.halfmove, p.fullmove = 0, 1
	if p.check().kind != noFlaw {
		return Position{}, false
	}
	p.hash = p.computeHash()
	return p, true
}

// FEN returns the position in Forsyth-Edwards Notation, with the en passant
// square after every double pawn step (the PGN convention).
func (p *Position) FEN() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte('0' + byte(empty))
				empty = 0
			}
			sb.WriteByte(pc.Letter())
		}
		if empty > 0 {
			sb.WriteByte('0' + byte(empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteByte(p.side.Letter())
	sb.WriteByte(' ')
	if p.castle == 0 {
		sb.WriteByte('-')
	}
	for i, c := range "KQkq" {
		if p.castle>>i&1 != 0 {
			sb.WriteRune(c)
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(p.ep.String())
	fmt.Fprintf(&sb, " %d %d", p.halfmove, p.fullmove)
	return sb.String()
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
