package protocol

// step processes one byte. It reports whether r.ev holds an event to
// return and whether the byte was consumed (if not, it is processed again
// on the next call, in the new state).
func (r *Reader) step(b byte) (emit, consume bool) {
	if r.esc {
		r.esc = false
		return r.marker(b)
	}
	switch b {
	case esc:
		r.esc = true
		r.lastEOL = 0
		return false, true
	case bel:
		return false, true
	case ctrlZ, ctrlO:
		if r.st == sText && r.flushText() {
			return true, false
		}
		r.st = sText
		r.depth = 0
		r.lastEOL = 0
		r.line = r.line[:0]
		r.ev = Event{Kind: Overflow}
		return true, true
	}
	switch r.st {
	case sText:
		if isEOL(b) {
			if r.lastEOL != 0 && r.lastEOL != b {
				r.lastEOL = 0
				return false, true
			}
			r.lastEOL = b
			return r.flushText(), true
		}
		r.lastEOL = 0
		if len(r.line) >= r.maxLine() {
			r.line = r.line[:0]
			r.st = sSkipLine
			r.errorf("text line too long")
			return true, true
		}
		r.line = append(r.line, b)
		return false, true
	case sSkipLine:
		if isEOL(b) {
			r.st = sText
			r.lastEOL = b
		} else {
			r.lastEOL = 0
		}
		return false, true
	case sHeader:
		if isEOL(b) {
			r.lastEOL = b
			r.st = sText
			return r.finishHeader(), true
		}
		r.lastEOL = 0
		if len(r.line) >= r.maxLine() {
			r.line = r.line[:0]
			r.st = sSkipLine
			r.errorf("unit header too long")
			return true, true
		}
		r.line = append(r.line, b)
		return false, true
	case sDG:
		r.lastEOL = 0
		return r.dgByte(b), true
	default: // sSkipDG
		r.lastEOL = 0
		return false, true
	}
}

// marker handles the byte after a ^Y.
func (r *Reader) marker(b byte) (emit, consume bool) {
	switch r.st {
	case sText, sSkipLine:
		switch b {
		case '(', '[', ']':
			if r.st == sText && r.flushText() {
				r.esc = true
				return true, false
			}
			r.st = sText
			r.line = r.line[:0]
			switch b {
			case '(':
				r.st = sDG
				r.dgs = dgBetween
				r.dg = r.dg[:0]
				r.offs = r.offs[:0]
				return false, true
			case '[':
				r.st = sHeader
				return false, true
			default:
				if r.depth > 0 {
					r.depth--
					if r.depth >= r.maxDepth() {
						return false, true // closes an over-deep unit
					}
				}
				r.ev = Event{Kind: UnitEnd}
				return true, true
			}
		case ')':
			r.errorf("stray ^Y) outside datagram")
			return true, true
		case '{', '}':
			return false, true
		}
		return false, false
	case sHeader:
		// Any ^Y ends the header; the marker is handled in text state.
		r.esc = true
		r.st = sText
		return r.finishHeader(), false
	case sDG:
		switch b {
		case ')':
			return r.finishDG(), true
		case '{':
			if r.dgs == dgBetween || r.dgs == dgBare {
				if r.dgs == dgBare {
					r.endField()
				}
				if !r.startField() {
					return true, true
				}
				r.dgs = dgQuote
				return false, true
			}
		case '}':
			if r.dgs == dgQuote {
				r.endField()
				r.dgs = dgBetween
				return false, true
			}
		case '(', '[', ']':
			r.st = sText
			r.esc = true
			r.errorf("unterminated datagram")
			return true, false
		}
		return false, false
	default: // sSkipDG
		switch b {
		case ')':
			r.st = sText
			return false, true
		case '(', '[', ']':
			r.st = sText
			r.esc = true
			return false, false
		}
		return false, true
	}
}

// startField opens a field; on too many fields it emits an Error and
// skips the datagram, returning false.
func (r *Reader) startField() bool {
	if len(r.offs)/2 > r.maxFields() {
		r.st = sSkipDG
		r.errorf("too many datagram fields")
		return false
	}
	r.offs = append(r.offs, int32(len(r.dg)))
	return true
}

func (r *Reader) endField() { r.offs = append(r.offs, int32(len(r.dg))) }

// dgByte handles an ordinary byte inside a datagram.
func (r *Reader) dgByte(b byte) bool {
	if len(r.dg) >= r.maxDatagram() {
		r.st = sSkipDG
		r.errorf("datagram too long")
		return true
	}
	switch r.dgs {
	case dgBetween:
		if isBlank(b) {
			return false
		}
		if !r.startField() {
			return true
		}
		if b == '{' {
			r.dgs = dgBrace
			return false
		}
		r.dgs = dgBare
	case dgBare:
		if isBlank(b) {
			r.endField()
			r.dgs = dgBetween
			return false
		}
	case dgBrace:
		if b == '}' {
			r.endField()
			r.dgs = dgBetween
			return false
		}
	}
	r.dg = append(r.dg, b)
	return false
}

func (r *Reader) finishDG() bool {
	r.st = sText
	if r.dgs != dgBetween {
		r.endField()
		r.dgs = dgBetween
	}
	if len(r.offs) < 2 {
		r.errorf("empty datagram")
		return true
	}
	n, ok := parseNumber(r.dg[r.offs[0]:r.offs[1]], 9)
	if !ok {
		r.errorf("bad datagram number")
		return true
	}
	r.fields = r.fields[:0]
	for i := 2; i+1 < len(r.offs); i += 2 {
		r.fields = append(r.fields, r.dg[r.offs[i]:r.offs[i+1]:r.offs[i+1]])
	}
	r.ev = Event{Kind: Datagram, DG: n, Fields: r.fields}
	return true
}

// finishHeader parses the unit header in r.line and sets r.ev.
func (r *Reader) finishHeader() bool {
	h := r.line
	r.clearLine = true
	var tok [3][]byte
	n := 0
	for i := 0; i < len(h) && n < 3; {
		for i < len(h) && isBlank(h[i]) {
			i++
		}
		j := i
		for j < len(h) && !isBlank(h[j]) {
			j++
		}
		if j > i {
			tok[n] = h[i:j:j]
			n++
		}
		i = j
	}
	cmd, ok := parseNumber(tok[0], 9)
	if n < 2 || !ok {
		r.errorf("bad unit header")
		return true
	}
	r.depth++
	if r.depth > r.maxDepth() {
		r.errorf("units nested too deep")
		return true
	}
	r.ev = Event{Kind: UnitBegin, Command: cmd, Issuer: tok[1], Tag: tok[2]}
	return true
}
