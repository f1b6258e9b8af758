package protocol

import (
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
