package ksapi

import (
	"bytes"
	"errors"
)

// Server-sent events (docs/kriegspiel-org-api.md §7): frames of "event: <type>" and
// "data: <compact JSON>" lines ended by a blank line; ": keepalive"
// comments after 15 s of quiet; no id or retry (nothing to resume).

// Event types of a game's stream.
const (
	EventConnected   = "connected"
	EventGameChanged = "game_changed"
	EventShutdown    = "shutdown"
	// EventMessage is the type of an event that names none.
	EventMessage = "message"
)

// Keepalive is the comment the site sends after 15 s of quiet.
const Keepalive = "keepalive"

// MaxEventData bounds one event's data as parsed.
const MaxEventData = 64 << 10

// ErrEventTooLong is an event whose data exceeds MaxEventData.
var ErrEventTooLong = errors.New("ksapi: event data over 64 kB")

// Event is one dispatched event; Comment is set for a comment line (a
// keepalive), which carries no event and whose text is in Data.
type Event struct {
	Type    string
	Data    []byte
	Comment bool
}

// FormatEvent is the frame of one event. typ and data hold no line
// breaks (data is compact JSON).
func FormatEvent(typ string, data []byte) []byte {
	out := make([]byte, 0, len(typ)+len(data)+16)
	out = append(out, "event: "...)
	out = append(out, typ...)
	out = append(out, "\ndata: "...)
	out = append(out, data...)
	return append(out, "\n\n"...)
}

// FormatComment is the frame of a comment (": keepalive\n\n").
func FormatComment(text string) []byte {
	return []byte(": " + text + "\n\n")
}

// EventParser assembles events from a stream's lines, fed one at a time
// without their line ends. Its zero value is ready; it is not safe for
// concurrent use.
type EventParser struct {
	typ   string
	data  []byte
	nData int
}

// Line takes one line (without "\n" or "\r\n"). It returns an event when
// the line completes one: a blank line dispatches the event being built,
// a comment line is returned at once. id, retry and unknown fields are
// ignored, as the standard says.
func (p *EventParser) Line(line []byte) (ev Event, ok bool, err error) {
	if len(line) == 0 { // dispatch
		if p.nData == 0 && p.typ == "" {
			return Event{}, false, nil
		}
		ev = Event{Type: p.typ, Data: p.data}
		if ev.Type == "" {
			ev.Type = EventMessage
		}
		p.typ, p.data, p.nData = "", nil, 0
		return ev, true, nil
	}
	if line[0] == ':' {
		return Event{Comment: true, Data: bytes.TrimSpace(line[1:])}, true, nil
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch string(field) {
	case "event":
		p.typ = string(value)
	case "data":
		if len(p.data)+len(value)+1 > MaxEventData {
			return Event{}, false, ErrEventTooLong
		}
		if p.nData > 0 {
			p.data = append(p.data, '\n')
		}
		p.data = append(p.data, value...)
		p.nData++
	}
	return Event{}, false, nil
}

// ParseEvents parses a whole stream held in memory: the events it
// completes, in order. Lines end with "\n", a "\r" before it is dropped;
// an unfinished last line or event is not returned.
func ParseEvents(b []byte) ([]Event, error) {
	var p EventParser
	var out []Event
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return out, nil
		}
		line := bytes.TrimSuffix(b[:i], []byte("\r"))
		b = b[i+1:]
		ev, ok, err := p.Line(line)
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, ev)
		}
	}
}
