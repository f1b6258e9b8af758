package bot

import (
	"context"
	"testing"
	"time"

	"kriegbot/config"
)

// TestLeavingAtOnceMidGameExitsAbandoned (issue 44 item 8): a second signal
// during a game leaves at once and loses the game; the exit status must say
// so (ExitAbandoned), not the 0 of a clean stop, so that a supervisor can
// tell. Before the fix Run returned ExitDone.
func TestLeavingAtOnceMidGameExitsAbandoned(t *testing.T) {
	_, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 10, 0
	a, _ := newTestDaemon(t, ac, addr, "heuristic", nil)
	// The partner thinks long on each attempt: the game is still on when
	// the daemon is told to leave.
	bc := testConfig(t, "sparring", addr)
	bc.Engine.MinThink = config.Duration{Duration: 10 * time.Second}
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { return a.Playing() > 0 })
	a.SoftQuit() // the first signal: finish the game...
	a.SoftQuit() // ...the second: leave now
	select {
	case code := <-done:
		if code != ExitAbandoned {
			t.Fatalf("exit %d after leaving a game in progress, want %d (ExitAbandoned)", code, ExitAbandoned)
		}
	case <-ctx.Done():
		t.Fatal("the daemon did not leave at the second signal")
	}
	if ab := a.Abandoned(); len(ab) != 1 {
		t.Fatalf("abandoned %q, want the one game in progress", ab)
	}
}
