package retention

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"
)

// Applier applies a Policy to folders on disk.
type Applier struct {
	Policy Policy
	// Root is the folder the record folders are in (logs.dir).
	Root string
	// Folders are the record folders under Root ("games", ...); only the
	// files directly in them are looked at, never subfolders.
	Folders []string
	// FS is the file system (default OS).
	FS FS
	// Now is the clock (default time.Now).
	Now func() time.Time
	// InUse lists the files the process holds open, by their real paths
	// (default OpenFiles; nil map: unknown, Quiet alone decides).
	InUse func() map[string]bool

	zw *gzip.Writer // reused: each new one allocates its tables
}

// Report is what one pass did.
type Report struct {
	Compressed     int   // files gzipped
	CompressedFrom int64 // their size before
	CompressedTo   int64 // and after
	Removed        int   // files removed
	RemovedBytes   int64
	ByAge, BySize  int // records removed for each reason
	KeptFiles      int
	KeptBytes      int64
	IntoWhole      bool // the cap took records of the last KeepWhole
	OverCap        bool // still over the cap: what is left is in use
	Errors         []error
}

// Apply runs one pass (not concurrently with another on the same
// Applier): compress, then remove. Errors on single files are collected in
// the Report and do not stop the pass; a folder that does not exist (yet)
// is empty.
func (a *Applier) Apply() Report {
	var rep Report
	if a.FS == nil {
		a.FS = OS{}
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	files, errs := a.list()
	rep.Errors = append(rep.Errors, errs...)
	for _, f := range a.Policy.ToCompress(files, now()) {
		to, err := a.compress(f)
		if err != nil {
			rep.Errors = append(rep.Errors, err)
			continue
		}
		rep.Compressed++
		rep.CompressedFrom += f.Size
		rep.CompressedTo += to
	}
	if rep.Compressed > 0 { // sizes changed: look again
		files, errs = a.list()
		rep.Errors = append(rep.Errors, errs...)
	}
	rm := a.Policy.ToRemove(files, now())
	for _, f := range rm.Files {
		if err := a.FS.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			rep.Errors = append(rep.Errors, err)
			rm.KeptFiles++
			rm.KeptBytes += f.Size
			continue
		}
		rep.Removed++
		rep.RemovedBytes += f.Size
	}
	rep.ByAge, rep.BySize = rm.ByAge, rm.BySize
	rep.KeptFiles, rep.KeptBytes = rm.KeptFiles, rm.KeptBytes
	rep.IntoWhole, rep.OverCap = rm.IntoWhole, rm.OverCap
	return rep
}

// list reads the covered folders.
func (a *Applier) list() ([]File, []error) {
	var open map[string]bool
	if a.InUse != nil {
		open = a.InUse()
	} else {
		open = OpenFiles()
	}
	var files []File
	var errs []error
	for _, folder := range a.Folders {
		dir := filepath.Join(a.Root, folder)
		infos, err := a.FS.Files(dir)
		if err != nil {
			errs = append(errs, err)
		}
		realDir := ""
		if open != nil && len(infos) > 0 {
			realDir = a.FS.Real(dir)
		}
		for _, info := range infos {
			path := filepath.Join(dir, info.Name())
			if _, _, ok := split(path); !ok {
				continue
			}
			files = append(files, File{Path: path, ModTime: info.ModTime(), Size: info.Size(),
				Open: open[filepath.Join(realDir, info.Name())]})
		}
	}
	return files, errs
}

// compress gzips f into f.Path+".gz" with f's modification time (its age
// is the game's, not the pass's) and removes f; it returns the new size.
// The .gz appears whole or not at all (written aside, synced, renamed).
func (a *Applier) compress(f File) (int64, error) {
	dst := f.Path + ".gz"
	tmp := dst + ".tmp"
	n, err := a.gzipTo(f.Path, tmp)
	if err == nil {
		err = a.FS.Chtimes(tmp, f.ModTime)
	}
	if err == nil {
		err = a.FS.Rename(tmp, dst)
	}
	if err != nil {
		a.FS.Remove(tmp)
		return 0, fmt.Errorf("compressing %s: %w", f.Path, err)
	}
	if err := a.FS.Remove(f.Path); err != nil {
		return n, fmt.Errorf("compressed %s but could not remove it: %w", f.Path, err)
	}
	return n, nil
}

func (a *Applier) gzipTo(src, dst string) (int64, error) {
	in, err := a.FS.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := a.FS.Create(dst)
	if err != nil {
		return 0, err
	}
	cw := &countingWriter{w: out}
	if a.zw == nil {
		a.zw = gzip.NewWriter(cw)
	} else {
		a.zw.Reset(cw)
	}
	a.zw.Name = filepath.Base(src)
	_, err = io.Copy(a.zw, in)
	if cerr := a.zw.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
