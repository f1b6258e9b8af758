package bot

import (
	"fmt"
	"io"
	"kriegbot/record"
	"os"
	"path/filepath"
	"time"
)

// Record files. Every line of a game's JSON Lines record is written with one
// append as soon as it is known, so a crash loses at most the last line. The
// PGN is written once the server reveals the whole move list after the game.

// openTranscript opens logs/transcripts/<name>-<time>.txt for appending.
func openTranscript(dir, name string, now time.Time) (io.Writer, error) {
	d := filepath.Join(dir, "transcripts")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	f := filepath.Join(d, fmt.Sprintf("%s-%s.txt", record.SafeName(name), now.UTC().Format("20060102-150405.000")))
	return os.OpenFile(f, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}
