package buildinfo

//go:generate go run ./gensum -root ../.. -o sources.go

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// Info describes the running build.
type Info struct {
	// Play is the hash of the sources that decide play (16 hex digits),
	// Files how many files it covers.
	Play  string
	Files int
	// Version is the main module's version from the build information
	// ("(devel)" for go run and for builds outside a tagged checkout).
	Version string
	// Revision is the VCS revision (12 hex digits) and Modified says the
	// tree had changes; "" when the build recorded none (go run, or
	// -buildvcs=false).
	Revision string
	Modified bool
	// Go is the toolchain, Platform GOOS/GOARCH: floating point may round
	// otherwise on another architecture.
	Go, Platform string
}

// Read returns the running build's Info.
func Read() Info {
	in := Info{Play: playHash[:16], Files: playFiles, Version: "(devel)", Go: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value[:min(12, len(s.Value))]
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	return in
}

// ID is the build's identity for game records: the play hash, the Go
// toolchain and platform, then (for people) the revision and version, as
// "play=<hash> go1.26.1 linux/amd64 rev=<rev>[+modified] <version>". Two
// builds play alike when SamePlay says so.
func (in Info) ID() string {
	rev := in.Revision
	if rev == "" {
		rev = "unknown"
	} else if in.Modified {
		rev += "+modified"
	}
	return fmt.Sprintf("play=%s %s %s rev=%s %s", in.Play, in.Go, in.Platform, rev, in.Version)
}

// ID is Read().ID().
func ID() string { return Read().ID() }

// SamePlay compares two build IDs by what decides play: the play hash, the
// toolchain and the platform. known is false when either ID is of the older
// kind, without a play hash (then same compares the whole strings).
func SamePlay(a, b string) (same, known bool) {
	ka, oka := playKey(a)
	kb, okb := playKey(b)
	if !oka || !okb {
		return a == b, false
	}
	return ka == kb, true
}

// playKey is the part of an ID that decides play.
func playKey(id string) (string, bool) {
	f := strings.Fields(id)
	if len(f) < 3 || !strings.HasPrefix(f[0], "play=") {
		return "", false
	}
	return strings.Join(f[:3], " "), true
}

// Hashed reports whether a file of the module, by its slash-separated path
// from the module's root, is one the play hash covers: the Go sources
// (tests and testdata excluded) and embedded models under engine/ and
// opponent/, and go.mod.
func Hashed(path string) bool {
	if path == "go.mod" {
		return true
	}
	if !strings.HasPrefix(path, "engine/") && !strings.HasPrefix(path, "opponent/") {
		return false
	}
	if strings.Contains("/"+path, "/testdata/") || strings.HasSuffix(path, "_test.go") {
		return false
	}
	return strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".kbm")
}

// HashSources hashes the files under root (the module's root) that Hashed
// covers, in path order; it returns the hash in hex and the number of files.
func HashSources(root string) (string, int, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel != "engine" && rel != "opponent" &&
				!strings.HasPrefix(rel, "engine/") && !strings.HasPrefix(rel, "opponent/")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && Hashed(rel) {
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	slices.Sort(paths)
	h := sha256.New()
	for _, rel := range paths {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return "", 0, err
		}
		st, err := f.Stat()
		if err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00", rel, st.Size())
			_, err = io.Copy(h, f)
		}
		f.Close()
		if err != nil {
			return "", 0, err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), len(paths), nil
}
