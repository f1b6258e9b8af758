package retention

import (
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func file(path string, age time.Duration, size int64) File {
	return File{Path: path, ModTime: t0.Add(-age), Size: size}
}

func paths(fs []File) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Path
	}
	return out
}

func TestToCompress(t *testing.T) {
	p := Policy{KeepWhole: 2 * day, MaxAge: 30 * day, Compress: true, Quiet: 15 * time.Minute}
	files := []File{
		file("g/old-g1-x.jsonl", 3*day, 100), // compressed
		file("g/old-g1-x.pgn", 3*day, 10),    // PGN stays plain
		file("g/old-g1-x.kbm", 3*day, 10),    // named by the record: stays plain
		file("g/new-g2-x.jsonl", day, 100),   // within KeepWhole
		file("g/gone-g3-x.jsonl", 40*day, 100),
		file("g/done-g4-x.jsonl.gz", 5*day, 30),
		file("t/kriegbot-1.txt", 4*day, 100),  // compressed
		file("t/notes.md", 100*day, 100),      // not ours
		file("s/game-7.jsonl", 10*day, 100),   // compressed: the newest file of its record is old
		file("s/game-8.jsonl", 10*day, 100),   // busy: its PGN is being written
		file("s/game-8.pgn", time.Minute, 10), //
	}
	open := File{Path: "t/kriegbot-0.txt", ModTime: t0.Add(-9 * day), Size: 5, Open: true}
	files = append(files, open)
	got := paths(p.ToCompress(files, t0))
	want := []string{"s/game-7.jsonl", "g/old-g1-x.jsonl", "t/kriegbot-1.txt"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ToCompress = %v, want %v", got, want)
	}
	p.Compress = false
	if got := p.ToCompress(files, t0); got != nil {
		t.Errorf("with Compress off, ToCompress = %v", paths(got))
	}
}

func TestToRemove(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         Policy
		files     []File
		want      []string
		byAge     int
		bySize    int
		intoWhole bool
		overCap   bool
		keptBytes int64
	}{
		{
			name: "by age, whole records",
			p:    Policy{MaxAge: 10 * day},
			files: []File{
				file("g/a.jsonl.gz", 11*day, 10), file("g/a.pgn", 11*day, 5), file("g/a.kbm", 11*day, 5),
				file("g/b.jsonl", 9*day, 10), file("g/b.pgn", 12*day, 5), // newest file decides
			},
			want: []string{"g/a.jsonl.gz", "g/a.pgn", "g/a.kbm"}, byAge: 1, keptBytes: 15,
		},
		{
			name: "by size, oldest first",
			p:    Policy{MaxTotal: 25, KeepWhole: day},
			files: []File{
				file("g/c.jsonl", 2*day, 10), file("g/a.jsonl", 4*day, 10),
				file("g/b.jsonl", 3*day, 10), file("g/d.jsonl", 0, 10),
			},
			want: []string{"g/a.jsonl", "g/b.jsonl"}, bySize: 2, keptBytes: 20,
		},
		{
			name: "the cap reaches into the records kept whole",
			p:    Policy{MaxTotal: 10, KeepWhole: 5 * day},
			files: []File{
				file("g/a.jsonl", 2*day, 10), file("g/b.jsonl", day, 10),
			},
			want: []string{"g/a.jsonl"}, bySize: 1, intoWhole: true, keptBytes: 10,
		},
		{
			name: "busy records stay, even over the cap and the age",
			p:    Policy{MaxTotal: 10, MaxAge: day, Quiet: time.Hour},
			files: []File{
				{Path: "t/k.txt", ModTime: t0.Add(-90 * day), Size: 50, Open: true},
				file("g/a.jsonl", 30*time.Minute, 20),
				file("g/b.jsonl", 2*day, 5),
			},
			want: []string{"g/b.jsonl"}, byAge: 1, overCap: true, keptBytes: 70,
		},
		{
			name:  "files not ours are neither counted nor removed",
			p:     Policy{MaxTotal: 10, MaxAge: day},
			files: []File{file("g/x.md", 90*day, 1000), file("g/a.jsonl", 0, 10), file("g/.jsonl", 90*day, 5)},
			want:  nil, keptBytes: 10,
		},
		{
			name:  "no bounds: nothing goes",
			p:     Policy{},
			files: []File{file("g/a.jsonl", 900*day, 1<<40)},
			want:  nil, keptBytes: 1 << 40,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rm := tc.p.ToRemove(tc.files, t0)
			got := paths(rm.Files)
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("removes %v, want %v", got, want)
			}
			if rm.ByAge != tc.byAge || rm.BySize != tc.bySize || rm.IntoWhole != tc.intoWhole || rm.OverCap != tc.overCap || rm.KeptBytes != tc.keptBytes {
				t.Errorf("got byAge %d bySize %d intoWhole %v overCap %v kept %d bytes; want %d %d %v %v %d",
					rm.ByAge, rm.BySize, rm.IntoWhole, rm.OverCap, rm.KeptBytes, tc.byAge, tc.bySize, tc.intoWhole, tc.overCap, tc.keptBytes)
			}
		})
	}
}

// The plan does not depend on the order the folder was listed in.
func TestToRemoveOrderFree(t *testing.T) {
	p := Policy{MaxTotal: 20}
	files := []File{file("g/b.jsonl", day, 10), file("g/a.jsonl", day, 10), file("g/c.jsonl", day, 10)}
	want := paths(p.ToRemove(files, t0).Files)
	slices.Reverse(files)
	if got := paths(p.ToRemove(files, t0).Files); !slices.Equal(got, want) || !slices.Equal(want, []string{"g/a.jsonl"}) {
		t.Errorf("removes %v, then %v reversed; want [g/a.jsonl] both times", want, got)
	}
}
