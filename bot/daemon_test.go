package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/live"
	"kriegbot/opponent/pgnread"
	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/server"
	"kriegbot/server/tddoor"
)

// testPasswords are the accounts of the daemon tests; TestNoPasswordInLogs
// searches everything the tests wrote for them.
var testPasswords = map[string]string{
	"kriegbot": "Kb-s3cret-8812", "sparring": "Sp-s3cret-2291", "owner": "Ow-s3cret-5521",
	"stranger": "St-s3cret-7734",
}

// testDir is a log folder for one daemon; when the test ends, everything
// written there (log, transcripts, records) is searched for the passwords.
func testDir(t *testing.T) string {
	d := t.TempDir()
	t.Cleanup(func() { assertNoPassword(t, d) })
	return d
}

func assertNoPassword(t *testing.T, dir string) {
	files := 0
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		files++
		data, _ := os.ReadFile(path)
		for h, pw := range testPasswords {
			if bytes.Contains(data, []byte(pw)) || bytes.Contains(data, []byte("fan-pw")) {
				t.Errorf("%s holds the password of %s", path, h)
			}
		}
		return nil
	})
	if files == 0 {
		t.Errorf("%s: no log written", dir)
	}
}

func startTestServer(t *testing.T, grace time.Duration) (*telnetServer, string) {
	t.Helper()
	return startTestServerConfig(t, server.Config{DisconnectGrace: grace})
}

// startTestServerConfig is startTestServer with more of the server's
// settings; the rules and the accounts are always the test ones.
func startTestServerConfig(t *testing.T, cfg server.Config) (*telnetServer, string) {
	t.Helper()
	return startTestServerTD(t, cfg, tddoor.Config{})
}

// startTestServerTD is startTestServerConfig with the TD's settings.
func startTestServerTD(t *testing.T, cfg server.Config, tdCfg tddoor.Config) (*telnetServer, string) {
	t.Helper()
	pw := map[string]string{}
	for h, p := range testPasswords {
		pw[h] = p
	}
	for i := 0; i < 20; i++ {
		pw[fmt.Sprintf("fan%02d", i)] = "fan-pw"
	}
	acc, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rules, cfg.Accounts = umpire.Olympiad(), acc
	srv, err := newTelnetServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tddoor.New(srv.Server, tdCfg); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return srv, ln.Addr().String()
}

// testConfig is a quick, valid configuration for a daemon named handle
// playing on the server at addr.
func testConfig(t *testing.T, handle, addr string) config.Config {
	t.Helper()
	c := config.Defaults()
	host, port, _ := net.SplitHostPort(addr)
	c.Server.Embedded = false
	c.Server.Host = host
	fmt.Sscan(port, &c.Server.Port)
	c.Sparring.Enabled = false
	c.Engine.OpponentModels = filepath.Join(t.TempDir(), "opponents")
	c.Account.Handle = handle
	c.Engine.Player = "heuristic"
	c.Engine.MoveOverhead = config.Duration{Duration: 20 * time.Millisecond}
	c.Engine.MinThink = config.Duration{Duration: time.Millisecond}
	c.Policy.Challenge = ""
	c.Policy.Greeting = "Hello! I am a computer."
	c.Policy.SeekBase, c.Policy.SeekIncrement = 2, 1
	c.Connection.ReconnectMin = config.Duration{Duration: 100 * time.Millisecond}
	c.Connection.ReconnectMax = config.Duration{Duration: 500 * time.Millisecond}
	c.Connection.LinesPerSecond = 100
	c.Connection.KeepAlive = config.Duration{Duration: time.Second}
	c.Connection.DeadAfter = config.Duration{Duration: 5 * time.Second}
	if err := c.Validate(); err != nil {
		t.Fatalf("test config: %v", err)
	}
	return c
}

