package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuestRecordNamedAfterAssignedHandle (issue 44 item 9): a guest's
// record file was named after the configured account.handle ("kriegbot"),
// which a guest does not use, beside the opponent's handle, so a record of
// Guest0002's game read like another guest's. It must carry our handle as
// the server assigned it at login.
func TestGuestRecordNamedAfterAssignedHandle(t *testing.T) {
	a, dir, _, done := midGame(t, true, 0)
	a.HardQuit()
	<-done
	recs, err := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %q (%v), want the one game's", recs, err)
	}
	// 20260102-150405-<us>-g<N>-<opponent>.jsonl
	name := filepath.Base(recs[0])
	if f := strings.Split(name, "-"); len(f) < 5 || f[2] != "Guest0001" || !strings.HasPrefix(f[4], "sparring") {
		data, _ := os.ReadFile(recs[0])
		t.Fatalf("record %s, want ...-Guest0001-gN-sparring.jsonl (us as the server named us); its game line: %.300s", name, data)
	}
}
