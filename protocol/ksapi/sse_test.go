package ksapi

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestFormatEvent(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{string(FormatEvent(EventConnected, []byte(`{"type":"connected"}`))), "event: connected\ndata: {\"type\":\"connected\"}\n\n"},
		{string(FormatEvent(EventShutdown, []byte(`{}`))), "event: shutdown\ndata: {}\n\n"},
		{string(FormatComment(Keepalive)), ": keepalive\n\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q; want %q", tc.got, tc.want)
		}
	}
}

func TestParseEvents(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string // "type:data" or ":comment"
		err  error
	}{
		{"site framing", "event: connected\ndata: {\"type\":\"connected\"}\n\nevent: game_changed\ndata: {\"a\":1}\n\n",
			[]string{`connected:{"type":"connected"}`, `game_changed:{"a":1}`}, nil},
		{"keepalive", ": keepalive\n\nevent: shutdown\ndata: {}\n\n", []string{":keepalive", "shutdown:{}"}, nil},
		{"CRLF", "event: x\r\ndata: 1\r\n\r\n", []string{"x:1"}, nil},
		{"multi-line data", "data: a\ndata: b\n\n", []string{"message:a\nb"}, nil},
		{"no space after colon, id and retry ignored", "id: 7\nretry: 10\nevent:y\ndata:z\n\n", []string{"y:z"}, nil},
		{"two spaces keep one", "event:  y\ndata:  z\n\n", []string{" y: z"}, nil},
		{"field without colon", "data\n\n", []string{"message:"}, nil},
		{"unterminated event dropped", "event: x\ndata: 1\n", nil, nil},
		{"torn line dropped", "event: x\ndata: {\"a\"", nil, nil},
		{"blank lines only", "\n\n\n", nil, nil},
		{"data too long", "data: " + strings.Repeat("x", MaxEventData) + "\n\n", nil, ErrEventTooLong},
	} {
		evs, err := ParseEvents([]byte(tc.in))
		var got []string
		for _, e := range evs {
			if e.Comment {
				got = append(got, ":"+string(e.Data))
			} else {
				got = append(got, e.Type+":"+string(e.Data))
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || !errors.Is(err, tc.err) {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// FuzzEvents: parsing arbitrary bytes never panics and keeps its bounds,
// and a formatted event or comment parses back to itself.
func FuzzEvents(f *testing.F) {
	for _, s := range []struct{ typ, data string }{
		{"connected", `{"type":"connected","game_id":"0123456789abcdef01234567"}`}, {"game_changed", `{}`},
		{"shutdown", ""}, {"a:b", "x: y"}, {" lead", "  two"}, {"event: a\ndata: b\n\n", ": k\n\n"}, {"data:x\r\n\r\n", "\r\r\n"},
	} {
		f.Add(s.typ, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		for _, b := range [][]byte{[]byte(typ), data} {
			evs, _ := ParseEvents(b)
			for _, e := range evs {
				if len(e.Data) > MaxEventData {
					t.Fatalf("event of %d bytes", len(e.Data))
				}
			}
		}
		if typ == "" || strings.ContainsAny(typ, "\r\n") || bytes.ContainsAny(data, "\r\n") || len(data) >= MaxEventData {
			return
		}
		evs, err := ParseEvents(FormatEvent(typ, data))
		if err != nil || len(evs) != 1 || evs[0].Type != typ || !bytes.Equal(evs[0].Data, data) || evs[0].Comment {
			t.Fatalf("event %q %q came back as %+v, %v", typ, data, evs, err)
		}
		text := strings.TrimSpace(typ)
		evs, err = ParseEvents(FormatComment(text))
		if err != nil || len(evs) != 1 || !evs[0].Comment || string(evs[0].Data) != text {
			t.Fatalf("comment %q came back as %+v, %v", text, evs, err)
		}
	})
}
