package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kriegbot/protocol/ksapi"
)

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
	ok := func(b ksapi.Registration) ksapi.Registration {
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
		body   ksapi.Registration
		field  string // "" for accepted
		listed bool
	}{
		{"plain", ok(ksapi.Registration{}), "", true},
		{"test name unlisted", ok(ksapi.Registration{Username: str("mytestbot")}), "", false},
		{"probe description unlisted", ok(ksapi.Registration{Description: str("a Probe")}), "", false},
		{"listed given", ok(ksapi.Registration{Username: str("e2ebot"), Listed: new(true)}), "", true},
		{"no username", ksapi.Registration{DisplayName: str("abc"), OwnerEmail: str("a@b")}, "username", false},
		{"empty username", ok(ksapi.Registration{Username: str("")}), "username", false},
		{"long username", ok(ksapi.Registration{Username: str(strings.Repeat("a", 34))}), "username", false},
		{"dash", ok(ksapi.Registration{Username: str("a-b")}), "username", false},
		{"non-ASCII", ok(ksapi.Registration{Username: str("bö")}), "username", false},
		{"short display", ok(ksapi.Registration{DisplayName: str("ab")}), "display_name", false},
		{"mail without @", ok(ksapi.Registration{OwnerEmail: str("abc")}), "owner_email", false},
		{"long description", ok(ksapi.Registration{Description: str(strings.Repeat("x", 281))}), "description", false},
		{"bad variant", ok(ksapi.Registration{RuleVariants: []string{"wild17"}}), "supported_rule_variants", false},
		{"too many variants", ok(ksapi.Registration{RuleVariants: make([]string, 8)}), "supported_rule_variants", false},
	} {
		bot, e := checkRegistration(&tc.body)
		switch {
		case tc.field == "" && e != nil:
			t.Errorf("%s: refused: %+v", tc.name, e.Detail)
		case tc.field == "" && (bot.Listed != tc.listed || bot.username != strings.ToLower(*tc.body.Username)):
			t.Errorf("%s: %+v", tc.name, bot)
		case tc.field != "" && (e == nil || e.Status != 422 || !strings.Contains(fmt.Sprint(e.Detail), tc.field)):
			t.Errorf("%s: want 422 on %s, got %+v", tc.name, tc.field, e)
		}
	}
}

func TestCreateBodyCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		body   ksapi.CreateGame
		status int
		code   string
	}{
		{ksapi.CreateGame{RuleVariant: str("wild16"), PlayAs: str("black")}, 0, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16")}, 0, ""},
		{ksapi.CreateGame{}, 400, "RULE_VARIANT_UNSUPPORTED"},
		{ksapi.CreateGame{RuleVariant: str("wild16"), PlayAs: str("red")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), TimeControl: str("blitz")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), OpponentType: str("robot")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), OpponentType: str("bot")}, 400, "BOT_CREATE_REQUIRES_HUMAN_OPPONENT"},
		{ksapi.CreateGame{RuleVariant: str("wild99")}, 422, ""},
	} {
		color, e := checkCreate(&tc.body)
		if tc.status == 0 {
			if e != nil || color != "white" && color != "black" || tc.body.PlayAs != nil && color != *tc.body.PlayAs {
				t.Errorf("%+v: %q %+v", tc.body, color, e)
			}
			continue
		}
		if e == nil || e.Status != tc.status || e.Code != tc.code {
			t.Errorf("%+v: want %d %s, got %+v", tc.body, tc.status, tc.code, e)
		}
	}
}
