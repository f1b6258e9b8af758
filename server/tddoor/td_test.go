package tddoor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// tdBot is a scripted tourney entrant over the ICC protocol. It answers
// pairings as the daemon does (DG 63's command, TDLine.Answer()), resigns
// to a stronger opponent (draws with an equal one), and keeps every line
// it is told.
type tdBot struct {
	t        *testing.T
	handle   string
	strength map[string]int // every entrant's, read only

	mu         sync.Mutex
	sess       *iccclient.Session
	lines      []string // text lines, TD tells ("TD: ..."), DGs 63/103/104 ("DG63 ...")
	answerDG   bool     // send DG 63's command
	answerText bool     // send the answer of a tourney-set or mamer pairing line
	hold       bool     // play on: the game stays in progress
	started    []protocol.MyGameStartedDG
	results    []protocol.MyGameResultDG
}

var tdTestDGs = append(slices.Clone(protocol.BotDatagrams), protocol.DGSuggestion, protocol.DGTourney, protocol.DGRemoveTourney)

func newTDBot(t *testing.T, addr, handle string, strength map[string]int) *tdBot {
	b := &tdBot{t: t, handle: handle, strength: strength, answerDG: true, answerText: true}
	b.connect(addr)
	return b
}

// connect logs the bot in (again) at addr and starts its reader.
func (b *tdBot) connect(addr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	sess, err := iccclient.Dial(ctx, iccclient.Config{
		Addr: addr, Handle: b.handle, Password: "pw-" + b.handle, Dial: wiretest.PlainDial,
		LinesPerSecond: 5000, Burst: 5000, KeepAlive: -1, DeadAfter: -1, Datagrams: tdTestDGs,
	})
	if err != nil {
		b.t.Fatalf("login %s: %v", b.handle, err)
	}
	b.t.Cleanup(func() { sess.Close() })
	b.mu.Lock()
	b.sess = sess
	b.mu.Unlock()
	go b.read(sess)
}

func (b *tdBot) Send(line string) {
	b.mu.Lock()
	sess := b.sess
	b.mu.Unlock()
	sess.Send(line)
}

func (b *tdBot) note(s string) {
	b.mu.Lock()
	b.lines = append(b.lines, s)
	b.mu.Unlock()
}

func (b *tdBot) read(sess *iccclient.Session) {
	for {
		m, err := sess.Next(context.Background())
		if err != nil {
			return
		}
		switch m.Kind {
		case protocol.MsgText:
			b.note(m.Text)
			if l, err := protocol.ParseTDLine(m.Text); err == nil && l.Answer() != "" {
				b.mu.Lock()
				ok := b.answerText
				b.mu.Unlock()
				if ok {
					sess.Send(l.Answer())
				}
			}
		case protocol.MsgDatagram:
			switch d := m.DG.(type) {
			case protocol.SuggestionDG:
				b.note("DG63 " + d.Command)
				b.mu.Lock()
				ok := b.answerDG
				b.mu.Unlock()
				if ok {
					sess.Send(d.Command)
				}
			case protocol.TourneyDG:
				b.note(fmt.Sprintf("DG103 %d %s", d.ID, d.Join))
			case protocol.RemoveTourneyDG:
				b.note(fmt.Sprintf("DG104 %d", d.ID))
			case protocol.PersonalTellDG:
				b.note(d.Name + ": " + d.Text)
			case protocol.MyGameStartedDG:
				b.mu.Lock()
				b.started = append(b.started, d)
				hold := b.hold
				b.mu.Unlock()
				opp := d.White
				if strings.EqualFold(opp, b.handle) {
					opp = d.Black
				}
				if !hold {
					b.decide(sess, opp)
				}
			case protocol.MyGameResultDG:
				b.mu.Lock()
				b.results = append(b.results, d)
				b.mu.Unlock()
			}
		}
	}
}

// decide ends the game as the strengths say: the weaker resigns, equals
// draw.
func (b *tdBot) decide(sess *iccclient.Session, opp string) {
	switch {
	case b.strength[b.handle] < b.strength[opp]:
		sess.Send("resign")
	case b.strength[b.handle] == b.strength[opp]:
		sess.Send("draw")
	}
}

// release stops holding: the game in progress, if any, ends now.
func (b *tdBot) release() {
	b.mu.Lock()
	b.hold = false
	sess := b.sess
	var cur *protocol.MyGameStartedDG
	if n := len(b.started); n > len(b.results) {
		cur = &b.started[n-1]
	}
	b.mu.Unlock()
	if cur != nil {
		opp := cur.White
		if strings.EqualFold(opp, b.handle) {
			opp = cur.Black
		}
		b.decide(sess, opp)
	}
}

