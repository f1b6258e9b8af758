package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseRoute(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		rt           routeName
		param        string
		status       int
	}{
		{"GET", "/health", rtHealth, "", 0},
		{"POST", "/health", rtNone, "", 405},
		{"POST", "/auth/bots/register", rtRegister, "", 0},
		{"GET", "/game/mine/active", rtMineActive, "", 0},
		{"GET", "/game/mine/archived", rtMineArchived, "", 0},
		{"GET", "/game/mine", rtMine, "", 0},
		{"GET", "/game/open", rtOpen, "", 0},
		{"POST", "/game/create", rtCreate, "", 0},
		{"POST", "/game/join/AB23CD", rtJoin, "AB23CD", 0},
		{"POST", "/game/join/move", rtJoin, "move", 0},
		{"GET", "/game/join/AB23CD", rtNone, "", 405},
		{"GET", "/game/AB23CD", rtMeta, "AB23CD", 0},
		{"DELETE", "/game/AB23CD", rtDelete, "AB23CD", 0},
		{"PATCH", "/game/AB23CD", rtNone, "", 405},
		{"GET", "/game/AB23CD/state", rtState, "AB23CD", 0},
		{"POST", "/game/AB23CD/move", rtMove, "AB23CD", 0},
		{"POST", "/game/AB23CD/ask-any", rtAskAny, "AB23CD", 0},
		{"POST", "/game/AB23CD/resign", rtResign, "AB23CD", 0},
		{"GET", "/game/AB23CD/events", rtEvents, "AB23CD", 0},
		{"GET", "/game/AB23CD/moves", rtMoves, "AB23CD", 0},
		{"GET", "/game/AB23CD/review", rtNone, "", 404},
		{"GET", "/game/AB23CD/state/", rtNone, "", 404},
		{"GET", "/game//state", rtNone, "", 404},
		{"GET", "/game/", rtNone, "", 404},
		{"GET", "/bots", rtBots, "", 0},
		{"POST", "/bots/profile", rtProfile, "", 0},
		{"POST", "/bots/availability", rtAvailability, "", 0},
		{"GET", "/user/alice", rtUser, "alice", 0},
		{"GET", "/user/", rtNone, "", 404},
		{"GET", "", rtNone, "", 404},
		{"GET", "health", rtNone, "", 404},
		{"GET", "/" + strings.Repeat("a", 300), rtNone, "", 404},
	} {
		rt, param, status := parseRoute(tc.method, tc.path)
		if rt != tc.rt || param != tc.param || status != tc.status {
			t.Errorf("%s %s: got %v %q %d, want %v %q %d", tc.method, tc.path, rt, param, status, tc.rt, tc.param, tc.status)
		}
	}
}