func newTestDaemon(t *testing.T, cfg config.Config, addr, player string, console io.Writer) (*Daemon, string) {
	t.Helper()
	spec, err := players.Parse(player, players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	dir := testDir(t)
	logf, err := os.Create(filepath.Join(dir, "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	var con *Console
	if console != nil {
		con = NewConsole(console, false, false, nil) // piped: results only
	}
	d := New(cfg, Options{Name: cfg.Account.Handle, Password: testPasswords[cfg.Account.Handle], Addr: addr, Spec: spec,
		Log: zerolog.New(logf).With().Timestamp().Logger(), Console: con, Dir: dir, Seed: 42})
	return d, dir
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTwoDaemonsPlayCompleteGames runs two daemons against the server over
// loopback: one challenges, the other accepts, for three complete games.
func TestTwoDaemonsPlayCompleteGames(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = 3
	var console lockedBuffer
	a, adir := newTestDaemon(t, ac, addr, "heuristic", &console)
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	bdone := make(chan int, 1)
	go func() { bdone <- b.Run(ctx) }()
	if code := a.Run(ctx); code != ExitDone {
		t.Fatalf("exit %d", code)
	}
	f, w, l, dr := a.Score()
	if f != 3 || w+l+dr != 3 {
		t.Fatalf("score %d games +%d -%d =%d; console:\n%s", f, w, l, dr, console.String())
	}
	if n := strings.Count(console.String(), "\n"); n != 3 || !strings.Contains(console.String(), "vs sparring") {
		t.Fatalf("console lines:\n%s", console.String())
	}
	b.HardQuit()
	<-bdone
	fin := srv.Finished()
	if len(fin) != 3 {
		t.Fatalf("%d games on the server", len(fin))
	}
	for _, g := range fin {
		if g.Code == "Fla" || g.Code == "Dis" || g.Code == "Abo" {
			t.Fatalf("game %d ended by %s: %s", g.Number, g.Code, g.Description)
		}
	}
	// Every game has its JSON Lines record, and a PGN once the moves came.
	waitFor(t, func() bool { p, _ := filepath.Glob(filepath.Join(adir, "games", "*.pgn")); return len(p) >= 3 })
	recs, _ := filepath.Glob(filepath.Join(adir, "games", "*.jsonl"))
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		data, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		types := map[string]int{}
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%s:%d: %v", r, i+1, err)
			}
			types[fmt.Sprint(v["type"])]++
		}
		if types["game"] != 1 || types["result"] != 1 || types["attempt"] == 0 || types["answer"] == 0 {
			t.Fatalf("%s: line types %v", r, types)
		}
	}
	pgns, _ := filepath.Glob(filepath.Join(adir, "games", "*.pgn"))
	if len(pgns) != 3 {
		t.Fatalf("%d PGNs written, want 3", len(pgns))
	}
	for _, name := range pgns {
		data, _ := os.ReadFile(name)
		g, err := pgnread.ParseGame(data)
		if err != nil || len(g.Moves) == 0 || g.Result == "" {
			t.Fatalf("%s does not read back: %v\n%s", name, err, data)
		}
	}
	// What the games taught about the opponent is in its model file.
	counts, err := a.learner.store.Counts("sparring")
	if err != nil || counts.Games[0]+counts.Games[1] != 3 {
		t.Fatalf("sparring's model: %v games, err %v", counts, err)
	}
}

// TestChallengeBurst: twenty players challenge a daemon with max_games 1 at
// the same moment; exactly one game starts. The games are counted once
// every challenge has its answer (accepted, declined, withdrawn when the
// game started, or not issued because the game had started), so a slow
// daemon cannot pass by answering late.
func TestChallengeBurst(t *testing.T) {
	srv, addr := startTestServer(t, 0)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Policy.AbortAfter = config.Duration{Duration: time.Hour}
	d, _ := newTestDaemon(t, cfg, addr, "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- d.Run(ctx) }()
	waitFor(t, func() bool { return len(srv.Users()) == 1 })
	var fans []*iccclient.Session
	for i := 0; i < 20; i++ {
		s, err := iccclient.Dial(ctx, iccclient.Config{Addr: addr, Handle: fmt.Sprintf("fan%02d", i), Password: "fan-pw",
			Dial: plainDial, KeepAlive: -1, DeadAfter: -1, LinesPerSecond: 100})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fans = append(fans, s)
	}
	var wg sync.WaitGroup
	answers := make([]string, len(fans))
	for i, s := range fans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line, _ := protocol.MatchLine(protocol.MatchParams{Opponent: "kriegbot", Minutes: 5, Wild: 16})
			s.Send(line)
			for { // DG 30: the challenge is gone, with the reason
				m, err := s.Next(ctx)
				if err != nil {
					answers[i] = "no answer: " + err.Error()
					return
				}
				if r, ok := m.DG.(protocol.MatchRemovedDG); ok && r.Challenger == s.Handle() {
					answers[i] = r.Explanation
					return
				}
				if m.Kind == protocol.MsgText && strings.Contains(m.Text, "already playing") {
					answers[i] = m.Text
					return
				}
			}
		}()
	}
	wg.Wait()
	accepted := 0
	for i, a := range answers {
		switch {
		case strings.Contains(a, "accepts"):
			accepted++
		case !strings.Contains(a, "declines") && !strings.Contains(a, "withdrawn") && !strings.Contains(a, "already playing"):
			t.Errorf("fan%02d's challenge: %q", i, a)
		}
	}
	if playing, _ := srv.GameCount(); playing != 1 || accepted != 1 {
		t.Fatalf("%d challenges accepted, %d games started, want exactly 1", accepted, playing)
	}
	d.HardQuit()
	<-done
}