// drop closes the bot's connection and waits until s has logged it out, so
// that what the test does next meets a server that knows the bot is gone.
func (b *tdBot) drop(s *house) {
	b.mu.Lock()
	sess := b.sess
	b.mu.Unlock()
	sess.Close()
	on := func() bool {
		return slices.ContainsFunc(s.Users(), func(h string) bool { return strings.EqualFold(h, b.handle) })
	}
	for deadline := time.Now().Add(5 * time.Second); on(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.t.Fatalf("%s still logged in 5s after its connection closed", b.handle)
		}
	}
}

// saw reports whether a line containing want was seen.
func (b *tdBot) saw(want string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.lines {
		if strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// expect waits until a line containing want is seen.
func (b *tdBot) Expect(want string) {
	b.t.Helper()
	deadline := time.Now().Add(wait)
	for !b.saw(want) {
		if time.Now().After(deadline) {
			b.mu.Lock()
			b.t.Fatalf("%s never saw %q; saw:\n%s", b.handle, want, strings.Join(b.lines, "\n"))
			b.mu.Unlock()
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// expectRefusal waits until the TD refuses a join of event id for the
// reason why, in the form the daemon reads (protocol.TDJoinRefused).
func (b *tdBot) expectRefusal(id int, why string) {
	b.t.Helper()
	refused := func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, l := range b.lines {
			l = strings.TrimPrefix(l, "TD: ")
			if td, err := protocol.ParseTDLine(l); err == nil && td.Kind == protocol.TDJoinRefused && td.Event == id && td.Reason == why {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(wait); !refused(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.mu.Lock()
			b.t.Fatalf("%s never saw the join of #%d refused (%s); saw:\n%s", b.handle, id, why, strings.Join(b.lines, "\n"))
			b.mu.Unlock()
		}
	}
}

func (b *tdBot) set(f func(b *tdBot)) {
	b.mu.Lock()
	f(b)
	b.mu.Unlock()
}

// tdAccounts registers the handles with the password "pw-<handle>".
func tdAccounts(t testing.TB, handles ...string) *server.Accounts {
	pw := map[string]string{}
	for _, h := range handles {
		pw[h] = "pw-" + h
	}
	a, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustSpec(t *testing.T, s string) td.EventSpec {
	t.Helper()
	sp, err := td.ParseEventSpec(s, "icc")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// tdSnap returns a copy of event id (its JSON round trip) and its status.
func tdSnap(t *testing.T, s *house, id int) *tdEvent {
	t.Helper()
	s.Lock()
	te := s.td.event(id)
	if te == nil {
		s.Unlock()
		t.Fatalf("no event %d", id)
	}
	b, err := jsonMarshal(te)
	s.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	cp, err := decodeTDEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

// waitStatus waits until event id has the status.
func waitStatus(t *testing.T, s *house, id int, status string) *tdEvent {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		te := tdSnap(t, s, id)
		if te.Status == status {
			return te
		}
		if time.Now().After(deadline) {
			t.Fatalf("event %d is %s (%s), not %s", id, te.Status, te.progress(), status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// playedGames counts the event's games played on the board.
func playedGames(e *tourney.Event) int {
	n := 0
	for _, rd := range e.Played {
		for _, g := range rd.Games {
			if g.Result.Played() {
				n++
			}
		}
	}
	return n
}

// checkOnlyPaired checks that every game the server finished is a game
// the event paired, with the paired colours, and that nobody played one
// twice.
func checkOnlyPaired(t *testing.T, s *house, e *tourney.Event) {
	t.Helper()
	type pair struct{ w, b string }
	want := map[pair]int{}
	for _, rd := range e.Played {
		for _, g := range rd.Games {
			if g.Result.Played() {
				want[pair{e.Players[g.White].Handle, e.Players[g.Black].Handle}]++
			}
		}
	}
	got := map[pair]int{}
	for _, g := range s.Finished() {
		if g.Result == "aborted" {
			continue
		}
		got[pair{g.White, g.Black}]++
	}
	for p, n := range got {
		if want[p] != n {
			t.Errorf("%s - %s played %d times, paired %d", p.w, p.b, n, want[p])
		}
	}
	if len(got) != len(want) {
		t.Errorf("games played %v, games paired %v", got, want)
	}
}

// TestTDSwiss runs a 3-round Swiss between scripted clients, in both
// announcement styles: four start it, a fifth joins late (half a point
// for round 1, then an odd field with byes), the strongest wins every
// game, each pairing is answered twice in ICC style (DG 63 and the
// tourney-set line) and starts one game, and the event leaves its PGN,
// text and HTML.
func TestTDSwiss(t *testing.T) {
	for _, style := range []string{"icc", "fics"} {
		t.Run(style, func(t *testing.T) {
			names := []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"}
			strength := map[string]int{"Alpha": 5, "Bravo": 4, "Charlie": 3, "Delta": 2, "Echo": 1}
			dir := t.TempDir()
			s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, names...)}, Config{Dir: dir, AbsentGrace: wait,
				Events: []td.EventSpec{mustSpec(t, "name=KS1,system=swiss,rounds=3,tc=1+0,start=4,style="+style)}})
			bots := map[string]*tdBot{}
			for _, n := range names {
				bots[n] = newTDBot(t, addr, n, strength)
				// Round 1 is played out once Echo has joined late.
				bots[n].set(func(b *tdBot) { b.hold = true })
			}
			bots["Alpha"].Expect("DG103 1 tell TD join 1")
			for _, n := range names[:4] {
				if style == "fics" {
					bots[n].Send("td join 1")
				} else {
					bots[n].Send("tell TD join")
				}
				bots[n].Expect("You have joined tourney #1.")
			}
			if style == "fics" {
				bots["Alpha"].Expect(":You play ")
				bots["Echo"].Send("td JoinTourney 1")
			} else {
				bots["Alpha"].Expect("tourney set to \"TD KS1 * ")
				bots["Alpha"].Expect("DG63 match ")
				bots["Echo"].Send("tell TD latejoin")
			}
			bots["Echo"].Expect("A late join: a half-point bye for each round already paired (1); you are paired from round 2.")
			for _, n := range names {
				bots[n].release()
			}
			for _, n := range names {
				bots[n].Expect(protocol.TDLine{Kind: protocol.TDVariableOff, TD: "TD"}.String())
				bots[n].Expect("Tourney #1's standings:")
			}
			te := waitStatus(t, s, 1, tdDone)
			e := te.Event
			if len(e.Played) != 3 || len(e.Players) != 5 {
				t.Fatalf("%d rounds, %d players", len(e.Played), len(e.Players))
			}
			pts := e.Points2()
			alpha, _ := e.Find("Alpha")
			echo, _ := e.Find("Echo")
			if pts[alpha] != 6 {
				t.Errorf("Alpha, the strongest, scored %d half-points, want 6", pts[alpha])
			}
			if e.Played[0].Byes[0] != (tourney.Bye{Player: echo, Kind: tourney.HalfBye}) {
				t.Errorf("round 1 byes %v: want Echo's half-point bye", e.Played[0].Byes)
			}
			for _, rd := range e.Played[1:] {
				if len(rd.Games) != 2 || len(rd.Byes) != 1 || rd.Byes[0].Kind != tourney.PairingBye {
					t.Errorf("round %d: %d games, byes %v; want 2 games and a pairing bye", rd.Number, len(rd.Games), rd.Byes)
				}
			}
			checkOnlyPaired(t, s, e)
			var xt strings.Builder
			e.WriteCrosstable(&xt, tourney.DefaultTieBreaks(e.System)...)
			if xt.String() != swissCrosstable {
				t.Errorf("crosstable:\n%s\nwant:\n%s", xt.String(), swissCrosstable)
			}
			if style == "icc" {
				twice := false
				for _, n := range names {
					twice = twice || bots[n].saw("is already in progress") || bots[n].saw("You have no tourney game to play")
				}
				if !twice {
					t.Error("no pairing was answered twice")
				}
			}
			bots["Alpha"].Expect("DG104 1")
			s.Close() // writes what is due
			pgn, err := os.ReadFile(filepath.Join(dir, "tourney-1.pgn"))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(pgn), "[Event \"KS1\"]"); n != playedGames(e) {
				t.Errorf("PGN has %d games, the event %d", n, playedGames(e))
			}
			for r := 1; r <= 3; r++ {
				if !strings.Contains(string(pgn), fmt.Sprintf("[Round \"%d\"]", r)) {
					t.Errorf("PGN has no game of round %d", r)
				}
			}
			for _, ext := range []string{"txt", "html", "json"} {
				b, err := os.ReadFile(filepath.Join(dir, "tourney-1."+ext))
				if err != nil || !strings.Contains(string(b), "Alpha") {
					t.Errorf("tourney-1.%s: %v, %d bytes without Alpha", ext, err, len(b))
				}
			}
		})
	}
}

// swissCrosstable is TestTDSwiss's event worked by hand (every rating
// is 1500, so the pairing numbers go by name: Alpha 1, Bravo 2, Charlie
// 3, Delta 4, Echo 5 as a late joiner; the stronger always wins).
// Round 1: 1-3 and 4-2 (S1 against S2, colours alternating down the
// boards); Echo's late-join half point. Round 2: Alpha and Bravo (1)
// meet, Bravo White as Alpha had White; Echo (½) floats down to Charlie
// and Delta (0), an odd bracket whose bye goes to the lowest ranked,
// Delta (number 4 at 0); Echo-Charlie with Charlie White (Black last).
// Round 3: Echo (½) is lowest and had no pairing bye: the bye; Alpha
// (2) floats to the players on 1 and meets the one it has not, Delta
// (Alpha wants White after W, B); Bravo-Charlie both want Black and
// alternated alike, so the higher ranked, Bravo, gets it.
const swissCrosstable = `No  Player    Rtg    R1    R2    R3  Pts
 1  Alpha    1500   4w1   2b1   5w1    3
 2  Bravo    1500   5b1   1w0   4b1    2
 3  Echo     1500  bye=   4b0  bye+  1.5
 4  Charlie  1500   1b0   3w1   2w0    1
 5  Delta    1500   2w0  bye+   1b0    1
`

// TestTDAbsentForfeit: a player who never answers loses by forfeit after
// the grace, is withdrawn and told so; round 2 has three players and a
// bye.
func TestTDAbsentForfeit(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Charlie", "Delta"}
	strength := map[string]int{"Alpha": 4, "Bravo": 3, "Charlie": 2, "Delta": 1}
	s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, names...)}, Config{AbsentGrace: 300 * time.Millisecond,
		Events: []td.EventSpec{mustSpec(t, "name=Abs,rounds=2,tc=1+0,start=4")}})
	bots := map[string]*tdBot{}
	for _, n := range names {
		bots[n] = newTDBot(t, addr, n, strength)
	}
	// Delta joins, then leaves the server: absent at the pairing.
	bots["Delta"].Send("tell TD join 1")
	bots["Delta"].Expect("You have joined tourney #1.")
	bots["Delta"].drop(s)
	for _, n := range names[:3] {
		bots[n].Send("tell TD join 1")
		bots[n].Expect("You have joined tourney #1.")
	}
	te := waitStatus(t, s, 1, tdDone)
	e := te.Event
	delta, _ := e.Find("Delta")
	if !e.Players[delta].Withdrawn() {
		t.Error("Delta not withdrawn")
	}
	forfeits := 0
	for _, g := range e.Played[0].Games {
		if g.White == delta && g.Result == tourney.BlackForfeitWin || g.Black == delta && g.Result == tourney.WhiteForfeitWin {
			forfeits++
		}
	}
	if forfeits != 1 {
		t.Errorf("round 1 %v: want Delta's forfeit loss", e.Played[0].Games)
	}
	if rd := e.Played[1]; len(rd.Games) != 1 || len(rd.Byes) != 1 || rd.Byes[0].Kind != tourney.PairingBye {
		t.Errorf("round 2 %+v: want one game and a bye", rd)
	}
	checkOnlyPaired(t, s, e)
	// Back after the event: it is told how it went.
	bots["Delta"].connect(addr)
	bots["Delta"].Send("tell TD status")
	bots["Delta"].Expect("You are in no tourney.")
}

// TestTDDisconnect: in a TD game a player who disconnects and comes back
// within the grace gets the game back; the third disconnection in one
// game loses it.
func TestTDDisconnect(t *testing.T) {
	for _, tc := range []struct {
		name  string
		drops int
	}{{"resumed", 1}, {"third forfeits", 3}} {
		t.Run(tc.name, func(t *testing.T) {
			strength := map[string]int{"Alpha": 2, "Bravo": 1}
			s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, "Alpha", "Bravo")}, Config{AbsentGrace: wait, GameGrace: wait,
				Events: []td.EventSpec{mustSpec(t, "name=Dis,system=rr,tc=1+0,start=2")}})
			a := newTDBot(t, addr, "Alpha", strength)
			b := newTDBot(t, addr, "Bravo", strength)
			a.set(func(b *tdBot) { b.hold = true })
			b.set(func(b *tdBot) { b.hold = true })
			a.Send("tell TD join")
			b.Send("tell TD join")
			a.Expect("Creating: ")
			b.Expect("Creating: ")
			for i := 1; i <= tc.drops; i++ {
				b.mu.Lock()
				sess := b.sess
				b.mu.Unlock()
				sess.Close()
				if i == 3 {
					break
				}
				a.expectCount("Your opponent Bravo has disconnected", i)
				checkPaused(t, s, true)
				a.Send("e2e4") // Alpha may not move meanwhile, whoever is to move
				a.expectCount("The game waits for your opponent to come back; the clocks are stopped.", i)
				b.connect(addr)
				b.expectCount("Resuming game", i)
				a.expectCount("Your opponent Bravo has come back.", i)
				checkPaused(t, s, false)
			}
			if tc.drops < 3 {
				b.Send("resign")
			}
			te := waitStatus(t, s, 1, tdDone)
			g := te.Event.Played[0].Games[0]
			alpha, _ := te.Event.Find("Alpha")
			want := tourney.WhiteWins
			if g.White != alpha {
				want = tourney.BlackWins
			}
			if g.Result != want {
				t.Errorf("result %v, want Alpha's win %v", g.Result, want)
			}
			fin := s.Finished()
			if len(fin) != 1 {
				t.Fatalf("%d games finished, want 1", len(fin))
			}
			wantCode, wantDesc := "Res", "Bravo resigns"
			if tc.drops == 3 {
				wantCode, wantDesc = "Dis", "Bravo forfeits by disconnection (3 in this game)"
			}
			if fin[0].Code != wantCode || fin[0].Description != wantDesc {
				t.Errorf("game ended %s %q, want %s %q", fin[0].Code, fin[0].Description, wantCode, wantDesc)
			}
		})
	}
}

// checkPaused checks that the one game in progress is paused (its clocks
// stand still) or running.
func checkPaused(t *testing.T, s *house, paused bool) {
	t.Helper()
	s.Lock()
	defer s.Unlock()
	games := s.GamesInProgress()
	if len(games) != 1 {
		t.Fatalf("%d games in progress", len(games))
	}
	for _, g := range games {
		now := time.Now()
		still := g.Remaining(g.Umpire().Side(), now) == g.Remaining(g.Umpire().Side(), now.Add(time.Hour))
		if g.Paused() != paused || still != paused {
			t.Errorf("game paused %v, clock still %v; want %v", g.Paused(), still, paused)
		}
	}
}

// expectCount waits until want has been seen n times.
func (b *tdBot) expectCount(want string, n int) {
	b.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		b.mu.Lock()
		k := 0
		for _, l := range b.lines {
			if strings.Contains(l, want) {
				k++
			}
		}
		b.mu.Unlock()
		if k >= n {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s saw %q %d times, want %d", b.handle, want, k, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTDRestart: the server stops with round 1's games in progress (they
// are aborted); a new server on the same folder resumes the event, the
// players answer the pairing again, and the event ends with every game
// played once.
func TestTDRestart(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Charlie", "Delta"}
	strength := map[string]int{"Alpha": 4, "Bravo": 3, "Charlie": 2, "Delta": 1}
	dir := t.TempDir()
	cfg, tcfg := server.Config{Accounts: tdAccounts(t, names...)}, Config{Dir: dir, AbsentGrace: wait,
		Events: []td.EventSpec{mustSpec(t, "name=Again,rounds=2,tc=1+0,start=4")}}
	s1, addr1 := startTD(t, cfg, tcfg)
	bots := map[string]*tdBot{}
	for _, n := range names {
		bots[n] = newTDBot(t, addr1, n, strength)
		bots[n].set(func(b *tdBot) { b.hold = true })
		bots[n].Send("tell TD join")
	}
	for _, n := range names {
		bots[n].Expect("Creating: ")
	}
	s1.Close()
	s2, addr2 := startTD(t, cfg, tcfg)
	for _, n := range names {
		bots[n].set(func(b *tdBot) { b.hold = false })
		bots[n].connect(addr2)
	}
	te := waitStatus(t, s2, 1, tdDone)
	s2.Lock()
	events := len(s2.td.events)
	s2.Unlock()
	if events != 1 {
		t.Errorf("%d events after the restart, want 1 (the spec must not open a second)", events)
	}
	if len(te.Event.Played) != 2 || playedGames(te.Event) != 4 {
		t.Errorf("%d rounds, %d games played; want 2 and 4", len(te.Event.Played), playedGames(te.Event))
	}
	checkOnlyPaired(t, s2, te.Event)
	s2.Close() // writes what is due
	pgn, _ := os.ReadFile(filepath.Join(dir, "tourney-1.pgn"))
	if n := strings.Count(string(pgn), "[Event \"Again\"]"); n != 4 {
		t.Errorf("PGN has %d games, want 4", n)
	}
}

// TestTDEveryoneWithdraws: a manager opens and starts a round robin; one
// entrant leaves before the start, the rest withdraw during it, and the
// event ends, every player told.
func TestTDEveryoneWithdraws(t *testing.T) {
	names := []string{"Boss", "Alpha", "Bravo", "Charlie", "Delta"}
	s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, names...)}, Config{Managers: []string{"Boss"}, AbsentGrace: wait})
	strength := map[string]int{}
	bots := map[string]*tdBot{}
	for _, n := range names {
		bots[n] = newTDBot(t, addr, n, strength)
		bots[n].set(func(b *tdBot) { b.answerDG, b.answerText = false, false })
	}
	bots["Alpha"].Send("tell TD open name=Out system=rr tc=1+0")
	bots["Alpha"].Expect("Only the TD's managers may open.")
	bots["Boss"].Send("tell TD open name=Out system=rr tc=1+0 style=fics")
	bots["Boss"].Expect(":Opened tourney #1: name=Out,system=rr,tc=1+0,style=fics,start=manual,max=64.")
	for _, n := range names[1:] {
		bots[n].Send("td join 1")
		bots[n].Expect(":You have joined tourney #1.")
	}
	bots["Delta"].Send("td leave")
	bots["Delta"].Expect(":You have left tourney #1 (Out).")
	bots["Boss"].Send("td start")
	bots["Boss"].Expect(":Started tourney #1 (Out).")
	bots["Alpha"].Send("td leave")
	bots["Alpha"].Expect("Tourney #1 (Out) has started: \"tell TD leave !\" withdraws you")
	// Two withdraw; the last one left has nobody to play: the event ends.
	for _, n := range []string{"Alpha", "Bravo"} {
		bots[n].Send("td WithdrawFromTourney 1")
		bots[n].Expect(":You have withdrawn from tourney #1 (Out).")
		bots[n].Expect("TD has set your tourney variable to OFF.")
	}
	bots["Charlie"].Expect(":Tourney #1's standings:")
	bots["Charlie"].Expect("TD has set your tourney variable to OFF.")
	te := waitStatus(t, s, 1, tdDone)
	bots["Charlie"].Send("td WithdrawFromTourney 1")
	bots["Charlie"].Expect(":Tourney #1 (Out) is done.")
	bots["Alpha"].Send("td join 1")
	bots["Alpha"].expectRefusal(1, "you have left it and cannot enter it again")
	if len(te.Event.Players) != 3 {
		t.Errorf("%d players; Delta left before the start", len(te.Event.Players))
	}
	for _, p := range te.Event.Players {
		if p.Withdrawn() != (p.Handle != "Charlie") {
			t.Errorf("%s withdrawn: %v", p.Handle, p.Withdrawn())
		}
	}
	if len(s.Finished()) != 0 {
		t.Errorf("%d games played; nobody answered a pairing", len(s.Finished()))
	}
	bots["Charlie"].Expect("DG104 1")
}

// TestTDNoOtherGames: while in a running event a player can neither
// challenge, be challenged, seek nor take a seek.
func TestTDNoOtherGames(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Charlie"}
	_, addr := startTD(t, server.Config{Accounts: tdAccounts(t, names...)}, Config{AbsentGrace: wait, Events: []td.EventSpec{mustSpec(t, "name=Busy,system=rr,tc=1+0,start=2")}})
	strength := map[string]int{}
	a := newTDBot(t, addr, "Alpha", strength)
	b := newTDBot(t, addr, "Bravo", strength)
	c := newTDBot(t, addr, "Charlie", strength)
	for _, x := range []*tdBot{a, b} {
		x.set(func(b *tdBot) { b.answerDG, b.answerText, b.hold = false, false, true })
		x.Send("tell TD join")
	}
	a.Expect("DG63 match Bravo!")
	c.Send("match Alpha 1 0")
	c.Expect("Alpha is playing in tourney #1 (Busy): only the paired games")
	a.Send("match Charlie 1 0")
	a.Expect("Alpha is playing in tourney #1 (Busy): only the paired games")
	a.Send("seek 1 0")
	a.Expect("Alpha is playing in tourney #1 (Busy)")
	a.Send("match Bravo 5 5")
	a.Expect("You are paired with Bravo in tourney #1 (Busy) at 1 0 unrated: send \"match Bravo!\".")
	a.Send("match Charlie!")
	a.Expect("You have no tourney game to play with Charlie now.")
	// The answer at the paired terms starts the paired game.
	a.Send("match Bravo 1 0 u")
	a.Expect("Creating: ")
	a.Send("abort")
	a.Expect("A tourney game cannot be aborted: play on or resign.")
}

// TestTDTellLimits: bad TD commands get clear answers; a flood of them
// is throttled; nobody logs in as the TD.
func TestTDTellLimits(t *testing.T) {
	_, addr := startTD(t, server.Config{Accounts: tdAccounts(t, "Alpha", "TD")}, Config{Burst: 20})
	c := wiretest.DialRaw(t, addr)
	c.Expect("login:", wait)
	c.Send("TD pw-TD\n")
	c.Expect("TD is the server's tournament director; nobody logs in as TD.", wait)
	a := newTDBot(t, addr, "Alpha", map[string]int{})
	for _, tc := range []struct{ send, want string }{
		{"tell TD", "Usage: tell <handle> <text>"},
		{"td", "Tell me a command"},
		{"tell TD frobnicate", `I do not know "frobnicate"`},
		{"tell TD join 7", "You cannot join tourney #7: there is no such tourney."},
		{"tell TD join", "There is no tourney."},
		{"td play 1", "There is no tourney #1."},
		{"tell TD start", "Only the TD's managers may start."},
		{"td WithdrawFromTourney", "Usage: WithdrawFromTourney N"},
		{"td ListTourneys -j", "Listed: 0 tourneys."},
		{"tell TD status", "You are in no tourney."},
		{"td help", "standings [N]: the standings"},
		{"who", "---- TD(TD)"},
	} {
		a.Send(tc.send)
		a.Expect(tc.want)
	}
	for range 40 {
		a.Send("td status")
	}
	a.Expect("You are sending the TD too many commands: wait a second.")
}

// TestTDOpenByManager: a manager's open with a bad spec is refused with
// the reason; a good one is announced by DG 103 to everyone.
func TestTDOpenByManager(t *testing.T) {
	_, addr := startTD(t, server.Config{Accounts: tdAccounts(t, "Boss", "Alpha", "Charlie")}, Config{Managers: []string{"Boss"}, AbsentGrace: wait})
	boss := newTDBot(t, addr, "Boss", nil)
	a := newTDBot(t, addr, "Alpha", nil)
	boss.Send("tell TD open system=knockout")
	boss.Expect(`Cannot open: system "knockout": want swiss, rr or drr.`)
	boss.Send("tell TD open rounds=3 tc=1+1")
	boss.Expect("Opened tourney #1: name=KS1,system=swiss,rounds=3,tc=1+1,style=icc,start=manual,max=64.")
	a.Expect("DG103 1 tell TD join 1")
	a.Send("tell TD info")
	a.Expect("Tourney #1 KS1: Swiss, wild 16 1 1 unrated, icc style, open; not started, 0 players.")
	boss.Send("tell TD start")
	boss.Expect("Cannot start tourney #1 (KS1): fewer than two players have joined.")
	boss.Send("tell TD abort 1")
	boss.Expect("Aborted tourney #1 (KS1).")
	a.Expect("DG104 1")
	a.Send("tell TD join 1")
	a.expectRefusal(1, "it is aborted")

	// A round robin of at most two: full at two, no late joins.
	boss.Send("tell TD open name=RR system=rr max=2 tc=1+0")
	boss.Expect("Opened tourney #2")
	c := newTDBot(t, addr, "Charlie", nil)
	for _, x := range []*tdBot{a, c} {
		x.set(func(b *tdBot) { b.answerDG, b.answerText = false, false })
		x.Send("tell TD join 2")
		x.Expect("You have joined tourney #2.")
	}
	boss.Send("tell TD join 2")
	boss.expectRefusal(2, "it is full (2 players)")
	a.Send("tell TD join 1")
	a.expectRefusal(1, "you are in tourney #2 (RR): one event at a time")
	boss.Send("tell TD forfeit Nobody 2")
	boss.Expect("Nobody is not playing in tourney #2 (RR).")
	boss.Send("tell TD start 2")
	a.Expect("DG63 match Charlie!")
	// The manager forfeits Charlie: Alpha wins, the event is over.
	boss.Send("tell TD forfeit Charlie")
	boss.Expect("Charlie is forfeited from tourney #2 (RR).")
	c.Expect("You have been forfeited from tourney #2.")
	a.Expect("Tourney #2's standings:")
	a.Expect("Round 1: Alpha - Charlie +:-.")
}

func jsonMarshal(te *tdEvent) ([]byte, error) { return marshalTDEvent(te) }

// TestTDAnswerTwice: answers to one pairing, repeated before, during and
// after the game, start exactly one game and never a challenge; an
// opponent logging in after the answer starts the game at once.
func TestTDAnswerTwice(t *testing.T) {
	strength := map[string]int{"Alpha": 2, "Bravo": 1}
	s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, "Alpha", "Bravo")}, Config{AbsentGrace: wait, Events: []td.EventSpec{mustSpec(t, "name=Twice,system=rr,tc=1+0,start=2")}})
	a := newTDBot(t, addr, "Alpha", strength)
	b := newTDBot(t, addr, "Bravo", strength)
	a.set(func(b *tdBot) { b.answerDG, b.answerText, b.hold = false, false, true })
	b.set(func(b *tdBot) { b.answerDG, b.answerText, b.hold = false, false, true })
	b.Send("tell TD join")
	b.Expect("You have joined tourney #1.")
	b.drop(s)
	a.Send("tell TD join")
	a.Expect("DG63 match Bravo!")
	a.Send("match Bravo!")
	a.Expect("Round 1: Bravo is not logged in; waiting until")
	a.Send("td play 1")
	a.expectCount("Round 1: Bravo is not logged in; waiting until", 2)
	b.connect(addr) // Alpha answered: the game starts at Bravo's login
	b.Expect("Creating: Alpha (1500) Bravo (1500) unrated wild 16 1 0")
	a.Send("match Bravo!")
	a.Expect("Your tourney game (game 1) is already in progress.")
	b.release()
	a.Expect("{Game 1 (Alpha vs. Bravo) Bravo resigns} 1-0")
	a.Send("match Bravo!")
	a.Expect("You have no tourney game to play with Bravo now.")
	waitStatus(t, s, 1, tdDone)
	if n := len(s.Finished()); n != 1 {
		t.Errorf("%d games played, want 1", n)
	}
	if b.saw("Challenge:") {
		t.Error("a repeated answer became a challenge")
	}
}

