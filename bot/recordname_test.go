package bot

import (
	"context"
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
	_, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Account.Guest = true
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 10, 0
	a, dir := newTestDaemon(t, ac, addr, "heuristic", nil)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { return a.Playing() > 0 })
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
