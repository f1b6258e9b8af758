package ksclient

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"kriegbot/protocol/ksapi"
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

// TestSSEReader: the reader gives the events ksapi parses from the same
// bytes (its framing is tested there), and ends on the stream's errors.
func TestSSEReader(t *testing.T) {
	longData := strings.Repeat("data: "+strings.Repeat("y", MaxEventLine-10)+"\n", 5) + "\n"
	for _, tc := range []struct {
		name   string
		in     string
		events int
		final  error
	}{
		{"site framing", "event: connected\ndata: {\"type\":\"connected\"}\n\n: keepalive\n\nevent: game_changed\ndata: {\"a\":1}\n\n", 3, io.EOF},
		{"CRLF", "event: x\r\ndata: 1\r\n\r\n", 1, io.EOF},
		{"unterminated event dropped", "event: x\ndata: 1\n", 0, io.EOF},
		{"torn line", "event: x\ndata: {\"a\"", 0, io.ErrUnexpectedEOF},
		{"line too long", "data: " + strings.Repeat("x", MaxEventLine+10) + "\n\n", 0, ErrLineTooLong},
		{"data too long", longData, 0, ErrLineTooLong},
	} {
		evs, err := readAll(t, tc.in)
		want, _ := ksapi.ParseEvents([]byte(tc.in))
		if tc.final != io.EOF {
			want = nil
		}
		if len(evs) != tc.events || !reflect.DeepEqual(evs, want) || !errors.Is(err, tc.final) {
			t.Errorf("%s: %d events %+v, %v; want %d %+v, %v", tc.name, len(evs), evs, err, tc.events, want, tc.final)
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
