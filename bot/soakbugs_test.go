package bot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/record"
)

// TestSoftQuitCrossesChallenge: a soft quit (the owner's softquit, the
// first signal) while a challenge we sent is still open. The daemon quits
// without withdrawing it; the opponent's accept crosses the quit, the game
// starts, and the server forfeits it by disconnection (on ICC, with no
// grace, at once), with no record on our side. Found by the fault soak;
// the daemon now withdraws its offers before quitting and waits a moment
// for a game that crossed the withdrawal (then plays it).
func TestSoftQuitCrossesChallenge(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
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

// TestGameEndedWhileAway: the game ends on the server while the daemon is
// cut off (here the opponent resigns; in the 300-game soak a draw by
// repetition came during a stall), so the server does not give it back.
// The daemon used to write it off after 15 s as "lost by disconnection"
// although it had won; it now asks the server what became of the game
// and records the server's result and moves.
func TestGameEndedWhileAway(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 20*time.Second)
	px := startProxy(t, addr, 0, nil)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 1, 0
	ac.Policy.Games = 1
	// Away for a second at least: the resignation comes first.
	ac.Connection.ReconnectMin = config.Duration{Duration: time.Second}
	ac.Connection.ReconnectMax = config.Duration{Duration: 2 * time.Second}
	a, adir := newTestDaemon(t, ac, px.addr(), "random", nil)
	a.stale = time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opp := dialAs(t, ctx, addr, "sparring") // accepts, never moves, resigns on cue
	go acceptChallenges(ctx, opp)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { p, _ := srv.GameCount(); return p == 1 })
	px.cut()
	opp.Send("resign")
	awaitExit(t, ctx, done, "the daemon did not finish its game")
	fin := srv.Finished()
	if len(fin) != 1 || fin[0].Code != "Res" {
		t.Fatalf("server games: %+v", fin)
	}
	if f, w, l, dr := a.Score(); f != 1 || w != 1 || l != 0 || dr != 0 {
		t.Errorf("daemon score: %d games, +%d -%d =%d; the server says %s %s", f, w, l, dr, fin[0].Result, fin[0].Description)
	}
	recs := recordsIn(t, adir)
	if len(recs) != 1 || recs[0].Result == nil || recs[0].Result.Result != fin[0].Result || recs[0].Moves == nil {
		t.Fatalf("records %+v; want one with the server's result %s and its moves", recs, fin[0].Result)
	}
}

// TestMoveListLostAtGameEnd: the connection dies just as the server
// answers the move list asked for at the game's end. The daemon used to
// ask once, so the record stayed without its moves and PGN; it now asks
// again after reconnecting.
func TestMoveListLostAtGameEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 20*time.Second)
	var pp atomic.Pointer[proxy] // the proxy cuts its own connections
	var lost atomic.Bool
	px := startProxy(t, addr, 0, func(b []byte) bool {
		if f := srv.Finished(); len(f) > 0 && bytes.Contains(b, []byte("Movelist for game")) && !lost.Swap(true) {
			go pp.Load().cut()
			return true
		}
		return false
	})
	pp.Store(px)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 1, 0
	ac.Policy.Games = 1
	a, adir := newTestDaemon(t, ac, px.addr(), "heuristic", nil)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	awaitExit(t, ctx, done, "the daemon did not finish its game")
	if !lost.Load() {
		t.Fatal("the move list was never lost: the test did not test")
	}
	fin := srv.Finished()
	recs := recordsIn(t, adir)
	if len(fin) != 1 || len(recs) != 1 || recs[0].Result == nil {
		t.Fatalf("server games %+v, records %+v", fin, recs)
	}
	legal := 0
	for _, an := range fin[0].Answers {
		if an.Legal {
			legal++
		}
	}
	if len(recs[0].Moves) != legal {
		t.Fatalf("the record has %d moves, the server %d", len(recs[0].Moves), legal)
	}
	if _, err := os.Stat(strings.TrimSuffix(recs[0].Name, ".jsonl") + ".pgn"); err != nil {
		t.Fatal(err)
	}
}

// recordsIn reads the game records in a daemon's folder.
func recordsIn(t *testing.T, dir string) []*record.Record {
	t.Helper()
	return readSoakRecords(t, &soakLink{handle: filepath.Base(dir), dir: dir})
}

// TestRestartWhileAway: the daemon is cut off in mid-game and the server
// restarts meanwhile (aborting the game, which the daemon does not hear).
// The new server knows no such game: the daemon used to record it as lost
// by disconnection; it now records "*" (unknown), and plays on.
func TestRestartWhileAway(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv1, addr := startTestServer(t, 20*time.Second)
	px := startProxy(t, addr, 0, nil)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.SeekBase, ac.Policy.SeekIncrement = 1, 0
	ac.Policy.Games = 1
	ac.Connection.ReconnectMin = config.Duration{Duration: time.Second}
	ac.Connection.ReconnectMax = config.Duration{Duration: 2 * time.Second}
	a, adir := newTestDaemon(t, ac, px.addr(), "random", nil)
	a.stale = time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opp := dialAs(t, ctx, addr, "sparring") // accepts, never moves
	go acceptChallenges(ctx, opp)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, func() bool { p, _ := srv1.GameCount(); return p == 1 })
	px.cut()
	srv1.Close()
	srv2 := restartServerAt(t, addr)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	runInBackground(t, ctx, b)
	awaitExit(t, ctx, done, "the daemon did not play its game on the new server")
	if fin := srv1.Finished(); len(fin) != 1 || fin[0].Result != "aborted" {
		t.Fatalf("old server's games: %+v", fin)
	}
	recs := recordsIn(t, adir)
	if len(recs) == 0 {
		t.Fatal("no record")
	}
	first := recs[0]
	for _, r := range recs[1:] {
		if r.Game.Start.Before(first.Game.Start) {
			first = r
		}
	}
	if first.Result == nil || first.Result.Result != "*" {
		t.Errorf("the aborted game's record says %+v; want result *", first.Result)
	}
	if len(recs) != 2 || len(srv2.Finished()) != 1 {
		t.Fatalf("%d records, %d games on the new server; want 2 and 1", len(recs), len(srv2.Finished()))
	}
}

// acceptChallenges accepts every challenge opp is sent and does nothing
// else (it never moves) until ctx ends or the session does.
func acceptChallenges(ctx context.Context, opp *iccclient.Session) {
	for {
		m, err := opp.Next(ctx)
		if err != nil {
			return
		}
		if _, ok := m.DG.(protocol.MatchDG); ok {
			opp.Send("accept kriegbot")
		}
	}
}
