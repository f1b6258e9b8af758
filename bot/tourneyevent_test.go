package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccserver"
	tlib "kriegbot/tourney"
)

// TestTourneySwissEvent is issue 20's acceptance: five daemons and an
// absentee in a Swiss of kriegbot serve's TD, played to the end. One
// daemon joins late (after round 1 is paired: a half-point bye), the
// absentee (it joins, then goes away) is forfeited, and one
// daemon's connection is cut during its first game and comes back within
// the grace. At the end: every round complete, the crosstable's points
// those of the results, a PGN game for every game played, and no daemon
// played an unpaired game (the server's finished games and each daemon's
// records are the paired games, one each).
func TestTourneySwissEvent(t *testing.T) {
	dir := t.TempDir()
	acc, err := iccserver.NewAccounts(testPasswords, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := iccserver.ParseEventSpec("name=ACC system=swiss rounds=3 tc=0+1 start=5 style=icc", "icc")
	if err != nil {
		t.Fatal(err)
	}
	rules := umpire.Olympiad()
	rules.DeadMaterial, rules.MaxPlies = true, 300
	srvLog := &lockedBuffer{}
	srv, err := iccserver.New(iccserver.Config{Rules: rules, Accounts: acc, DisconnectGrace: time.Minute,
		TD:  iccserver.TDConfig{Events: []iccserver.EventSpec{spec}, Dir: dir, AbsentGrace: 5 * time.Second, GameGrace: time.Minute},
		Log: func(format string, a ...any) { fmt.Fprintf(srvLog, format+"\n", a...) }})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	defer func() {
		if t.Failed() {
			t.Logf("server log:\n%s", srvLog.String())
		}
	}()
	proxy := startFaultProxy(t, addr)
	daemons := map[string]*Daemon{}
	dirs := map[string]string{}
	start := func(handle, player, via string) {
		c := testConfig(t, handle, addr)
		c.Policy.Seek, c.Policy.Challenge, c.Policy.Games = false, "", 0
		c.Tournament.Join = []int{1}
		d, ddir := newTestDaemon(t, c, via, player, nil)
		daemons[handle], dirs[handle] = d, ddir
		runInBackground(t, ctx, d)
	}
	start("kriegbot", "heuristic", proxy.addr()) // the one whose connection is cut
	start("sparring", "random", addr)
	start("owner", "heuristic", addr)
	start("stranger", "random", addr)
	file := filepath.Join(dir, "tourney-1.json")
	read := func() (st struct {
		Status string
		Event  *tlib.Event
	}) {
		b, err := os.ReadFile(file)
		if err == nil {
			json.Unmarshal(b, &st)
		}
		return st
	}
	ghost := dialAs(t, ctx, addr, "ghost")
	if err := ghost.Send("tell TD join 1"); err != nil {
		t.Fatal(err)
	}
	// The absentee entered, then went away: it is paired (the TD does not
	// know yet) and never shows.
	waitFor(t, func() bool {
		st := read()
		if st.Event == nil {
			return false
		}
		_, in := st.Event.Find("ghost")
		return in
	})
	ghost.Close()
	waitFor(t, func() bool { st := read(); return st.Event != nil && len(st.Event.Played) >= 1 })
	start("latejoin", "random", addr)

	// Cut kriegbot's connection once, in the middle of its first game.
	waitFor(t, func() bool { return daemons["kriegbot"].Playing() > 0 })
	time.Sleep(500 * time.Millisecond)
	cutAt := time.Now()
	proxy.cut()

	for st := read(); st.Status != "done"; st = read() {
		if ctx.Err() != nil {
			t.Fatalf("the event did not end: %+v\nserver log:\n%s", st.Event, srvLog.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if back := proxy.acceptedAfter(cutAt); back.IsZero() {
		t.Errorf("kriegbot never came back after the cut")
	}
	if !strings.Contains(srvLog.String(), "logout kriegbot") {
		t.Errorf("kriegbot's connection was never cut")
	}
	st := read()
	e := st.Event
	if len(e.Played) != 3 {
		t.Fatalf("%d rounds played", len(e.Played))
	}
	idx := func(h string) int {
		i, ok := e.Find(h)
		if !ok {
			t.Fatalf("%s is not in the event", h)
		}
		return i
	}
	// The late joiner: a half-point bye in round 1, paired after.
	lj := idx("latejoin")
	if got := byeOf(e.Played[0], lj); got != tlib.HalfBye {
		t.Errorf("latejoin in round 1: %v, want a half-point bye", got)
	}
	// The absentee lost its games by forfeit and played none.
	gh := idx("ghost")
	forfeited := 0
	pairedGames := map[string]bool{} // "white black" of each game played on the board
	points := make([]float64, len(e.Players))
	for _, r := range e.Played {
		if !r.Complete() {
			t.Errorf("round %d incomplete", r.Number)
		}
		for _, b := range r.Byes {
			points[b.Player] += float64(b.Kind.Points2()) / 2
		}
		for _, g := range r.Games {
			w, b := g.Result.Points2()
			points[g.White] += float64(w) / 2
			points[g.Black] += float64(b) / 2
			if g.White == gh || g.Black == gh {
				if g.Result.Played() {
					t.Errorf("round %d: the absentee played %v", r.Number, g.Result)
				}
				forfeited++
				continue
			}
			if g.Result.Played() {
				pairedGames[e.Players[g.White].Handle+" "+e.Players[g.Black].Handle] = true
			}
		}
	}
	if forfeited == 0 {
		t.Errorf("the absentee was never forfeited")
	}
	for i, st := range e.Standings() {
		if st.Points != points[st.Player] {
			t.Errorf("standings row %d: %s %.1f points, the results give %.1f", i, e.Players[st.Player].Handle, st.Points, points[st.Player])
		}
	}
	// The server played the paired games and nothing else; the cut game
	// was not lost by disconnection.
	fin := srv.Finished()
	for _, f := range fin {
		if !pairedGames[f.White+" "+f.Black] {
			t.Errorf("the server played an unpaired game: %+v", f)
		}
		if f.Code == "Dis" {
			t.Errorf("a game lost by disconnection: %+v", f)
		}
	}
	if len(fin) != len(pairedGames) {
		t.Errorf("%d games finished on the server, %d played in the event", len(fin), len(pairedGames))
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "tourney-1.pgn"))
	if err != nil || strings.Count(string(pgn), "[Event ") != len(pairedGames) {
		t.Errorf("the event's PGN has %d games, want %d (%v)", strings.Count(string(pgn), "[Event "), len(pairedGames), err)
	}
	// Each daemon's records are its paired games, one each.
	for h, d := range dirs {
		recs, _ := filepath.Glob(filepath.Join(d, "games", "*.jsonl"))
		want := 0
		for pair := range pairedGames {
			w, b, _ := strings.Cut(pair, " ")
			if w == h || b == h {
				want++
			}
		}
		if len(recs) != want {
			t.Errorf("%s: %d records, %d paired games played", h, len(recs), want)
		}
	}
}

// byeOf is the bye player i had in round r (-1 when none).
func byeOf(r tlib.Round, i int) tlib.ByeKind {
	for _, b := range r.Byes {
		if b.Player == i {
			return b.Kind
		}
	}
	return -1
}
