package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
	"kriegbot/server/td"
)

// The golden tests record every byte each client of a scripted session
// received and compare them with testdata/*.golden: a refactor of the
// server must leave what it says on the wire byte for byte as it was.
// `go test ./server -run Golden -update` rewrites the files; do that only
// for a change of behaviour meant and reviewed.

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")

// fakeClock is the server's clock in the golden tests: it moves only when
// the test moves it, so the clocks and dates on the wire are the same on
// every run. It starts in the future so that deadlines the server derives
// from it (login and idle timeouts) lie ahead of the real clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2031, time.March, 14, 15, 9, 26, 0, time.UTC)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// tapClient is a raw TCP client that keeps every byte it receives.
type tapClient struct {
	t    testing.TB
	name string
	nc   net.Conn

	mu     sync.Mutex
	got    []byte
	eof    bool
	signal chan struct{} // a send after each read
}

func dialTap(t testing.TB, addr, name string) *tapClient {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &tapClient{t: t, name: name, nc: nc, signal: make(chan struct{}, 1)}
	go c.readLoop()
	return c
}

func (c *tapClient) readLoop() {
	buf := make([]byte, 4096)
	for {
		n, err := c.nc.Read(buf)
		c.mu.Lock()
		c.got = append(c.got, buf[:n]...)
		c.eof = err != nil
		c.mu.Unlock()
		select {
		case c.signal <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (c *tapClient) send(line string) {
	c.t.Helper()
	c.nc.SetWriteDeadline(time.Now().Add(wait))
	if _, err := c.nc.Write([]byte(line + "\r\n")); err != nil {
		c.t.Fatalf("%s: write: %v", c.name, err)
	}
}

// waitFor waits until what c received holds want n times in all, or the
// connection ended when n is 0.
func (c *tapClient) waitFor(want string, n int) {
	c.t.Helper()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		done := n > 0 && bytes.Count(c.got, []byte(want)) >= n || n == 0 && c.eof
		eof, got := c.eof, string(c.got)
		c.mu.Unlock()
		if done {
			return
		}
		if eof {
			c.t.Fatalf("%s: connection ended waiting for %q (%d); got %q", c.name, want, n, tail(got, 600))
		}
		select {
		case <-c.signal:
		case <-deadline.C:
			c.t.Fatalf("%s: waiting for %q (%d); got %q", c.name, want, n, tail(got, 600))
		}
	}
}

func (c *tapClient) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.got)
}

// session drives tap clients one command at a time. After each command,
// its sender and then every other client still connected runs "date" and
// the test waits for each answer in turn: a client's lines are handled in
// order and each command's output to everybody is queued before the next
// line is read, so once the sender's "date" is answered the command has
// run, once every other "date" is answered all it caused has arrived, and
// each client's bytes come in one order only.
type session struct {
	t       testing.TB
	clients []*tapClient
	dates   map[*tapClient]int
	gone    map[*tapClient]bool
}

func (s *session) barrier(first *tapClient) {
	s.t.Helper()
	order := []*tapClient{first}
	for _, c := range s.clients {
		if c != first {
			order = append(order, c)
		}
	}
	for _, c := range order {
		if c == nil || s.gone[c] {
			continue
		}
		c.send("date")
		s.dates[c]++
		c.waitFor("Server time: ", s.dates[c])
	}
}

// run sends line from c, waits for want on c (when not empty) and then
// for the barrier.
func (s *session) run(c *tapClient, line, want string) {
	s.t.Helper()
	c.send(line)
	if want != "" {
		c.waitFor(want, 1)
	}
	s.barrier(c)
}

func (s *session) quit(c *tapClient) {
	s.t.Helper()
	c.send("quit")
	c.waitFor("", 0)
	s.gone[c] = true
	s.barrier(nil)
}

// compareGolden compares got with testdata/name, or writes it with -update.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-200, 0)
	t.Fatalf("%s: bytes differ from offset %d of %d (want %d bytes)\ngot:  %q\nwant: %q", path, i, len(got), len(want),
		got[from:min(i+200, len(got))], want[from:min(i+200, len(want))])
}

// goldenTranscript joins the clients' bytes, each under a header with its
// length, and the files of dir, so one golden file holds the whole run.
func goldenTranscript(t testing.TB, clients []*tapClient, dir string) []byte {
	var out bytes.Buffer
	for _, c := range clients {
		b := c.bytes()
		fmt.Fprintf(&out, "==== client %s: %d bytes ====\n", c.name, len(b))
		out.Write(b)
		out.WriteString("\n")
	}
	if dir == "" {
		return out.Bytes()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "==== file %s: %d bytes ====\n", e.Name(), len(b))
		out.Write(b)
		out.WriteString("\n")
	}
	return out.Bytes()
}

