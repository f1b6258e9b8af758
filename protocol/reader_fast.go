package protocol

import "bytes"

// fastText appends a run of ordinary text bytes.
func (r *Reader) fastText() {
	i := r.pos
	room := r.maxLine() - len(r.line)
	for i < len(r.in) && !special[r.in[i]] && i-r.pos < room {
		i++
	}
	if i > r.pos {
		r.line = append(r.line, r.in[r.pos:i]...)
		r.pos = i
		r.lastEOL = 0
	}
}

// Byte classes of the datagram fast path: a run of field content ends at
// one of these bytes (the markers and control bytes in special, minus the
// line ends a quoted field may hold).
var (
	endBare  = [256]bool{esc: true, bel: true, ctrlZ: true, ctrlO: true, ' ': true, '\t': true, '\r': true, '\n': true}
	endBrace = [256]bool{esc: true, bel: true, ctrlZ: true, ctrlO: true, '}': true}
	endQuote = [256]bool{esc: true, bel: true, ctrlZ: true, ctrlO: true}
)

// fastDG consumes ordinary datagram bytes (anything but ^Y, BEL, ^Z and ^O)
// a run at a time, with the reader's state in locals; it behaves exactly as
// dgByte called on each byte. It reports whether r.ev holds an event (an
// over-long datagram or too many fields).
func (r *Reader) fastDG() bool {
	if r.dgs == dgBetween && len(r.offs) == 0 && r.wholeDG() {
		return false
	}
	in, i := r.in, r.pos
	dg, offs, st := r.dg, r.offs, r.dgs
	limit, maxFields := r.maxDatagram(), r.maxFields()
	ev := false
	for i < len(in) {
		b := in[i]
		if special[b] && !isEOL(b) {
			break
		}
		if len(dg) >= limit {
			i++
			r.st = sSkipDG
			r.errorf("datagram too long")
			ev = true
			break
		}
		var end *[256]bool
		switch st {
		case dgBetween:
			if isBlank(b) {
				i++
				continue
			}
			if len(offs)/2 > maxFields {
				i++
				r.st = sSkipDG
				r.errorf("too many datagram fields")
				ev = true
				break
			}
			offs = append(offs, int32(len(dg)))
			if b == '{' {
				st = dgBrace
				i++
				continue
			}
			st, end = dgBare, &endBare
		case dgBare:
			if isBlank(b) {
				offs = append(offs, int32(len(dg)))
				st = dgBetween
				i++
				continue
			}
			end = &endBare
		case dgBrace:
			if b == '}' {
				offs = append(offs, int32(len(dg)))
				st = dgBetween
				i++
				continue
			}
			end = &endBrace
		default: // dgQuote
			end = &endQuote
		}
		if ev {
			break
		}
		j := i + 1
		for j < len(in) && !end[in[j]] {
			j++
		}
		if room := limit - len(dg); j-i > room {
			j = i + room // the byte at j will find the datagram full
		}
		dg = append(dg, in[i:j]...)
		i = j
	}
	if i > r.pos {
		r.lastEOL = 0
	}
	r.pos, r.dg, r.offs, r.dgs = i, dg, offs, st
	return ev
}

// wholeDG is the common case of a fresh datagram whose closing ^Y) is
// already in the buffer, holding only bare and {…} fields: one copy of the
// body and one pass over it, leaving r.pos at the closing ^Y. Anything
// unusual (a quoted field, a control byte, a bound that might be reached)
// returns false with nothing changed, and the byte-wise path takes over.
func (r *Reader) wholeDG() bool {
	rest := r.in[r.pos:]
	k := bytes.IndexByte(rest, esc)
	if k < 0 || k+1 >= len(rest) || rest[k+1] != ')' || k >= r.maxDatagram() {
		return false
	}
	body := rest[:k]
	dg := append(r.dg[:0], body...)
	offs := r.offs[:0]
	maxFields := r.maxFields()
	for j := 0; j < k; {
		c := body[j]
		if isBlank(c) {
			j++
			continue
		}
		if endQuote[c] || len(offs)/2 > maxFields {
			return false
		}
		start := j
		if c == '{' {
			start++
			j = start
			for j < k && !endBrace[body[j]] {
				j++
			}
			if j == k || body[j] != '}' {
				return false
			}
			offs = append(offs, int32(start), int32(j))
			j++
			continue
		}
		for j < k && !endBare[body[j]] {
			j++
		}
		if j < k && !isBlank(body[j]) {
			return false
		}
		offs = append(offs, int32(start), int32(j))
	}
	r.dg, r.offs = dg, offs
	if k > 0 {
		r.lastEOL = 0
	}
	r.pos += k
	return true
}
