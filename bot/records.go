package bot

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"kriegbot/record"
)

// Record files. Every line of a game's JSON Lines record is written with one
// append as soon as it is known, so a crash loses at most the last line. The
// PGN is written once the server reveals the whole move list after the game.

// openTranscript names logs/transcripts/<name>-<time>.txt for one
// connection. The file is made at the first byte written, so a connection
// that never got through leaves none; Close closes it for good (a late
// write is dropped, never reopens it).
func openTranscript(dir, name string, now time.Time) (*transcriptFile, error) {
	d := filepath.Join(dir, "transcripts")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	return &transcriptFile{path: filepath.Join(d, fmt.Sprintf("%s-%s.txt", record.SafeName(name), now.UTC().Format("20060102-150405.000")))}, nil
}

// transcriptFile is a transcript made at its first write.
type transcriptFile struct {
	path   string
	mu     sync.Mutex
	f      *os.File
	closed bool
}

func (t *transcriptFile) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, os.ErrClosed
	}
	if t.f == nil {
		f, err := os.OpenFile(t.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return 0, err
		}
		t.f = f
	}
	return t.f.Write(p)
}

// Close closes the file, if it was made.
func (t *transcriptFile) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.f == nil {
		return nil
	}
	err := t.f.Close()
	t.f = nil
	return err
}
