package replay

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"testing"

	"kriegbot/engine/chess"
)

// A record the daemon's retention has gzipped replays as before: by its
// new name, by its old one, and as the live page's replay page.
func TestGzippedRecordReplays(t *testing.T) {
	name := playRecorded(t, chess.White, 5, 12)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(name+".gz", z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{name + ".gz", name} {
		rec, _, err := loadFile(t, arg, Source{})
		if err != nil {
			t.Errorf("load %s: %v", arg, err)
			continue
		}
		res, err := Run(context.Background(), rec, Options{})
		if err != nil || res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
			t.Errorf("replay %s: %v, %s", arg, err, Summary(res))
		}
	}
	page, err := Page(context.Background(), name, "test")
	if err != nil || !bytes.Contains(page, []byte("<html")) && !bytes.Contains(page, []byte("<!doctype")) {
		t.Errorf("Page of the gzipped record: %d bytes, %v", len(page), err)
	}
}
