package retention

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Policy is what is kept. The zero MaxAge and MaxTotal bound nothing.
type Policy struct {
	// KeepWhole: records whose newest file is younger than this are left
	// as written (never compressed, never removed by age).
	KeepWhole time.Duration
	// MaxAge removes records whose newest file is older than this.
	MaxAge time.Duration
	// MaxTotal is the most bytes all records may take together; past it
	// the oldest records go first, even from the last KeepWhole (the cap
	// is what keeps the disk from filling; the Report says so).
	MaxTotal int64
	// Compress gzips the JSON Lines records and transcripts older than
	// KeepWhole in place (name.jsonl becomes name.jsonl.gz).
	Compress bool
	// Quiet: a file modified more recently than this belongs to a game in
	// progress (or a connection still open) and is not touched, nor any
	// file of its record.
	Quiet time.Duration
}

// DefaultQuiet is the Quiet the daemon uses. A live record gets a line at
// every attempt and answer, so a quarter of an hour without one means the
// game is over; a longer think is still safe, because the files the process
// holds open are checked besides (OpenFiles).
const DefaultQuiet = 15 * time.Minute

// File is one file of a covered folder as the policy sees it.
type File struct {
	Path    string
	ModTime time.Time
	Size    int64
	// Open: the process holds it open (a record being written, the
	// transcript of the connection).
	Open bool
}

// split returns the record a file belongs to (folder and name without
// suffix) and its suffix; ok is false for files not ours.
//
// The suffixes are those of the files the daemon writes, longest first; a
// file of any other name is ignored (neither counted nor touched). The
// files of one record share the name before the suffix: a game's .jsonl,
// .pgn, .kbm (the opponent counts it was played with) and .html (its
// replay page) go together.
func split(path string) (record, suffix string, ok bool) {
	for _, s := range [...]string{
		".jsonl.gz.tmp", ".txt.gz.tmp", // a compression cut short
		".jsonl.gz", ".txt.gz",
		".jsonl", ".pgn", ".kbm", ".html", ".txt",
	} {
		if base, found := strings.CutSuffix(path, s); found && filepath.Base(base) != "" && !strings.HasSuffix(base, string(filepath.Separator)) {
			return base, s, true
		}
	}
	return "", "", false
}

// record is the files of one game record (or one transcript).
type record struct {
	name   string
	files  []File
	newest time.Time
	size   int64
	busy   bool
}

// records groups the files that are ours into records, oldest first (by
// newest file, then name, so that a plan does not depend on the order of
// the listing).
func (p Policy) records(files []File, now time.Time) []*record {
	by := map[string]*record{}
	for _, f := range files {
		name, _, ok := split(f.Path)
		if !ok {
			continue
		}
		r := by[name]
		if r == nil {
			r = &record{name: name}
			by[name] = r
		}
		r.files = append(r.files, f)
		r.size += f.Size
		if f.ModTime.After(r.newest) {
			r.newest = f.ModTime
		}
		if f.Open || now.Sub(f.ModTime) < p.Quiet {
			r.busy = true
		}
	}
	out := make([]*record, 0, len(by))
	for _, r := range by {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *record) int {
		if c := a.newest.Compare(b.newest); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	return out
}

// ToCompress lists the files to gzip now: JSON Lines records and
// transcripts of records older than KeepWhole, not busy, and not about to
// be removed by age.
func (p Policy) ToCompress(files []File, now time.Time) []File {
	if !p.Compress {
		return nil
	}
	var out []File
	for _, r := range p.records(files, now) {
		age := now.Sub(r.newest)
		if r.busy || age < p.KeepWhole || p.MaxAge > 0 && age > p.MaxAge {
			continue
		}
		for _, f := range r.files {
			// The large, line-oriented files. PGNs stay plain for every
			// chess tool; the .kbm is named by its record and read as
			// is; a replay page is small once made.
			if _, s, _ := split(f.Path); s == ".jsonl" || s == ".txt" {
				out = append(out, f)
			}
		}
	}
	return out
}

// Removal is what a pass removes and what it keeps.
type Removal struct {
	Files         []File // to remove, whole records, oldest first
	Bytes         int64  // their size
	ByAge, BySize int    // records removed for each reason
	KeptFiles     int
	KeptBytes     int64
	// IntoWhole: the cap took records of the last KeepWhole.
	IntoWhole bool
	// OverCap: still over MaxTotal with every record that may go gone
	// (what is left is busy).
	OverCap bool
}

// ToRemove says which whole records to remove: those older than MaxAge,
// then the oldest until all take at most MaxTotal. Busy records stay.
func (p Policy) ToRemove(files []File, now time.Time) Removal {
	var rm Removal
	var total int64
	recs := p.records(files, now)
	for _, r := range recs {
		total += r.size
	}
	drop := func(r *record) {
		rm.Files = append(rm.Files, r.files...)
		rm.Bytes += r.size
		total -= r.size
		r.files = nil
	}
	for _, r := range recs {
		if !r.busy && p.MaxAge > 0 && now.Sub(r.newest) > p.MaxAge {
			drop(r)
			rm.ByAge++
		}
	}
	if p.MaxTotal > 0 {
		for _, r := range recs {
			if total <= p.MaxTotal {
				break
			}
			if r.busy || r.files == nil {
				continue
			}
			if now.Sub(r.newest) < p.KeepWhole {
				rm.IntoWhole = true
			}
			drop(r)
			rm.BySize++
		}
		rm.OverCap = total > p.MaxTotal
	}
	for _, r := range recs {
		rm.KeptFiles += len(r.files)
	}
	rm.KeptBytes = total
	return rm
}