func TestStripAPIPrefix(t *testing.T) {
	for _, tc := range []struct {
		path, host, want string
		ok               bool
	}{
		{"/game/open", "api.kriegspiel.org", "/game/open", true},
		{"/api/game/open", "127.0.0.1:8000", "/game/open", true},
		{"/api/game/open", "localhost", "/game/open", true},
		{"/api/game/open", "[::1]:8000", "/game/open", true},
		{"/api/game/open", "testserver", "/game/open", true},
		{"/api/game/open", "app.kriegspiel.org", "/game/open", true},
		{"/api/game/open", "api.kriegspiel.org", "", false},
		{"/api/game/open", "192.168.1.5:8000", "", false},
		{"/api", "localhost", "/", true},
		{"/apix/game", "example.org", "/apix/game", true},
	} {
		got, ok := stripAPIPrefix(tc.path, tc.host)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s on %s: got %q %v, want %q %v", tc.path, tc.host, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseBearer(t *testing.T) {
	good := "ksbot_0123456789abcdef." + strings.Repeat("aZ9-_", 6) + "ab"
	for _, tc := range []struct {
		header, id string
		ok         bool
	}{
		{"Bearer " + good, "0123456789abcdef", true},
		{"bearer  " + good + " ", "0123456789abcdef", true},
		{good, "", false},
		{"Basic " + good, "", false},
		{"Bearer " + good + "x", "", false},
		{"Bearer " + strings.Replace(good, "ksbot_", "ksbox_", 1), "", false},
		{"Bearer " + strings.Replace(good, "0123", "0G23", 1), "", false},
		{"Bearer " + strings.Replace(good, "abcdef", "ABCDEF", 1), "", false},
		{"Bearer " + strings.Replace(good, ".", ":", 1), "", false},
		{"Bearer " + good[:len(good)-1] + "=", "", false},
		{"Bearer " + good[:len(good)-1] + "é"[:1], "", false},
		{"", "", false},
	} {
		id, _, ok := parseBearer(tc.header)
		if ok != tc.ok || id != tc.id {
			t.Errorf("%q: got %q %v, want %q %v", tc.header, id, ok, tc.id, tc.ok)
		}
	}
	id, tok := newToken()
	if got, ok := parseToken(tok); !ok || got != id {
		t.Fatalf("newToken %q does not parse", tok)
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		ref, key string
		kind     refKind
	}{
		{"0123456789abcdef01234567", "0123456789abcdef01234567", refID},
		{"0123456789ABCDEF01234567", "0123456789abcdef01234567", refID},
		{"0123456789abcdef0123456g", "", refBad},
		{"ab23cd", "AB23CD", refCode},
		{"XYZ789", "XYZ789", refCode},
		{"AB0CDE", "", refBad},
		{"ABICDE", "", refBad},
		{"ABLCDE", "", refBad},
		{"AB1CDE", "", refBad},
		{"ABCDE", "", refBad},
		{"", "", refBad},
	} {
		key, kind := parseRef(tc.ref)
		if key != tc.key || kind != tc.kind {
			t.Errorf("%q: got %q %v, want %q %v", tc.ref, key, kind, tc.key, tc.kind)
		}
	}
}

func FuzzParseRoute(f *testing.F) {
	for _, p := range []string{"/health", "/game/AB23CD/move", "/game/join/x", "/api/game/mine/active", "//", "/game//", "/user/a/b"} {
		f.Add("GET", p)
		f.Add("POST", p)
	}
	f.Fuzz(func(t *testing.T, method, path string) {
		rt, param, status := parseRoute(method, path)
		if (rt == rtNone) != (status != 0) || status != 0 && status != 404 && status != 405 {
			t.Fatalf("%s %q: %v %d", method, path, rt, status)
		}
		if param != "" && (strings.Contains(param, "/") || !strings.Contains(path, param)) {
			t.Fatalf("%s %q: param %q", method, path, param)
		}
		if _, ok := stripAPIPrefix(path, method); ok && len(path) > maxPath && rt != rtNone {
			t.Fatalf("long path routed")
		}
	})
}

func FuzzParseBearer(f *testing.F) {
	_, tok := newToken()
	for _, h := range []string{"Bearer " + tok, "bearer " + tok, "Bearer ksbot_", "Bearer", " ", "Bearer ksbot_0123456789abcdef.x"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		id, token, ok := parseBearer(header)
		if !ok {
			return
		}
		if len(id) != tokenIDLen || len(token) != len(tokenPrefix)+tokenIDLen+1+tokenSecretLen || !utf8.ValidString(token) {
			t.Fatalf("%q accepted as %q %q", header, id, token)
		}
		if id2, ok2 := parseToken(token); !ok2 || id2 != id {
			t.Fatalf("%q: token does not parse again", header)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	for _, r := range []string{"AB23CD", "ab23cd", "0123456789abcdef01234567", "0OIL1x", ""} {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		key, kind := parseRef(ref)
		switch kind {
		case refID:
			if len(key) != 24 || strings.ToLower(key) != key {
				t.Fatalf("%q: id %q", ref, key)
			}
		case refCode:
			if len(key) != codeLen || strings.Trim(key, codeAlphabet) != "" {
				t.Fatalf("%q: code %q", ref, key)
			}
		default:
			if key != "" {
				t.Fatalf("%q: bad ref with key %q", ref, key)
			}
		}
		if kind != refBad {
			if k2, kind2 := parseRef(key); k2 != key || kind2 != kind {
				t.Fatalf("%q: not stable", ref)
			}
		}
	})
}

// FuzzRequestBodies sends arbitrary bodies to the routes that read JSON
// (register, create, move, profile): the answer is always a well-formed
// status, never a panic, and a 2xx only for a body the checks accept.
func FuzzRequestBodies(f *testing.F) {
	for _, b := range []string{`{"uci":"e2e4"}`, `{"uci":"e2e4"`, `{"uci":42}`, `{}`, `[]`, `null`, `{{`, "",
		`{"username":"zed","display_name":"Zed bot","owner_email":"z@x"}`, `{"rule_variant":"wild16","play_as":"white"}`,
		`{"supported_rule_variants":["wild16"]}`, `{"supported_rule_variants":[1]}`, "\xff\xfe"} {
		for route := range uint8(4) {
			f.Add(route, b)
		}
	}
	s, err := New(Config{HTTP: HTTPConfig{Rate: 1e9, Burst: 1e9, TokenRate: 1e9, TokenBurst: 1e9, RegisterRate: 1e9, RegisterBurst: 1e9}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	h := s.APIHandler()
	reg := httptest.NewRecorder()
	h.ServeHTTP(reg, httptest.NewRequest("POST", "/auth/bots/register",
		strings.NewReader(`{"username":"fuzzer","display_name":"Fuzzer","owner_email":"f@x"}`)))
	_, tok, _ := strings.Cut(reg.Body.String(), `"api_token":"`)
	tok, _, _ = strings.Cut(tok, `"`)
	f.Fuzz(func(t *testing.T, route uint8, body string) {
		path := [...]string{"/auth/bots/register", "/game/create", "/game/0123456789abcdef01234567/move", "/bots/profile"}[route%4]
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code < 200 || w.Code >= 600 || w.Code >= 500 && w.Code != 503 {
			t.Fatalf("%s %q: status %d", path, body, w.Code)
		}
		if w.Code != 204 && w.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("%s %q: content type %q", path, body, w.Header().Get("Content-Type"))
		}
		if w.Code/100 == 2 && route%4 == 2 {
			t.Fatalf("a move in a game that does not exist succeeded")
		}
		// A created game is deleted again, so the next input may create one.
		if w.Code == 201 && route%4 == 1 {
			d := httptest.NewRequest("DELETE", "/game/"+strings.Split(strings.Split(w.Body.String(), `"game_id":"`)[1], `"`)[0], nil)
			d.Header.Set("Authorization", "Bearer "+tok)
			h.ServeHTTP(httptest.NewRecorder(), d)
		}
		_ = http.StatusOK
	})
}

func TestRegisterBodyCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	ok := func(b registerBody) registerBody {
		if b.Username == nil {
			b.Username = str("Bot_1")
		}
		if b.DisplayName == nil {
			b.DisplayName = str("Bot one")
		}
		if b.OwnerEmail == nil {
			b.OwnerEmail = str("a@b")
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		body   registerBody
		field  string // "" for accepted
		listed bool
	}{
		{"plain", ok(registerBody{}), "", true},
		{"test name unlisted", ok(registerBody{Username: str("mytestbot")}), "", false},
		{"probe description unlisted", ok(registerBody{Description: str("a Probe")}), "", false},
		{"listed given", ok(registerBody{Username: str("e2ebot"), Listed: new(true)}), "", true},
		{"no username", registerBody{DisplayName: str("abc"), OwnerEmail: str("a@b")}, "username", false},
		{"empty username", ok(registerBody{Username: str("")}), "username", false},
		{"long username", ok(registerBody{Username: str(strings.Repeat("a", 34))}), "username", false},
		{"dash", ok(registerBody{Username: str("a-b")}), "username", false},
		{"non-ASCII", ok(registerBody{Username: str("bö")}), "username", false},
		{"short display", ok(registerBody{DisplayName: str("ab")}), "display_name", false},
		{"mail without @", ok(registerBody{OwnerEmail: str("abc")}), "owner_email", false},
		{"long description", ok(registerBody{Description: str(strings.Repeat("x", 281))}), "description", false},
		{"bad variant", ok(registerBody{Variants: []string{"wild17"}}), "supported_rule_variants", false},
		{"too many variants", ok(registerBody{Variants: make([]string, 8)}), "supported_rule_variants", false},
	} {
		bot, e := tc.body.check()
		switch {
		case tc.field == "" && e != nil:
			t.Errorf("%s: refused: %+v", tc.name, e.detail)
		case tc.field == "" && (bot.Listed != tc.listed || bot.username != strings.ToLower(*tc.body.Username)):
			t.Errorf("%s: %+v", tc.name, bot)
		case tc.field != "" && (e == nil || e.status != 422 || !strings.Contains(fmt.Sprint(e.detail), tc.field)):
			t.Errorf("%s: want 422 on %s, got %+v", tc.name, tc.field, e)
		}
	}
}

func TestCreateBodyCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		body   createBody
		status int
		code   string
	}{
		{createBody{RuleVariant: str("wild16"), PlayAs: str("black")}, 0, ""},
		{createBody{RuleVariant: str("wild16")}, 0, ""},
		{createBody{}, 400, "RULE_VARIANT_UNSUPPORTED"},
		{createBody{RuleVariant: str("wild16"), PlayAs: str("red")}, 422, ""},
		{createBody{RuleVariant: str("wild16"), TimeControl: str("blitz")}, 422, ""},
		{createBody{RuleVariant: str("wild16"), OpponentType: str("robot")}, 422, ""},
		{createBody{RuleVariant: str("wild16"), OpponentType: str("bot")}, 400, "BOT_CREATE_REQUIRES_HUMAN_OPPONENT"},
		{createBody{RuleVariant: str("wild99")}, 422, ""},
	} {
		color, e := tc.body.check()
		if tc.status == 0 {
			if e != nil || color != "white" && color != "black" || tc.body.PlayAs != nil && color != *tc.body.PlayAs {
				t.Errorf("%+v: %q %+v", tc.body, color, e)
			}
			continue
		}
		if e == nil || e.status != tc.status || e.code != tc.code {
			t.Errorf("%+v: want %d %s, got %+v", tc.body, tc.status, tc.code, e)
		}
	}
}
