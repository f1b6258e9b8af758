package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
)

// The golden tests record every byte each client of a scripted session
// received and compare them with testdata/*.golden: a refactor of the
// server must leave what it says on the wire byte for byte as it was.
// `go test ./server -run Golden -update` rewrites the files; do that only
// for a change of behaviour meant and reviewed.

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")

// TestGoldenTelnetTranscript plays a scripted session on the telnet door:
// a bot-like client (level 1 tags, the bot's datagrams), a person in text
// mode and a registered tournament player; logins, a refused login, seeks,
// a game answered from a seek ad with legal, refused and impossible
// attempts, talk, the move list during and after the game, a match offered
// and accepted, resignation, the TD's commands, and the game records. The
// bytes must be those in testdata/telnet-session.golden.
func TestGoldenTelnetTranscript(t *testing.T) {
	clock := wiretest.NewFakeClock()
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
	s := wiretest.NewSession(t)

	bot := wiretest.DialTap(t, addr, "bot")
	bot.WaitFor("login:", 1)
	bot.Send("level1=5")
	bot.Send(protocol.Level2Line(protocol.BotDatagrams))
	bot.Send("g")
	bot.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, bot)
	s.Barrier(bot)

	person := wiretest.DialTap(t, addr, "person")
	person.WaitFor("login:", 1)
	person.Send("nobody")
	person.WaitFor("login:", 2)
	person.Send("g")
	person.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, person)
	s.Barrier(person)

	carol := wiretest.DialTap(t, addr, "carol")
	carol.WaitFor("login:", 1)
	carol.Send("carol")
	carol.WaitFor("password:", 1)
	carol.Send("chess")
	carol.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, carol)
	s.Barrier(carol)

	// Who is here, what there is to play.
	s.Run(person, "help", "")
	s.Run(person, "who", "")
	s.Run(bot, "`t1`who", "")
	s.Run(person, "set style 12", "")
	s.Run(person, "bogus command", "")
	s.Run(person, "e2e4", "")

	// A seek answered: the bot plays white against the person.
	s.Run(bot, "`t2`seek 10 5 u white", "")
	s.Run(carol, "seek 3 0", "")
	s.Run(person, "sought", "")
	s.Run(person, "play 1", "")
	s.Run(carol, "games", "")
	moves := []struct {
		c    *wiretest.TapClient
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
			s.Run(person, "say good luck", "")
			s.Run(bot, "`q1`moves", "")
			s.Run(person, "moves", "")
		}
		clock.Advance(3 * time.Second)
		s.Run(m.c, m.line, "")
	}
	s.Run(person, "moves 1", "")
	s.Run(bot, "`q2`moves 1", "")

	// A match offered, withdrawn, offered again and accepted; the game
	// ends by resignation.
	s.Run(person, "match carol 2 1 black", "")
	s.Run(carol, "decline", "")
	s.Run(person, "match carol 2 1 black", "")
	s.Run(carol, "accept", "")
	clock.Advance(2 * time.Second)
	s.Run(carol, "d2d4", "")
	s.Run(person, "tell carol well played", "")
	s.Run(carol, "draw", "")
	s.Run(person, "decline draw", "")
	clock.Advance(time.Second)
	s.Run(person, "resign", "")

	// The tournament director.
	s.Run(carol, "tell TD help", "")
	s.Run(person, "td list", "")
	s.Run(bot, "`d1`tell TD join", "")
	s.Run(person, "td join 1", "")
	s.Run(carol, "tell TD info 1", "")
	s.Run(person, "td status", "")
	s.Run(bot, "`d2`tell TD withdraw", "")
	s.Run(carol, "tell TD abort 1", "")

	s.Quit(person)
	s.Quit(carol)
	s.Quit(bot)
	wiretest.CompareGolden(t, "telnet-session.golden", wiretest.GoldenTranscript(t, s.Clients, records), *update)
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
	clock := wiretest.NewFakeClock()
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
	clock.Advance(4 * time.Second)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e5"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e2e4"}`)
	clock.Advance(3 * time.Second)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e6"}`)
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e7e5"}`)
	clock.Advance(5 * time.Second)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e4e5"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"d2d4"}`)
	h.do(beta, "POST", "/game/"+id1+"/ask-any", "")
	h.do(beta, "POST", "/game/"+id1+"/move", `{"uci":"e5d4"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":"e2"}`)
	h.do(alpha, "POST", "/game/"+id1+"/move", `{"uci":42}`)
	h.do(alpha, "GET", "/game/"+id1+"/state", "")
	h.do(beta, "GET", "/game/"+id1+"/moves", "")
	h.do(alpha, "GET", "/game/mine/active", "")
	clock.Advance(2 * time.Second)
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
	person := wiretest.DialTap(t, telnet, "person")
	person.WaitFor("login:", 1)
	person.Send("g")
	person.WaitFor("Starting session as", 1)
	s := wiretest.NewSession(t, person)
	s.Barrier(person)
	s.Run(person, "sought", "")
	s.Run(person, "play 3", "")
	h.do(alpha, "GET", "/game/"+id3+"/state", "")
	clock.Advance(time.Second)
	s.Run(person, "g1g3", "")
	h.do(alpha, "GET", "/game/"+id3+"/state", "")
	h.do(alpha, "POST", "/game/"+id3+"/move", `{"uci":"g8f6"}`)
	s.Barrier(person)
	s.Run(person, "resign", "")
	h.do(alpha, "GET", "/game/"+id3+"/moves", "")
	s.Quit(person)

	out := h.out.Bytes()
	out = append(out, wiretest.GoldenTranscript(t, s.Clients, "")...)
	wiretest.CompareGolden(t, "http-session.golden", out, *update)
}
