package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// A transcript is the raw record of one connection, both directions, one
// entry per line:
//
//	2026-11-23T18:00:00.123456Z < \x19(0 kriegbot {C}\x19)\r\n
//	2026-11-23T18:00:00.200000Z > e2e4\n
//	2026-11-23T18:00:01.000000Z # closed: EOF
//
// The first field is the UTC time, the second the direction ('<' received
// from the server, '>' sent by us, '#' a note), the rest the bytes escaped so
// that the line is printable ASCII and the bytes can be recovered exactly:
// '\\' and the bytes below 0x20, 0x7f and above are written as \\, \r, \n, \t
// or \xHH. The writer (protocol/iccclient) masks the password before
// anything is written; this file holds the format: AppendTranscriptEntry
// writes a line, TranscriptReader reads them back.

// Transcript directions.
const (
	DirIn   = '<'
	DirOut  = '>'
	DirNote = '#'
)

// transcriptTime is the layout of an entry's time: UTC, microseconds.
const transcriptTime = "2006-01-02T15:04:05.000000Z"

// AppendTranscriptEntry appends e as one transcript line, its data escaped,
// ending in '\n'. The time is written in UTC to the microsecond.
func AppendTranscriptEntry(dst []byte, e TranscriptEntry) []byte {
	dst = e.Time.UTC().AppendFormat(dst, transcriptTime)
	dst = append(dst, ' ', e.Dir, ' ')
	dst = appendEscaped(dst, e.Data)
	return append(dst, '\n')
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends p escaped as in a transcript line.
func appendEscaped(dst, p []byte) []byte {
	for _, c := range p {
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20 || c >= 0x7f:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// unescapeAt reverses appendEscaped for s found at column base+1 of a
// line; errors name the 1-based column of the bad escape.
func unescapeAt(s []byte, base int) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, fmt.Errorf("column %d: lone backslash at end", base+i+1)
		}
		i++
		switch s[i] {
		case '\\':
			out = append(out, '\\')
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'x':
			if i+2 >= len(s) {
				return nil, fmt.Errorf("column %d: short \\x escape", base+i)
			}
			v, err := strconv.ParseUint(string(s[i+1:i+3]), 16, 8)
			if err != nil {
				return nil, fmt.Errorf("column %d: bad \\x escape %q", base+i, s[i-1:i+3])
			}
			out = append(out, byte(v))
			i += 2
		default:
			return nil, fmt.Errorf("column %d: unknown escape \\%c", base+i, s[i])
		}
	}
	return out, nil
}

// TranscriptEntry is one parsed transcript line.
type TranscriptEntry struct {
	Time time.Time
	Dir  byte
	Data []byte
}

// MaxTranscriptLine bounds one transcript line when reading.
const MaxTranscriptLine = 1 << 20

// TranscriptReader reads a transcript entry by entry.
type TranscriptReader struct {
	sc   *bufio.Scanner
	line int
}

// NewTranscriptReader reads from r; lines longer than MaxTranscriptLine are
// an error.
func NewTranscriptReader(r io.Reader) *TranscriptReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxTranscriptLine)
	return &TranscriptReader{sc: sc}
}

// errShortEntry is the error for a line without its three parts.
var errShortEntry = errors.New("want <time> <direction> <data>")

// Next returns the next entry, io.EOF at the end, or an error naming the line.
// Blank lines are skipped.
func (t *TranscriptReader) Next() (TranscriptEntry, error) {
	for t.sc.Scan() {
		t.line++
		b := t.sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		e, err := parseTranscriptLine(b)
		if err != nil {
			return TranscriptEntry{}, fmt.Errorf("transcript line %d: %w", t.line, err)
		}
		return e, nil
	}
	if err := t.sc.Err(); err != nil {
		return TranscriptEntry{}, fmt.Errorf("transcript line %d: %w", t.line+1, err)
	}
	return TranscriptEntry{}, io.EOF
}

func parseTranscriptLine(b []byte) (TranscriptEntry, error) {
	sp := bytes.IndexByte(b, ' ')
	if sp < 0 || sp+2 > len(b) || (sp+2 < len(b) && b[sp+2] != ' ') {
		return TranscriptEntry{}, errShortEntry
	}
	ts, err := time.Parse(time.RFC3339Nano, string(b[:sp]))
	if err != nil {
		return TranscriptEntry{}, fmt.Errorf("bad time %q", b[:sp])
	}
	dir := b[sp+1]
	if dir != DirIn && dir != DirOut && dir != DirNote {
		return TranscriptEntry{}, fmt.Errorf("bad direction %q (want <, > or #)", dir)
	}
	var data []byte
	if sp+3 <= len(b) {
		data, err = unescapeAt(b[sp+3:], sp+3)
		if err != nil {
			return TranscriptEntry{}, err
		}
	}
	return TranscriptEntry{Time: ts, Dir: dir, Data: data}, nil
}
