package bot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSoftQuitCrossesChallenge: a soft quit (the owner's softquit, the
// first signal) while a challenge we sent is still open. The daemon quits
// without withdrawing it; the opponent's accept crosses the quit, the game
// starts, and the server forfeits it by disconnection (on ICC, with no
// grace, at once), with no record on our side. Found by the fault soak;
// the daemon now withdraws its offers before quitting and waits a moment
// for a game that crossed the withdrawal (then plays it).
func TestSoftQuitCrossesChallenge(t *testing.T) {
	srv, addr := startTestServer(t, 0)
	px := startProxy(t, addr, 200*time.Millisecond, nil) // the game start reaches us 200 ms late
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	// The crossed game is played out: 1+0 bounds it by the clocks (two
	// minutes in all), within the test's three.
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 1, 0
	a, _ := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	b, bdir := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool {
		log, _ := os.ReadFile(filepath.Join(bdir, "daemon.log"))
		return bytes.Contains(log, []byte("accepting challenge"))
	})
	a.SoftQuit()
	awaitExit(t, ctx, done, "the soft quit did not end the daemon")
	waitFor(t, func() bool { p, _ := srv.GameCount(); return p == 0 })
	for _, g := range srv.Finished() {
		if g.Code == "Dis" {
			t.Fatalf("game %d %s-%s: %s", g.Number, g.White, g.Black, g.Description)
		}
	}
}
