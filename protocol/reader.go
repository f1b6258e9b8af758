package protocol

import (
	"bytes"
	"strconv"
	"strings"
)

// EventKind tells what an Event holds.
type EventKind uint8

// Event kinds. The zero EventKind is not a valid event.
const (
	// Text is one piece of level-0 text without its line ending.
	Text EventKind = iota + 1
	// Datagram is a level-2 datagram: DG number and Fields.
	Datagram
	// UnitBegin is a level-1 header ^Y[<Command> <Issuer>[ <Tag>].
	UnitBegin
	// UnitEnd is a level-1 ^Y].
	UnitEnd
	// Overflow reports a ^Z (0x1A) or ^O (0x0F): the server's output
	// buffer overflowed; nesting was reset.
	Overflow
	// Error reports a bound exceeded or malformed input; Err says which.
	Error
)

var kindNames = [...]string{"Invalid", "Text", "Datagram", "UnitBegin", "UnitEnd", "Overflow", "Error"}

// String names the kind, for Event.String and %v.
func (k EventKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one token of the ICC stream.
//
// The byte slices (Text, Fields, Issuer, Tag) alias buffers inside the
// Reader and are valid only until the next call to Next or Flush; copy
// them to keep them.
type Event struct {
	Kind EventKind
	// Text is the text of a Text event.
	Text []byte
	// DG is the datagram number and Fields the fields after it, with
	// {} and ^Y{^Y} quotes removed (Datagram events).
	DG     int
	Fields [][]byte
	// Command, Issuer and Tag come from a UnitBegin header; Tag is nil
	// when the header carries none.
	Command int
	Issuer  []byte
	Tag     []byte
	// Err describes an Error event.
	Err string
}

// String renders the event for tests and logs, with control bytes and
// non-ASCII bytes escaped. No production code calls it (deadcode says so);
// it is kept because %v of an Event in a test failure or a debugging log
// needs it, and the golden event tables of reader_test.go are written in
// its form.
func (e Event) String() string {
	var sb strings.Builder
	sb.WriteString(e.Kind.String())
	switch e.Kind {
	case Text:
		sb.WriteByte(' ')
		sb.WriteString(quote(e.Text))
	case Datagram:
		sb.WriteByte(' ')
		sb.WriteString(strconv.Itoa(e.DG))
		sb.WriteString(" [")
		for i, f := range e.Fields {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(quote(f))
		}
		sb.WriteByte(']')
	case UnitBegin:
		sb.WriteByte(' ')
		sb.WriteString(strconv.Itoa(e.Command))
		sb.WriteByte(' ')
		sb.WriteString(quote(e.Issuer))
		if e.Tag != nil {
			sb.WriteString(" tag=")
			sb.WriteString(quote(e.Tag))
		}
	case Error:
		sb.WriteByte(' ')
		sb.WriteString(strconv.Quote(e.Err))
	}
	return sb.String()
}

func quote(b []byte) string { return strconv.QuoteToASCII(string(b)) }

// Default bounds, used when the Reader's fields are zero.
const (
	DefaultMaxLine     = 64 << 10
	DefaultMaxDatagram = 64 << 10
	DefaultMaxFields   = 256
	DefaultMaxDepth    = 8
)

const (
	esc      = 0x19
	bel      = 0x07
	ctrlZ    = 0x1A
	ctrlO    = 0x0F
	promptSp = "aics% "
)

type state uint8

const (
	sText state = iota
	sHeader
	sDG
	sSkipLine
	sSkipDG
)

type dgState uint8

const (
	dgBetween dgState = iota
	dgBare
	dgBrace
	dgQuote
)

// special marks bytes that end the fast text path.
var special = [256]bool{esc: true, '\r': true, '\n': true, bel: true, ctrlZ: true, ctrlO: true}

// Reader tokenizes an ICC byte stream. The zero value is ready to use,
// with the default bounds; set the Max fields before the first Feed to
// change them.
//
// Use: Feed bytes, then call Next until it returns false, then Feed more.
// Feed keeps unconsumed input, so memory grows if the caller Feeds without
// draining.
type Reader struct {
	MaxLine     int // longest text piece or unit header, in bytes
	MaxDatagram int // longest datagram body, in bytes
	MaxFields   int // most fields per datagram, after the DG number
	MaxDepth    int // deepest level-1 unit nesting

	in  []byte
	pos int

	st      state
	dgs     dgState
	esc     bool
	lastEOL byte
	flush   bool

	line      []byte
	clearLine bool
	dg        []byte
	offs      []int32
	fields    [][]byte
	depth     int

	ev Event
}

func (r *Reader) maxLine() int {
	if r.MaxLine > 0 {
		return r.MaxLine
	}
	return DefaultMaxLine
}

func (r *Reader) maxDatagram() int {
	if r.MaxDatagram > 0 {
		return r.MaxDatagram
	}
	return DefaultMaxDatagram
}

func (r *Reader) maxFields() int {
	if r.MaxFields > 0 {
		return r.MaxFields
	}
	return DefaultMaxFields
}

func (r *Reader) maxDepth() int {
	if r.MaxDepth > 0 {
		return r.MaxDepth
	}
	return DefaultMaxDepth
}

// Feed appends p to the input. p is copied and may be reused.
func (r *Reader) Feed(p []byte) {
	if r.pos > 0 {
		n := copy(r.in, r.in[r.pos:])
		r.in = r.in[:n]
		r.pos = 0
	}
	r.in = append(r.in, p...)
}

// Flush marks the end of the stream: once the input is consumed, Next
// reports a pending partial text line (or an Error for an unterminated
// datagram or unit header) and the reader returns to its initial framing
// state, so it can be fed a new stream (unit nesting depth is kept).
func (r *Reader) Flush() { r.flush = true }

// Next returns the next event, or false when more input is needed.
// The previous event's slices become invalid.
func (r *Reader) Next() (Event, bool) {
	if !r.advance() {
		return Event{}, false
	}
	return r.ev, true
}

// NextRef is Next without the copy: the event it points to is the
// Reader's own, valid (like its slices) only until the next call. Hot loops
// that handle every event in place use it.
func (r *Reader) NextRef() (*Event, bool) {
	if !r.advance() {
		return nil, false
	}
	return &r.ev, true
}

// advance moves to the next event, leaving it in r.ev; false means more
// input is needed.
func (r *Reader) advance() bool {
	if r.clearLine {
		r.line = r.line[:0]
		r.clearLine = false
	}
	for r.pos < len(r.in) {
		if !r.esc {
			switch r.st {
			case sText, sHeader:
				r.fastText()
			case sDG:
				if r.fastDG() {
					return true
				}
			}
			if r.pos >= len(r.in) {
				break
			}
		}
		if r.st == sText && !r.esc && len(r.line) == 0 && r.pos+1 < len(r.in) &&
			r.in[r.pos] == esc && r.in[r.pos+1] == '(' {
			// A datagram at a line start, the commonest thing on the wire:
			// open it here, and when it is whole in the buffer, close it too,
			// without the byte-wise marker steps.
			r.pos += 2
			r.st, r.dgs, r.lastEOL = sDG, dgBetween, 0
			r.dg, r.offs = r.dg[:0], r.offs[:0]
			if r.wholeDG() {
				r.pos += 2 // the closing ^Y)
				r.finishDG()
				return true
			}
			continue
		}
		emit, consume := r.step(r.in[r.pos])
		if consume {
			r.pos++
		}
		if emit {
			return true
		}
	}
	r.in = r.in[:0]
	r.pos = 0
	if r.flush {
		r.flush = false
		r.esc = false
		r.lastEOL = 0
		switch r.st {
		case sText:
			if r.flushText() {
				return true
			}
		case sHeader:
			r.st = sText
			r.line = r.line[:0]
			r.errorf("unterminated unit header at end of input")
			return true
		case sDG:
			r.st = sText
			r.errorf("unterminated datagram at end of input")
			return true
		default:
			r.st = sText
		}
	}
	return false
}

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

func (r *Reader) errorf(msg string) Event {
	r.ev = Event{Kind: Error, Err: msg}
	return r.ev
}

// flushText emits the pending text piece, if not empty after prompt
// stripping. It reports whether r.ev holds a Text event.
func (r *Reader) flushText() bool {
	p := r.line
	for len(p) >= len(promptSp) && string(p[:len(promptSp)]) == promptSp {
		p = p[len(promptSp):]
	}
	if string(p) == "aics%" {
		p = p[:0]
	}
	if len(p) == 0 {
		r.line = r.line[:0]
		return false
	}
	r.ev = Event{Kind: Text, Text: p}
	r.clearLine = true
	return true
}

func isEOL(b byte) bool { return b == '\r' || b == '\n' }

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

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
