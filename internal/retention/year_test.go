package retention

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A year of the shipped demo, scaled down, in memory: 4 games a day, each
// leaving the daemon's record (.jsonl, .pgn, every other game a .kbm), the
// embedded server's record (game-N.pgn and .jsonl, numbered from 1 again
// after each restart) and its share of a transcript held open for a day.
// The clock is injected; a pass runs after each game, as the daemon does
// (besides hourly). After every pass what is there must be within the cap and the age,
// the game in progress and the open transcript untouched, and the files
// beside the records (an opponent model, a note) left alone.
func TestYearStaysUnderCap(t *testing.T) {
	const (
		gamesPerDay = 4
		cap         = 256 << 10
		restartDays = 30
	)
	mem := newMemFS()
	root := filepath.Join("var", "kriegbot", "logs")
	pol := Policy{KeepWhole: 3 * day, MaxAge: 60 * day, MaxTotal: cap, Compress: true, Quiet: 15 * time.Minute}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	var inUse map[string]bool
	a := &Applier{Policy: pol, Root: root, Folders: []string{"games", "transcripts", "server"}, FS: mem,
		Now: func() time.Time { return now }, InUse: func() map[string]bool { return inUse }}
	rng := rand.New(rand.NewPCG(1, 2))
	model := filepath.Join("var", "kriegbot", "data", "opponents", "sparring.kbm")
	note := filepath.Join(root, "games", "README")
	mem.put(model, []byte("learnt"), start, false)
	mem.put(note, []byte("operator's note"), start, false)

	var written, writtenFiles int64
	put := func(path string, data []byte, add bool) string {
		path = filepath.Join(root, path)
		if _, ok := mem.files[path]; !ok || !add {
			writtenFiles++
		}
		mem.put(path, data, now, add)
		written += int64(len(data))
		return path
	}
	// lines are like a record's: compressible, not trivially so.
	lines := func(n int, kind string) []byte {
		var b strings.Builder
		for range n {
			fmt.Fprintf(&b, `{"type":%q,"move":"%c%d%c%d","t":"%s","iterations":%d,"value":%.3f}`+"\n",
				kind, 'a'+rng.IntN(8), 1+rng.IntN(8), 'a'+rng.IntN(8), 1+rng.IntN(8),
				now.Format(time.RFC3339Nano), rng.IntN(100000), rng.Float64()*2-1)
		}
		return []byte(b.String())
	}

	var passes, compressed, removed, worst int64
	var firstRecord []byte
	firstName := ""
	serverGame := 0
	transcript := ""
	for d := range 365 {
		if d%restartDays == 0 {
			serverGame = 0 // the embedded server numbers its games from 1 again
		}
		for g := range gamesPerDay {
			now = start.Add(time.Duration(d)*day + time.Duration(g)*6*time.Hour)
			if g == 0 { // a new connection each day: yesterday's transcript is closed
				transcript = put(fmt.Sprintf("transcripts/kriegbot-%s.txt", now.Format("20060102-150405.000")), lines(5, "connect"), false)
			}
			serverGame++
			base := fmt.Sprintf("games/%s-kriegbot-g%d-sparring", now.Format("20060102-150405"), serverGame)
			rec := lines(40, "attempt")
			if firstName == "" {
				firstName, firstRecord = put(base+".jsonl", rec, false), rec
			} else {
				put(base+".jsonl", rec, false)
			}
			if g%2 == 0 {
				put(base+".kbm", bytes.Repeat([]byte("c"), 300), false)
			}
			put(base+".pgn", fmt.Appendf(nil, "[Event \"w16\"]\n\n1. e4 e5 2. Nf3 %d-0\n", g%2), false)
			put(fmt.Sprintf("server/game-%d.jsonl", serverGame), lines(15, "server"), false)
			put(fmt.Sprintf("server/game-%d.pgn", serverGame), []byte("[Event \"kriegbot serve\"]\n1. e4 *\n"), false)
			put(strings.TrimPrefix(transcript, root+"/"), lines(10, "wire"), true)

			// The next game has begun: its record is held open, as is
			// the transcript.
			now = now.Add(time.Minute)
			next := put(fmt.Sprintf("games/%s-kriegbot-g%d-sparring.jsonl", now.Format("20060102-150405"), serverGame+1), lines(2, "game"), false)
			inUse = map[string]bool{next: true, transcript: true}
			rep := a.Apply()
			passes++
			if len(rep.Errors) > 0 {
				t.Fatalf("day %d: %v", d, rep.Errors)
			}
			compressed += int64(rep.Compressed)
			removed += int64(rep.Removed)
			size, oldest := mem.records(root)
			worst = max(worst, size)
			if size > cap || rep.KeptBytes != size || rep.OverCap {
				t.Fatalf("day %d: %d bytes of records (report: %d, over cap %v), cap %d", d, size, rep.KeptBytes, rep.OverCap, cap)
			}
			if age := now.Sub(oldest); age > pol.MaxAge {
				t.Fatalf("day %d: a record %v old is kept, max age %v", d, age, pol.MaxAge)
			}
			for path := range inUse {
				if _, ok := mem.files[path]; !ok {
					t.Fatalf("day %d: %s is in use but was removed or compressed", d, path)
				}
			}
			if d == 4 && g == 0 { // the first record is compressed by now, and reads back
				r, err := a.FS.Open(firstName + ".gz")
				if err != nil {
					t.Fatal(err)
				}
				zr, err := gzip.NewReader(r)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, firstRecord) {
					t.Errorf("the first record read back from its .gz differs (%v)", err)
				}
			}
			mem.Remove(next) // the next iteration writes its record whole
			writtenFiles--
		}
	}
	for _, p := range []string{model, note} {
		if _, ok := mem.files[p]; !ok {
			t.Errorf("%s is not a record but was removed", p)
		}
	}
	size, _ := mem.records(root)
	files := 0
	for path := range mem.files {
		if _, _, ok := split(path); ok && strings.HasPrefix(path, root) {
			files++
		}
	}
	t.Logf("a year: %d passes; %d files, %d bytes written; %d compressed, %d removed; kept %d files, %d bytes (at most %d); cap %d",
		passes, writtenFiles, written, compressed, removed, files, size, worst, cap)
	if removed == 0 || compressed == 0 || written < 10*cap {
		t.Errorf("the simulation should outgrow the cap and exercise both: %d written, %d compressed, %d removed", written, compressed, removed)
	}
}

// records sums the sizes of the record files under root and finds the
// oldest one's time.
func (m *memFS) records(root string) (int64, time.Time) {
	var total int64
	var oldest time.Time
	for path, f := range m.files {
		if _, _, ok := split(path); !ok || !strings.HasPrefix(path, root+"/") {
			continue
		}
		total += int64(len(f.data))
		if oldest.IsZero() || f.mod.Before(oldest) {
			oldest = f.mod
		}
	}
	return total, oldest
}
