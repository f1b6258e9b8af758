package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/live"
	"kriegbot/protocol/ksclient"
	"kriegbot/record"
	"kriegbot/replay"
)

const ksToken = "ksbot_00112233aabbccdd.SeCrEtSeCrEtSeCrEtSeCrEtSeCrEt12"

// syncBuf is a log sink safe for the daemon's goroutines.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type ksRunResult struct {
	code int
	dir  string
	log  string
	d    *Daemon
}

// runKS plays games on the fake site with the random player and returns
// when the daemon exits (failing the test after limit).
func runKS(t *testing.T, site *fakeSite, srv *fakeServer, token string, games int, limit time.Duration, o KSOptions, tune ...func(*config.Config, *players.Spec)) ksRunResult {
	t.Helper()
	return runKSWith(t, site, srv, token, games, limit, o, nil, tune...)
}

// runKSWith is runKS with the daemon's Options changed by withOpt.
func runKSWith(t *testing.T, site *fakeSite, srv *fakeServer, token string, games int, limit time.Duration, o KSOptions, withOpt func(*Options), tune ...func(*config.Config, *players.Spec)) ksRunResult {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Defaults()
	cfg.Server.Protocol, cfg.Server.Embedded, cfg.Server.URL = "kriegspiel", false, srv.url()
	// The fake site plays wild 16 only.
	cfg.Server.SupportedRuleVariants, cfg.Server.CreateRuleVariant = []string{"wild16"}, "wild16"
	cfg.Sparring.Enabled, cfg.Policy.Challenge = false, ""
	cfg.Policy.Games = games
	cfg.Policy.Resign = false
	cfg.Engine.OpponentModels = filepath.Join(dir, "opponents")
	cfg.Logs.Dir = dir
	cfg.Connection.ReconnectMin.Duration = 100 * time.Millisecond
	cfg.Connection.ReconnectMax.Duration = 400 * time.Millisecond
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	spec, err := players.Parse("random", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tune {
		f(&cfg, &spec)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuf{}
	opt := Options{Name: "kriegbot", Spec: spec, Log: zerolog.New(logs).Level(zerolog.DebugLevel).With().Timestamp().Logger(), Dir: dir, Seed: 11}
	if withOpt != nil {
		withOpt(&opt)
	}
	d := New(cfg, opt)
	if o.Poll == 0 {
		o.Poll = 100 * time.Millisecond
	}
	if o.Stall == 0 {
		o.Stall = 2 * time.Second
	}
	if o.CreateEvery == 0 {
		o.CreateEvery = 100 * time.Millisecond
	}
	o.URL, o.Token = srv.url(), token
	if o.Rate == 0 {
		o.Rate = 500 // the fake site is local; pacing has its own test
	}
	o.Timeout = 2 * time.Second
	o.HTTP = &http.Client{}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	code := d.RunKriegspiel(ctx, o)
	if ctx.Err() != nil {
		n, routes, _ := site.snapshot()
		t.Fatalf("the daemon did not finish within %v (%d requests: %v)\nlog tail:\n%s", limit, n, routes, tail(logs.String(), 3000))
	}
	if n, routes, _ := site.snapshot(); n > 5000 {
		t.Errorf("%d requests: %v", n, routes)
	}
	return ksRunResult{code: code, dir: dir, log: logs.String(), d: d}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// checkClean: no breach of the bot's duties, and the token in no file.
func checkClean(t *testing.T, site *fakeSite, res ksRunResult) {
	t.Helper()
	_, _, v := site.snapshot()
	for _, s := range v {
		t.Errorf("violation: %s", s)
	}
	filepath.WalkDir(res.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(ksToken)) || bytes.Contains(b, []byte(ksToken[len(ksToken)-20:])) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
	if strings.Contains(res.log, ksToken[len(ksToken)-20:]) {
		t.Error("the log holds the token")
	}
}

// records returns the finished game records in dir.
func records(t *testing.T, dir string) []*record.Record {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	var out []*record.Record
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Read(f, p)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, rec)
	}
	return out
}

// TestKriegspielGame: a whole game against the umpire-backed site, from
// the lobby to the PGN: records, learning, transcript, no token anywhere.
func TestKriegspielGame(t *testing.T) {
	site := newFakeSite(t, ksToken)
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 1, 60*time.Second, KSOptions{})
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	checkClean(t, site, res)
	recs := records(t, res.dir)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	r := recs[0]
	if r.Result == nil || r.Result.Result != "1-0" && r.Result.Result != "0-1" || len(r.Moves) < 20 {
		t.Fatalf("record: result %+v, %d moves", r.Result, len(r.Moves))
	}
	if r.Game.Rules.Name != "ks" || r.Game.Rules.MaxReversible != 2000 {
		t.Errorf("record rules %+v, want the site's (ks)", r.Game.Rules)
	}
	// The record replays: the same player, fed what it heard, asks the same.
	rep, err := replay.Run(context.Background(), r, replay.Options{})
	if err != nil || rep.Attempts == 0 || rep.Differing != 0 {
		t.Errorf("replay: %v; %d attempts re-run, %d differ (%v)", err, rep.Attempts, rep.Differing, rep.Warnings)
	}
	if _, err := os.Stat(strings.TrimSuffix(r.Name, ".jsonl") + ".pgn"); err != nil {
		t.Errorf("no PGN: %v", err)
	}
	if _, err := os.Stat(filepath.Join(res.dir, "opponents")); err != nil {
		t.Errorf("nothing learnt: %v", err)
	}
	n, routes, _ := site.snapshot()
	if routes["POST /bots/profile"] != 1 {
		t.Errorf("profile synced %d times, want once", routes["POST /bots/profile"])
	}
	if routes["GET /game/{ref}/moves"] != 1 {
		t.Errorf("transcript fetched %d times, want once", routes["GET /game/{ref}/moves"])
	}
	if n > 3000 {
		t.Errorf("%d requests for one game", n)
	}
	ts, _ := filepath.Glob(filepath.Join(res.dir, "transcripts", "*"))
	if len(ts) == 0 {
		t.Error("no transcript")
	} else if b, _ := os.ReadFile(ts[0]); !bytes.Contains(b, []byte("Authorization: Bearer ***")) {
		t.Error("the transcript does not show the masked header")
	}
	if f, _, _, _ := res.d.Score(); f != 1 {
		t.Errorf("score counts %d games", f)
	}
}

