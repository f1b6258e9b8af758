package bot

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestSeekAfterServerKilled (issue 45 item 1): the server dies mid-game
// without a word (kill -9: the daemon hears nothing of the game's end) and
// comes back with a seek ad standing. The daemon logs in still holding the
// dead game, so the ad arrives while it is busy; it resolves the game ("No
// such game." → "*") and must then answer the ad. Before the fix it let the
// ad be for good and idled until the test's deadline.
func TestSeekAfterServerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv1, addr := startTestServer(t, 0)
	var dead atomic.Bool // the server's bytes to the daemon are lost: it hears nothing of the kill
	px := startProxy(t, addr, 0, func([]byte) bool { return dead.Load() })

	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Seek, ac.Policy.AnswerSeeks, ac.Policy.Games = false, true, 1
	a, _ := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	a.stale = 500 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()

	// The first game: a seeker on the first server, our daemon answers.
	bc := testConfig(t, "sparring", addr)
	bc.Policy.Seek, bc.Policy.AnswerSeeks = true, false
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	bctx, bcancel := context.WithCancel(ctx)
	bdone := make(chan struct{})
	go func() { defer close(bdone); b.Run(bctx) }()
	waitFor(t, func() bool { playing, _ := srv1.GameCount(); return playing == 1 })

	// kill -9: nothing more reaches our daemon, the seeker is gone, the
	// server with it, and the connection drops.
	dead.Store(true)
	b.HardQuit()
	bcancel()
	<-bdone
	srv1.Close()
	px.cut()
	dead.Store(false)

	// The new server has a seek standing before our daemon can log in
	// again (the seeker reaches it on another port first), so the ad comes
	// at login while the dead game is still held.
	srv2 := newRestartServer(t)
	side, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv2.Serve(side)
	cc := testConfig(t, "stranger", side.Addr().String())
	cc.Policy.Seek, cc.Policy.AnswerSeeks = true, false
	c, _ := newTestDaemon(t, cc, side.Addr().String(), "random", nil)
	runInBackground(t, ctx, c)
	waitFor(t, func() bool { return srv2.Seeks() == 1 })
	var ln net.Listener
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	go srv2.Serve(ln)

	awaitExit(t, ctx, done, "the daemon never answered the seek standing after the restart")
	if fin := srv2.Finished(); len(fin) != 1 || fin[0].White != "kriegbot" && fin[0].Black != "kriegbot" {
		t.Fatalf("games on the new server: %+v", fin)
	}
}
