package ksclient

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"kriegbot/protocol/ksapi"
)

// Server-sent events (API.md §7): frames of "event: <type>" and
// "data: <compact JSON>" lines ended by a blank line; ": keepalive"
// comments after 15 s of quiet; no id or retry (nothing to resume).

// Bounds on the event stream.
const (
	// MaxEventLine is the longest line read; a longer one ends the stream
	// with ErrLineTooLong (the site's lines are about 200 bytes).
	MaxEventLine = 16 << 10
	// maxEventData bounds one event's data.
	maxEventData = ksapi.MaxEventData
)

// ErrLineTooLong ends a stream whose line exceeds MaxEventLine.
var ErrLineTooLong = errors.New("ksclient: event stream line too long")

// SSEEvent is one dispatched event, or a comment (a keepalive).
type SSEEvent = ksapi.Event

// SSEReader reads events from a stream. It is not safe for concurrent use.
type SSEReader struct {
	r *bufio.Reader
	p ksapi.EventParser
}

// NewSSEReader reads events from r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 4096)}
}

// Next returns the next event or comment. At the end of the stream it
// returns io.EOF (an event not ended by a blank line is dropped, as the
// standard says), or the read error.
func (s *SSEReader) Next() (SSEEvent, error) {
	for {
		line, err := s.line()
		if err != nil {
			return SSEEvent{}, err
		}
		ev, ok, err := s.p.Line(line)
		if err != nil {
			return SSEEvent{}, ErrLineTooLong
		}
		if ok {
			return ev, nil
		}
	}
}

// line reads one line without its end (LF, CRLF or a lone CR before LF is
// not expected from the site; a trailing CR is dropped).
func (s *SSEReader) line() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxEventLine+2 {
			return nil, ErrLineTooLong
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(buf) > 0 {
				return nil, io.ErrUnexpectedEOF // a torn last line
			}
			return nil, err
		}
		buf = buf[:len(buf)-1]
		return bytes.TrimSuffix(buf, []byte("\r")), nil
	}
}

// ParseGameEvent decodes an event's data; an event without data gives the
// zero GameEvent and no error (it is still a ping).
func ParseGameEvent(data []byte) (GameEvent, error) {
	var g GameEvent
	if len(bytes.TrimSpace(data)) == 0 {
		return g, nil
	}
	if err := decodeInto(data, &g); err != nil {
		return GameEvent{}, err
	}
	return g, nil
}
