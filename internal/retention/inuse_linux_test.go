package retention

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenFiles sees a file this process holds open, by its real path.
func TestOpenFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "held.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	if !OpenFiles()[resolved] {
		t.Errorf("%s is open but not listed", resolved)
	}
}
