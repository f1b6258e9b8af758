package live

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"kriegbot/internal/chromium"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// sample is a snapshot with one game in progress and one finished game.
func sample() Snapshot {
	g := Game{Number: 7, Opponent: "sparring", Us: "white", Control: "1+1", Ply: 22, ClockUs: 41_000, ClockThem: 52_500,
		State: "thinking", Value: 0.31, HasValue: true, HasHeat: true,
		CandidatesPly: 22, Candidates: []Candidate{{Move: "e2e4", Visits: 900, Value: 2.5, PIllegal: 0.1, PCapture: 0.3, PCheck: 0.05}},
		Heard: []string{"e2e4: 0 pawn tries", "they: Pawn at e4 captured"}}
	g.Own[1] = 0xff00 // pawns
	g.Own[6] = 0x10   // king e1
	g.Heat[0][60] = 0.7
	g.Heat[1][52] = 0.9
	g.Heat[2][57] = 0.4
	return Snapshot{Updated: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Account: "kriegbot", Server: "127.0.0.1:5000",
		Score: Score{Finished: 3, Wins: 2, Draws: 1}, Games: []Game{g}, Tourney: "tourney #1 (TD): in, 1 games, 0.5 points; <b>",
		Finished: []Finished{{Number: 6, Opponent: "sparring", Us: "black", Result: "1-0", Reason: "Black checkmated", Plies: 51,
			Record: "20261125-120000-kriegbot-g6-sparring.jsonl"}}}
}

func get(t *testing.T, h http.Handler, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// TestRoutes: the page, its fragment and the JSON show the snapshot; the
// page is read-only; unknown replays, and names that try to leave the games
// folder, are not found.
func TestRoutes(t *testing.T) {
	s := New(t.TempDir(), func(string) ([]byte, error) { return []byte("<p>replay</p>"), nil })
	s.Publish(sample())
	h := s.Handler()
	page := get(t, h, "GET", "/")
	body := page.Body.String()
	for _, want := range []string{"Game 7 vs sparring", "thinking", "value +0.31", "e2e4", "our search after ply 22 (move 12)", "their king (%)", "Legend",
		"/replay/20261125-120000-kriegbot-g6-sparring.html", "score +2 -0 =1", "0:41", "0:52",
		"tournament: tourney #1 (TD): in, 1 games, 0.5 points; &lt;b&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if page.Header().Get("Content-Security-Policy") == "" || page.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("page headers %v", page.Header())
	}
	if frag := get(t, h, "GET", "/fragment").Body.String(); !strings.Contains(frag, "Game 7") || strings.Contains(frag, "<script") {
		t.Errorf("fragment %q", frag)
	}
	var snap Snapshot
	if err := json.Unmarshal(get(t, h, "GET", "/state.json").Body.Bytes(), &snap); err != nil || snap.Games[0].Ply != 22 {
		t.Errorf("state.json: %v %+v", err, snap)
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		if code := get(t, h, m, "/").Code; code != http.StatusMethodNotAllowed {
			t.Errorf("%s / = %d, want 405", m, code)
		}
	}
	for _, p := range []string{"/replay/nothing.html", "/replay/..%2f..%2fetc%2fpasswd.html", "/nope"} {
		if code := get(t, h, "GET", p).Code; code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, code)
		}
	}
	if code := get(t, h, "GET", "/replay/../x.html").Code; code == http.StatusOK {
		t.Errorf("GET /replay/../x.html served a page")
	}
}

// TestReplayMadeOnce: the first request starts making the replay page in
// the background and says so; later requests get the page, made once. (In
// a synctest bubble: synctest.Wait returns once the maker is done.)
func TestReplayMadeOnce(t *testing.T) { synctest.Test(t, testReplayMadeOnce) }