// TestGoldenTelnetTranscript plays a scripted session on the telnet door:
// a bot-like client (level 1 tags, the bot's datagrams), a person in text
// mode and a registered tournament player; logins, a refused login, seeks,
// a game answered from a seek ad with legal, refused and impossible
// attempts, talk, the move list during and after the game, a match offered
// and accepted, resignation, the TD's commands, and the game records. The
// bytes must be those in testdata/telnet-session.golden.
func TestGoldenTelnetTranscript(t *testing.T) {
	clock := newFakeClock()
	records := t.TempDir()
	accts, err := NewAccounts(map[string]string{"carol": "chess"}, "", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	_, addr := startServer(t, Config{
		Now: clock.Now, RecordDir: records, Accounts: accts,
		TD: TDConfig{AbsentGrace: time.Hour, Managers: []string{"carol"},
			Events: []td.EventSpec{mustSpec(t, "name=Golden,system=rr,rounds=1,tc=5+0,start=manual")}},
	})
	s := &session{t: t, dates: map[*tapClient]int{}, gone: map[*tapClient]bool{}}

	bot := dialTap(t, addr, "bot")
	bot.waitFor("login:", 1)
	bot.send("level1=5")
	bot.send(protocol.Level2Line(protocol.BotDatagrams))
	bot.send("g")
	bot.waitFor("Starting session as", 1)
	s.clients = append(s.clients, bot)
	s.barrier(bot)

	person := dialTap(t, addr, "person")
	person.waitFor("login:", 1)
	person.send("nobody")
	person.waitFor("login:", 2)
	person.send("g")
	person.waitFor("Starting session as", 1)
	s.clients = append(s.clients, person)
	s.barrier(person)

	carol := dialTap(t, addr, "carol")
	carol.waitFor("login:", 1)
	carol.send("carol")
	carol.waitFor("password:", 1)
	carol.send("chess")
	carol.waitFor("Starting session as", 1)
	s.clients = append(s.clients, carol)
	s.barrier(carol)

	// Who is here, what there is to play.
	s.run(person, "help", "")
	s.run(person, "who", "")
	s.run(bot, "`t1`who", "")
	s.run(person, "set style 12", "")
	s.run(person, "bogus command", "")
	s.run(person, "e2e4", "")

	// A seek answered: the bot plays white against the person.
	s.run(bot, "`t2`seek 10 5 u white", "")
	s.run(carol, "seek 3 0", "")
	s.run(person, "sought", "")
	s.run(person, "play 1", "")
	s.run(carol, "games", "")
	moves := []struct {
		c    *tapClient
		line string
	}{
		{bot, "`m1`e2e4"},
		{person, "e7e5"},
		{bot, "`m2`e4e5"}, // blocked: refused
		{bot, "`m3`e1e3"}, // impossible
		{bot, "`m4`f1c4"},
		{person, "d7d6"},
		{bot, "`m5`d1h5"},
		{person, "g8f6"},
		{person, "board"},
		{bot, "`m6`h5f7"}, // takes with mate
	}
	for i, m := range moves {
		if i == 4 {
			s.run(person, "say good luck", "")
			s.run(bot, "`q1`moves", "")
			s.run(person, "moves", "")
		}
		clock.advance(3 * time.Second)
		s.run(m.c, m.line, "")
	}
	s.run(person, "moves 1", "")
	s.run(bot, "`q2`moves 1", "")

	// A match offered, withdrawn, offered again and accepted; the game
	// ends by resignation.
	s.run(person, "match carol 2 1 black", "")
	s.run(carol, "decline", "")
	s.run(person, "match carol 2 1 black", "")
	s.run(carol, "accept", "")
	clock.advance(2 * time.Second)
	s.run(carol, "d2d4", "")
	s.run(person, "tell carol well played", "")
	s.run(carol, "draw", "")
	s.run(person, "decline draw", "")
	clock.advance(time.Second)
	s.run(person, "resign", "")

	// The tournament director.
	s.run(carol, "tell TD help", "")
	s.run(person, "td list", "")
	s.run(bot, "`d1`tell TD join", "")
	s.run(person, "td join 1", "")
	s.run(carol, "tell TD info 1", "")
	s.run(person, "td status", "")
	s.run(bot, "`d2`tell TD withdraw", "")
	s.run(carol, "tell TD abort 1", "")

	s.quit(person)
	s.quit(carol)
	s.quit(bot)
	compareGolden(t, "telnet-session.golden", goldenTranscript(t, s.clients, records))
}

// httpTap records HTTP requests and their answers (status, the headers
// the API sets, body) and hides the random strings the server makes
// (tokens, game ids and codes) behind stable names.
type httpTap struct {
	t      *testing.T
	base   string
	hc     *http.Client
	out    bytes.Buffer
	names  map[string]string // random string -> stable name
	counts map[string]int
}

// hide replaces the random value v by kind plus a number from now on.
func (h *httpTap) hide(kind, v string) {
	if v == "" || h.names[v] != "" {
		return
	}
	h.counts[kind]++
	h.names[v] = fmt.Sprintf("<%s%d>", kind, h.counts[kind])
}

func (h *httpTap) scrub(s string) string {
	keys := make([]string, 0, len(h.names))
	for k := range h.names {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) }) // longest first
	for _, k := range keys {
		s = strings.ReplaceAll(s, k, h.names[k])
	}
	return s
}