// TestKriegspielUnauthorized: a refused token stops the bot with exit 2
// at once.
func TestKriegspielUnauthorized(t *testing.T) {
	site := newFakeSite(t, ksToken)
	srv := site.serve(t)
	res := runKS(t, site, srv, "ksbot_wrongwrongwrong.xxxxxxxxxxxxxxxx", 1, 20*time.Second, KSOptions{})
	if res.code != ExitBadConfig {
		t.Fatalf("exit code %d, want %d", res.code, ExitBadConfig)
	}
	if n, routes, _ := site.snapshot(); n > 3 {
		t.Errorf("%d requests after a 401: %v", n, routes)
	}
}

// TestKriegspielFaults: garbage, unknown words, dropped and stalled event
// streams, 429 and 500 bursts, clocks that disagree: the game is played
// out, with no breach and no token written.
func TestKriegspielFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	for _, tc := range []struct {
		name  string
		setup func(*fakeSite)
		o     KSOptions
		check func(t *testing.T, site *fakeSite, res ksRunResult)
	}{
		{name: "garbage and truncated JSON", setup: func(s *fakeSite) {
			var n atomic.Int64
			s.fault = func(w http.ResponseWriter, r *http.Request) bool {
				if r.Method != "GET" || strings.HasSuffix(r.URL.Path, "/events") || n.Add(1)%4 != 0 {
					return false
				}
				w.Header().Set("Content-Type", "application/json")
				if n.Load()%8 == 0 {
					w.Write([]byte(`{"games":[{"game_id":"abc`))
				} else {
					w.Write([]byte(`{"state":"active","your_color":"purple","move_number":"x"}`))
				}
				return true
			}
		}, check: func(t *testing.T, _ *fakeSite, res ksRunResult) {
			if !strings.Contains(res.log, "reply not understood") {
				t.Error("garbage not logged")
			}
		}},
		{name: "unknown announcement word", setup: func(s *fakeSite) {
			s.extraWords = []string{"Fog of war descends"}
		}, check: func(t *testing.T, _ *fakeSite, res ksRunResult) {
			if !strings.Contains(res.log, "Fog of war descends") || !strings.Contains(res.log, "not understood") {
				t.Error("the unknown word was not logged")
			}
		}},
		{name: "event stream drops", setup: func(s *fakeSite) { s.sse = "drop" }, check: func(t *testing.T, s *fakeSite, _ ksRunResult) {
			if _, routes, _ := s.snapshot(); routes["GET /game/{ref}/events"] < 2 {
				t.Errorf("the stream was opened %d times", routes["GET /game/{ref}/events"])
			}
		}},
		{name: "event stream stalls", setup: func(s *fakeSite) { s.sse = "stall" }, o: KSOptions{Stall: 300 * time.Millisecond}, check: func(t *testing.T, s *fakeSite, res ksRunResult) {
			if !strings.Contains(res.log, "stalled") {
				t.Error("no stall noticed")
			}
		}},
		{name: "429 and 500 bursts", setup: func(s *fakeSite) {
			var n atomic.Int64
			var burstStart atomic.Int64
			s.fault = func(w http.ResponseWriter, r *http.Request) bool {
				k := n.Add(1)
				if k%40 >= 30 { // ten bad answers out of every forty
					if burstStart.Load() == 0 {
						burstStart.Store(time.Now().UnixNano())
					}
					if k%2 == 0 {
						w.Header().Set("Retry-After", "1")
						writeJSON(w, 429, map[string]any{"detail": "Too Many Requests"})
					} else {
						writeJSON(w, 503, map[string]any{"detail": "Database unavailable"})
					}
					return true
				}
				return false
			}
		}, check: func(t *testing.T, s *fakeSite, res ksRunResult) {
			if !strings.Contains(res.log, "retry_in") {
				t.Error("no backoff logged")
			}
		}},
		{name: "clocks that disagree", setup: func(s *fakeSite) { s.clockNoise = true }},
		{name: "move replies lost", setup: func(s *fakeSite) {
			var n atomic.Int64
			s.fault = func(w http.ResponseWriter, r *http.Request) bool {
				if r.Method != "POST" || !strings.HasSuffix(r.URL.Path, "/move") {
					return false
				}
				k := n.Add(1)
				if k%3 != 0 {
					return false
				}
				if k%6 == 0 { // played (or refused), but the reply is lost
					s.route(httptest.NewRecorder(), r)
				}
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close()
				}
				return true
			}
		}, check: func(t *testing.T, _ *fakeSite, res ksRunResult) {
			if !strings.Contains(res.log, "never reached the site") {
				t.Error("no attempt was sent again")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newFakeSite(t, ksToken)
			if tc.setup != nil {
				tc.setup(site)
			}
			srv := site.serve(t)
			res := runKS(t, site, srv, ksToken, 1, 90*time.Second, tc.o)
			if res.code != ExitDone {
				t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
			}
			checkClean(t, site, res)
			recs := records(t, res.dir)
			if len(recs) != 1 || recs[0].Result == nil {
				t.Fatalf("%d records, or no result", len(recs))
			}
			if tc.check != nil {
				tc.check(t, site, res)
			}
		})
	}
}