// TestTDBye: "tell TD bye" gives a half-point bye in the next round to be
// paired, never in one already paired (the game of the round in progress
// stands); before the start, after the last pairing and to others it is
// refused with the reason.
func TestTDBye(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Charlie", "Delta"}
	strength := map[string]int{"Alpha": 4, "Bravo": 3, "Charlie": 2, "Delta": 1}
	s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, append(names, "Eve")...)}, Config{AbsentGrace: wait, Events: []td.EventSpec{mustSpec(t, "name=Bye,system=swiss,rounds=2,tc=1+0,start=4")}})
	bots := map[string]*tdBot{}
	for _, n := range names {
		bots[n] = newTDBot(t, addr, n, strength)
		bots[n].set(func(b *tdBot) { b.hold = true })
	}
	a := bots["Alpha"]
	a.Send("td help")
	a.Expect("bye [N]: a half-point bye in the next round to be paired")
	a.Send("tell TD join")
	a.Expect("You have joined tourney #1.")
	a.Send("tell TD bye")
	a.Expect("Tourney #1 (Bye) has not started: ask for your bye once round 1 is paired")
	for _, n := range names[1:] {
		bots[n].Send("tell TD join")
	}
	a.Expect("Creating: ")
	a.Send("tell TD bye")
	a.Expect("You will have a half-point bye in round 2 of tourney #1 (Bye); your game of round 1 stands.")
	eve := newTDBot(t, addr, "Eve", strength)
	eve.Send("tell TD bye 1")
	eve.Expect("You are not in tourney #1 (Bye).")
	if te := tdSnap(t, s, 1); len(te.Boards) != 2 {
		t.Fatalf("round 1 has %d boards in play, want 2: the bye must not touch the round paired", len(te.Boards))
	}
	// Round 1 (1-3, 4-2): the weaker resign; everyone still holds, so the
	// last round stays in play while Bravo asks.
	bots["Charlie"].Send("resign")
	bots["Delta"].Send("resign")
	a.Expect("Tourney #1 (Bye) round 2: you have a half-point bye.")
	b := bots["Bravo"]
	b.Send("tell TD bye")
	b.Expect("You cannot have a bye in tourney #1 (Bye): every round is paired already.")
	for _, n := range names {
		bots[n].release()
	}
	te := waitStatus(t, s, 1, tdDone)
	alpha, _ := te.Event.Find("Alpha")
	var got []tourney.Bye
	for _, by := range te.Event.Played[1].Byes {
		if by.Player == alpha {
			got = append(got, by)
		}
	}
	if len(got) != 1 || got[0].Kind != tourney.HalfBye {
		t.Errorf("round 2 byes %+v: want Alpha's half-point bye", te.Event.Played[1].Byes)
	}
	if p := te.Event.Points2()[alpha]; p != 3 {
		t.Errorf("Alpha has %d half-points, want 3 (a win and the half-point bye)", p)
	}
	checkOnlyPaired(t, s, te.Event)
}

