package bot

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/protocol/iccclient"
	"kriegbot/record"
)

// cutDialer dials the server until cut: then it closes the connections it
// made and refuses new ones, as a server that went down would look.
type cutDialer struct {
	mu    sync.Mutex
	conns []net.Conn
	down  bool
	tries int // dials refused
}

func (c *cutDialer) dial(ctx context.Context, addr string) (iccclient.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		c.tries++
		return nil, errors.New("connection refused (the test's server is down)")
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.conns = append(c.conns, nc)
	}
	return nc, err
}

func (c *cutDialer) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.down = true
	for _, nc := range c.conns {
		nc.Close()
	}
}

func (c *cutDialer) refused() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tries
}

// gameThenServerDown starts our daemon in a game against a slow partner,
// then takes the server out of its reach for good: the daemon, its
// folder, its dialer, the context and its exit code to come.
func gameThenServerDown(t *testing.T, quitWait time.Duration) (*Daemon, string, *cutDialer, context.Context, <-chan int) {
	t.Helper()
	_, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 10, 0
	a, dir := newTestDaemon(t, ac, addr, "heuristic", nil)
	cd := &cutDialer{}
	a.opt.Dial = cd.dial
	a.quitWait = quitWait
	bc := testConfig(t, "sparring", addr)
	bc.Engine.MinThink = config.Duration{Duration: 10 * time.Second}
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	t.Cleanup(cancel)
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { return a.Playing() > 0 })
	cd.cut()
	return a, dir, cd, ctx, done
}

// wantAbandonedRecord checks that the one game record in dir ends with a
// result line: "*", abandoned.
func wantAbandonedRecord(t *testing.T, dir string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if len(names) != 1 {
		t.Fatalf("records %q, want the one game's", names)
	}
	f, err := os.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f, names[0])
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == nil || rec.Result.Result != "*" || rec.Result.Reason != abandonedWhy {
		t.Fatalf("the abandoned game's record ends with %+v, want the result \"*\", %q", rec.Result, abandonedWhy)
	}
}

// TestQuitWithTheServerDown (issue 45, item 7): told to stop while its
// server is down with a game held, the daemon tries to come back for the
// game only as long as a server keeps one (quitWait), then leaves,
// saying so (ExitAbandoned) and closing the game's record with a result.
// It used to retry for ever.
func TestQuitWithTheServerDown(t *testing.T) {
	a, dir, _, ctx, done := gameThenServerDown(t, 300*time.Millisecond)
	a.SoftQuit()
	select {
	case code := <-done:
		if code != ExitAbandoned {
			t.Fatalf("exit %d, want %d (ExitAbandoned)", code, ExitAbandoned)
		}
	case <-ctx.Done():
		t.Fatal("a quitting daemon whose server stays down never stopped")
	}
	wantAbandonedRecord(t, dir)
}

// TestSecondSignalWithTheServerDown (issue 45, item 7): the second signal
// while the daemon waits for its server leaves at once, and the game's
// record still gets its result line (it used to have none).
func TestSecondSignalWithTheServerDown(t *testing.T) {
	a, dir, cd, ctx, done := gameThenServerDown(t, 0)
	a.SoftQuit()
	waitFor(t, func() bool { return cd.refused() >= 2 }) // trying to come back
	a.SoftQuit()
	select {
	case code := <-done:
		if code != ExitAbandoned {
			t.Fatalf("exit %d, want %d (ExitAbandoned)", code, ExitAbandoned)
		}
	case <-ctx.Done():
		t.Fatal("the second signal did not stop the daemon")
	}
	wantAbandonedRecord(t, dir)
}

// TestNoTranscriptOfAFailedConnection (issue 45, item 7): a connection
// that never got through leaves no transcript file (each used to leave
// an empty one); one that did leaves its transcript.
func TestNoTranscriptOfAFailedConnection(t *testing.T) {
	_, addr := startTestServer(t, 0)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Logs.Transcripts = true
	a, dir := newTestDaemon(t, cfg, addr, "heuristic", nil)
	cd := &cutDialer{down: true}
	a.opt.Dial = cd.dial
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { return cd.refused() >= 3 })
	a.HardQuit()
	<-done
	if names, _ := filepath.Glob(filepath.Join(dir, "transcripts", "*")); len(names) != 0 {
		t.Errorf("%d transcript files of connections that never got through: %q", len(names), names)
	}
	b, dir := newTestDaemon(t, cfg, addr, "heuristic", nil)
	go func() { done <- b.Run(ctx) }()
	written := func() bool {
		names, _ := filepath.Glob(filepath.Join(dir, "transcripts", "*"))
		fi, err := os.Stat(append(names, "none")[0])
		return len(names) == 1 && err == nil && fi.Size() > 0
	}
	waitFor(t, written) // the one connection's transcript
	b.HardQuit()
	<-done
}