// TestKriegspielBackoff: while every request fails, the bot waits longer
// and longer: a bounded number of requests over a fixed time.
func TestKriegspielBackoff(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	site := newFakeSite(t, ksToken)
	site.fault = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/bots/profile" {
			return false
		}
		if strings.Contains(r.URL.Path, "mine") {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, map[string]any{"detail": "slow down"})
			return true
		}
		writeJSON(w, 500, map[string]any{"detail": "boom"})
		return true
	}
	srv := site.serve(t)
	dir := t.TempDir()
	cfg := config.Defaults()
	cfg.Server.Protocol, cfg.Server.Embedded = "kriegspiel", false
	cfg.Sparring.Enabled, cfg.Policy.Challenge = false, ""
	cfg.Logs.Dir, cfg.Engine.OpponentModels = dir, ""
	spec, _ := players.Parse("random", players.Kinds())
	d := New(cfg, Options{Name: "kriegbot", Spec: spec, Log: zerolog.Nop(), Dir: dir, Seed: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	code := d.RunKriegspiel(ctx, KSOptions{URL: srv.url(), Token: ksToken, Poll: 20 * time.Millisecond, Timeout: time.Second,
		BackoffMin: 100 * time.Millisecond, BackoffMax: 2 * time.Second})
	if code != ExitDone {
		t.Fatalf("exit code %d", code)
	}
	// Retry-After: 1 s holds every request back at least a second each time:
	// about 3 polls in 3 s (a steady 20 ms poll would make 150).
	if n, routes, _ := site.snapshot(); n > 8 {
		t.Errorf("%d requests in 3 s of 429s: %v", n, routes)
	}
}

// TestKriegspielVanishes: the site forgets the game mid-way (404): it ends
// for us, with its record, and the bot goes on.
func TestKriegspielVanishes(t *testing.T) {
	site := newFakeSite(t, ksToken)
	site.vanishAfter = 10
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 1, 60*time.Second, KSOptions{})
	checkClean(t, site, res)
	if res.code != ExitDone {
		t.Fatalf("exit code %d", res.code)
	}
	// The vanished game is recorded unfinished and does not count; the
	// next one is played out.
	recs := records(t, res.dir)
	unfinished, finished := 0, 0
	for _, r := range recs {
		switch {
		case r.Result == nil:
			t.Errorf("%s: no result line", r.Name)
		case r.Result.Result == "*":
			unfinished++
		default:
			finished++
		}
	}
	if unfinished != 1 || finished != 1 {
		t.Fatalf("%d unfinished and %d finished records; want one each", unfinished, finished)
	}
	if !strings.Contains(res.log, "no longer knows the game") {
		t.Error("vanishing not logged")
	}
	if f, _, _, _ := res.d.Score(); f != 1 {
		t.Errorf("score counts %d games, want the finished one only", f)
	}
}

