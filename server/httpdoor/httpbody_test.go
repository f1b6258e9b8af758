package httpdoor

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kriegbot/server"
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
	s, err := server.New(server.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	door, err := New(s, Config{Rate: 1e9, Burst: 1e9, TokenRate: 1e9, TokenBurst: 1e9, RegisterRate: 1e9, RegisterBurst: 1e9})
	if err != nil {
		f.Fatal(err)
	}
	h := door.Handler()
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
