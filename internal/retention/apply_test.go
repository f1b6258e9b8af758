package retention

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// write makes root/rel with data and modification time at.
func write(t *testing.T, root, rel string, data []byte, at time.Time) string {
	t.Helper()
	path := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
	return path
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestApplyCompressesAndOpenReads(t *testing.T) {
	root := t.TempDir()
	rec := []byte(strings.Repeat(`{"type":"attempt","move":"e2e4"}`+"\n", 200))
	old := write(t, root, "games/a-g1-x.jsonl", rec, t0.Add(-3*day))
	pgn := write(t, root, "games/a-g1-x.pgn", []byte("[Event \"x\"]\n"), t0.Add(-3*day))
	live := write(t, root, "games/b-g2-x.jsonl", rec, t0.Add(-3*day)) // held open
	fresh := write(t, root, "transcripts/k-1.txt", rec, t0.Add(-time.Minute))
	liveAbs, _ := filepath.Abs(live)
	a := &Applier{
		Policy: Policy{KeepWhole: day, Compress: true, Quiet: 15 * time.Minute},
		Root:   root, Folders: []string{"games", "transcripts", "server"}, // no server/ yet: empty
		Now:   func() time.Time { return t0 },
		InUse: func() map[string]bool { return map[string]bool{liveAbs: true} },
	}
	rep := a.Apply()
	if len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	if rep.Compressed != 1 || rep.CompressedFrom != int64(len(rec)) || rep.CompressedTo >= rep.CompressedFrom || rep.Removed != 0 {
		t.Errorf("report %+v: want one file compressed, smaller, nothing removed", rep)
	}
	if exists(old) || !exists(old+".gz") || !exists(pgn) || !exists(live) || !exists(fresh) {
		t.Errorf("after the pass: %s %v, .gz %v, pgn %v, open %v, fresh %v", old, exists(old), exists(old+".gz"), exists(pgn), exists(live), exists(fresh))
	}
	st, err := os.Stat(old + ".gz")
	if err != nil || !st.ModTime().Equal(t0.Add(-3*day)) {
		t.Errorf("the .gz should keep the record's time %v: %v, %v", t0.Add(-3*day), st, err)
	}
	// By its old name, its new name, and a plain file.
	for _, name := range []string{old, old + ".gz", live} {
		r, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || !bytes.Equal(got, rec) {
			t.Errorf("Open(%s) read %d bytes (%v), want the record's %d", name, len(got), err, len(rec))
		}
	}
	if _, err := Open(filepath.Join(root, "games/none.jsonl")); !os.IsNotExist(err) {
		t.Errorf("Open of a missing record: %v, want not exist", err)
	}
}

func TestApplyRemovesOnlyRecords(t *testing.T) {
	root := t.TempDir()
	old := t0.Add(-100 * day)
	keep := []string{
		write(t, root, "games/notes.md", []byte("mine"), old),
		write(t, root, "games/sub/a.jsonl", []byte("{}"), old), // subfolders are not looked into
		write(t, root, "kriegbot.log.1", []byte("{}"), old),
		write(t, root, "data/opponents/x.kbm", []byte("model"), old),
	}
	gone := []string{
		write(t, root, "games/a-g1-x.jsonl.gz", []byte("{}"), old),
		write(t, root, "games/a-g1-x.kbm", []byte("counts"), old),
		write(t, root, "games/a-g1-x.html", []byte("<p>"), old),
		write(t, root, "server/game-1.pgn", []byte("1."), old),
	}
	a := &Applier{Policy: Policy{MaxAge: 30 * day}, Root: root, Folders: []string{"games", "transcripts", "server"},
		Now: func() time.Time { return t0 }, InUse: func() map[string]bool { return nil }}
	rep := a.Apply()
	if len(rep.Errors) > 0 || rep.Removed != len(gone) || rep.ByAge != 2 {
		t.Errorf("report %+v: want %d files of 2 records removed by age", rep, len(gone))
	}
	for _, p := range keep {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}
	for _, p := range gone {
		if exists(p) {
			t.Errorf("%s was kept", p)
		}
	}
}
