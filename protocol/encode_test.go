package protocol

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// readAll tokenizes b in one feed and returns the events as strings.
func readAll(b []byte) []string {
	var r Reader
	r.Feed(b)
	r.Flush()
	var out []string
	for {
		ev, ok := r.Next()
		if !ok {
			return out
		}
		out = append(out, ev.String())
	}
}

func TestAppendDatagramRoundTrip(t *testing.T) {
	for _, fields := range [][]string{
		{"959", "e4", "e2e4", "23", "37"},
		{"12", "?", "?xb1", "3", "50"},
		{"", "{", "a}b", "two words", "line\nbreak", "\x19sneaky", "ok"},
		{"White resigns", "B20"},
	} {
		b := AppendDatagram(nil, 24, fields...)
		var r Reader
		r.Feed(b)
		ev, ok := r.Next()
		if !ok || ev.Kind != Datagram || ev.DG != 24 || len(ev.Fields) != len(fields) {
			t.Fatalf("%q: got %v", b, ev)
		}
		for i, f := range fields {
			want := strings.ReplaceAll(f, "\x19", "")
			if string(ev.Fields[i]) != want {
				t.Fatalf("%q field %d: got %q want %q", b, i, ev.Fields[i], want)
			}
		}
	}
}

func TestUnitEncoding(t *testing.T) {
	b := AppendUnitBegin(nil, 5, "*", "t1")
	b = append(b, AppendDatagram(nil, 0, "bot", "C")...)
	b = append(b, "hello\r\n"...)
	b = AppendUnitEnd(b)
	got := strings.Join(readAll(b), " | ")
	want := `UnitBegin 5 "*" tag="t1" | Datagram 0 ["bot" "C"] | Text "hello" | UnitEnd`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func FuzzAppendDatagram(f *testing.F) {
	f.Add("959", "e2e4", "two words")
	f.Add("", "{", "\x19}")
	f.Add("a\nb", "}", "?xe5")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		enc := AppendDatagram(nil, 77, a, b, c)
		var r Reader
		r.Feed(enc)
		ev, ok := r.Next()
		if !ok || ev.Kind != Datagram || ev.DG != 77 || len(ev.Fields) != 3 {
			t.Fatalf("%q: got %v", enc, ev)
		}
		for i, f := range []string{a, b, c} {
			// A field survives whole but for the bytes the wire cannot
			// quote (^Y, ^Z, ^O, BEL), which are dropped.
			want := strings.Map(func(r rune) rune {
				if r < 0x80 && unquotable(byte(r)) {
					return -1
				}
				return r
			}, f)
			if !utf8.ValidString(f) {
				continue // strings.Map would rewrite invalid bytes
			}
			if string(ev.Fields[i]) != want {
				t.Fatalf("%q field %d: got %q want %q", enc, i, ev.Fields[i], want)
			}
		}
	})
}
