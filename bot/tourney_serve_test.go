package bot

import (
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

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccclient"
	"kriegbot/server"
	"kriegbot/server/td"
	"kriegbot/server/tddoor"
	tlib "kriegbot/tourney"
)

// startTDServer is startTestServer with kriegbot serve's TD running the
// events of specs (td.ParseEventSpec's text); its log lines are kept.
func startTDServer(t *testing.T, specs ...string) (*server.Server, string, *lockedBuffer) {
	t.Helper()
	return tdServerAt(t, "127.0.0.1:0", "", specs...)
}

// tdServerAt starts the TD's server on addr (retrying while an old socket
// lets go of the port), keeping its events in dir ("" for none).
func tdServerAt(t *testing.T, addr, dir string, specs ...string) (*server.Server, string, *lockedBuffer) {
	return tdServerWith(t, addr, dir, 20*time.Second, specs...)
}

// tdServerWith is tdServerAt with the TD's absence grace.
func tdServerWith(t *testing.T, addr, dir string, absent time.Duration, specs ...string) (*server.Server, string, *lockedBuffer) {
	t.Helper()
	pw := map[string]string{}
	for h, p := range testPasswords {
		pw[h] = p
	}
	for i := 0; i < 4; i++ {
		pw[fmt.Sprintf("fan%02d", i)] = "fan-pw"
	}
	acc, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	var evs []td.EventSpec
	for _, sp := range specs {
		e, err := td.ParseEventSpec(sp, "icc")
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	srvLog := &lockedBuffer{}
	var mu sync.Mutex
	srv, err := server.New(server.Config{Rules: umpire.Olympiad(), Accounts: acc,
		Log: zerolog.New(zerolog.ConsoleWriter{Out: io.Discard, FormatMessage: func(m any) string {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(srvLog, "%s\n", m)
			return ""
		}})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tddoor.New(srv, tddoor.Config{Events: evs, AbsentGrace: absent, Dir: dir, Managers: []string{"owner"}}); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	var ln net.Listener
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return srv, ln.Addr().String(), srvLog
}

// Two daemons enter an event of kriegbot serve's TD (a round robin of one
// game, announced each style): each answers its pairing once, the game is
// played, the results, standings and end reach the console, and the bot
// that seeks when idle seeks only once its event is over.
func TestTourneyWithServeTD(t *testing.T) {
	for _, style := range []string{"icc", "fics"} {
		t.Run(style, func(t *testing.T) {
			srv, addr, srvLog := startTDServer(t, "name=KS1 system=rr tc=1+0 start=2 style="+style)
			w := startTDWire(t, addr)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()

			ac := testConfig(t, "kriegbot", addr)
			ac.Policy.Seek = true
			ac.Policy.AnswerSeeks = false
			ac.Tournament.Join = []int{1}
			con := &lockedBuffer{}
			a, _ := newTestDaemon(t, ac, w.addr(), "heuristic", con)
			runInBackground(t, ctx, a)
			w.waitLine(t, "tell TD join 1", 1)

			bc := testConfig(t, "sparring", addr)
			bc.Policy.AnswerSeeks = false
			bc.Tournament.Join = []int{1}
			b, _ := newTestDaemon(t, bc, addr, "random", nil)
			runInBackground(t, ctx, b)

			answer := "match sparring!"
			if style == "fics" {
				answer = "td play 1"
			}
			w.waitLine(t, answer, 1)
			waitFor(t, func() bool { return strings.Contains(con.String(), "back to normal play") })
			w.waitLine(t, "seek 2 1 u w16 m", 1)

			sent := w.sent()
			if n := w.count(answer); n != 1 {
				t.Errorf("answered the pairing %d times", n)
			}
			moves, seek := -1, slices.Index(sent, "seek 2 1 u w16 m")
			for i, l := range sent {
				if strings.HasPrefix(l, "moves ") && moves < 0 {
					moves = i
				}
			}
			if moves < 0 || seek < moves {
				t.Errorf("sought before the event's game was over:\n%s", strings.Join(sent, "\n"))
			}
			fin := srv.Finished()
			if len(fin) != 1 || !(fin[0].White == "kriegbot" && fin[0].Black == "sparring" || fin[0].White == "sparring" && fin[0].Black == "kriegbot") {
				t.Fatalf("games on the server: %+v", fin)
			}
			c := con.String()
			if style == "icc" && (!strings.Contains(c, "tourney #1 (TD) round 1: "+fin[0].Result) ||
				!strings.Contains(c, "tourney #1 (TD) round 1: paired with sparring (we play ")) {
				t.Errorf("the round and colour of the tourney-set line (which follows DG 63) are not shown:\n%s", c)
			}
			for _, want := range []string{"tourney: joined tourney #1 (TD)", "paired with sparring", ": " + fin[0].Result + " vs sparring",
				"tourney #1 standings:", "over for us"} {
				if !strings.Contains(c, want) {
					t.Errorf("console lacks %q:\n%s\nserver log:\n%s", want, c, srvLog.String())
				}
			}
		})
	}
}

// A disconnection in the middle of the event's game: the daemon comes back
// within the TD's grace, the server gives the game back, it is played out
// and counted in the event, and no other game is played.
func TestTourneyServeTDReconnect(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	srv, addr, srvLog := startTDServer(t, "name=KS1 system=rr tc=1+0 start=2 style=icc")
	w := startTDWire(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ac := testConfig(t, "kriegbot", addr)
	ac.Tournament.Join = []int{1}
	con := &lockedBuffer{}
	a, _ := newTestDaemon(t, ac, w.addr(), "heuristic", con)
	runInBackground(t, ctx, a)
	w.waitLine(t, "tell TD join 1", 1)
	bc := testConfig(t, "sparring", addr)
	bc.Tournament.Join = []int{1}
	b, _ := newTestDaemon(t, bc, addr, "random", nil)
	runInBackground(t, ctx, b)

	waitFor(t, func() bool { p, _ := srv.GameCount(); return p == 1 })
	w.cut()
	waitFor(t, func() bool { return strings.Contains(con.String(), "over for us") })
	fin := srv.Finished()
	if len(fin) != 1 || fin[0].Code == "Dis" {
		t.Fatalf("games on the server: %+v\n%s", fin, srvLog.String())
	}
	if w.count("tell TD join 1") != 2 {
		t.Errorf("did not join again after the cut:\n%s", strings.Join(w.sent(), "\n"))
	}
	if !strings.Contains(con.String(), "round 1: "+fin[0].Result+" vs sparring") {
		t.Errorf("the resumed game is not counted in the event:\n%s", con.String())
	}
}

// The server (and its TD) dies in the event's game, without a word to
// the players, and restarts: the game is aborted, the pairing stands, and
// both daemons, back on the new server, answer it again at once (the old
// game, never given back, is no "game we are playing" and counts for
// nothing) and play the event to its end.
func TestTourneyServeTDRestart(t *testing.T) {
	dir := t.TempDir()
	spec := "name=KS1 system=rr tc=1+0 start=2 style=icc"
	srv1, addr, _ := tdServerAt(t, "127.0.0.1:0", dir, spec)
	w := startTDWire(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ac := testConfig(t, "kriegbot", addr)
	ac.Tournament.Join = []int{1}
	con := &lockedBuffer{}
	a, _ := newTestDaemon(t, ac, w.addr(), "heuristic", con)
	runInBackground(t, ctx, a)
	bc := testConfig(t, "sparring", addr)
	bc.Tournament.Join = []int{1}
	b, _ := newTestDaemon(t, bc, w.addr(), "random", nil)
	runInBackground(t, ctx, b)

	waitFor(t, func() bool { p, _ := srv1.GameCount(); return p == 1 })
	w.setDeaf(true) // the abort of the shutdown never reaches the daemons
	srv1.Close()
	w.cut()
	w.setDeaf(false)
	restarted := time.Now()
	srv2, _, srvLog := tdServerAt(t, addr, dir, spec)
	waitFor(t, func() bool { return strings.Contains(con.String(), "over for us") })
	fin := srv2.Finished()
	if len(fin) != 1 || fin[0].Result == "aborted" {
		t.Fatalf("games on the new server: %+v\n%s", fin, srvLog.String())
	}
	if strings.Contains(srvLog.String(), "forfeit") {
		t.Errorf("a daemon was forfeited after the restart:\n%s", srvLog.String())
	}
	// Answered at once, not after the old game's 15 s wait for its return.
	if took := time.Since(restarted); took > 12*time.Second {
		t.Errorf("the event took %v after the restart", took)
	}
	c := con.String()
	if !strings.Contains(c, "round 1: "+fin[0].Result+" vs sparring") || !strings.Contains(c, "our score "+map[string]string{"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}[fin[0].Result]+"/1") {
		t.Errorf("the replayed game is not counted, or the lost one is:\n%s", c)
	}
}

// A Swiss of daemons to its end (issue 20's acceptance): four daemons and
// an entrant that logs out at once start it, a fifth daemon joins late, one
// daemon's connection is cut in a game and it comes back within the
// grace. Every daemon's part ends, each saw each of its results, and the
// server played only paired games, none with the absentee.
func TestTourneySwissOfDaemons(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	tdDir := t.TempDir()
	srv, addr, srvLog := tdServerWith(t, "127.0.0.1:0", tdDir, 3*time.Second,
		"name=KS1 system=swiss rounds=3 tc=1+0 start=5 style=icc")
	w := startTDWire(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	absent, err := iccclient.Dial(ctx, iccclient.Config{Addr: addr, Handle: "fan00", Password: "fan-pw",
		Dial: plainDial, KeepAlive: -1, DeadAfter: -1, LinesPerSecond: 100})
	if err != nil {
		t.Fatal(err)
	}
	absent.Send("tell TD join 1") // then leaves the server: absent from every round
	waitFor(t, func() bool { return strings.Contains(srvLog.String(), "fan00 joined") })
	absent.Close()
	type entrant struct {
		d   *Daemon
		con *lockedBuffer
		dir string
	}
	var es []entrant
	start := func(handle, pw, player, via string) {
		c := testConfig(t, handle, addr)
		c.Tournament.Join = []int{1}
		c.Policy.AnswerSeeks = false
		con := &lockedBuffer{}
		d, dir := newTestDaemon(t, c, via, player, con)
		d.opt.Password = pw
		runInBackground(t, ctx, d)
		es = append(es, entrant{d, con, dir})
	}
	start("kriegbot", testPasswords["kriegbot"], "heuristic", w.addr())
	start("sparring", testPasswords["sparring"], "random", addr)
	start("owner", testPasswords["owner"], "heuristic", addr)
	start("stranger", testPasswords["stranger"], "random", addr)
	for deadline := time.Now().Add(wait); !strings.Contains(srvLog.String(), "round 1 paired"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("round 1 never paired:\n%s", srvLog.String())
		}
	}
	start("fan01", "fan-pw", "heuristic", addr) // the late join

	// Cut kriegbot's connection in its first game (if it has one in
	// round 1; else in its next).
	waitFor(t, func() bool { return es[0].d.Playing() == 1 })
	w.cut()
	for deadline := time.Now().Add(2 * wait); ; time.Sleep(50 * time.Millisecond) {
		over := 0
		for _, e := range es {
			if strings.Contains(e.con.String(), "over for us") {
				over++
			}
		}
		if over == len(es) {
			break
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, e := range es {
				fmt.Fprintf(&b, "--- %s:\n%s", e.d.config().Account.Handle, e.con.String())
			}
			t.Fatalf("%d of %d daemons saw the end:\n%s--- server:\n%s", over, len(es), b.String(), srvLog.String())
		}
	}
	log := srvLog.String()
	paired := map[int]bool{}
	for _, l := range strings.Split(log, "\n") {
		var id, r, b, g int
		if n, _ := fmt.Sscanf(l, "td: tourney %d round %d board %d: game %d", &id, &r, &b, &g); n == 4 {
			paired[g] = true
		}
	}
	fin := srv.Finished()
	for _, g := range fin {
		if !paired[g.Number] || g.White == "fan00" || g.Black == "fan00" || g.Code == "Dis" {
			t.Errorf("game %d %s-%s %s (%s): not a paired game played out\n%s", g.Number, g.White, g.Black, g.Result, g.Code, log)
		}
	}
	if len(fin) < 5 {
		t.Errorf("%d games in a 3-round Swiss of 6\n%s", len(fin), log)
	}
	if !strings.Contains(log, "fan00 -") && !strings.Contains(log, "- fan00") || strings.Count(log, "absent") == 0 {
		t.Errorf("the absentee was not forfeited:\n%s", log)
	}
	for _, e := range es {
		h := e.d.config().Account.Handle
		n := 0
		for _, g := range fin {
			if g.White == h || g.Black == h {
				n++
			}
		}
		if got := strings.Count(e.con.String(), "tourney: tourney #1 (TD) round "); got < n {
			t.Errorf("%s played %d games, its console shows %d results:\n%s", h, n, got, e.con.String())
		}
	}
	if es[0].d.connections < 2 {
		t.Error("the cut was not noticed")
	}
	checkSwissEvent(t, tdDir, fin, es[4].d.config().Account.Handle)
	for _, e := range es {
		h := e.d.config().Account.Handle
		recs, _ := filepath.Glob(filepath.Join(e.dir, "games", "*.jsonl"))
		n := 0
		for _, g := range fin {
			if g.White == h || g.Black == h {
				n++
			}
		}
		if len(recs) != n {
			t.Errorf("%s: %d records for its %d games", h, len(recs), n)
		}
	}
}

// checkSwissEvent checks the TD's saved event once it is done: every
// round complete, the late joiner's half-point bye in round 1, the
// standings' points those of the results, the event's PGN one game per
// game played (those the server finished).
func checkSwissEvent(t *testing.T, dir string, fin []server.FinishedGame, late string) {
	t.Helper()
	var st struct {
		Status string
		Event  *tlib.Event
	}
	waitFor(t, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "tourney-1.json"))
		return err == nil && json.Unmarshal(b, &st) == nil && st.Status == "done"
	})
	e := st.Event
	if len(e.Played) != 3 {
		t.Fatalf("%d rounds played", len(e.Played))
	}
	lj, ok := e.Find(late)
	if !ok {
		t.Fatalf("%s is not in the event", late)
	}
	half := false
	for _, b := range e.Played[0].Byes {
		half = half || b.Player == lj && b.Kind == tlib.HalfBye
	}
	if !half {
		t.Errorf("%s has no half-point bye in round 1: %+v", late, e.Played[0].Byes)
	}
	points := make([]float64, len(e.Players))
	played := 0
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
			if g.Result.Played() {
				played++
			}
		}
	}
	for _, row := range e.Standings() {
		if row.Points != points[row.Player] {
			t.Errorf("standings: %s %.1f points, the results give %.1f", e.Players[row.Player].Handle, row.Points, points[row.Player])
		}
	}
	if played != len(fin) {
		t.Errorf("%d games played in the event, %d finished on the server", played, len(fin))
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "tourney-1.pgn"))
	if err != nil || strings.Count(string(pgn), "[Event ") != played {
		t.Errorf("the event's PGN has %d games, want %d (%v)", strings.Count(string(pgn), "[Event "), played, err)
	}
}

// A manager aborts an event before it starts: in each style the daemon
// hears it (a tell from the TD, or a qtell line), and seeks again.
func TestTourneyServeTDAbort(t *testing.T) {
	for _, style := range []string{"icc", "fics"} {
		t.Run(style, func(t *testing.T) {
			_, addr, _ := startTDServer(t, "name=KS1 system=rr tc=1+0 start=manual style="+style)
			w := startTDWire(t, addr)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			c := testConfig(t, "kriegbot", addr)
			c.Policy.Seek = true
			c.Tournament.Join = []int{1}
			con := &lockedBuffer{}
			d, _ := newTestDaemon(t, c, w.addr(), "heuristic", con)
			runInBackground(t, ctx, d)
			waitFor(t, func() bool { return strings.Contains(con.String(), "joined tourney #1") })
			manager := dialAs(t, ctx, addr, "owner")
			if err := manager.Send("tell TD abort 1"); err != nil {
				t.Fatal(err)
			}
			w.waitLine(t, "seek 2 1 u w16 m", 1)
			if !strings.Contains(con.String(), "tourney #1 (TD) over for us (aborted)") {
				t.Errorf("console:\n%s", con.String())
			}
		})
	}
}
