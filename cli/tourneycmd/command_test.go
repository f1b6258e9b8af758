package tourneycmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/umpire"
	"kriegbot/record"
)

func TestParsePlayers(t *testing.T) {
	tests := []struct {
		in      string
		handles string
		specs   string
	}{
		{"mcts,mcts:approach=a,heuristic,random", "mcts mcts-a heuristic random", "mcts|mcts:approach=a|heuristic|random"},
		// A spec's own options continue it; NAME=SPEC names the account.
		{"mcts:mem=2,threads=2, random ,alpha=mcts:approach=b", "mcts-2-2 random alpha", "mcts:mem=2,threads=2|random|mcts:approach=b"},
		{"random,random,random", "random random2 random3", "random|random|random"},
	}
	for _, tc := range tests {
		got, err := parsePlayers(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		var hs, ss []string
		for _, e := range got {
			hs = append(hs, e.handle)
			ss = append(ss, e.spec.String())
		}
		if strings.Join(hs, " ") != tc.handles || strings.Join(ss, "|") != tc.specs {
			t.Errorf("%q: handles %q specs %q, want %q %q", tc.in, hs, ss, tc.handles, tc.specs)
		}
	}
	for in, want := range map[string]string{
		"":                            "at least two",
		"mcts":                        "at least two",
		"mcts,chess960":               "chess960",
		"a b=random,random":           "name",
		"x=random,x=heuristic":        "name",
		"td=random,heuristic":         "tournament director",
		strings.Repeat("random,", 17): "at most 16",
	} {
		if _, err := parsePlayers(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to mention %q", in, err, want)
		}
	}
}

func TestFlags(t *testing.T) {
	bad := map[string][]string{
		"-tc":                                  {"-players", "random,random", "-tc", "1"},
		"-rules":                               {"-players", "random,random", "-rules", "fide"},
		"loopback":                             {"-players", "random,random", "-addr", "0.0.0.0:5000"},
		"format":                               {"-players", "random,random", "-format", "knockout"},
		"-players":                             {"-tc", "1+1"},
		"absent":                               {"-players", "random,random", "-absent", "0s"},
		"-rounds too":                          {"-players", "random,random", "-wait", "1m"},
		"-rounds 5: a round robin has its own": {"-players", "random,random,random", "-format", "rr", "-rounds", "5"},
	}
	for want, args := range bad {
		var errs bytes.Buffer
		if _, code, done := parseFlags(args, &errs); !done || code == 0 || !strings.Contains(errs.String(), want) {
			t.Errorf("%q: code %d done %v, stderr %q (want %q)", args, code, done, errs.String(), want)
		}
	}
	opt, _, done := parseFlags([]string{"-players", "random,heuristic,random,heuristic,random"}, &bytes.Buffer{})
	if done || opt.rounds != 3 || opt.minutes != 1 || opt.inc != 1 || opt.style != "icc" {
		t.Errorf("defaults: %+v", opt)
	}
	if got := opt.eventSpec(); got != "name=KO1 system=swiss rounds=3 tc=1+1 style=icc start=5" {
		t.Errorf("event spec %q", got)
	}
	if b := opt.bound(); b < 3*time.Minute || b > 2*time.Hour {
		t.Errorf("bound %s", b)
	}
	// The event's time-out lets every round's game run to the ply cap,
	// both clocks spent: a long game is no reason to give up the event.
	rules, err := opt.serverRules()
	if err != nil {
		t.Fatal(err)
	}
	longest := 2*time.Minute + time.Duration(rules.MaxPlies)*time.Second
	if b := opt.bound(); b < 3*longest {
		t.Errorf("bound %s: less than 3 rounds of %s, the longest game at 1+1 under a %d-ply cap", b, longest, rules.MaxPlies)
	}
	if !rules.DeadMaterial || rules.MaxPlies == 0 || rules != umpire.Olympiad().Bounded() {
		t.Errorf("server rules %+v: want olympiad's, bounded as the demo's server", rules)
	}
}

func TestDefaultRounds(t *testing.T) {
	for n, want := range map[int]int{2: 1, 3: 3, 4: 3, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5} {
		if got := defaultRounds(n); got != want {
			t.Errorf("%d players: %d rounds, want %d", n, got, want)
		}
	}
}

// TestTourneyCommand plays a whole 4-player, 2-round Swiss with the fast
// players through the command: it must end, print every result and the
// crosstable, and leave the event's PGN (one game per pairing), text and
// HTML crosstable, and each daemon's records of exactly its paired games.
func TestTourneyCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	out := filepath.Join(t.TempDir(), "o")
	var stdout, stderr bytes.Buffer
	code := Command([]string{"-players", "random,heuristic,random,heuristic", "-rounds", "2", "-tc", "0+1",
		"-out", out, "-seed", "7", "-timeout", "4m"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	st, ok, err := readState(filepath.Join(out, "tourney-1.json"))
	if !ok || err != nil || st.Status != "done" || len(st.Event.Played) != 2 {
		t.Fatalf("state %+v %v %v", st, ok, err)
	}
	text := stdout.String()
	pairs := map[string]int{} // "white black" of every paired game
	for _, r := range st.Event.Played {
		if len(r.Games) != 2 || len(r.Byes) != 0 {
			t.Errorf("round %d: %d games, %d byes", r.Number, len(r.Games), len(r.Byes))
		}
		for _, g := range r.Games {
			w, b := st.Event.Players[g.White].Handle, st.Event.Players[g.Black].Handle
			pairs[w+" "+b]++
			line := w + " - " + b + " " + g.Result.String()
			if !g.Result.Played() || !strings.Contains(text, line) {
				t.Errorf("round %d: %q not played or not shown", r.Number, line)
			}
		}
	}
	if !strings.Contains(text, "No  Player") || !strings.Contains(text, "event done") {
		t.Errorf("no crosstable or end line:\n%s", text)
	}
	pgn, err := os.ReadFile(filepath.Join(out, "tourney-1.pgn"))
	if err != nil || strings.Count(string(pgn), "[Event ") != 4 {
		t.Errorf("PGN: %d games, %v", strings.Count(string(pgn), "[Event "), err)
	}
	for _, ext := range []string{"txt", "html"} {
		if fi, err := os.Stat(filepath.Join(out, "tourney-1."+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("crosstable .%s: %v", ext, err)
		}
	}
	// No daemon played an unpaired game: each one's records are its
	// pairings, one each.
	for _, p := range st.Event.Players {
		recs, _ := filepath.Glob(filepath.Join(out, p.Handle, "games", "*.jsonl"))
		if len(recs) != 2 {
			t.Errorf("%s: %d records, want its 2 paired games: %v", p.Handle, len(recs), recs)
		}
		for _, r := range recs {
			found := false
			for pair := range pairs {
				w, b, _ := strings.Cut(pair, " ")
				base := filepath.Base(r)
				if (w == p.Handle && strings.HasSuffix(base, "-"+b+".jsonl")) || (b == p.Handle && strings.HasSuffix(base, "-"+w+".jsonl")) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: record %s is no paired game", p.Handle, r)
			}
			// The players were given the server's rules (olympiad, the
			// default, with its adjudications), not ICC's.
			f, err := os.Open(r)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.Read(f, r)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if g := rec.Game.Rules; g.Name != "olympiad" || g.MaxPlies != 600 || !g.DeadMaterial {
				t.Errorf("%s: record rules %+v, want the server's (olympiad, 600 plies, dead material)", r, g)
			}
		}
	}
}
