package protocol

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestTranscriptEntryRoundTrip: what AppendTranscriptEntry writes,
// TranscriptReader reads back, whatever the bytes.
func TestTranscriptEntryRoundTrip(t *testing.T) {
	clock := time.Date(2026, 11, 23, 18, 0, 0, 123456000, time.UTC)
	entries := []TranscriptEntry{
		{Time: clock, Dir: DirIn, Data: []byte("\x19(0 bot C\x19)\r\n\xe9t\xe9 \\ ********")},
		{Time: clock.Add(time.Second), Dir: DirOut, Data: []byte("e2e4\n")},
		{Time: clock.Add(2 * time.Second), Dir: DirNote, Data: []byte("closed: EOF")},
		{Time: clock.Add(3 * time.Second), Dir: DirIn},
	}
	var b []byte
	for _, e := range entries {
		b = AppendTranscriptEntry(b, e)
	}
	want := "2026-11-23T18:00:00.123456Z < \\x19(0 bot C\\x19)\\r\\n\\xe9t\\xe9 \\\\ ********\n"
	if !strings.HasPrefix(string(b), want) {
		t.Fatalf("got %q\nwant prefix %q", b, want)
	}
	r := NewTranscriptReader(bytes.NewReader(b))
	for _, w := range entries {
		e, err := r.Next()
		if err != nil || e.Dir != w.Dir || !e.Time.Equal(w.Time) || !bytes.Equal(e.Data, w.Data) {
			t.Fatalf("entry %+v err %v, want %+v", e, err, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("err %v", err)
	}
}

func TestTranscriptReaderErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"nonsense\n", "line 1: want"},
		{"\n2026-11-23T18:00:00Z ! x\n", "line 2: bad direction"},
		{"yesterday < x\n", "line 1: bad time"},
		{"2026-11-23T18:00:00Z < \\q\n", "line 1: column 24: unknown escape"},
		{"2026-11-23T18:00:00Z < ab\\x4\n", "line 1: column 26: short"},
		{"2026-11-23T18:00:00Z < \\xzz\n", "line 1: column 24: bad \\x escape"},
		{"2026-11-23T18:00:00Z < x\\\n", "lone backslash"},
	} {
		_, err := NewTranscriptReader(strings.NewReader(c.in)).Next()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%q: err %v, want %q", c.in, err, c.want)
		}
	}
	long := "2026-11-23T18:00:00Z < " + strings.Repeat("a", MaxTranscriptLine) + "\n"
	if _, err := NewTranscriptReader(strings.NewReader(long)).Next(); err == nil {
		t.Fatal("over-long line accepted")
	}
}

func FuzzTranscriptReader(f *testing.F) {
	f.Add([]byte("2026-11-23T18:00:00.123456Z < \\x19(0 bot C\\x19)\\r\\n\n2026-11-23T18:00:01Z > e2e4\\n\n"))
	f.Add([]byte("2026-11-23T18:00:00Z # closed\n\n\nbad\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewTranscriptReader(bytes.NewReader(b))
		for i := 0; i < 10000; i++ {
			e, err := r.Next()
			if err != nil {
				return
			}
			// What parsed re-encodes to the same entry (the time to the
			// microsecond, in UTC), when its year can be written.
			if y := e.Time.UTC().Year(); y < 0 || y > 9999 {
				continue
			}
			line := AppendTranscriptEntry(nil, e)
			back, err := NewTranscriptReader(bytes.NewReader(line)).Next()
			if err != nil || back.Dir != e.Dir || !bytes.Equal(back.Data, e.Data) ||
				!back.Time.Equal(e.Time.Truncate(time.Microsecond)) {
				t.Fatalf("round trip: %+v -> %q -> %+v (%v)", e, line, back, err)
			}
		}
	})
}
