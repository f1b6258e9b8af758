package rotate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// line is a JSON line of exactly n bytes (n >= 30) with a sequence number.
func line(seq, n int) []byte {
	head := fmt.Sprintf(`{"seq":%d,"pad":"`, seq)
	tail := "\"}\n"
	return []byte(head + strings.Repeat("x", n-len(head)-len(tail)) + tail)
}

// readAll returns the files of dir by name and their contents.
func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// checkWhole fails unless every file holds only whole JSON lines.
func checkWhole(t *testing.T, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Errorf("%s does not end with a line break", name)
		}
		for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			if len(b) == 0 {
				break
			}
			var v map[string]any
			if err := json.Unmarshal(l, &v); err != nil {
				t.Errorf("%s line %d is not a whole JSON line: %q", name, i+1, l)
			}
		}
	}
}

func TestRotatesBySizeInOrder(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "kriegbot.log", 100, 5)
	if err != nil {
		t.Fatal(err)
	}
	// 40-byte lines, 100-byte limit: two lines per file; 9 lines make 5 files.
	for i := range 9 {
		if _, err := w.Write(line(i, 40)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := readAll(t, dir)
	checkWhole(t, files)
	want := map[string]string{ // file -> sequence numbers, oldest file highest suffix
		"kriegbot.log.4": "0 1", "kriegbot.log.3": "2 3", "kriegbot.log.2": "4 5",
		"kriegbot.log.1": "6 7", "kriegbot.log": "8",
	}
	if len(files) != len(want) {
		t.Fatalf("files %v, want %v", keys(files), want)
	}
	for name, seqs := range want {
		if got := seqsOf(t, files[name]); got != seqs {
			t.Errorf("%s holds lines %q, want %q", name, got, seqs)
		}
		if len(files[name]) > 100 {
			t.Errorf("%s is %d bytes, over the 100-byte limit", name, len(files[name]))
		}
	}
}

func TestRetentionDropsOldest(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "a.log", 50, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 { // one 40-byte line per file
		if _, err := w.Write(line(i, 40)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	files := readAll(t, dir)
	if got := strings.Join(keys(files), " "); got != "a.log a.log.1 a.log.2" {
		t.Fatalf("files %q, want a.log a.log.1 a.log.2", got)
	}
	for name, seq := range map[string]string{"a.log": "9", "a.log.1": "8", "a.log.2": "7"} {
		if got := seqsOf(t, files[name]); got != seq {
			t.Errorf("%s holds %q, want %q", name, got, seq)
		}
	}
}

func TestKeepZeroDeletes(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "a.log", 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		w.Write(line(i, 40))
	}
	w.Close()
	files := readAll(t, dir)
	if len(files) != 1 || seqsOf(t, files["a.log"]) != "2" {
		t.Fatalf("files %v, want only a.log with line 2", keys(files))
	}
}

func TestOversizedWriteIsNotSplit(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "a.log", 50, 3)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(line(0, 30))
	w.Write(line(1, 120)) // larger than the limit: a file of its own
	w.Write(line(2, 30))
	w.Close()
	files := readAll(t, dir)
	checkWhole(t, files)
	for name, seq := range map[string]string{"a.log.2": "0", "a.log.1": "1", "a.log": "2"} {
		if got := seqsOf(t, files[name]); got != seq {
			t.Errorf("%s holds %q, want %q", name, got, seq)
		}
	}
}

func TestReopenAppendsAndCountsExistingSize(t *testing.T) {
	dir := t.TempDir()
	w, _ := Open(dir, "a.log", 100, 3)
	w.Write(line(0, 40))
	w.Write(line(1, 40))
	w.Close()
	w, err := Open(dir, "a.log", 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(line(2, 40)) // 120 > 100: must rotate, not grow the old file
	w.Close()
	files := readAll(t, dir)
	if seqsOf(t, files["a.log.1"]) != "0 1" || seqsOf(t, files["a.log"]) != "2" {
		t.Fatalf("after reopen: a.log.1=%q a.log=%q", files["a.log.1"], files["a.log"])
	}
}

func TestConcurrentWritersKeepLinesWhole(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "a.log", 1000, 1000)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				if _, err := w.Write(line(g*each+i, 30+(g*7+i)%60)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	w.Close()
	files := readAll(t, dir)
	checkWhole(t, files)
	seen := map[int]bool{}
	for name, b := range files {
		if len(b) > 1000 {
			t.Errorf("%s is %d bytes, over the limit", name, len(b))
		}
		for _, f := range strings.Fields(seqsOf(t, b)) {
			var n int
			fmt.Sscan(f, &n)
			if seen[n] {
				t.Errorf("line %d written twice", n)
			}
			seen[n] = true
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d lines found, want %d", len(seen), writers*each)
	}
}

func TestClosedAndBadArguments(t *testing.T) {
	dir := t.TempDir()
	w, _ := Open(dir, "a.log", 100, 1)
	w.Close()
	if _, err := w.Write([]byte("x\n")); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Write after Close: %v, want os.ErrClosed", err)
	}
	for _, c := range []struct {
		name string
		max  int64
		keep int
	}{{"a.log", 0, 1}, {"a.log", 10, -1}, {"", 10, 1}, {"../a.log", 10, 1}} {
		if _, err := Open(dir, c.name, c.max, c.keep); err == nil {
			t.Errorf("Open(%q, %d, %d) succeeded", c.name, c.max, c.keep)
		}
	}
}

func keys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// seqsOf lists the sequence numbers of the JSON lines in b.
func seqsOf(t *testing.T, b []byte) string {
	t.Helper()
	var out []string
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var v struct{ Seq int }
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("bad JSON line: %v", err)
		}
		out = append(out, fmt.Sprint(v.Seq))
	}
	return strings.Join(out, " ")
}

func BenchmarkWrite(b *testing.B) {
	w, err := Open(b.TempDir(), "a.log", 1<<20, 2)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	l := line(1, 200)
	b.ReportAllocs()
	b.SetBytes(int64(len(l)))
	for b.Loop() {
		w.Write(l)
	}
}

// When rotation fails (here: name.1 is a non-empty directory), lines are
// still written to the current file, and the error is reported.
func TestFailedRotationKeepsWriting(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a.log.1", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir, "a.log", 50, 1)
	if err != nil {
		t.Fatal(err)
	}
	if w.Path() != filepath.Join(dir, "a.log") {
		t.Errorf("Path() = %s", w.Path())
	}
	var errs int
	for i := range 3 {
		l := line(i, 40)
		n, err := w.Write(l)
		if n != len(l) {
			t.Fatalf("write %d: n = %d, %v", i, n, err)
		}
		if err != nil {
			errs++
		}
	}
	w.Close()
	if errs == 0 {
		t.Error("rotation into a directory reported no error")
	}
	b, err := os.ReadFile(filepath.Join(dir, "a.log"))
	if err != nil {
		t.Fatal(err)
	}
	if got := seqsOf(t, b); got != "0 1 2" {
		t.Errorf("a.log holds %q, want all three lines", got)
	}
}