// TestTDLateOdds: with LateOdds (CCT's rule) the time a player waited for
// a late opponent comes off the late side's clock at the start; without
// it (the default) both clocks start full.
func TestTDLateOdds(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	const late = 1500 * time.Millisecond
	for _, odds := range []bool{false, true} {
		t.Run(fmt.Sprint("odds=", odds), func(t *testing.T) {
			s, addr := startTD(t, server.Config{Accounts: tdAccounts(t, "Alpha", "Bravo")}, Config{AbsentGrace: wait, LateOdds: odds, Events: []td.EventSpec{mustSpec(t, "name=Late,system=rr,tc=1+0,start=2")}})
			a := newTDBot(t, addr, "Alpha", nil)
			b := newTDBot(t, addr, "Bravo", nil)
			a.set(func(b *tdBot) { b.hold = true })
			b.set(func(b *tdBot) { b.hold = true })
			b.Send("tell TD join")
			b.Expect("You have joined tourney #1.")
			b.drop(s)
			a.Send("tell TD join")
			a.Expect("Round 1: Bravo is not logged in; waiting until") // Alpha answered (DG 63's command)
			time.Sleep(late)
			b.connect(addr) // Bravo, Black (pairing number 2), arrives late: the game starts
			a.Expect("Creating: Alpha (1500) Bravo (1500)")
			s.Lock()
			var clock [2]time.Duration
			for _, g := range s.GamesInProgress() {
				clock = g.Clocks()
			}
			s.Unlock()
			if clock[0] != time.Minute {
				t.Errorf("Alpha's clock %v, want 1m: Alpha waited", clock[0])
			}
			switch {
			case !odds && clock[1] != time.Minute:
				t.Errorf("Bravo's clock %v without time odds, want 1m", clock[1])
			case odds && (clock[1] > time.Minute-late || clock[1] < time.Minute-wait):
				t.Errorf("Bravo's clock %v with time odds, want 1m less the %v (or more) Alpha waited", clock[1], late)
			}
			if odds {
				a.Expect("off Bravo's clock (time odds for a late arrival).")
			} else if a.saw("time odds") {
				t.Error("time odds announced without LateOdds")
			}
		})
	}
}
