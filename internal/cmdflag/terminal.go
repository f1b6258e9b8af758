package cmdflag

import (
	"io"
	"os"
)

// Terminal returns w as a terminal (a character device), if it is one:
// commands draw status lines and step-through views only there, and write
// plain lines to files, pipes and services.
func Terminal(w io.Writer) (*os.File, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return nil, false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil, false
	}
	return f, true
}

// IsTerminal reports whether w is a terminal (Terminal).
func IsTerminal(w io.Writer) bool {
	_, ok := Terminal(w)
	return ok
}
