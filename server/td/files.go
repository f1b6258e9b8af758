package td

import (
	"fmt"
	"path/filepath"
)

// EventFile is the file in dir where the TD keeps event id: ext "json"
// its state (written atomically after every change, read back at a
// restart), "pgn", "txt" and "html" its games and crosstables. A program
// that follows an event (kriegbot tourney) reads them there.
func EventFile(dir string, id int, ext string) string {
	return filepath.Join(dir, fmt.Sprintf("tourney-%d.%s", id, ext))
}