// TestKriegspielRestart: the site goes down mid-game and comes back: the
// bot reconnects (backoff), reopens the stream and finishes the game, with
// no attempt sent twice.
func TestKriegspielRestart(t *testing.T) {
	site := newFakeSite(t, ksToken)
	srv := site.serve(t)
	var once sync.Once
	var restarted atomic.Bool
	site.fault = func(w http.ResponseWriter, r *http.Request) bool {
		site.mu.Lock()
		plies := 0
		for _, g := range site.games {
			plies = g.u.Plies()
		}
		site.mu.Unlock()
		if plies >= 12 {
			once.Do(func() { restarted.Store(true); go srv.restart(t, 500*time.Millisecond) })
		}
		return false
	}
	res := runKS(t, site, srv, ksToken, 1, 90*time.Second, KSOptions{})
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	checkClean(t, site, res)
	recs := records(t, res.dir)
	if len(recs) != 1 || recs[0].Result == nil || recs[0].Result.Result == "*" {
		t.Fatalf("%d records; want one finished game", len(recs))
	}
	if !restarted.Load() || !strings.Contains(res.log, "request failed") {
		t.Error("the site was not down mid-game")
	}
}

// TestKriegspielResume: the bot (re)started while a game of its is in
// progress picks it up from the scoresheet and plays it out.
func TestKriegspielResume(t *testing.T) {
	site := newFakeSite(t, ksToken)
	site.mu.Lock()
	g := site.newGame()
	g.state, g.started = "active", time.Now()
	for g.u.Plies() < 9 {
		pos := g.u.Position()
		var l chess.MoveList
		pos.GenerateLegal(&l)
		a, _ := g.u.Attempt(l.Moves[site.rng.IntN(l.N)])
		site.record(g, a)
	}
	if g.u.Side() != g.bot {
		site.opponentMove(g)
	}
	site.mu.Unlock()
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 1, 60*time.Second, KSOptions{})
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	checkClean(t, site, res)
	recs := records(t, res.dir)
	if len(recs) != 1 || recs[0].Result == nil || recs[0].Result.Result == "*" || len(recs[0].Moves) < 20 {
		t.Fatalf("%d records; want the resumed game finished", len(recs))
	}
}