// TestOwnerCommands: the owner's tells work, a stranger's are refused.
func TestOwnerCommands(t *testing.T) {
	srv, addr := startTestServer(t, 0)
	cfg := testConfig(t, "kriegbot", addr)
	cfg.Owner.Handles = []string{"owner"}
	d, _ := newTestDaemon(t, cfg, addr, "heuristic", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- d.Run(ctx) }()
	owner := dialAs(t, ctx, addr, "owner")
	stranger := dialAs(t, ctx, addr, "stranger")
	waitFor(t, func() bool { return slices.Contains(srv.Users(), "kriegbot") }) // a tell before its login is lost
	tell := func(s *iccclient.Session, text string) string {
		line, _ := protocol.TellLine("kriegbot", text)
		s.Send(line)
		return readTell(t, ctx, s)
	}
	if r := tell(stranger, "hardquit"); !strings.Contains(r, "only from my owner") {
		t.Fatalf("stranger got %q", r)
	}
	if r := tell(owner, "status"); !strings.Contains(r, "games finished") {
		t.Fatalf("status: %q", r)
	}
	if r := tell(owner, "set policy.max_games 2"); !strings.Contains(r, "set to 2") {
		t.Fatalf("set: %q", r)
	}
	if r := tell(owner, "set account.handle evil"); !strings.Contains(r, "Not set") {
		t.Fatalf("set of a non-settable key: %q", r)
	}
	if d.config().Policy.MaxGames != 2 {
		t.Fatal("max_games not changed")
	}
	// The wild 16 games' player: a spec is parsed before it is taken, and
	// "" plays them with engine.player.
	if r := tell(owner, "set engine.wild16_player boardtree:mem=8"); !strings.Contains(r, "set to") {
		t.Fatalf("set engine.wild16_player: %q", r)
	}
	if r := tell(owner, "status"); !strings.Contains(r, "player heuristic (wild 16: boardtree:mem=8)") {
		t.Fatalf("status after setting the wild 16 player: %q", r)
	}
	if r := tell(owner, "set engine.wild16_player boardtree:memory=8"); !strings.Contains(r, "Not set") || !strings.Contains(r, "memory") {
		t.Fatalf("a bad wild 16 spec: %q", r)
	}
	if r := tell(owner, `set engine.wild16_player ""`); !strings.Contains(r, "set to") {
		t.Fatalf("set engine.wild16_player to none: %q", r)
	}
	if r := tell(owner, "status"); !strings.Contains(r, "player heuristic,") {
		t.Fatalf("status after clearing the wild 16 player: %q", r)
	}
	if d.config().Engine.Wild16Player != "" {
		t.Fatal("engine.wild16_player not cleared")
	}
	if r := tell(owner, "pause"); !strings.Contains(r, "Paused") {
		t.Fatalf("pause: %q", r)
	}
	select {
	case <-done:
		t.Fatal("the stranger's hardquit was obeyed")
	default:
	}
	if r := tell(owner, "softquit"); !strings.Contains(r, "finish") {
		t.Fatalf("softquit: %q", r)
	}
	select {
	case code := <-done:
		if code != ExitDone {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(wait):
		t.Fatal("softquit did not end the daemon")
	}
}

func plainDial(ctx context.Context, addr string) (iccclient.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

func dialAs(t *testing.T, ctx context.Context, addr, handle string) *iccclient.Session {
	t.Helper()
	s, err := iccclient.Dial(ctx, iccclient.Config{Addr: addr, Handle: handle, Password: testPasswords[handle],
		Dial: plainDial, KeepAlive: -1, DeadAfter: -1, LinesPerSecond: 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func readTell(t *testing.T, ctx context.Context, s *iccclient.Session) string {
	t.Helper()
	for {
		m, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := m.DG.(protocol.PersonalTellDG); ok {
			return d.Text
		}
	}
}

// wait bounds every wait for something that must happen: only a daemon
// that never does it fails, even on a slow, loaded machine (a passing test
// never waits this long).
const wait = 30 * time.Second

// waitFor polls cond until it holds, failing after wait.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(wait); !cond(); time.Sleep(25 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", wait)
		}
	}
}

// TestAnswersSeekAds: a bot that only seeks (no challenge) meets a bot that
// answers seek ads by its policy: the second plays the first's wild 16 seek
// (listed to it at login, as ICC lists the ads to a client that turns DG 50
// on) and the game is played to its end. A seek outside the policy is let
// be. (The README's "play it yourself" path: a person's "seek 5 0 w16" used
// to be ignored; only "match" was answered.)
func TestAnswersSeekAds(t *testing.T) {
	srv, addr := startTestServer(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	sc := testConfig(t, "sparring", addr)
	sc.Policy.Seek = true // a manual seek: the seeker accepts the "play" as a challenge
	sc.Policy.Games = 1
	seeker, _ := newTestDaemon(t, sc, addr, "random", nil)
	runInBackground(t, ctx, seeker)
	waitFor(t, func() bool { return srv.Seeks() == 1 })

	// Outside the time control (the seek is 2 minutes): let be.
	pc := testConfig(t, "stranger", addr)
	pc.Policy.MaxBase = 1
	picky, pickyDir := newTestDaemon(t, pc, addr, "heuristic", nil)
	pdone := make(chan int, 1)
	go func() { pdone <- picky.Run(ctx) }()
	waitFor(t, func() bool { // the ad was seen and let be
		log, _ := os.ReadFile(filepath.Join(pickyDir, "daemon.log"))
		return bytes.Contains(log, []byte(`"from":"sparring"`)) && bytes.Contains(log, []byte("not answering a seek"))
	})
	picky.HardQuit()
	<-pdone
	if len(srv.Finished()) != 0 || srv.Seeks() != 1 {
		t.Fatalf("a seek outside the time control was answered: finished %+v", srv.Finished())
	}

	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Games = 1
	answerer, adir := newTestDaemon(t, ac, addr, "heuristic", nil)
	if code := answerer.Run(ctx); code != ExitDone {
		t.Fatalf("exit %d", code)
	}
	log, _ := os.ReadFile(filepath.Join(adir, "daemon.log"))
	if fin := srv.Finished(); len(fin) != 1 {
		t.Fatalf("finished %+v, want one game; log:\n%s", fin, log)
	}
	if !bytes.Contains(log, []byte("answering a seek")) {
		t.Fatalf("the game did not come from a seek ad:\n%s", log)
	}
}

// TestLivePage: a daemon with the operator's page publishes its game while
// it plays (opponent, ply, clocks) and, after it, the finished game with its
// record's name for the replay link; no password is in any snapshot.
func TestLivePage(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	_, addr := startTestServer(t, 0)
	ac := testConfig(t, "kriegbot", addr)
	ac.Policy.Challenge = "sparring"
	ac.Policy.Games = 1
	page := live.New(t.TempDir(), nil)
	a, _ := newTestDaemon(t, ac, addr, "heuristic", nil)
	a.opt.Live = page
	b, _ := newTestDaemon(t, testConfig(t, "sparring", addr), addr, "random", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	runInBackground(t, ctx, b)
	done := make(chan int, 1)
	go func() { done <- a.Run(ctx) }()
	sawGame := false
	for !sawGame {
		select {
		case <-done:
			t.Fatal("the game ended before the page showed it")
		case <-time.After(20 * time.Millisecond):
		}
		for _, g := range page.Snapshot().Games {
			if g.Opponent == "sparring" && g.Ply > 0 && g.ClockUs > 0 && g.Control == "2+1" {
				sawGame = true
			}
		}
	}
	awaitExit(t, ctx, done, "the game never finished")
	// The last publication may precede the game's end by half a second.
	a.liveSeen.published = time.Time{}
	now := time.Now()
	a.livePublish(now, a.addr(), func() []live.Game { return a.liveICCGames(now) })
	snap := page.Snapshot()
	if len(snap.Finished) != 1 || snap.Finished[0].Record == "" || snap.Score.Finished != 1 || len(snap.Games) != 0 {
		t.Fatalf("after the game: %+v", snap)
	}
	js, _ := json.Marshal(snap)
	for _, pw := range testPasswords {
		if bytes.Contains(js, []byte(pw)) {
			t.Fatal("a password is in the page's snapshot")
		}
	}
}

// TestSpecFor: the wild 16 games (ICC's, the embedded server's and
// kriegspiel.org's wild16) play engine.wild16_player when it is set; the
// other variants, and every game when it is not, play engine.player.
func TestSpecFor(t *testing.T) {
	parse := func(s string) players.Spec {
		sp, err := players.Parse(s, players.Kinds())
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	berkeley, err := umpire.ParseVariant("berkeley_any")
	if err != nil {
		t.Fatal(err)
	}
	wild16, err := umpire.ParseVariant("wild16")
	if err != nil {
		t.Fatal(err)
	}
	both := &Daemon{opt: Options{Spec: parse("mcts:mem=8"), Wild16Spec: parse("boardtree:mem=8")}}
	one := &Daemon{opt: Options{Spec: parse("mcts:mem=8")}}
	for _, c := range []struct {
		d     *Daemon
		rules umpire.Rules
		want  string
	}{
		{both, umpire.ICC(), "boardtree:mem=8"},
		{both, umpire.Olympiad(), "boardtree:mem=8"},
		{both, umpire.Site(wild16), "boardtree:mem=8"},
		{both, umpire.Site(berkeley), "mcts:mem=8"},
		{one, umpire.ICC(), "mcts:mem=8"},
		{one, umpire.Site(berkeley), "mcts:mem=8"},
	} {
		if got := c.d.specFor(c.rules).String(); got != c.want {
			t.Errorf("%s rules, variant %q: %s, want %s", c.rules.Name, c.rules.Variant.Name, got, c.want)
		}
	}
}
