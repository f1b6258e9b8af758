package retention

import (
	"bytes"
	"io"
	"io/fs"
	"path/filepath"
	"time"
)

// memFS is a file system in memory for the year's simulation: files by
// path, and by folder for listing; folders are implied by the paths.
type memFS struct {
	files map[string]*memFile
	dirs  map[string]map[string]*memFile
}

type memFile struct {
	name string
	data []byte
	mod  time.Time
}

func newMemFS() *memFS {
	return &memFS{files: map[string]*memFile{}, dirs: map[string]map[string]*memFile{}}
}

func (m *memFS) set(path string, f *memFile) {
	m.files[path] = f
	dir := filepath.Dir(path)
	if m.dirs[dir] == nil {
		m.dirs[dir] = map[string]*memFile{}
	}
	m.dirs[dir][f.name] = f
}

func (m *memFS) unset(path string) {
	delete(m.files, path)
	delete(m.dirs[filepath.Dir(path)], filepath.Base(path))
}

// put writes (or with add, appends to) a file at time at.
func (m *memFS) put(path string, data []byte, at time.Time, add bool) {
	path = filepath.Clean(path)
	f := m.files[path]
	if f == nil || !add {
		f = &memFile{name: filepath.Base(path)}
		m.set(path, f)
	}
	f.data = append(f.data, data...)
	f.mod = at
}

func (m *memFS) Files(dir string) ([]fs.FileInfo, error) {
	var out []fs.FileInfo
	for _, f := range m.dirs[filepath.Clean(dir)] { // in no order, as a real folder
		out = append(out, memInfo{f})
	}
	return out, nil
}

func (m *memFS) Open(name string) (io.ReadCloser, error) {
	f, ok := m.files[filepath.Clean(name)]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return io.NopCloser(bytes.NewReader(f.data)), nil
}

func (m *memFS) Create(name string) (SyncWriteCloser, error) {
	f := &memFile{name: filepath.Base(name)}
	m.set(filepath.Clean(name), f)
	return memWriter{f}, nil
}

func (m *memFS) Chtimes(name string, t time.Time) error {
	f, ok := m.files[filepath.Clean(name)]
	if !ok {
		return &fs.PathError{Op: "chtimes", Path: name, Err: fs.ErrNotExist}
	}
	f.mod = t
	return nil
}

func (m *memFS) Rename(from, to string) error {
	f, ok := m.files[filepath.Clean(from)]
	if !ok {
		return &fs.PathError{Op: "rename", Path: from, Err: fs.ErrNotExist}
	}
	m.unset(filepath.Clean(from))
	f.name = filepath.Base(to)
	m.set(filepath.Clean(to), f)
	return nil
}

func (m *memFS) Remove(name string) error {
	if _, ok := m.files[filepath.Clean(name)]; !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	m.unset(filepath.Clean(name))
	return nil
}

func (m *memFS) Real(dir string) string { return filepath.Clean(dir) }

type memWriter struct{ f *memFile }

func (w memWriter) Write(p []byte) (int, error) {
	w.f.data = append(w.f.data, p...)
	return len(p), nil
}
func (w memWriter) Close() error { return nil }
func (w memWriter) Sync() error  { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return i.f.name }
func (i memInfo) Size() int64        { return int64(len(i.f.data)) }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return i.f.mod }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
