package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"kriegbot/cli/matchcmd"
	"kriegbot/engine/chess"
	"kriegbot/match"
)

// playMatch plays a short node-limited match (mcts against the heuristic,
// colours alternating) and returns its JSON Lines file.
func playMatch(t *testing.T, extra ...string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "m.jsonl")
	args := append([]string{"-p1", "mcts:mem=8", "-p2", "heuristic", "-games", "2", "-nodes", "150", "-maxplies", "40", "-concurrency", "1", "-seed", "3", "-jsonl", f}, extra...)
	runMatch(t, args)
	return f
}

func readMatchGame(t *testing.T, name string, game int) *match.Game {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := match.ReadGame(name, f, game)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMatchReplayAgrees: every game of a node-limited match replays exactly,
// for both players (the mcts player's searches are re-run with the match's
// budget and the seed the match gave it).
func TestMatchReplayAgrees(t *testing.T) {
	name := playMatch(t)
	for game := range 2 {
		g := readMatchGame(t, name, game)
		for _, us := range []chess.Color{chess.White, chess.Black} {
			rec, err := g.SideRecord(name, us, 0)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), rec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Attempts == 0 || res.Differing != 0 {
				t.Errorf("game %d, %v (%s): %s", game, us, rec.Game.Player, Summary(res))
			}
			if len(res.Truth) != len(rec.Moves)+1 || len(rec.Moves) != g.Result.Plies {
				t.Errorf("game %d: %d true positions for %d moves, %d plies", game, len(res.Truth), len(rec.Moves), g.Result.Plies)
			}
		}
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return s[len(s)-300:]
	}
	return s
}

// TestMatchReplayErrors: what cannot be replayed is refused with the file
// and line.
func TestMatchReplayErrors(t *testing.T) {
	name := playMatch(t)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// Flip the legality of game 0's first attempt (a refusal announces
	// nothing: its tries go too), then its pawn tries.
	tries := regexp.MustCompile(`"tries":\d+,`)
	for _, tc := range []struct {
		name string
		edit func(string) string
		want string
	}{
		{"flipped legality", func(l string) string {
			return tries.ReplaceAllString(strings.Replace(l, `"legal":true`, `"legal":false`, 1), "")
		}, "legal"},
		{"other tries", func(l string) string { return tries.ReplaceAllString(l, `"tries":9,`) }, "the referee announces"},
	} {
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if strings.Contains(l, `"type":"attempt","game":0`) {
				lines[i] = tc.edit(l)
				break
			}
		}
		bad := filepath.Join(t.TempDir(), "bad.jsonl")
		if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = readMatchGame(t, bad, 0).SideRecord(bad, chess.White, 0)
		if err == nil || !strings.Contains(err.Error(), bad+":2:") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A match on a clock has no iteration counts: its searches need -nodes.
	g := readMatchGame(t, name, 0)
	g.Header.Nodes = 0
	if _, err := g.SideRecord(name, chess.White, 0); err == nil || !strings.Contains(err.Error(), "-nodes") {
		t.Errorf("clock match without -nodes: %v", err)
	}
}

// busy keeps n processors busy until the test ends (n <= 0: all of them):
// searches on a clock then stop at odd moments, which their replays must
// still repeat.
func busy(t *testing.T, n int) {
	var stop atomic.Bool
	t.Cleanup(func() { stop.Store(true) })
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	for range n {
		go func() {
			for x := 0; !stop.Load(); x++ {
			}
		}()
	}
}

// TestClockMatchReplays: a match on a clock (-movetime) under load, one and
// two trees with small pools (pruned in most searches), replays exactly for
// both sides of every game from the iterations and boards its attempt lines
// carry (boarditers=2: some hundreds of boards in 3 ms, at the machine's
// rate of the moment); so does boardtree's (its iterations, at its rate),
// with boards drawn from the belief or from a particle set, and with the
// opponent choosing in a tree of its own.
func TestClockMatchReplays(t *testing.T) {
	busy(t, 0)
	for _, pair := range [][2]string{{"mcts:mem=1,boarditers=2", "mcts:mem=1,threads=2"}, {"boardtree:mem=1", "boardtree:mem=1,threads=2"},
		{"boardtree:mem=1,particles=64,develop=1", "boardtree:mem=1,threads=2,particles=32,opp=1"}} {
		f := filepath.Join(t.TempDir(), "m.jsonl")
		args := []string{"-p1", pair[0], "-p2", pair[1], "-games", "2", "-movetime", "3ms",
			"-maxplies", "50", "-concurrency", "1", "-seed", "5", "-jsonl", f}
		runMatch(t, args)
		for game := range 2 {
			g := readMatchGame(t, f, game)
			for _, us := range []chess.Color{chess.White, chess.Black} {
				rec, err := g.SideRecord(f, us, 0)
				if err != nil {
					t.Fatal(err)
				}
				if rec.Approximate {
					t.Fatalf("game %d: the file does not hold the searches' iterations", game)
				}
				res, err := Run(context.Background(), rec, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
					t.Errorf("%v game %d, %v (%s): %s, first at line %d", pair, game, us, rec.Game.Player, Summary(res), res.FirstDiffering)
				}
			}
		}
	}
}

