package bot

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
	"kriegbot/replay"
	"kriegbot/server"
	"kriegbot/server/httpdoor"
)

// httpDoorForTest starts a table with the kriegspiel.org HTTP door (as
// `kriegbot serve -http`) on loopback ports: its base URL, the door and
// the server's warnings (what it logs at warn level or above).
func httpDoorForTest(t *testing.T) (string, *httpdoor.Door, *telnetServer, *syncBuf) {
	t.Helper()
	return httpDoorWith(t, httpdoor.Config{Minutes: 3, Inc: 2, Rate: 1000, Burst: 2000, TokenRate: 1000, TokenBurst: 2000, RegisterRate: 100, RegisterBurst: 100})
}

// httpDoorWith is httpDoorForTest with the door's configuration dc.
func httpDoorWith(t *testing.T, dc httpdoor.Config) (string, *httpdoor.Door, *telnetServer, *syncBuf) {
	t.Helper()
	warnings := &syncBuf{}
	rules := umpire.Olympiad()
	rules.MaxPlies = 300 // a game of two weak players may otherwise run 2,000 plies
	srv, err := newTelnetServer(server.Config{Rules: rules,
		Log: zerolog.New(warnings).Level(zerolog.WarnLevel)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	door, err := httpdoor.New(srv.Server, dc)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go door.ServeAPI(ln)
	return "http://" + ln.Addr().String(), door, srv, warnings
}

// ksDaemonForTest is a daemon playing one game on the HTTP door at base
// as handle, with player, registered there with variants.
func ksDaemonForTest(t *testing.T, ctx context.Context, door *httpdoor.Door, base, handle, player string, variants []string, tune func(*config.Config)) (*Daemon, string, KSOptions) {
	t.Helper()
	cfg := testConfig(t, handle, "127.0.0.1:1")
	cfg.Server.Protocol, cfg.Server.URL = "kriegspiel", base
	cfg.Server.SupportedRuleVariants, cfg.Server.CreateRuleVariant = variants, variants[0]
	cfg.Account.TokenFile = filepath.Join(t.TempDir(), "token")
	cfg.Policy.Games, cfg.Policy.Resign = 1, false
	tune(&cfg)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	url, token, err := embeddedHTTPDoor(ctx, door, cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, dir := newTestDaemon(t, cfg, "", player, nil)
	return d, dir, KSOptions{URL: url, Token: token, Poll: 50 * time.Millisecond, Stall: 5 * time.Second,
		JoinEvery: 100 * time.Millisecond, CreateEvery: 100 * time.Millisecond, Rate: 1000}
}

// TestKriegspielVariants: the daemon plays whole games of the site's
// variants on the HTTP door (serve -http), creating a lobby game in the
// variant, against another daemon (random, which asks "Any?" where the
// variant has it) that joins it. Each record names the variant, holds
// what the variant announces (the opponent's "Any?" answers and public
// refusals, drops), and replays with 0 differing choices; the server
// logs no warning.
func TestKriegspielVariants(t *testing.T) {
	variants := []string{"berkeley_any", "cincinnati", "crazykrieg"}
	if !testing.Short() {
		variants = append(variants, "berkeley", "english", "rand")
	}
	base, door, _, warnings := httpDoorForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	dirs, rivals := map[string]string{}, map[string]string{}
	codes := make([]int, 2*len(variants))
	for i, v := range variants {
		ours, dir, o := ksDaemonForTest(t, ctx, door, base, "kb"+v[:4]+string(rune('a'+i)), "heuristic", []string{v}, func(c *config.Config) {
			c.Policy.AcceptChallenges, c.Policy.Seek = true, false
		})
		rival, rdir, ro := ksDaemonForTest(t, ctx, door, base, "rv"+v[:4]+string(rune('a'+i)), "random", []string{v}, func(c *config.Config) {
			c.Policy.AcceptChallenges, c.Policy.Seek = false, true
		})
		dirs[v], rivals[v] = dir, rdir
		t.Cleanup(func() {
			if t.Failed() {
				for _, d := range []string{dir, rdir} {
					b, _ := os.ReadFile(filepath.Join(d, "daemon.log"))
					t.Logf("%s %s daemon.log (tail):\n%s", v, d, tail(string(b), 4000))
				}
			}
		})
		wg.Add(2)
		go func() { defer wg.Done(); codes[2*i] = ours.RunKriegspiel(ctx, o) }()
		go func() { defer wg.Done(); codes[2*i+1] = rival.RunKriegspiel(ctx, ro) }()
	}
	wg.Wait()
	for i, c := range codes {
		if c != ExitDone {
			t.Errorf("daemon %d (%s) exit code %d", i, variants[i/2], c)
		}
	}
	for _, v := range variants {
		for _, d := range []string{dirs[v], rivals[v]} {
			b, _ := os.ReadFile(filepath.Join(d, "daemon.log"))
			for _, bad := range []string{"referee words not understood", "our view disagrees", "attempt rejected", "not asked"} {
				if strings.Contains(string(b), bad) {
					t.Errorf("%s: a daemon logged %q", v, bad)
				}
			}
		}
		recs := records(t, dirs[v])
		if len(recs) != 1 {
			t.Errorf("%s: %d records, want 1", v, len(recs))
			continue
		}
		r := recs[0]
		if r.Game.Rules.Variant.Name != v || r.Game.Rules.Name != "ks" {
			t.Errorf("%s: the record's rules are %+v", v, r.Game.Rules)
		}
		if r.Result == nil || r.Result.Result == "*" || len(r.Moves) < 10 {
			t.Errorf("%s: result %+v, %d moves", v, r.Result, len(r.Moves))
		}
		theirAny, theirRefused, drops := 0, 0, 0
		for _, s := range r.Steps {
			if s.Kind != record.StepAnswer {
				continue
			}
			w := s.View
			switch {
			case !w.Own && (w.Verdict == umpire.HasAny || w.Verdict == umpire.NoAny):
				theirAny++
			case !w.Own && w.Illegal:
				theirRefused++
			case w.Drop != chess.NoPieceType:
				drops++
			}
		}
		if theirRefused == 0 || v == "berkeley_any" && theirAny == 0 || v == "crazykrieg" && drops == 0 && len(r.Moves) > 60 {
			t.Errorf("%s: heard %d of the opponent's \"Any?\" answers, %d of its refusals, %d drops", v, theirAny, theirRefused, drops)
		}
		rep, err := replay.Run(context.Background(), r, replay.Options{})
		if err != nil || rep.Attempts == 0 || rep.Differing != 0 {
			t.Errorf("%s: replay: %v; %d attempts re-run, %d differ (%v)", v, err, rep.Attempts, rep.Differing, rep.Warnings)
		}
		t.Logf("%s: %s in %d moves (%s); opponent's Any? %d, refusals %d; drops %d; %d attempts replayed",
			v, r.Result.Result, len(r.Moves), r.Result.Reason, theirAny, theirRefused, drops, rep.Attempts)
	}
	if w := warnings.String(); w != "" {
		t.Errorf("the server warned:\n%s", tail(w, 3000))
	}
}
