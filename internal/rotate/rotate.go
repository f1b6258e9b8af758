package rotate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Writer appends lines to dir/name and rotates it by size. It is safe for
// concurrent use; each Write is atomic with respect to the others.
type Writer struct {
	path     string
	maxBytes int64
	keep     int

	mu     sync.Mutex
	f      *os.File
	size   int64 // bytes in the current file
	closed bool
}

// Open opens (creating dir if needed) dir/name for appending. The file is
// rotated before a Write would make it larger than maxBytes; keep old files
// are kept as name.1 (newest) to name.keep (oldest). keep may be 0: the old
// file is then deleted. A single Write larger than maxBytes gets a file of
// its own rather than being split.
func Open(dir, name string, maxBytes int64, keep int) (*Writer, error) {
	if maxBytes <= 0 {
		return nil, fmt.Errorf("rotate: maxBytes must be positive, got %d", maxBytes)
	}
	if keep < 0 {
		return nil, fmt.Errorf("rotate: keep must not be negative, got %d", keep)
	}
	if name == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("rotate: name must be a plain file name, got %q", name)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	w := &Writer{path: filepath.Join(dir, name), maxBytes: maxBytes, keep: keep}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

func (w *Writer) open() error {
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	w.f, w.size = f, st.Size()
	return nil
}

// Write appends p, which should be one or more whole lines, rotating first
// if p would not fit. If rotation fails, p is still written to the current
// file (a log too long beats a log lost) and the rotation error is returned
// with n = len(p); rotation is tried again after another maxBytes.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, os.ErrClosed
	}
	var rotErr error
	if w.size > 0 && w.size+int64(len(p)) > w.maxBytes {
		rotErr = w.rotate()
		if w.f == nil { // the old file is closed and no new one opened
			if err := w.open(); err != nil {
				return 0, errors.Join(rotErr, err)
			}
		}
		if rotErr != nil {
			w.size = 0 // try again after another maxBytes, not on every line
		}
	}
	n, err := w.f.Write(p)
	w.size += int64(n)
	if err != nil {
		return n, err
	}
	return n, rotErr
}

// rotate shifts name.i to name.i+1 (dropping name.keep), renames the current
// file to name.1 and opens a new one.
func (w *Writer) rotate() error {
	if err := w.f.Close(); err != nil {
		w.f = nil
		return err
	}
	w.f = nil
	var err error
	if w.keep == 0 {
		err = os.Remove(w.path)
	} else {
		err = removeIfExists(w.numbered(w.keep))
		for i := w.keep - 1; i >= 1 && err == nil; i-- {
			err = renameIfExists(w.numbered(i), w.numbered(i+1))
		}
		if err == nil {
			err = os.Rename(w.path, w.numbered(1))
		}
	}
	if openErr := w.open(); openErr != nil {
		return errors.Join(err, openErr)
	}
	return err
}

func (w *Writer) numbered(i int) string { return w.path + "." + strconv.Itoa(i) }

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func renameIfExists(from, to string) error {
	if err := os.Rename(from, to); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Close closes the file; later Writes fail with os.ErrClosed.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	if w.f == nil {
		return nil
	}
	return w.f.Close()
}
