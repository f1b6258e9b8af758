package sitegames

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/protocol/ksapi"
	"kriegbot/protocol/ksclient"
)

// site is a small kriegspiel.org for the fetcher: users with their
// archived games, transcripts, and failures to serve first.
type site struct {
	mu       sync.Mutex
	bots     []string
	roles    map[string]string           // user -> role
	games    map[string][]ksapi.UserGame // user -> newest first
	variants map[string]string           // game id -> transcript's variant
	fails    map[string][]int            // path -> statuses to answer first
	after    string                      // Retry-After on failures
	fetched  map[string]int              // transcript fetches per game
	paths    []string
	// replyTime is how long each reply takes on clk (0: none).
	replyTime time.Duration
	clk       *clock
}

func newSite() *site {
	return &site{roles: map[string]string{}, games: map[string][]ksapi.UserGame{}, variants: map[string]string{},
		fails: map[string][]int{}, fetched: map[string]int{}}
}

func gameID(n int) string { return fmt.Sprintf("%024x", n) }

// play adds game n between white and black to both users' archives.
func (s *site) play(n int, variant, white, black, winner, day string) {
	id := gameID(n)
	s.variants[id] = variant
	for _, side := range []struct{ me, them, color string }{{white, black, "white"}, {black, white, "black"}} {
		res := "draw"
		if winner != "" {
			res = map[bool]string{true: "win", false: "loss"}[winner == side.color]
		}
		row := ksapi.UserGame{GameID: id, RuleVariant: variant, Opponent: side.them, OpponentRole: s.roles[side.them],
			PlayAs: side.color, Result: res, Reason: "checkmate", PlayedAt: day + "T12:00:00Z"}
		s.games[side.me] = append([]ksapi.UserGame{row}, s.games[side.me]...)
	}
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paths = append(s.paths, r.URL.Path)
	if s.replyTime > 0 {
		s.clk.mu.Lock()
		s.clk.now = s.clk.now.Add(s.replyTime)
		s.clk.mu.Unlock()
	}
	if q := s.fails[r.URL.Path]; len(q) > 0 {
		s.fails[r.URL.Path] = q[1:]
		if s.after != "" {
			w.Header().Set("Retry-After", s.after)
		}
		w.WriteHeader(q[0])
		if q[0] == 200 { // a torn reply
			w.Write([]byte(`{"game_id":`))
		}
		return
	}
	seg := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	reply := func(v any) { json.NewEncoder(w).Encode(v) }
	switch {
	case r.URL.Path == "/bots":
		var l ksapi.Bots
		for _, b := range s.bots {
			l.Bots = append(l.Bots, ksapi.Bot{Username: b})
		}
		reply(l)
	case len(seg) == 2 && seg[0] == "user":
		role, ok := s.roles[seg[1]]
		if !ok {
			http.Error(w, `{"detail":"User not found"}`, 404)
			return
		}
		reply(ksapi.User{Username: seg[1], Role: role, IsBot: role == "bot"})
	case len(seg) == 3 && seg[0] == "user" && seg[2] == "games":
		if _, ok := s.roles[seg[1]]; !ok {
			http.Error(w, `{"detail":"User not found"}`, 404)
			return
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		all := s.games[seg[1]]
		pages := (len(all) + per - 1) / per
		lo, hi := min((page-1)*per, len(all)), min(page*per, len(all))
		reply(ksapi.UserGames{Games: all[lo:hi], Pagination: ksapi.Pagination{Page: page, PerPage: per, Total: len(all), Pages: pages}})
	case len(seg) == 3 && seg[0] == "game" && seg[2] == "moves":
		v, ok := s.variants[seg[1]]
		if !ok {
			http.Error(w, `{"error":{"code":"GAME_NOT_FOUND"}}`, 404)
			return
		}
		s.fetched[seg[1]]++
		uci := "e2e4"
		reply(ksapi.Transcript{GameID: seg[1], RuleVariant: v, Moves: []ksapi.TranscriptMove{{Ply: 1, Color: "white", QuestionType: "COMMON", UCI: &uci, MoveDone: true}}})
	default:
		http.Error(w, "{}", 404)
	}
}

// clock is a fake clock that Sleep advances.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	c.mu.Unlock()
	return ctx.Err()
}

type run struct {
	sum   Summary
	err   error
	notes []string
	clk   *clock
}

