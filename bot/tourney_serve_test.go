package bot

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccserver"
)

// startTDServer is startTestServer with kriegbot serve's TD running the
// events of specs (ParseEventSpec's text); its log lines are kept.
func startTDServer(t *testing.T, specs ...string) (*iccserver.Server, string, *lockedBuffer) {
	t.Helper()
	acc, err := iccserver.NewAccounts(testPasswords, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	var evs []iccserver.EventSpec
	for _, sp := range specs {
		e, err := iccserver.ParseEventSpec(sp, "icc")
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	srvLog := &lockedBuffer{}
	var mu sync.Mutex
	srv, err := iccserver.New(iccserver.Config{Rules: umpire.Olympiad(), Accounts: acc,
		TD: iccserver.TDConfig{Events: evs, AbsentGrace: 20 * time.Second},
		Log: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(srvLog, format+"\n", args...)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
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
			if style == "icc" && !strings.Contains(c, "tourney #1 (TD) round 1: "+fin[0].Result) {
				t.Errorf("the round of the tourney-set line (which follows DG 63) is not in the result:\n%s", c)
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
