package iccclient

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"kriegbot/protocol"
)

// TestTranscriptRoundTrip: the writer masks the password and writes
// protocol's transcript format, which protocol's reader reads back.
func TestTranscriptRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 11, 23, 18, 0, 0, 123456000, time.UTC)
	tw := newTranscriptWriter(&buf, "hunter2", func() time.Time { return clock })
	in := []byte("\x19(0 bot C\x19)\r\n\xe9t\xe9 \\ hunter2")
	tw.record(protocol.DirIn, in)
	tw.record(protocol.DirOut, []byte("e2e4\n"))
	tw.note("closed: %v", io.EOF)
	if strings.Contains(buf.String(), "hunter2") {
		t.Fatalf("password in transcript: %s", buf.String())
	}
	want := "2026-11-23T18:00:00.123456Z < \\x19(0 bot C\\x19)\\r\\n\\xe9t\\xe9 \\\\ ********\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Fatalf("got %q\nwant prefix %q", buf.String(), want)
	}
	r := protocol.NewTranscriptReader(&buf)
	e, err := r.Next()
	if err != nil || e.Dir != protocol.DirIn || !e.Time.Equal(clock) ||
		string(e.Data) != strings.Replace(string(in), "hunter2", mask, 1) {
		t.Fatalf("entry %+v err %v", e, err)
	}
	if e, err = r.Next(); err != nil || e.Dir != protocol.DirOut || string(e.Data) != "e2e4\n" {
		t.Fatalf("entry %+v err %v", e, err)
	}
	if e, err = r.Next(); err != nil || e.Dir != protocol.DirNote || string(e.Data) != "closed: EOF" {
		t.Fatalf("entry %+v err %v", e, err)
	}
	if _, err = r.Next(); err != io.EOF {
		t.Fatalf("err %v", err)
	}
}