func fetchFrom(t *testing.T, s *site, dir string, opt Options) run {
	t.Helper()
	srv := httptest.NewServer(s)
	defer srv.Close()
	cl, err := ksclient.New(ksclient.Config{URL: srv.URL, Token: "ksbot_0011223344556677.AbCdEfGhIjKlMnOpQrStUvWxYz_-0123", Rate: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := run{clk: &clock{now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}}
	opt.Now, opt.Sleep = r.clk.Now, r.clk.Sleep
	s.mu.Lock()
	s.clk = r.clk
	s.mu.Unlock()
	opt.Note = func(s string) { r.notes = append(r.notes, s) }
	ctx := context.Background()
	if opt.Progress == nil {
		opt.Progress = func(Progress) {}
	}
	r.sum, r.err = Fetch(ctx, cl, st, opt)
	return r
}

// world: bots b1 and b2, people h1 and h2; five games, one between two bots.
func world() *site {
	s := newSite()
	s.bots = []string{"b1", "b2"}
	s.roles = map[string]string{"b1": "bot", "b2": "bot", "h1": "user", "h2": "guest"}
	s.play(1, "wild16", "b1", "h1", "white", "2026-11-01")
	s.play(2, "berkeley_any", "h1", "b2", "black", "2026-11-02")
	s.play(3, "wild16", "b1", "b2", "", "2026-11-03")
	s.play(4, "cincinnati", "h2", "h1", "white", "2026-11-04")
	s.play(5, "wild16", "h1", "b1", "black", "2026-11-05")
	return s
}

func storedIDs(t *testing.T, dir string) map[string]Game {
	t.Helper()
	st, warn, err := Open(dir)
	if err != nil || len(warn) > 0 {
		t.Fatalf("open: %v %v", warn, err)
	}
	out := map[string]Game{}
	for _, v := range ksapi.RuleVariants() {
		err := st.Read(v, func(g Game) error { out[g.ID] = g; return nil }, func(p string, err error) { t.Errorf("%s: %v", p, err) })
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestFetchWalksOnceAndResumes(t *testing.T) {
	s, dir := world(), t.TempDir()
	r := fetchFrom(t, s, dir, Options{PerPage: 2})
	if r.err != nil || r.sum.Stopped {
		t.Fatalf("fetch: %+v %v", r.sum, r.err)
	}
	got := storedIDs(t, dir)
	if len(got) != 5 || r.sum.Stored != 5 {
		t.Fatalf("stored %d games (summary %d), want 5", len(got), r.sum.Stored)
	}
	for id, n := range s.fetched {
		if n != 1 {
			t.Errorf("game %s: transcript fetched %d times", id, n)
		}
	}
	g := got[gameID(2)]
	if g.Variant != "berkeley_any" || g.White.Name != "h1" || g.White.Bot || !g.Black.Bot || g.Result != "0-1" || len(g.Moves) != 1 {
		t.Errorf("game 2 stored as %+v", g)
	}
	if g := got[gameID(4)]; g.White.Role != "guest" || g.Result != "1-0" {
		t.Errorf("game 4 stored as %+v", g)
	}
	if g := got[gameID(3)]; g.Result != "1/2-1/2" || g.HasHuman() {
		t.Errorf("game 3 stored as %+v", g)
	}
	// A second run fetches no transcript again.
	before := len(s.paths)
	r = fetchFrom(t, s, dir, Options{PerPage: 2})
	if r.err != nil || r.sum.Stored != 0 || r.sum.Skipped == 0 {
		t.Fatalf("second fetch: %+v %v", r.sum, r.err)
	}
	for _, p := range s.paths[before:] {
		if strings.HasSuffix(p, "/moves") {
			t.Errorf("second run fetched %s", p)
		}
	}
}

func TestFetchFilters(t *testing.T) {
	t.Run("humans", func(t *testing.T) {
		s, dir := world(), t.TempDir()
		r := fetchFrom(t, s, dir, Options{Humans: true})
		got := storedIDs(t, dir)
		if r.err != nil || len(got) != 4 || got[gameID(3)].ID != "" || s.fetched[gameID(3)] != 0 {
			t.Errorf("humans only: %d stored, bots' game fetched %d times, %v", len(got), s.fetched[gameID(3)], r.err)
		}
	})
	t.Run("since", func(t *testing.T) {
		s, dir := world(), t.TempDir()
		r := fetchFrom(t, s, dir, Options{Since: time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC), PerPage: 1})
		got := storedIDs(t, dir)
		if r.err != nil || len(got) != 3 || got[gameID(1)].ID != "" || got[gameID(2)].ID != "" {
			t.Errorf("since Nov 3: stored %v, %v", keys(got), r.err)
		}
	})
	t.Run("max", func(t *testing.T) {
		s, dir := world(), t.TempDir()
		var calls []Progress
		r := fetchFrom(t, s, dir, Options{Max: 2, Progress: func(p Progress) { calls = append(calls, p) }})
		if r.err != nil || r.sum.Stored != 2 || len(storedIDs(t, dir)) != 2 || len(calls) != 2 || calls[1].Stored != 2 {
			t.Errorf("max 2: %+v, progress %+v, %v", r.sum, calls, r.err)
		}
	})
}

func keys(m map[string]Game) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestFetchIsPolite: at least the pause between two requests, and a 429's
// Retry-After waited out before the retry.
func TestFetchIsPolite(t *testing.T) {
	s, dir := world(), t.TempDir()
	s.fails["/user/h1/games"] = []int{429}
	s.after = "30"
	r := fetchFrom(t, s, dir, Options{Pause: 1500 * time.Millisecond})
	if r.err != nil || r.sum.Stored != 5 {
		t.Fatalf("fetch: %+v %v %v", r.sum, r.err, r.notes)
	}
	long := 0
	for _, d := range r.clk.slept {
		if d >= 30*time.Second {
			long++
		}
	}
	if long != 1 {
		t.Errorf("waits %v: want one of at least the Retry-After's 30 s", r.clk.slept)
	}
	// Every request but the first waited out the pause: the fake clock
	// moves only in Sleep, so the total sleep bounds the requests.
	var total time.Duration
	for _, d := range r.clk.slept {
		total += d
	}
	if min := time.Duration(r.sum.Requests-1) * 1500 * time.Millisecond; total < min {
		t.Errorf("%d requests in %s of waiting: under the pause", r.sum.Requests, total)
	}
	if !hasNote(r.notes, "429") {
		t.Errorf("no note of the 429: %v", r.notes)
	}
}

// TestFetchPausesAfterSlowReplies: the pause runs from the end of a reply
// to the next request, so however long a reply takes, requests reach the
// server at least the pause apart (a pause counted from the start of the
// previous request let two arrive closer when the first was slow to get
// there: the acceptance run's server log saw 83 ms with -pause 200ms).
func TestFetchPausesAfterSlowReplies(t *testing.T) {
	s, dir := world(), t.TempDir()
	s.replyTime = time.Second
	r := fetchFrom(t, s, dir, Options{Pause: 1500 * time.Millisecond})
	if r.err != nil || r.sum.Stored != 5 {
		t.Fatalf("fetch: %+v %v %v", r.sum, r.err, r.notes)
	}
	if len(r.clk.slept) != r.sum.Requests-1 {
		t.Fatalf("%d waits for %d requests", len(r.clk.slept), r.sum.Requests)
	}
	for i, d := range r.clk.slept {
		if d < 1500*time.Millisecond {
			t.Errorf("wait %d: %s after a reply, want the whole pause", i, d)
		}
	}
}

func hasNote(notes []string, part string) bool {
	for _, n := range notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

// TestFetchBadInput: a server error in the middle, a torn reply, a gone
// user and an unknown variant are each skipped or retried with a clear
// note, and nothing stored is lost.
func TestFetchBadInput(t *testing.T) {
	s, dir := world(), t.TempDir()
	s.roles["gone"] = "user"
	s.play(6, "chess960", "gone", "h2", "white", "2026-11-06")
	delete(s.roles, "gone")                                                    // renamed or deleted since
	s.fails["/game/"+gameID(4)+"/moves"] = []int{500, 200}                     // a 500, then a torn reply, then good
	s.fails["/game/"+gameID(5)+"/moves"] = []int{503, 503, 503, 503, 503, 503} // past the retries, both times it is met
	r := fetchFrom(t, s, dir, Options{Retries: 3})
	if r.err != nil {
		t.Fatalf("fetch: %v", r.err)
	}
	got := storedIDs(t, dir)
	if len(got) != 4 || got[gameID(4)].ID == "" || got[gameID(5)].ID != "" || got[gameID(6)].ID != "" {
		t.Errorf("stored %v", keys(got))
	}
	for _, want := range []string{"the profile of gone: gone", `unknown rule variant "chess960"`, "skipped after 3 tries", "try 2 of 3"} {
		if !hasNote(r.notes, want) {
			t.Errorf("no note %q in %q", want, r.notes)
		}
	}
	// The next run picks up the game that failed, and only it.
	r = fetchFrom(t, s, dir, Options{})
	if r.err != nil || r.sum.Stored != 1 || s.fetched[gameID(5)] != 1 {
		t.Errorf("second run: %+v %v, game 5 fetched %d times", r.sum, r.err, s.fetched[gameID(5)])
	}
}

func TestFetchRefusedToken(t *testing.T) {
	s, dir := world(), t.TempDir()
	s.fails["/bots"] = []int{401}
	r := fetchFrom(t, s, dir, Options{})
	if r.err == nil || !strings.Contains(r.err.Error(), "refused the token") {
		t.Errorf("401: %v", r.err)
	}
}

// TestFetchStopsOnCancel: a cancelled context stops the walk at once,
// reports it, and keeps every game stored.
func TestFetchStopsOnCancel(t *testing.T) {
	s, dir := world(), t.TempDir()
	srv := httptest.NewServer(s)
	defer srv.Close()
	cl, _ := ksclient.New(ksclient.Config{URL: srv.URL, Rate: 1e6})
	st, _, _ := Open(dir)
	ctx, cancel := context.WithCancel(context.Background())
	clk := &clock{now: time.Now()}
	sum, err := Fetch(ctx, cl, st, Options{Users: []string{"h1"}, Now: clk.Now, Sleep: clk.Sleep,
		Progress: func(p Progress) {
			if p.Stored == 2 {
				cancel()
			}
		}})
	if err != nil || !sum.Stopped || sum.Stored != 2 || len(storedIDs(t, dir)) != 2 {
		t.Fatalf("cancelled: %+v %v", sum, err)
	}
}
