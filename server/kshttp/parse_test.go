package kshttp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseRoute(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		rt           Route
		param        string
		status       int
	}{
		{"GET", "/health", RouteHealth, "", 0},
		{"POST", "/health", RouteNone, "", 405},
		{"POST", "/auth/bots/register", RouteRegister, "", 0},
		{"GET", "/game/mine/active", RouteMineActive, "", 0},
		{"GET", "/game/mine/archived", RouteMineArchived, "", 0},
		{"GET", "/game/mine", RouteMine, "", 0},
		{"GET", "/game/open", RouteOpen, "", 0},
		{"POST", "/game/create", RouteCreate, "", 0},
		{"POST", "/game/join/AB23CD", RouteJoin, "AB23CD", 0},
		{"POST", "/game/join/move", RouteJoin, "move", 0},
		{"GET", "/game/join/AB23CD", RouteNone, "", 405},
		{"GET", "/game/AB23CD", RouteMeta, "AB23CD", 0},
		{"DELETE", "/game/AB23CD", RouteDelete, "AB23CD", 0},
		{"PATCH", "/game/AB23CD", RouteNone, "", 405},
		{"GET", "/game/AB23CD/state", RouteState, "AB23CD", 0},
		{"POST", "/game/AB23CD/move", RouteMove, "AB23CD", 0},
		{"POST", "/game/AB23CD/ask-any", RouteAskAny, "AB23CD", 0},
		{"POST", "/game/AB23CD/resign", RouteResign, "AB23CD", 0},
		{"GET", "/game/AB23CD/events", RouteEvents, "AB23CD", 0},
		{"GET", "/game/AB23CD/moves", RouteMoves, "AB23CD", 0},
		{"GET", "/game/AB23CD/review", RouteNone, "", 404},
		{"GET", "/game/AB23CD/state/", RouteNone, "", 404},
		{"GET", "/game//state", RouteNone, "", 404},
		{"GET", "/game/", RouteNone, "", 404},
		{"GET", "/bots", RouteBots, "", 0},
		{"POST", "/bots/profile", RouteProfile, "", 0},
		{"POST", "/bots/availability", RouteAvailability, "", 0},
		{"GET", "/user/alice", RouteUser, "alice", 0},
		{"GET", "/user/", RouteNone, "", 404},
		{"GET", "/user/alice/games", RouteUserGames, "alice", 0},
		{"POST", "/user/alice/games", RouteNone, "", 405},
		{"GET", "/user//games", RouteNone, "", 404},
		{"GET", "/user/alice/games/2", RouteNone, "", 404},
		{"GET", "", RouteNone, "", 404},
		{"GET", "health", RouteNone, "", 404},
		{"GET", "/" + strings.Repeat("a", 300), RouteNone, "", 404},
	} {
		rt, param, status := ParseRoute(tc.method, tc.path)
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
		got, ok := StripAPIPrefix(tc.path, tc.host)
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
		id, _, ok := ParseBearer(tc.header)
		if ok != tc.ok || id != tc.id {
			t.Errorf("%q: got %q %v, want %q %v", tc.header, id, ok, tc.id, tc.ok)
		}
	}
	id, tok := NewToken()
	if got, ok := ParseToken(tok); !ok || got != id {
		t.Fatalf("NewToken %q does not parse", tok)
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		ref, key string
		kind     RefKind
	}{
		{"0123456789abcdef01234567", "0123456789abcdef01234567", RefID},
		{"0123456789ABCDEF01234567", "0123456789abcdef01234567", RefID},
		{"0123456789abcdef0123456g", "", RefBad},
		{"ab23cd", "AB23CD", RefCode},
		{"XYZ789", "XYZ789", RefCode},
		{"AB0CDE", "", RefBad},
		{"ABICDE", "", RefBad},
		{"ABLCDE", "", RefBad},
		{"AB1CDE", "", RefBad},
		{"ABCDE", "", RefBad},
		{"", "", RefBad},
	} {
		key, kind := ParseRef(tc.ref)
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
		rt, param, status := ParseRoute(method, path)
		if (rt == RouteNone) != (status != 0) || status != 0 && status != 404 && status != 405 {
			t.Fatalf("%s %q: %v %d", method, path, rt, status)
		}
		if param != "" && (strings.Contains(param, "/") || !strings.Contains(path, param)) {
			t.Fatalf("%s %q: param %q", method, path, param)
		}
		if _, ok := StripAPIPrefix(path, method); ok && len(path) > maxPath && rt != RouteNone {
			t.Fatalf("long path routed")
		}
	})
}

func FuzzParseBearer(f *testing.F) {
	_, tok := NewToken()
	for _, h := range []string{"Bearer " + tok, "bearer " + tok, "Bearer ksbot_", "Bearer", " ", "Bearer ksbot_0123456789abcdef.x"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		id, token, ok := ParseBearer(header)
		if !ok {
			return
		}
		if len(id) != TokenIDLen || len(token) != len(TokenPrefix)+TokenIDLen+1+TokenSecretLen || !utf8.ValidString(token) {
			t.Fatalf("%q accepted as %q %q", header, id, token)
		}
		if id2, ok2 := ParseToken(token); !ok2 || id2 != id {
			t.Fatalf("%q: token does not parse again", header)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	for _, r := range []string{"AB23CD", "ab23cd", "0123456789abcdef01234567", "0OIL1x", ""} {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		key, kind := ParseRef(ref)
		switch kind {
		case RefID:
			if len(key) != 24 || strings.ToLower(key) != key {
				t.Fatalf("%q: id %q", ref, key)
			}
		case RefCode:
			if len(key) != CodeLen || strings.Trim(key, CodeAlphabet) != "" {
				t.Fatalf("%q: code %q", ref, key)
			}
		default:
			if key != "" {
				t.Fatalf("%q: bad ref with key %q", ref, key)
			}
		}
		if kind != RefBad {
			if k2, kind2 := ParseRef(key); k2 != key || kind2 != kind {
				t.Fatalf("%q: not stable", ref)
			}
		}
	})
}