// TestKriegspielJoin: when seeking, the bot joins a bot's open game (after
// asking who made it), never a human's, and at most once per JoinEvery.
func TestKriegspielJoin(t *testing.T) {
	site := newFakeSite(t, ksToken)
	site.open = map[string]string{"HUMAN2": "alice", "BOTGM3": "otherbot", "BOTGM4": "thirdbot"}
	site.bots = map[string]bool{"otherbot": true, "thirdbot": true}
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 2, 60*time.Second, KSOptions{JoinEvery: 400 * time.Millisecond}, func(c *config.Config, _ *players.Spec) {
		c.Policy.AcceptChallenges, c.Policy.Seek = false, true
	})
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	checkClean(t, site, res)
	site.mu.Lock()
	joins := append([]time.Time(nil), site.joins...)
	_, human := site.open["HUMAN2"]
	site.mu.Unlock()
	if len(joins) != 2 || !human {
		t.Fatalf("%d joins, human game still open %v; want both bots' games joined", len(joins), human)
	}
	if gap := joins[1].Sub(joins[0]); gap < 400*time.Millisecond {
		t.Errorf("joins %v apart, JoinEvery is 400ms", gap)
	}
	if _, routes, _ := site.snapshot(); routes["POST /game/create"] != 0 {
		t.Errorf("created %d lobby games while not accepting", routes["POST /game/create"])
	}
	if len(records(t, res.dir)) != 2 {
		t.Error("want two records")
	}
}

// lowValue is a random player that values every position as lost.
type lowValue struct{ players.Player }

func (lowValue) Value() (float64, bool) { return -0.99, true }

// TestKriegspielResigns: a player that values its game as lost resigns it
// on the site after policy.resign_moves turns.
func TestKriegspielResigns(t *testing.T) {
	site := newFakeSite(t, ksToken)
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 1, 60*time.Second, KSOptions{}, func(c *config.Config, sp *players.Spec) {
		c.Policy.Resign, c.Policy.ResignBelow, c.Policy.ResignMoves = true, -0.9, 3
		base := *sp
		kinds := []players.Kind{{Name: "low", Build: func(*players.Options) (func() players.Player, error) {
			return func() players.Player { return lowValue{base.New()} }, nil
		}}}
		s, err := players.Parse("low", kinds)
		if err != nil {
			t.Fatal(err)
		}
		*sp = s
	})
	if res.code != ExitDone {
		t.Fatalf("exit code %d", res.code)
	}
	checkClean(t, site, res)
	if _, routes, _ := site.snapshot(); routes["POST /game/{ref}/resign"] != 1 {
		t.Errorf("resigned %d times", routes["POST /game/{ref}/resign"])
	}
	recs := records(t, res.dir)
	if len(recs) != 1 || recs[0].Result == nil || recs[0].Result.Reason != "resignation" {
		t.Fatalf("record: %+v", recs)
	}
	if _, _, l, _ := res.d.Score(); l != 1 {
		t.Error("the resignation is not a loss")
	}
}