func testReplayMadeOnce(t *testing.T) {
	dir := t.TempDir()
	var made atomic.Int32
	release := make(chan struct{})
	s := New(dir, func(rec string) ([]byte, error) {
		made.Add(1)
		<-release
		if filepath.Dir(rec) != dir {
			return nil, errors.New("record outside the games folder: " + rec)
		}
		return []byte("<p>the replay</p>"), nil
	})
	s.Publish(sample())
	h := s.Handler()
	path := "/replay/20261125-120000-kriegbot-g6-sparring.html"
	for range 3 {
		r := get(t, h, "GET", path)
		if r.Code != 200 || r.Header().Get("Refresh") == "" || !strings.Contains(r.Body.String(), "Making the replay") {
			t.Fatalf("while making: %d %q", r.Code, r.Body.String())
		}
	}
	close(release)
	synctest.Wait()
	if r := get(t, h, "GET", path); !strings.Contains(r.Body.String(), "the replay") || strings.Contains(r.Body.String(), "Making") {
		t.Fatalf("the replay page did not come: %q", r.Body.String())
	}
	if n := made.Load(); n != 1 {
		t.Fatalf("the replay was made %d times, want once", n)
	}
}

// TestReplayNotKeptWhenNotTheGame: a page made with an error (a re-run
// that chose otherwise than the record, or no page at all) is shown for
// this run, made once, but not written beside the record, where the next
// run would serve it as the game's replay.
func TestReplayNotKeptWhenNotTheGame(t *testing.T) {
	for _, c := range []struct {
		name string
		page []byte
		want string
	}{
		{"differs", []byte("<p>3 differing choices</p>"), "3 differing choices"},
		{"no page", nil, "could not be made: the record is gone"},
	} {
		t.Run(c.name, func(t *testing.T) { synctest.Test(t, func(t *testing.T) { testReplayNotKept(t, c.page, c.want) }) })
	}
}

func testReplayNotKept(t *testing.T, page []byte, want string) {
	dir := t.TempDir()
	var made atomic.Int32
	s := New(dir, func(string) ([]byte, error) {
		made.Add(1)
		return page, errors.New("the record is gone")
	})
	s.Publish(sample())
	h := s.Handler()
	path := "/replay/20261125-120000-kriegbot-g6-sparring.html"
	if r := get(t, h, "GET", path); !strings.Contains(r.Body.String(), "Making the replay") {
		t.Fatalf("first request: %q", r.Body.String())
	}
	synctest.Wait()
	for range 2 {
		if r := get(t, h, "GET", path); !strings.Contains(r.Body.String(), want) {
			t.Fatalf("the page made is not shown: %q", r.Body.String())
		}
	}
	if n := made.Load(); n != 1 {
		t.Errorf("the replay was made %d times, want once", n)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*")); len(names) != 0 {
		t.Errorf("kept beside the record: %q", names)
	}
}

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr   string
		public bool
		ok     bool
	}{
		{"127.0.0.1:8080", false, true}, {"[::1]:8080", false, true}, {"localhost:8080", false, true},
		{"0.0.0.0:8080", false, false}, {"192.0.2.1:80", false, false}, {"example.org:80", false, false},
		{"0.0.0.0:8080", true, true}, {"8080", false, false},
	} {
		if err := CheckAddr(c.addr, c.public); (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %v) = %v, want ok %v", c.addr, c.public, err, c.ok)
		}
	}
}

// TestServeAndStop: a real listener serves the page and stops with ctx.
func TestServeAndStop(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(t.TempDir(), nil)
	s.Publish(sample())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/state.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"opponent":"sparring"`) {
		t.Fatalf("state.json over TCP: %s", b)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}

// TestPageInChromium renders the live page in headless Chromium (with its
// script, which redraws from /fragment) and checks the screenshot is a drawn
// page. Opt-in: KRIEGBOT_CHROMIUM=1 (Debian package chromium);
// KRIEGBOT_SCREENSHOT=FILE keeps the picture (docs/live-page.png).
func TestPageInChromium(t *testing.T) {
	if !chromium.Enabled() {
		t.Skip("KRIEGBOT_CHROMIUM=1 renders the page in headless Chromium")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(t.TempDir(), nil)
	s.Publish(sample())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln)
	dir := t.TempDir()
	_, shot, err := chromium.Screenshot(dir, "http://"+ln.Addr().String()+"/", chromium.Options{Width: 1200, Height: 1000, VirtualTime: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(shot)
	if err != nil || st.Size() < 20_000 {
		t.Fatalf("screenshot %v (%v): too small for a drawn page", st, err)
	}
}
