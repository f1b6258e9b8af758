package cmdflag

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal (a character device): progress
// lines that rewrite themselves go only there.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