// TestKriegspielSoftQuit: a soft quit during a game finishes it (Playing
// says there is one), records it, and leaves no lobby game behind.
func TestKriegspielSoftQuit(t *testing.T) {
	site := newFakeSite(t, ksToken)
	site.resignAfter = 60
	srv := site.serve(t)
	dir := t.TempDir()
	cfg := config.Defaults()
	cfg.Server.Protocol, cfg.Server.Embedded = "kriegspiel", false
	cfg.Sparring.Enabled, cfg.Policy.Challenge = false, ""
	cfg.Logs.Dir, cfg.Engine.OpponentModels = dir, ""
	spec, _ := players.Parse("random", players.Kinds())
	d := New(cfg, Options{Name: "kriegbot", Spec: spec, Log: zerolog.Nop(), Dir: dir, Seed: 5})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- d.RunKriegspiel(ctx, KSOptions{URL: srv.url(), Token: ksToken, Poll: 50 * time.Millisecond, Timeout: 2 * time.Second, CreateEvery: 50 * time.Millisecond, Rate: 500})
	}()
	for d.Playing() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("no game started")
		case <-time.After(5 * time.Millisecond):
		}
	}
	d.SoftQuit()
	code := <-done
	if code != ExitDone || ctx.Err() != nil {
		t.Fatalf("exit %d, %v", code, ctx.Err())
	}
	recs := records(t, dir)
	if len(recs) != 1 || recs[0].Result == nil || recs[0].Result.Result == "*" {
		t.Fatalf("%d records; want the game played out", len(recs))
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	for _, g := range site.games {
		if g.state == "waiting" {
			t.Error("a lobby game was left open")
		}
	}
}

// TestKriegspielQuitWaiting: quitting while our lobby game waits deletes it.
func TestKriegspielQuitWaiting(t *testing.T) {
	site := newFakeSite(t, ksToken)
	site.noJoin = true
	srv := site.serve(t)
	cfg := config.Defaults()
	cfg.Server.Protocol, cfg.Server.Embedded = "kriegspiel", false
	cfg.Sparring.Enabled, cfg.Policy.Challenge = false, ""
	cfg.Engine.OpponentModels = ""
	spec, _ := players.Parse("random", players.Kinds())
	d := New(cfg, Options{Name: "kriegbot", Spec: spec, Log: zerolog.Nop(), Seed: 5})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- d.RunKriegspiel(ctx, KSOptions{URL: srv.url(), Token: ksToken, Poll: 50 * time.Millisecond, Timeout: 2 * time.Second})
	}()
	for {
		if _, routes, _ := site.snapshot(); routes["POST /game/create"] > 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("no lobby game created")
		case <-time.After(5 * time.Millisecond):
		}
	}
	waitFor(t, func() bool { // a poll after the create: the game is known as ours
		site.mu.Lock()
		defer site.mu.Unlock()
		created := false
		for _, route := range site.log {
			created = created || route == "POST /game/create"
			if created && route == "GET /game/mine/active" {
				return true
			}
		}
		return false
	})
	d.SoftQuit()
	if code := <-done; code != ExitDone || ctx.Err() != nil {
		t.Fatalf("exit %d, %v", code, ctx.Err())
	}
	if _, routes, _ := site.snapshot(); routes["DELETE /game/{ref}"] != 1 || routes["POST /game/create"] != 1 {
		t.Errorf("routes %v: want one lobby game, deleted once", routes)
	}
}

