package kep

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

func TestInfoLine(t *testing.T) {
	mv := func(s string) chess.Move {
		m, err := chess.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		elapsed time.Duration
		iters   int64
		rep     *players.SearchReport
		want    string
	}{
		{1500 * time.Millisecond, 0, &players.SearchReport{Iterations: 61440, Value: 0.349, PV: []chess.Move{mv("e2e4"), mv("d2d4")}},
			"info time 1500 nodes 61440 nps 40960 depth 2 value 0.35 pv e2e4 d2d4"},
		{2 * time.Second, 0, &players.SearchReport{Iterations: 100, Value: -0.001, PV: []chess.Move{mv("e7e8q")}},
			"info time 2000 nodes 100 nps 50 depth 1 value 0.00 pv e7e8q"}, // no negative zero
		{time.Second, 0, &players.SearchReport{Iterations: 10, Value: 30, Proven: true, PV: []chess.Move{mv("h1h8")}},
			"info time 1000 nodes 10 nps 10 depth 1 value 30.00 proven pv h1h8"},
		{time.Second, 0, &players.SearchReport{Iterations: 10, Value: 1, PV: []chess.Move{umpire.DropMove(chess.Knight, chess.NewSquare(4, 3)), mv("e8d8")}},
			"info time 1000 nodes 10 nps 10 depth 2 value 1.00 pv N@e4 e8d8"}, // a drop (crazykrieg)
		{0, 0, &players.SearchReport{Iterations: 16, Value: -1.5},
			"info time 0 nodes 16 depth 0 value -1.50"}, // no time, no rate
		{time.Second, 0, &players.SearchReport{}, "info time 1000"}, // a search that did not run
		{250 * time.Millisecond, 4096, nil, "info time 250 nodes 4096 nps 16384"},
		{5 * time.Millisecond, 0, nil, "info time 5"}, // a player that cannot tell
	} {
		if got := infoLine(tc.elapsed, tc.iters, tc.rep); got != tc.want {
			t.Errorf("infoLine(%v, %d, %+v) = %q, want %q", tc.elapsed, tc.iters, tc.rep, got, tc.want)
		}
	}
}

var (
	finalInfo    = regexp.MustCompile(`^info time (\d+) nodes (\d+)( nps \d+)? depth (\d+) value -?\d+\.\d\d( proven)? pv((?: [a-h][1-8][a-h][1-8][qrbn]?)+)$`)
	progressInfo = regexp.MustCompile(`^info time (\d+)(?: nodes (\d+)(?: nps \d+)?)?$`)
)

// readAnswer reads the lines answering a go: info lines, then the attempt.
func readAnswer(p *proc) (infos []string, attempt string) {
	p.t.Helper()
	for {
		l := p.recv(wait)
		if a, ok := strings.CutPrefix(l, "attempt "); ok {
			return infos, a
		}
		if !strings.HasPrefix(l, "info ") {
			p.t.Fatalf("%s: %q where info or attempt was due", p.name, l)
		}
		infos = append(infos, l)
	}
}

// checkFinal checks a search's last info line against its attempt.
func checkFinal(t *testing.T, l, attempt string, nodes int64) {
	t.Helper()
	f := finalInfo.FindStringSubmatch(l)
	if f == nil {
		t.Fatalf("final info %q does not have the documented shape", l)
	}
	pv := strings.Fields(f[6])
	if depth, _ := strconv.Atoi(f[4]); depth != len(pv) || pv[0] != attempt {
		t.Fatalf("%q: depth %s, line %v, attempt %s", l, f[4], pv, attempt)
	}
	if n, _ := strconv.ParseInt(f[2], 10, 64); nodes > 0 && n != nodes {
		t.Fatalf("%q: %d nodes, go asked for %d", l, n, nodes)
	}
}

// TestInfoAfterSearch: a search (boardtree's, wild 16's default, and
// mcts's) ends with an info line carrying its figures and principal line,
// whose first attempt is the one sent; a player without a search reports
// its time only.
func TestInfoAfterSearch(t *testing.T) {
	for _, approach := range []string{"auto", "c"} {
		p := startEngine(t, "approach "+approach, Config{InfoEvery: -1})
		p.hello("Seed", "1", "Approach", approach)
		p.send("newgame white", "go nodes 3000")
		infos, a := readAnswer(p)
		if len(infos) != 1 {
			t.Fatalf("info lines %q, want one (progress lines are off)", infos)
		}
		checkFinal(t, infos[0], a, 3000)
		if d := finalInfo.FindStringSubmatch(infos[0])[4]; d == "1" {
			t.Logf("note: approach %s: a line of one attempt after 3000 iterations: %q", approach, infos[0])
		}
		p.send("illegal", "go nodes 300")
		infos, a = readAnswer(p)
		checkFinal(t, infos[len(infos)-1], a, 300)
		p.quit()
	}

	h := startEngine(t, "heuristic", Config{})
	h.hello("Player", "heuristic")
	h.send("newgame white", "go nodes 3000")
	infos, _ := readAnswer(h)
	if len(infos) != 1 || !regexp.MustCompile(`^info time \d+$`).MatchString(infos[0]) {
		t.Fatalf("heuristic: info lines %q, want one with the time only", infos)
	}
	h.quit()
}

// TestInfoWhileSearching: a long search reports its progress (time, nodes,
// nps) while it runs, the iterations never going down, and still ends with
// one final line and one attempt when stopped.
func TestInfoWhileSearching(t *testing.T) {
	for _, approach := range []string{"auto", "c"} {
		p := startEngine(t, "approach "+approach, Config{InfoEvery: 10 * time.Millisecond})
		p.hello("Hash", quitHash, "Approach", approach) // the trees cannot fill before the stop
		p.send("newgame white", "go movetime 600000")
		var last int64
		for seen := 0; seen < 3; {
			l := p.recv(wait)
			f := progressInfo.FindStringSubmatch(l)
			if f == nil {
				t.Fatalf("%q where a progress line was due", l)
			}
			if f[2] == "" { // nothing searched yet (the search starts with its mate count)
				continue
			}
			n, _ := strconv.ParseInt(f[2], 10, 64)
			if n < last {
				t.Fatalf("%q: iterations went down from %d", l, last)
			}
			last = n
			seen++
		}
		p.send("stop")
		infos, a := readAnswer(p)
		for _, l := range infos[:len(infos)-1] {
			if !progressInfo.MatchString(l) {
				t.Fatalf("%q before the final line", l)
			}
		}
		checkFinal(t, infos[len(infos)-1], a, 0)
		p.sync()
		p.quit()
	}
}