// TestMatchRefusalsShown: a match file's refused attempts are shown as the
// attempts they were (they showed as "0000: Illegal move"), in the text and
// in the HTML, whose answer list is numbered by the answers' places in the
// game.
func TestMatchRefusalsShown(t *testing.T) {
	name := playMatch(t)
	g := readMatchGame(t, name, 0)
	rec, err := g.SideRecord(name, chess.White, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, h := range res.Heard {
		if h.Own && h.Move == chess.NullMove {
			t.Fatalf("line %d: our answer without its attempt: %q", h.Line, heardText(h))
		}
		if h.Own && len(h.Words) == 1 && h.Words[0] == "Illegal move" {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no refusal in the game: the test shows nothing")
	}
	var text, page bytes.Buffer
	if err := WriteText(&text, res, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "0000: ") {
		t.Fatal("the text shows a refused attempt as 0000")
	}
	if err := WriteHTML(&page, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.String(), "0000: ") {
		t.Fatal("the HTML shows a refused attempt as 0000")
	}
	last := res.Frames[len(res.Frames)-1]
	if want := fmt.Sprintf(`<ol class="heard" reversed start="%d">`, last.Heard); !strings.Contains(page.String(), want) {
		t.Fatalf("the HTML lacks %s", want)
	}
}

// TestTimeOddsMatchReplays: each player of a match plays on its own budget
// (time odds in its spec: one on 300 nodes, one on a 3 ms clock per
// attempt), the file says which, and both sides of every game replay
// exactly: the node side by its budget, the clock side by its recorded
// searches.
func TestTimeOddsMatchReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	busy(t, 0)
	f := filepath.Join(t.TempDir(), "m.jsonl")
	args := []string{"-p1", "mcts:mem=1,nodes=300", "-p2", "mcts:mem=1,movetime=3ms", "-games", "2",
		"-maxplies", "40", "-concurrency", "1", "-seed", "9", "-jsonl", f}
	runMatch(t, args)
	for game := range 2 {
		g := readMatchGame(t, f, game)
		if g.Header.P1Budget == nil || g.Header.P1Budget.Nodes != 300 || g.Header.P2Budget == nil || g.Header.P2Budget.MoveTimeMs != 3 {
			t.Fatalf("the match line does not carry the players' budgets: %+v %+v", g.Header.P1Budget, g.Header.P2Budget)
		}
		for _, us := range []chess.Color{chess.White, chess.Black} {
			rec, err := g.SideRecord(f, us, 0)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Approximate {
				t.Fatalf("game %d %v: not replayable exactly", game, us)
			}
			res, err := Run(context.Background(), rec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
				t.Errorf("game %d, %v (%s): %s, first at line %d", game, us, rec.Game.Player, Summary(res), res.FirstDiffering)
			}
		}
	}
}

// TestPonderMatchReplays: players that ponder during the opponent's turns,
// on a clock under load (stopped whenever the opponent's move comes, with
// one tree and two, small pools) and held to a node count, replay exactly
// from the ponder sizes their legal attempt lines carry.
func TestPonderMatchReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	busy(t, 0)
	for _, tc := range []struct {
		p1, p2 string
		nodes  bool
	}{
		{"mcts:mem=1,ponder=on,movetime=3ms", "mcts:mem=1,threads=2,ponder=on,movetime=3ms", false},
		{"mcts:mem=1,ponder=on,nodes=200", "mcts:mem=1,nodes=200", true},
		{"boardtree:ponder=on,movetime=3ms", "boardtree:threads=2,ponder=on,movetime=3ms", false},
		{"boardtree:ponder=on,nodes=200", "boardtree:nodes=200", true},
	} {
		f := filepath.Join(t.TempDir(), "m.jsonl")
		args := []string{"-p1", tc.p1, "-p2", tc.p2, "-games", "2",
			"-maxplies", "40", "-concurrency", "1", "-seed", "11", "-jsonl", f}
		runMatch(t, args)
		for game := range 2 {
			g := readMatchGame(t, f, game)
			if !g.Header.P1Ponder || g.Header.P2Ponder == tc.nodes {
				t.Fatalf("the match line does not say who ponders: %+v", g.Header)
			}
			pondered := 0
			for _, a := range g.Attempts {
				if a.Ponder == nil {
					continue
				}
				pondered++
				if !a.Legal {
					t.Fatalf("a ponder after a refused attempt: %+v", a)
				}
				if tc.nodes && *a.Ponder != 200 {
					t.Fatalf("a ponder held to 200 nodes ran %d", *a.Ponder)
				}
			}
			if pondered == 0 {
				t.Fatalf("%s: no ponder in game %d", tc.p1, game)
			}
			for _, us := range []chess.Color{chess.White, chess.Black} {
				rec, err := g.SideRecord(f, us, 0)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), rec, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
					t.Errorf("%s game %d, %v (%s): %s, first at line %d", tc.p1, game, us, rec.Game.Player, Summary(res), res.FirstDiffering)
				}
			}
		}
	}
}

// runMatch runs `kriegbot match` with args, failing the test on an exit
// other than 0.
func runMatch(t *testing.T, args []string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := matchcmd.Command(args, &out, &errs); code != 0 {
		t.Fatalf("match %q: exit %d: %s", args, code, errs.String())
	}
}
