package httpdoor

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

	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")

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
	_, telnet, base := startHTTP(t, server.Config{Now: clock.Now}, Config{Minutes: 5, Inc: 1})
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
