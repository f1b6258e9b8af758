package retention

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FS is what an Applier needs of a file system: OS is the real one; tests
// give one in memory to live a year in a moment.
type FS interface {
	// Files lists the regular files directly in dir (a missing dir is
	// empty).
	Files(dir string) ([]fs.FileInfo, error)
	Open(name string) (io.ReadCloser, error)
	// Create makes name empty for writing; Sync on the result makes what
	// was written durable.
	Create(name string) (SyncWriteCloser, error)
	Chtimes(name string, t time.Time) error
	Rename(from, to string) error
	Remove(name string) error
	// Real is dir as the open-file list names it (absolute, symbolic
	// links resolved).
	Real(dir string) string
}

// SyncWriteCloser is a file being written.
type SyncWriteCloser interface {
	io.WriteCloser
	Sync() error
}

// OS is the operating system's file system.
type OS struct{}

func (OS) Files(dir string) ([]fs.FileInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []fs.FileInfo
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) { // removed meanwhile
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, info)
	}
	return out, nil
}

func (OS) Open(name string) (io.ReadCloser, error) { return os.Open(name) }

func (OS) Create(name string) (SyncWriteCloser, error) {
	return os.OpenFile(name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
}

func (OS) Chtimes(name string, t time.Time) error { return os.Chtimes(name, t, t) }
func (OS) Rename(from, to string) error           { return os.Rename(from, to) }
func (OS) Remove(name string) error               { return os.Remove(name) }

func (OS) Real(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir
}
