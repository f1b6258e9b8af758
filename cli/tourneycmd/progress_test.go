package tourneycmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"kriegbot/tourney"
)

// While a round's games go on, a line names them every quiet minute;
// pairings and results still come once, and reset the minute.
func TestProgressWhilePlaying(t *testing.T) {
	e := tourney.New("T", tourney.Swiss, 3)
	for _, h := range []string{"a", "b", "c", "d"} {
		if err := e.AddPlayer(h, 1500); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	r, err := e.PairNext()
	if err != nil {
		t.Fatal(err)
	}
	var boards []board
	for _, g := range r.Games {
		boards = append(boards, board{Round: 1, Board: g.Board, White: e.Players[g.White].Handle, Black: e.Players[g.Black].Handle})
	}
	var out bytes.Buffer
	p := newProgress(&out)
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return clock }
	st := state{Status: "running", Event: e, Boards: boards}
	step := func(d time.Duration) string {
		clock = clock.Add(d)
		n := out.Len()
		p.show(st)
		return out.String()[n:]
	}
	if got := step(0); !strings.Contains(got, "round 1:") || strings.Contains(got, "not over") {
		t.Fatalf("first look:\n%s", got)
	}
	if got := step(30 * time.Second); got != "" {
		t.Errorf("after 30s: %q, want nothing", got)
	}
	want := "  round 1, 1m0s in, not over yet:  " + boards[0].White + " - " + boards[0].Black + "  " + boards[1].White + " - " + boards[1].Black + "\n"
	if got := step(30 * time.Second); got != want {
		t.Errorf("after a quiet minute: %q, want %q", got, want)
	}
	if got := step(30 * time.Second); got != "" {
		t.Errorf("30s later: %q, want nothing", got)
	}
	if err := e.SetResult(1, 1, tourney.WhiteWins); err != nil {
		t.Fatal(err)
	}
	st.Boards = boards[1:]
	st.PGN = []string{"[Event \"T\"]\n[Round \"1\"]\n[Board \"1\"]\n[Termination \"Black checkmated\"]\n\n1. e4 {x} 1-0\n\n"}
	if got := step(40 * time.Second); !strings.Contains(got, "board 1: "+boards[0].White+" - "+boards[0].Black+" 1-0 (Black checkmated)\n") ||
		strings.Contains(got, "not over") {
		t.Errorf("a result: %q", got)
	}
	if got := step(time.Minute); !strings.Contains(got, "3m10s in, not over yet:  "+boards[1].White) || strings.Contains(got, boards[0].White+" - ") {
		t.Errorf("a quiet minute after the result: %q", got)
	}
}

// A forfeit says so: "+:-" alone means nothing to most readers.
func TestProgressForfeit(t *testing.T) {
	e := tourney.New("T", tourney.Swiss, 3)
	for _, h := range []string{"a", "b"} {
		if err := e.AddPlayer(h, 1500); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.PairNext(); err != nil {
		t.Fatal(err)
	}
	if err := e.SetResult(1, 1, tourney.WhiteForfeitWin); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	newProgress(&out).show(state{Status: "running", Event: e})
	if !strings.Contains(out.String(), "+:- (forfeit: not played)\n") {
		t.Errorf("got:\n%s", out.String())
	}
}

// The console's final tables rank players level on points by the
// tie-breaks, as the TD's tourney-1.txt does, not by pairing number.
func TestFinalTablesUseTieBreaks(t *testing.T) {
	results := []tourney.Result{tourney.WhiteWins, tourney.BlackWins, tourney.Draw}
	for code := 0; code < 729; code++ { // 3 rounds of 2 boards, 3 results each
		e := tourney.New("T", tourney.Swiss, 3)
		for _, h := range []string{"a", "b", "c", "d"} {
			if err := e.AddPlayer(h, 1500); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Start(); err != nil {
			t.Fatal(err)
		}
		c := code
		for range 3 {
			r, err := e.PairNext()
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range r.Games {
				if err := e.SetResult(r.Number, g.Board, results[c%3]); err != nil {
					t.Fatal(err)
				}
				c /= 3
			}
		}
		order := func(st []tourney.Standing) (s string) {
			for _, x := range st {
				s += e.Players[x.Player].Handle
			}
			return s
		}
		want := order(e.Standings(tourney.DefaultTieBreaks(e.System)...))
		if order(e.Standings()) == want {
			continue // the tie-breaks change nothing here
		}
		var out bytes.Buffer
		if err := writeTables(&out, e); err != nil {
			t.Fatal(err)
		}
		_, cross, _ := strings.Cut(out.String(), "\n\n")
		cross, legend, _ := strings.Cut(cross, "\n\n")
		if !strings.Contains(legend, "1 won, = drawn, 0 lost") {
			t.Errorf("no legend under the crosstable:\n%s", out.String())
		}
		got := ""
		for _, l := range strings.Split(strings.TrimSpace(cross), "\n")[1:] {
			got += strings.Fields(l)[1]
		}
		if got != want || !strings.Contains(out.String(), "BuC1") {
			t.Errorf("results %d: crosstable order %s, the TD's %s:\n%s", code, got, want, out.String())
		}
		return
	}
	t.Fatal("no event where the tie-breaks reorder the players")
}
