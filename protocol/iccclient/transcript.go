package iccclient

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"kriegbot/protocol"
)

// mask replaces the password in transcripts.
const mask = "********"

// transcriptWriter writes a transcript in protocol's format
// (protocol.AppendTranscriptEntry). It is safe for concurrent use. Write
// errors are ignored: a transcript that cannot be written must not end the
// connection.
type transcriptWriter struct {
	mu     sync.Mutex
	w      io.Writer
	now    func() time.Time
	secret []byte
	buf    []byte
}

// newTranscriptWriter writes to w, masking every occurrence of secret (if
// not empty) in both directions. now may be nil (time.Now).
func newTranscriptWriter(w io.Writer, secret string, now func() time.Time) *transcriptWriter {
	if now == nil {
		now = time.Now
	}
	t := &transcriptWriter{w: w, now: now}
	if secret != "" {
		t.secret = []byte(secret)
	}
	return t
}

// record writes one entry. p is not retained. A nil writer records nothing.
func (t *transcriptWriter) record(dir byte, p []byte) {
	if t == nil || t.w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.secret) > 0 && bytes.Contains(p, t.secret) {
		p = bytes.ReplaceAll(p, t.secret, []byte(mask))
	}
	t.buf = protocol.AppendTranscriptEntry(t.buf[:0], protocol.TranscriptEntry{Time: t.now(), Dir: dir, Data: p})
	t.w.Write(t.buf)
}

// note writes a '#' entry.
func (t *transcriptWriter) note(format string, args ...any) {
	t.record(protocol.DirNote, []byte(fmt.Sprintf(format, args...)))
}
