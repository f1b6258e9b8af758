package telnet

// Telnet bytes the reader strips.
const (
	iac  = 255
	sb   = 250
	se   = 240
	will = 251
	dont = 254
)

// Where the reader is in a telnet command.
const (
	inData   = iota
	afterIAC // the byte after IAC
	option   // the option byte of WILL, WONT, DO, DONT
	inSB     // inside a subnegotiation
	iacInSB  // IAC inside a subnegotiation
)

// LineReader assembles lines of at most max bytes. Its zero value is not
// ready: make one with NewLineReader. Bytes may come in any pieces: the
// lines are the same however the input is cut.
type LineReader struct {
	max      int
	line     []byte
	skipping bool // discarding the rest of an over-long line
	state    int
	lastEOL  byte
}

// NewLineReader returns a reader of lines of at most max bytes.
func NewLineReader(max int) *LineReader {
	return &LineReader{max: max, line: make([]byte, 0, 256)}
}

// Feed reads buf. It calls line with each whole line (the slice is
// reused once line returns) and tooLong once for each line over max,
// which is dropped. When line returns false Feed stops at once, leaving
// the rest of buf unread, and returns false.
func (r *LineReader) Feed(buf []byte, line func([]byte) bool, tooLong func()) bool {
	for _, b := range buf {
		switch r.state {
		case afterIAC:
			switch {
			case b == iac:
				r.state = inData // IAC IAC is a data 0xFF; chat cleaning drops it
				continue
			case b >= will && b <= dont:
				r.state = option
			case b == sb:
				r.state = inSB
			default:
				r.state = inData
			}
			continue
		case option:
			r.state = inData
			continue
		case inSB:
			if b == iac {
				r.state = iacInSB
			}
			continue
		case iacInSB:
			if b == se {
				r.state = inData
			} else {
				r.state = inSB
			}
			continue
		}
		if b == iac {
			r.state = afterIAC
			continue
		}
		if b == '\r' || b == '\n' {
			if (r.lastEOL == '\r' && b == '\n' || r.lastEOL == '\n' && b == '\r') && len(r.line) == 0 && !r.skipping {
				r.lastEOL = 0 // second half of a CRLF or LFCR pair
				continue
			}
			r.lastEOL = b
			if r.skipping {
				r.skipping = false
				r.line = r.line[:0]
				continue
			}
			if !line(r.line) {
				return false
			}
			r.line = r.line[:0]
			continue
		}
		r.lastEOL = 0
		if b == 0 || r.skipping {
			continue
		}
		if len(r.line) >= r.max {
			r.skipping = true
			r.line = r.line[:0]
			tooLong()
			continue
		}
		r.line = append(r.line, b)
	}
	return true
}