func TestControlOf(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		move int
		w, b float64
		want string
	}{
		{1, 1500, 1500, "1500+10"},
		{1, 120, 120, "120+10"},
		{2, 132, 119.8, "120+12"},
		{2, 1510, 1499.2, "1500+10"},
		{2, 1000, 120, "120+10"}, // an increment past a minute is not believed
		{3, 100, 100, "1500+10"},
		{1, 5, 5, "1500+10"},
	} {
		st := ksclient.State{MoveNumber: tc.move, Clock: &ksclient.Clock{WhiteRemaining: f(tc.w), BlackRemaining: f(tc.b)}}
		if got := controlOf(st).String(); got != tc.want {
			t.Errorf("move %d, clocks %v/%v: %s, want %s", tc.move, tc.w, tc.b, got, tc.want)
		}
	}
	if got := controlOf(ksclient.State{MoveNumber: 1}).String(); got != "1500+10" {
		t.Errorf("no clock: %s", got)
	}
}

// TestKriegspielLivePage: on kriegspiel.org the daemon feeds the operator's
// page as on ICC: the game in progress (opponent, ply, clocks, what was
// heard), then the finished game with its record's name and the score;
// the token is in no snapshot.
func TestKriegspielLivePage(t *testing.T) {
	site := newFakeSite(t, ksToken)
	// Slow attempts, so that the game lasts several of the page's
	// half-second publications.
	site.fault = func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/move") {
			time.Sleep(80 * time.Millisecond)
		}
		return false
	}
	srv := site.serve(t)
	page := live.New(t.TempDir(), nil)
	var mu sync.Mutex
	var seen []live.Snapshot
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			snap := page.Snapshot()
			if len(snap.Games) > 0 {
				mu.Lock()
				seen = append(seen, snap)
				mu.Unlock()
			}
		}
	}()
	res := runKSWith(t, site, srv, ksToken, 1, 60*time.Second, KSOptions{}, func(o *Options) { o.Live = page })
	close(stop)
	<-watched
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	mu.Lock()
	defer mu.Unlock()
	playing := false
	for _, snap := range seen {
		for _, g := range snap.Games {
			if g.Opponent != "" && g.Ply > 0 && g.ClockUs > 0 && g.ClockThem > 0 && len(g.Heard) > 0 && g.Control == "25+10" {
				playing = true
			}
		}
	}
	if !playing {
		t.Fatalf("no snapshot showed the game in progress (%d with games)", len(seen))
	}
	snap := page.Snapshot()
	if len(snap.Games) != 0 || len(snap.Finished) != 1 || snap.Finished[0].Record == "" || snap.Finished[0].Plies == 0 ||
		snap.Score.Finished != 1 || snap.Server != srv.url() {
		t.Fatalf("after the game: %+v", snap)
	}
	js, _ := json.Marshal(snap)
	if bytes.Contains(js, []byte(ksToken[len(ksToken)-20:])) {
		t.Fatal("the token is in the page's snapshot")
	}
}

// TestKriegspielGameLimitConcurrent: policy.games counts finished games,
// but on the site several play at once: with games = 2 and max_games = 3
// the bot offers no third lobby game while two are in progress, and plays
// exactly two.
func TestKriegspielGameLimitConcurrent(t *testing.T) {
	site := newFakeSite(t, ksToken)
	srv := site.serve(t)
	res := runKS(t, site, srv, ksToken, 2, 60*time.Second, KSOptions{}, func(c *config.Config, _ *players.Spec) {
		c.Policy.AcceptChallenges, c.Policy.Seek, c.Policy.MaxGames = true, false, 3
	})
	if res.code != ExitDone {
		t.Fatalf("exit code %d\n%s", res.code, tail(res.log, 3000))
	}
	checkClean(t, site, res)
	_, routes, _ := site.snapshot()
	if n := len(records(t, res.dir)); n != 2 || routes["POST /game/create"] != 2 {
		t.Fatalf("%d games played from %d lobby games, want 2 of 2", n, routes["POST /game/create"])
	}
}
