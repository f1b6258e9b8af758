package bot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/protocol/ksclient"
	"kriegbot/server/httpdoor"
)

// TestSpreadVariant: "rotate" creates in the variant played least, in
// turn on a tie, never in one resting unless all rest.
func TestSpreadVariant(t *testing.T) {
	now := time.Unix(1000, 0)
	vs := []string{"berkeley_any", "berkeley", "cincinnati"}
	later, sooner := map[string]time.Time{"cincinnati": now.Add(time.Minute)}, map[string]time.Time{
		"berkeley_any": now.Add(3 * time.Minute), "berkeley": now.Add(time.Minute), "cincinnati": now.Add(2 * time.Minute)}
	for _, tc := range []struct {
		name   string
		played map[string]int
		rested map[string]time.Time
		offset int
		want   string
	}{
		{"none played: the first", nil, nil, 0, "berkeley_any"},
		{"none played: in turn", nil, nil, 4, "berkeley"},
		{"the fewest played", map[string]int{"berkeley_any": 5, "berkeley": 1, "cincinnati": 2}, nil, 0, "berkeley"},
		{"the fewest played, whatever the turn", map[string]int{"berkeley_any": 5, "berkeley": 1, "cincinnati": 2}, nil, 2, "berkeley"},
		{"one untaken rests", map[string]int{"berkeley_any": 3, "berkeley": 3}, later, 2, "berkeley_any"},
		{"its rest over", map[string]int{"berkeley_any": 3, "berkeley": 3}, map[string]time.Time{"cincinnati": now}, 0, "cincinnati"},
		{"all rest: the one that ends first", nil, sooner, 0, "berkeley"},
	} {
		if got := spreadVariant(vs, tc.played, tc.rested, tc.offset, now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSpreadJoins: the open games in the variants played least come
// first, in the site's order (newest first) within a variant.
func TestSpreadJoins(t *testing.T) {
	open := []ksclient.OpenGame{{GameCode: "B1", RuleVariant: "berkeley"}, {GameCode: "B2", RuleVariant: "berkeley"},
		{GameCode: "A1", RuleVariant: "berkeley_any"}, {GameCode: "C1", RuleVariant: "cincinnati"}, {GameCode: "A2", RuleVariant: "berkeley_any"}}
	var got []string
	for _, o := range spreadJoins(open, map[string]int{"berkeley": 4, "berkeley_any": 1, "cincinnati": 1}) {
		got = append(got, o.GameCode)
	}
	if want := []string{"A1", "C1", "A2", "B1", "B2"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestKriegspielLobbySpread: on the HTTP door (serve -http), the daemon
// spreads its games over the variants it plays, against one rival bot
// per variant. Joining ("joins": each rival keeps a lobby game open, the
// one just joined always the newest), it takes the variant it has played
// least, not the newest game; creating with "rotate" ("creates": the
// rivals join only their variant, nobody plays cincinnati), a cincinnati
// game nobody takes is withdrawn and its variant rested, and the games
// alternate (the old rotation left the cincinnati game waiting for the
// site's 10 minutes).
func TestKriegspielLobbySpread(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ours    []string
		creates bool // we create (rotate) and the rivals join, or the reverse
	}{
		{"joins", []string{"berkeley_any", "berkeley"}, false},
		{"creates", []string{"berkeley_any", "berkeley", "cincinnati"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, door, _, warnings := httpDoorWith(t, httpdoor.Config{Minutes: 3, Inc: 2, Rate: 1000, Burst: 2000, TokenRate: 1000,
				TokenBurst: 2000, RegisterRate: 100, RegisterBurst: 100, JoinCooldown: -1})
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			const games = 4
			kb, dir, o := ksDaemonForTest(t, ctx, door, base, "kbspread", "heuristic", tc.ours, func(c *config.Config) {
				c.Policy.AcceptChallenges, c.Policy.Seek, c.Policy.MaxGames, c.Policy.Games = tc.creates, !tc.creates, 1, games
				if tc.creates {
					c.Server.CreateRuleVariant = "rotate"
				}
			})
			o.RotateAfter = 2 * time.Second
			rctx, rcancel := context.WithCancel(ctx)
			var wg sync.WaitGroup
			defer wg.Wait()
			defer rcancel()
			for _, v := range []string{"berkeley_any", "berkeley"} {
				rival, _, ro := ksDaemonForTest(t, ctx, door, base, "rv"+strings.ReplaceAll(v, "_", ""), "random", []string{v}, func(c *config.Config) {
					c.Policy.AcceptChallenges, c.Policy.Seek, c.Policy.MaxGames, c.Policy.Games = !tc.creates, tc.creates, 2, 100
				})
				wg.Add(1)
				go func() { defer wg.Done(); rival.RunKriegspiel(rctx, ro) }()
			}
			if code := kb.RunKriegspiel(ctx, o); code != ExitDone {
				t.Errorf("exit code %d", code)
			}
			rcancel()
			by := map[string]int{}
			for _, r := range records(t, dir) {
				by[r.Game.Rules.Variant.Name]++
			}
			if by["berkeley_any"] != games/2 || by["berkeley"] != games/2 || len(by) != 2 {
				t.Errorf("games by variant %v, want %d berkeley_any and %d berkeley", by, games/2, games/2)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "daemon.log"))
			if rested := strings.Contains(string(log), "nobody took our lobby game"); rested != tc.creates {
				t.Errorf("a variant rested: %v, want %v", rested, tc.creates)
			}
			if t.Failed() {
				t.Logf("daemon.log (tail):\n%s", tail(string(log), 6000))
			}
			if w := warnings.String(); w != "" {
				t.Errorf("the server warned:\n%s", tail(w, 3000))
			}
		})
	}
}

// TestLobbyUntaken: with "rotate", our waiting lobby game is withdrawn as
// one nobody takes only after RotateAfter and only in a variant with no
// game started this run. In a variant played before, its players are
// busy: resting it left the waiting place to cincinnati, which nobody
// plays (TestSiteBotsVariants, 2026-12-05: 12 of 18 lobby games
// withdrawn, berkeley and berkeley_any among them).
func TestLobbyUntaken(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name    string
		waiting string
		wait    lobbyWait
		played  map[string]int
		at      time.Duration
		want    bool
	}{
		{"a variant not played yet, long enough", "g1", lobbyWait{"g1", t0, "cincinnati"}, map[string]int{"berkeley": 3}, 90 * time.Second, true},
		{"not yet long enough", "g1", lobbyWait{"g1", t0, "cincinnati"}, nil, 89 * time.Second, false},
		{"a variant played before: its players are busy", "g1", lobbyWait{"g1", t0, "berkeley"}, map[string]int{"berkeley": 1}, time.Hour, false},
		{"no waiting game", "", lobbyWait{"g1", t0, "cincinnati"}, nil, time.Hour, false},
		{"another waiting game, just seen", "g2", lobbyWait{"g1", t0, "cincinnati"}, nil, time.Hour, false},
		{"a variant unknown", "g1", lobbyWait{"g1", t0, ""}, nil, time.Hour, false},
	} {
		r := &ksRun{o: KSOptions{RotateAfter: 90 * time.Second}, waiting: tc.waiting, wait: tc.wait, played: tc.played}
		if got := r.untaken(t0.Add(tc.at)); got != tc.want {
			t.Errorf("%s: untaken %v, want %v", tc.name, got, tc.want)
		}
	}
}
