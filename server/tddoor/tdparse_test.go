package tddoor

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// finishedEvent is a 6-player Swiss of 3 rounds with every result in,
// the stronger player winning (a draw between neighbours on board 3).
func finishedEvent(t testing.TB, sixth string) *tdEvent {
	t.Helper()
	e := tourney.New("KS Demo", tourney.Swiss, 3)
	e.Site, e.Date = "kriegbot serve", "2026.11.25"
	for i, h := range []string{"mcts", "mcts-a", "heuristic", "random", "Guest0042", sixth} {
		if err := e.AddPlayer(h, 1800-100*i); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		rd, err := e.PairNext()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rd.Games {
			res := tourney.WhiteWins
			switch {
			case g.Board == 3:
				res = tourney.Draw
			case g.Black < g.White:
				res = tourney.BlackWins
			}
			if err := e.SetResult(rd.Number, g.Board, res); err != nil {
				t.Fatal(err)
			}
		}
	}
	return &tdEvent{ID: 1, Spec: td.EventSpec{Name: "KS_Demo", System: tourney.Swiss, Rounds: 3, Minutes: 1, Inc: 1, Style: "icc", MaxPlayers: 64},
		Status: tdDone, Opened: time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC), Event: e}
}

func FuzzDecodeTDEvent(f *testing.F) {
	b, err := marshalTDEvent(finishedEvent(f, "<b>evil</b>"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"ID":1,"Status":"running","Event":{"Players":[],"Played":[{"Games":[{"White":5,"Black":0}]}]}}`))
	f.Add([]byte(`{"ID":1,"Status":"running","Event":{"Players":[{"Handle":"a"},{"Handle":"b"}],"Played":[{"Number":1,"Games":[{"Board":1,"White":0,"Black":1}]}]},"Boards":[{"Round":1,"Board":1,"White":"a","Black":"b"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		te, err := decodeTDEvent(b)
		if err != nil {
			return
		}
		// Whatever decoded must render without a panic.
		te.crosstableText()
		te.crosstableHTML()
		te.Event.Standings(tourney.DefaultTieBreaks(te.Event.System)...)
	})
}

// TestTDLoadRefusesDamage: a damaged tourney-N.json stops the server
// instead of being started over.
func TestTDLoadRefusesDamage(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"tourney-1.json", "{not json"},
		{"tourney-2.json", `{"ID":3,"Status":"done","Event":{}}`},
		{"tourney-1.json", `{"ID":1,"Status":"weird","Event":{}}`},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.name), []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := newHouse(server.Config{}, Config{Dir: dir}); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s %s: %v, want an error naming the file", tc.name, tc.body, err)
		}
	}
}

// TestTDPages: the HTTP door serves a kept event's crosstable as HTML,
// text and PGN, and nothing else under /tourney/.
func TestTDPages(t *testing.T) {
	dir := t.TempDir()
	b, err := marshalTDEvent(finishedEvent(t, "<b>evil</b>"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tourney-1.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := newHouse(server.Config{}, Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := tourneyPages(s)
	for _, tc := range []struct {
		method, path string
		status       int
		ctype, body  string
	}{
		{"GET", "/tourney/1", 200, "text/html; charset=utf-8", "&lt;b&gt;evil&lt;/b&gt;"},
		{"GET", "/tourney/1.txt", 200, "text/plain; charset=utf-8", "heuristic"},
		{"GET", "/tourney/1.pgn", 200, "application/x-chess-pgn", ""},
		{"GET", "/tourney/2", 404, "", ""},
		{"GET", "/tourney/x", 404, "", ""},
		{"POST", "/tourney/1", 405, "", ""},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, tc.path, nil)
		h.ServeHTTP(rec, req)
		if rec.Code == 200 && rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", tc.path)
		}
		if rec.Code != tc.status || tc.ctype != "" && rec.Header().Get("Content-Type") != tc.ctype || !strings.Contains(rec.Body.String(), tc.body) {
			t.Errorf("%s %s: %d %q %q", tc.method, tc.path, rec.Code, rec.Header().Get("Content-Type"), wiretest.Tail(rec.Body.String(), 200))
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") && strings.Contains(rec.Body.String(), "<b>evil") {
			t.Errorf("%s: a name went out unescaped", tc.path)
		}
	}
}

// FuzzTDTell sends any text to the TD as a manager: whatever it is, the
// TD answers without a panic and its events stay consistent.
func FuzzTDTell(f *testing.F) {
	for _, s := range []string{"open name=A rounds=2 start=2", "join", "latejoin 1", "leave !", "leave 1 !", "start", "abort 1",
		"forfeit Boss", "forfeit x 99", "standings #1", "info", "pairings", "games", "status", "play 1",
		"WithdrawFromTourney 1", "ListTourneys -j", "help", "open " + strings.Repeat("x", 600), "join #0"} {
		f.Add(s)
	}
	s, addr := startTD(f, server.Config{Accounts: tdAccounts(f, "Boss", "Other")}, Config{Managers: []string{"Boss"}, AbsentGrace: time.Hour, Rate: 1e9, Burst: 1e9})
	mk := func(h string) *server.Client {
		rc := wiretest.DialRaw(f, addr)
		rc.Expect("login:", wait)
		rc.Send(h + " pw-" + h + "\r\n")
		rc.Expect("Starting session as", wait)
		go io.Copy(io.Discard, rc.Reader) // what the TD says is not read here
		s.Lock()
		defer s.Unlock()
		return s.User(h)
	}
	boss, other := mk("Boss"), mk("Other")
	f.Fuzz(func(t *testing.T, text string) {
		s.Lock()
		defer s.Unlock()
		for _, c := range []*server.Client{boss, other} {
			ev := s.NewEvents() // not flushed: the output is not sent
			s.td.Tell(ev, c, text)
		}
		for _, te := range s.td.events {
			if _, err := json.Marshal(te); err != nil {
				t.Fatal(err)
			}
			for _, b := range te.Boards {
				if b.ev != te || b.Round != te.round() {
					t.Fatalf("board %+v out of its event", b)
				}
			}
		}
	})
}

// The events open at start are listed for kriegbot serve's first lines,
// with the command that enters them.
func TestTDEventsListed(t *testing.T) {
	s, err := newHouse(server.Config{Rules: umpire.ICC()}, Config{Events: []td.EventSpec{
		mustSpec(t, "name=KS1 system=swiss rounds=5 tc=2+12 start=8"), mustSpec(t, "name=KS2 system=rr tc=1+0 start=2")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := strings.Join(s.td.Events(), "\n")
	want := "Tourney #1 (KS1), open: not started, 0 players; players enter with \"tell TD join 1\"\n" +
		"Tourney #2 (KS2), open: not started, 0 players; players enter with \"tell TD join 2\""
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// tourneyPages serves the TD's pages as the HTTP door does under
// /tourney/, without the door's request budget.
func tourneyPages(s *house) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.td.ServeTourney(w, r, func() (bool, time.Duration) { return true, 0 })
	})
}
