package protocol

import (
	"fmt"
	"strings"
	"testing"
)

// TestMessageReader: messages carry copies of the bytes, decoded datagrams
// (or the decode error), and the innermost open unit; an overflow closes
// every unit.
func TestMessageReader(t *testing.T) {
	var in []byte
	in = AppendUnitBegin(in, 5, "*", "t1")
	in = append(in, "hello\r\n"...)
	in = AppendUnitBegin(in, 7, "bob", "")
	in = AppendDatagram(in, DGMyTurn, "12")
	in = AppendUnitEnd(in)
	in = AppendDatagram(in, DGMyTurn, "x")
	in = append(in, "\x1aafter\r\n"...)
	in = AppendUnitEnd(in)
	in = append(in, "\x19)tail"...)
	r := MessageReader{Decoder: Decoder{Moves: BotMoveFields}}
	var got []string
	for i := 0; i < len(in); i++ { // one byte at a time: copies must survive
		r.Feed(in[i : i+1])
		for {
			m, ok := r.Next()
			if !ok {
				break
			}
			got = append(got, describe(m))
		}
	}
	r.Flush()
	for m, ok := r.Next(); ok; m, ok = r.Next() {
		got = append(got, describe(m))
	}
	want := []string{
		"3 unit=5/*/t1 begin",
		"1 unit=5/*/t1 text=hello",
		"3 unit=7/bob/ begin",
		"2 unit=7/bob/ dg=139 protocol.MyTurnDG{Game:12} err=<nil> fields=[12]",
		"4 unit=7/bob/ end",
		`2 unit=5/*/t1 dg=139 <nil> err=protocol: DG 139: malformed field gamenumber: "x" fields=[x]`,
		"5 unit=5/*/t1 overflow", // the unit it closes
		"1 unit=0// text=after",
		"4 unit=0// end",
		"6 unit=0// error=stray ^Y) outside datagram",
		"1 unit=0// text=tail",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func describe(m Message) string {
	s := fmt.Sprintf("%d unit=%d/%s/%s", m.Kind, m.Unit.Command, m.Unit.Issuer, m.Unit.Tag)
	switch m.Kind {
	case MsgText:
		return s + " text=" + m.Text
	case MsgDatagram:
		return s + fmt.Sprintf(" dg=%d %#v err=%v fields=%v", m.N, m.DG, m.DecodeErr, m.Fields)
	case MsgUnitBegin:
		return s + " begin"
	case MsgUnitEnd:
		return s + " end"
	case MsgOverflow:
		return s + " overflow"
	case MsgError:
		return s + " error=" + m.Text
	}
	return s + " ?"
}
