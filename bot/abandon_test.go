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
	// The partner thinks long on each attempt: the game is still on when
	// the daemon is told to leave.
	a, _, ctx, done := midGame(t, false, 10*time.Second)
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

// midGame starts a test server, our daemon (a heuristic player, as a
// guest when guest is set) challenging a random sparring partner that
// thinks at least partnerThink an attempt, and returns once the game is
// on: the daemon, its folder, the context both run under and the daemon's
// exit code to come.
func midGame(t *testing.T, guest bool, partnerThink time.Duration) (*Daemon, string, context.Context, <-chan int) {
	t.Helper()
	_, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Account.Guest = guest
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 10, 0
	a, dir := newTestDaemon(t, ac, addr, "heuristic", nil)
	bc := testConfig(t, "sparring", addr)
	if partnerThink > 0 {
		bc.Engine.MinThink = config.Duration{Duration: partnerThink}
	}
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	t.Cleanup(cancel)
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { return a.Playing() > 0 })
	return a, dir, ctx, done
}
