package replay

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"strings"
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
		var out, errs bytes.Buffer
		if code := Command([]string{"-plain", arg}, &out, &errs); code != 0 || !strings.Contains(out.String(), "0 differing") {
			t.Errorf("replay %s: exit %d, stderr %q, stdout ends %q", arg, code, errs.String(), out.String()[max(0, out.Len()-120):])
		}
	}
	page, err := Page(context.Background(), name, "test")
	if err != nil || !bytes.Contains(page, []byte("<html")) && !bytes.Contains(page, []byte("<!doctype")) {
		t.Errorf("Page of the gzipped record: %d bytes, %v", len(page), err)
	}
}