// do sends one request as token and records it; it returns the body.
func (h *httpTap) do(token, method, path, body string) []byte {
	h.t.Helper()
	return h.doShown(token, method, path, "", body)
}

// join joins the lobby game of code, given in lower case as the site
// allows; the record shows lower(<codeN>), since a code that happens to
// be all digits has no lower case of its own to tell apart.
func (h *httpTap) join(token, code string) []byte {
	h.t.Helper()
	return h.doShown(token, "POST", "/game/join/"+strings.ToLower(code), "/game/join/lower("+h.scrub(code)+")", "")
}

// doShown is do that records the path as shown when it is not "".
func (h *httpTap) doShown(token, method, path, shown, body string) []byte {
	h.t.Helper()
	if shown == "" {
		shown = path
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	var ids struct {
		Token string `json:"api_token"`
		Bot   string `json:"bot_id"`
		ID    string `json:"game_id"`
		Code  string `json:"game_code"`
		Bots  []struct {
			ID string `json:"bot_id"`
		} `json:"bots"`
		Games []struct {
			ID   string `json:"game_id"`
			Code string `json:"game_code"`
		} `json:"games"`
	}
	json.Unmarshal(out, &ids)
	h.hide("token", ids.Token)
	h.hide("id", ids.ID)
	h.hide("code", ids.Code)
	h.hide("bot", ids.Bot)
	for _, b := range ids.Bots {
		h.hide("bot", b.ID)
	}
	for _, g := range ids.Games {
		h.hide("id", g.ID)
		h.hide("code", g.Code)
	}
	who := "anonymous"
	if token != "" {
		who = h.scrub(token)
	}
	fmt.Fprintf(&h.out, ">>> %s %s as %s\n%s\n", method, h.scrub(shown), who, h.scrub(body))
	fmt.Fprintf(&h.out, "<<< %d", resp.StatusCode)
	for _, k := range []string{"Content-Type", "Retry-After", "Www-Authenticate", "Allow"} {
		if v := resp.Header.Get(k); v != "" {
			fmt.Fprintf(&h.out, " %s=%s", k, v)
		}
	}
	fmt.Fprintf(&h.out, "\n%s\n", h.scrub(string(out)))
	return out
}

// TestGoldenHTTPTranscript runs a scripted session on the HTTP door: the
// health check, registrations good and bad, the bot list, profiles,
// lobby games created, listed, joined and deleted, moves legal and
// refused, ask-any, state, move lists, resignation, errors of routing and
// authentication, and a telnet player answering a bot's lobby game. The
// requests and answers must be those in testdata/http-session.golden.
func TestGoldenHTTPTranscript(t *testing.T) {
	clock := newFakeClock()
	_, telnet, base := startHTTP(t, Config{Now: clock.Now, HTTP: HTTPConfig{Minutes: 5, Inc: 1}})
	h := &httpTap{t: t, base: base, hc: &http.Client{Timeout: wait}, names: map[string]string{}, counts: map[string]int{}}
	token := func(b []byte) string {
		var r struct {
			Token string `json:"api_token"`
		}
		if err := json.Unmarshal(b, &r); err != nil || r.Token == "" {
			t.Fatalf("no token in %s", b)
		}
		return r.Token
	}
	gameOf := func(b []byte) (id, code string) {
		var r struct {
			ID   string `json:"game_id"`
			Code string `json:"game_code"`
		}
		if err := json.Unmarshal(b, &r); err != nil || r.ID == "" {
			t.Fatalf("no game in %s", b)
		}
		return r.ID, r.Code
	}

	h.do("", "GET", "/health", "")
	h.do("", "GET", "/api/health", "")
	h.do("", "GET", "/nowhere", "")
	h.do("", "DELETE", "/health", "")
	alpha := token(h.do("", "POST", "/auth/bots/register", `{"username":"alpha","display_name":"Alpha bot","owner_email":"a@example.org","supported_rule_variants":["wild16"]}`))
	beta := token(h.do("", "POST", "/auth/bots/register", `{"username":"beta","display_name":"Beta bot","owner_email":"b@example.org"}`))
	h.do("", "POST", "/auth/bots/register", `{"username":"alpha","display_name":"Again","owner_email":"a@example.org"}`)
	h.do("", "POST", "/auth/bots/register", `{"username":"x"}`)
	h.do("", "POST", "/auth/bots/register", `{"username":`)
	h.do("", "GET", "/bots", "")
	h.do("nonsense", "GET", "/bots", "")
	h.do(alpha, "GET", "/bots", "")
	h.do(alpha, "POST", "/bots/profile", `{"description":"plays wild 16"}`)
	h.do(alpha, "POST", "/bots/availability", `{}`)
	h.do(beta, "GET", "/user/alpha", "")
	h.do(beta, "GET", "/user/nobody", "")

	// A lobby game created, listed, joined and played to a resignation.
	h.do(alpha, "POST", "/game/create", `{"rule_variant":"berkeley_any","play_as":"white","time_control":"rapid","opponent_type":"human"}`)
	id1, code1 := gameOf(h.do(alpha, "POST", "/game/create", `{"rule_variant":"wild16","play_as":"white","time_control":"rapid","opponent_type":"human"}`))
	h.do(beta, "GET", "/game/open", "")
	h.do(beta, "GET", "/game/"+code1, "")
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e2e4"}`)
	h.join(beta, code1)
	h.do(alpha, "GET", "/game/"+id1+"/state", "")
	h.do(beta, "GET", "/game/"+id1+"/state", "")
	clock.advance(4 * time.Second)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e5"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e2e4"}`)
	clock.advance(3 * time.Second)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e6"}`)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e5"}`)
	clock.advance(5 * time.Second)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e4e5"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"d2d4"}`)
	h.do(beta, "POST", "/game/"+id1+"/ask-any", "")
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e5d4"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e2"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":42}`)
	h.do(alpha, "GET", "/game/"+id1+"/state", "")
	h.do(beta, "GET", "/game/"+id1+"/moves", "")
	h.do(alpha, "GET", "/game/mine/active", "")
	clock.advance(2 * time.Second)
	h.do(alpha, "POST", "/game/"+id1+"/resign", "")
	h.do(beta, "GET", "/game/"+id1+"/state", "")
	h.do(alpha, "GET", "/game/"+id1+"/moves", "")
	h.do(alpha, "GET", "/game/"+id1, "")
	h.do(beta, "GET", "/game/mine", "")
	h.do(beta, "GET", "/game/mine/archived", "")

	// A lobby game deleted; another answered by a telnet player.
	id2, code2 := gameOf(h.do(beta, "POST", "/game/create", `{"rule_variant":"wild16","play_as":"black","time_control":"rapid","opponent_type":"human"}`))
	h.do(alpha, "DELETE", "/game/"+code2, "")
	h.do(beta, "DELETE", "/game/"+code2, "")
	h.do(beta, "GET", "/game/"+id2+"/state", "")
	id3, _ := gameOf(h.do(alpha, "POST", "/game/create", `{"rule_variant":"wild16","play_as":"black","time_control":"rapid","opponent_type":"human"}`))
	person := dialTap(t, telnet, "person")
	person.waitFor("login:", 1)
	person.send("g")
	person.waitFor("Starting session as", 1)
	s := &session{t: t, clients: []*tapClient{person}, dates: map[*tapClient]int{}, gone: map[*tapClient]bool{}}
	s.barrier(person)
	s.run(person, "sought", "")
	s.run(person, "play 3", "")
	h.do(alpha, "GET", "/game/"+id3+"/state", "")
	clock.advance(time.Second)
	s.run(person, "g1g3", "")
	h.do(alpha, "GET", "/game/"+id3+"/state", "")
	h.do(alpha, "POST", "/game/"+id3+"/move", `{"uci":"g8f6"}`)
	s.barrier(person)
	s.run(person, "resign", "")
	h.do(alpha, "GET", "/game/"+id3+"/moves", "")
	s.quit(person)

	out := h.out.Bytes()
	out = append(out, goldenTranscript(t, s.clients, "")...)
	compareGolden(t, "http-session.golden", out)
}
