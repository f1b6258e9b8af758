package protocol

import "time"

// MessageKind is the kind of a Message.
type MessageKind uint8

// Message kinds, mirroring the Reader's events.
const (
	MsgText MessageKind = iota + 1
	MsgDatagram
	MsgUnitBegin
	MsgUnitEnd
	MsgOverflow
	MsgError
	// MsgPrompt is a login or password prompt: unterminated text ending in
	// "login:" or "password:". The client session (protocol/iccclient)
	// reports it during login only; MessageReader never does.
	MsgPrompt
)

// Unit is a level-1 unit header.
type Unit struct {
	Command int
	Issuer  string
	Tag     string
}

// Message is one event of a server connection, decoded, with its own copies
// of the bytes (unlike an Event, it stays valid after the next read).
type Message struct {
	Kind MessageKind
	// Time is when the bytes arrived; the caller that reads the connection
	// sets it (MessageReader leaves it zero).
	Time time.Time
	// Text: a text line (ISO-8859-1 bytes as a string), a prompt, or the
	// reader's error.
	Text string
	// N is the datagram number; DG its decoded value, or nil with
	// DecodeErr set when it did not decode; Fields the raw fields.
	N         int
	DG        DG
	DecodeErr error
	Fields    []string
	// Unit is the innermost level-1 unit around this message (zero when
	// none), or the unit that begins or ends.
	Unit Unit
}

// MessageReader turns the raw bytes of a server connection into Messages:
// Reader tokenizes them, Decoder decodes the datagrams (set its Moves to the
// switches the connection turned on), and the stack of open level-1 units
// labels each message with its innermost unit. Like Reader it does no I/O:
// the caller feeds it. One goroutine at a time.
type MessageReader struct {
	Reader  Reader
	Decoder Decoder
	units   []Unit
}

// Feed appends p to the input; see Reader.Feed.
func (r *MessageReader) Feed(p []byte) { r.Reader.Feed(p) }

// Flush marks the end of the stream; see Reader.Flush.
func (r *MessageReader) Flush() { r.Reader.Flush() }

// Next returns the next message, or false when more input is needed.
func (r *MessageReader) Next() (Message, bool) {
	ev, ok := r.Reader.Next()
	if !ok {
		return Message{}, false
	}
	return r.message(ev), true
}

func (r *MessageReader) message(ev Event) Message {
	var m Message
	if len(r.units) > 0 {
		m.Unit = r.units[len(r.units)-1]
	}
	switch ev.Kind {
	case Text:
		m.Kind = MsgText
		m.Text = string(ev.Text)
	case Datagram:
		m.Kind = MsgDatagram
		m.N = ev.DG
		m.Fields = make([]string, len(ev.Fields))
		for i, f := range ev.Fields {
			m.Fields[i] = string(f)
		}
		m.DG, m.DecodeErr = r.Decoder.Decode(ev.DG, ev.Fields)
	case UnitBegin:
		m.Kind = MsgUnitBegin
		m.Unit = Unit{Command: ev.Command, Issuer: string(ev.Issuer), Tag: string(ev.Tag)}
		r.units = append(r.units, m.Unit)
	case UnitEnd:
		m.Kind = MsgUnitEnd
		if len(r.units) > 0 {
			r.units = r.units[:len(r.units)-1]
		}
	case Overflow:
		m.Kind = MsgOverflow
		r.units = r.units[:0]
	case Error:
		m.Kind = MsgError
		m.Text = ev.Err
	}
	return m
}
