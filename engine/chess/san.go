package chess

import "fmt"

// SAN returns m, which must be legal in p, in Standard Algebraic Notation with
// the check (+) or mate (#) suffix, e.g. "Nbd2", "exd6", "e8=Q+", "O-O-O".
func (p *Position) SAN(m Move) string {
	var buf [12]byte
	return string(p.AppendSAN(buf[:0], m))
}

// AppendSAN appends the SAN of legal move m to dst.
func (p *Position) AppendSAN(dst []byte, m Move) []byte {
	from, to := m.From(), m.To()
	pt := p.board[from].Type()
	capture := p.IsCapture(m)
	switch {
	case pt == King && to == from+2:
		dst = append(dst, "O-O"...)
	case pt == King && to+2 == from:
		dst = append(dst, "O-O-O"...)
	case pt == Pawn:
		if capture {
			dst = append(dst, 'a'+byte(from.File()), 'x')
		}
		dst = append(dst, 'a'+byte(to.File()), '1'+byte(to.Rank()))
		if pr := m.Promotion(); pr != NoPieceType {
			dst = append(dst, '=', pr.Letter()-('a'-'A'))
		}
	default:
		dst = append(dst, pt.Letter()-('a'-'A'))
		// Disambiguate among other men of the same type that can reach to.
		var l MoveList
		p.generate(&l, p.Pieces(p.side, pt)&^from.Bit())
		sameFile, sameRank, others := false, false, false
		for _, o := range l.Moves[:l.N] {
			if o.To() != to {
				continue
			}
			others = true
			sameFile = sameFile || o.From().File() == from.File()
			sameRank = sameRank || o.From().Rank() == from.Rank()
		}
		if others {
			switch {
			case !sameFile:
				dst = append(dst, 'a'+byte(from.File()))
			case !sameRank:
				dst = append(dst, '1'+byte(from.Rank()))
			default:
				dst = append(dst, 'a'+byte(from.File()), '1'+byte(from.Rank()))
			}
		}
		if capture {
			dst = append(dst, 'x')
		}
		dst = append(dst, 'a'+byte(to.File()), '1'+byte(to.Rank()))
	}
	child := *p
	child.Make(m)
	if child.InCheck() {
		if child.HasLegalMove() {
			dst = append(dst, '+')
		} else {
			dst = append(dst, '#')
		}
	}
	return dst
}

// ParseSAN finds the legal move of p written in SAN (as in PGN movetext). It
// accepts the usual variations: check marks and annotations are ignored,
// "0-0" is castling, and the "=" before a promotion piece is optional.
func (p *Position) ParseSAN(s string) (Move, error) {
	orig := s
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#' || s[len(s)-1] == '!' || s[len(s)-1] == '?') {
		s = s[:len(s)-1]
	}
	var l MoveList
	p.GenerateLegal(&l)
	var buf [12]byte
	var found Move
	n := 0
	for _, m := range l.Moves[:l.N] {
		san := p.AppendSAN(buf[:0], m)
		for len(san) > 0 && (san[len(san)-1] == '+' || san[len(san)-1] == '#') {
			san = san[:len(san)-1]
		}
		if sanEqual(string(san), s) {
			found = m
			n++
		}
	}
	switch n {
	case 1:
		return found, nil
	case 0:
		return NullMove, fmt.Errorf("chess: san %q: no legal move matches in %s", orig, p.FEN())
	}
	return NullMove, fmt.Errorf("chess: san %q: ambiguous in %s", orig, p.FEN())
}

// sanEqual compares canonical SAN with a written form, tolerating "0-0" and a
// missing "=" before the promotion piece.
func sanEqual(canon, written string) bool {
	if canon == written {
		return true
	}
	switch written {
	case "0-0":
		return canon == "O-O"
	case "0-0-0":
		return canon == "O-O-O"
	}
	if n := len(canon); n >= 2 && canon[n-2] == '=' {
		return canon[:n-2]+canon[n-1:] == written
	}
	return false
}
