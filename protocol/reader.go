package protocol

// The Reader's code is in three files: this one holds its type, bounds and
// main loop (advance); reader_fast.go the paths that consume a run of
// ordinary bytes at once; reader_step.go the byte-at-a-time state machine
// that handles everything else (markers, quoting, bounds, line ends).

// Default bounds, used when the Reader's fields are zero.
const (
	DefaultMaxLine     = 64 << 10
	DefaultMaxDatagram = 64 << 10
	// DefaultMaxFields: a move list (DG 25) has one field per ply after
	// its 8 header fields, and a wild 16 game may run to hundreds of
	// moves; MaxDatagram still bounds the memory.
	DefaultMaxFields = 4096
	DefaultMaxDepth  = 8
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
