package replay

import (
	"bufio"
	"fmt"
	"testing"

	"kriegbot/internal/retention"
)

// loadFile is Load of file name (gzipped or not, as the command opens it),
// with the notes it gave.
func loadFile(t *testing.T, name string, src Source) (*Record, []string, error) {
	t.Helper()
	f, err := retention.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var notes []string
	rec, err := Load(bufio.NewReader(f), name, src, func(format string, args ...any) {
		notes = append(notes, fmt.Sprintf(format, args...))
	})
	return rec, notes, err
}
