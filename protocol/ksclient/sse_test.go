package ksclient

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, s string) ([]SSEEvent, error) {
	t.Helper()
	r := NewSSEReader(strings.NewReader(s))
	var out []SSEEvent
	for range 1000 {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
	t.Fatal("no end")
	return nil, nil
}

func TestSSEReader(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		want  []string // "type:data" or ":comment"
		final error
	}{
		{"site framing", "event: connected\ndata: {\"type\":\"connected\"}\n\nevent: game_changed\ndata: {\"a\":1}\n\n",
			[]string{`connected:{"type":"connected"}`, `game_changed:{"a":1}`}, io.EOF},
		{"keepalive", ": keepalive\n\nevent: shutdown\ndata: {}\n\n", []string{":keepalive", "shutdown:{}"}, io.EOF},
		{"CRLF", "event: x\r\ndata: 1\r\n\r\n", []string{"x:1"}, io.EOF},
		{"multi-line data", "data: a\ndata: b\n\n", []string{"message:a\nb"}, io.EOF},
		{"no space after colon, id and retry ignored", "id: 7\nretry: 10\nevent:y\ndata:z\n\n", []string{"y:z"}, io.EOF},
		{"unterminated event dropped", "event: x\ndata: 1\n", nil, io.EOF},
		{"torn line", "event: x\ndata: {\"a\"", nil, io.ErrUnexpectedEOF},
		{"blank lines only", "\n\n\n", nil, io.EOF},
		{"line too long", "data: " + strings.Repeat("x", MaxEventLine+10) + "\n\n", nil, ErrLineTooLong},
	} {
		evs, err := readAll(t, tc.in)
		var got []string
		for _, e := range evs {
			if e.Comment {
				got = append(got, ":"+string(e.Data))
			} else {
				got = append(got, e.Type+":"+string(e.Data))
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || !errors.Is(err, tc.final) {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, err, tc.want, tc.final)
		}
	}
}

func TestParseGameEvent(t *testing.T) {
	g, err := ParseGameEvent([]byte(`{"type":"game_changed","game_id":"abc","state":"active","turn":"white","move_number":4}`))
	if err != nil || g.MoveNumber != 4 || g.State != "active" {
		t.Errorf("%+v %v", g, err)
	}
	if _, err := ParseGameEvent(nil); err != nil {
		t.Errorf("empty data: %v", err)
	}
	if _, err := ParseGameEvent([]byte(`{"type":`)); !errors.Is(err, ErrGarbage) {
		t.Errorf("torn data: %v", err)
	}
}

func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{"event: a\ndata: b\n\n", ": k\n\n", "data:x\r\n\r\n", "\r\r\n", "data: " + strings.Repeat("y", 100)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewSSEReader(strings.NewReader(string(b)))
		for n := 0; ; n++ {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if len(ev.Data) > maxEventData || n > len(b) {
				t.Fatalf("event %d of %d bytes from %d bytes", n, len(ev.Data), len(b))
			}
			ParseGameEvent(ev.Data)
		}
	})
}
