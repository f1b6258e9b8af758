package enginecmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/kep"
	"kriegbot/match"
)

// engine is a KEP engine (kep.Run) on pipes, as a driver sees it. Its
// output is read as it comes (a pipe holds nothing: an engine blocked on
// writing would stop reading).
type engine struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
	done  chan error
	log   logBuffer
}

// logBuffer is an engine's log, written by its goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startEngine(t *testing.T) *engine {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &engine{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		err := kep.Run(context.Background(), inR, outW, &e.log, kep.Config{})
		outW.Close()
		e.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	t.Cleanup(func() { inW.Close(); inR.Close() })
	return e
}

func (e *engine) send(lines ...string) {
	e.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(e.in, l+"\n"); err != nil {
			e.t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// until reads lines up to the first one that starts with prefix, and
// returns the rest of it.
func (e *engine) until(prefix string) string {
	e.t.Helper()
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("the engine's output ended before %q", prefix)
			}
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return rest
			}
		case <-time.After(time.Minute):
			e.t.Fatalf("no %q within a minute", prefix)
		}
	}
}

// sideSeeds returns the first match seed from 1 whose game 0 gives a side
// a seed of 2^63 or more: KEP's Seed option takes all 64 bits.
func sideSeeds() (uint64, [2]uint64) {
	for s := uint64(1); ; s++ {
		g := match.GameSeed(s, 0)
		w, b := match.SideSeed(g, chess.White), match.SideSeed(g, chess.Black)
		if w >= 1<<63 || b >= 1<<63 {
			return s, [2]uint64{w, b}
		}
	}
}

// TestSameAttemptsAsMatch plays, in each variant, game 0 of a kriegbot
// match (mcts against heuristic at a fixed node budget) and the same game
// over KEP: two engines with the match's player specs and side seeds,
// refereed by the umpire with kep.DriverLine's lines and go nodes N. The
// attempts must be the same, one for one: KEP hands the players what match
// hands them.
func TestSameAttemptsAsMatch(t *testing.T) {
	const nodes, maxPlies = 40, 160
	specs := [2]string{"mcts:threads=1,mem=8", "heuristic"}
	seed, sides := sideSeeds()
	for _, v := range umpire.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			rules := umpire.Site(v)
			rules.MaxPlies = maxPlies
			var ps [2]players.Spec
			for k, s := range specs {
				var err error
				if ps[k], err = players.Parse(s, players.Kinds()); err != nil {
					t.Fatal(err)
				}
			}
			var jsonl bytes.Buffer
			cfg := match.Config{P1: ps[0], P2: ps[1], Games: 1, Concurrency: 1, Rules: rules,
				Limits: match.Limits{Nodes: nodes}, Seed: seed, Shards: 1, JSONL: &jsonl}
			if _, err := match.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			_, games, err := match.ReadGames("match.jsonl", &jsonl)
			if err != nil || len(games) != 1 {
				t.Fatalf("reading the match: %d games, %v", len(games), err)
			}
			var want []string
			for _, a := range games[0].Attempts {
				want = append(want, a.Attempt)
			}
			got := kepGame(t, rules, specs, sides, nodes)
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("attempt %d: %s over KEP, %s in the match (of %d and %d)", i, got[i], want[i], len(got), len(want))
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d attempts over KEP, %d in the match", len(got), len(want))
			}
			t.Logf("%d attempts, the same", len(got))
		})
	}
}

// kepGame plays a game of rules' variant between two KEP engines, White
// playing specs[0] and Black specs[1] with seeds[c], each go asking for
// nodes iterations, and returns the attempts in the records' spelling (any,
// N@e4, UCI).
func kepGame(t *testing.T, rules umpire.Rules, specs [2]string, seeds [2]uint64, nodes int) []string {
	u := umpire.New(rules)
	var es [2]*engine
	for c := range es {
		es[c] = startEngine(t)
		es[c].send("kep", fmt.Sprintf("setoption name Player value %s", specs[c]),
			fmt.Sprintf("setoption name Seed value %d", seeds[c]),
			"newgame "+[2]string{"white", "black"}[c]+" variant "+rules.Variant.Name)
	}
	var attempts []string
	for u.Ending() == umpire.NotOver {
		side := u.Side()
		es[side].send(fmt.Sprintf("go nodes %d", nodes))
		text := es[side].until("attempt ")
		attempts = append(attempts, text)
		var a umpire.Answer
		var err error
		if text == "any" {
			a, err = u.AskAny()
		} else {
			var m chess.Move
			if m, err = umpire.ParseMoveText(text); err == nil {
				a, err = u.Attempt(m)
			}
		}
		if err != nil {
			t.Fatalf("attempt %q: %v", text, err)
		}
		for _, c := range [2]chess.Color{side.Other(), side} {
			if line := kep.DriverLine(&a, c); line != "" {
				es[c].send(line)
			}
		}
		if len(attempts) > maxAttemptsPerPly*rules.MaxPlies {
			t.Fatalf("%d attempts", len(attempts))
		}
	}
	for _, e := range es {
		e.send("gameover "+u.Result(), "quit")
		select {
		case err := <-e.done:
			if err != nil {
				t.Fatal(err)
			}
			// Every line the driver sent was taken.
			if log := e.log.String(); strings.Contains(log, "WRN") || strings.Contains(log, "ERR") {
				t.Fatalf("the engine logged a warning:\n%s", log)
			}
		case <-time.After(time.Minute):
			t.Fatal("the engine did not quit")
		}
	}
	return attempts
}

// maxAttemptsPerPly bounds a game's attempts, with the ply limit, so that
// a player that repeats itself fails the test instead of hanging it.
const maxAttemptsPerPly = 2*chess.MaxMoves + 5*64
