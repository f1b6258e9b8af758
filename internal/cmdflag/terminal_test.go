package cmdflag

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestTerminal: a buffer, a file and a pipe are no terminal.
func TestTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": f, "pipe": w} {
		if IsTerminal(out) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !IsTerminal(tty) {
			t.Error("/dev/tty not taken for a terminal")
		}
	}
}
