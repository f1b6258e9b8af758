package ksclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParseUserGames(t *testing.T) {
	const id1, id2 = "0123456789abcdef01234567", "0123456789abcdef01234568"
	for _, tc := range []struct {
		name, in string
		ids      []string // kept rows; nil with bad set
		bad      bool
	}{
		{"two rows", `{"games":[{"game_id":"` + id1 + `","play_as":"white","opponent":"bob","rule_variant":"wild16","result":"win"},
{"game_id":"` + id2 + `","play_as":"black","opponent":"al_9"}],"pagination":{"page":1,"per_page":20,"total":2,"pages":1}}`, []string{id1, id2}, false},
		{"bad rows dropped", `{"games":[{"game_id":"../x","play_as":"white","opponent":"bob"},{"game_id":"` + id1 + `","play_as":"red","opponent":"bob"},
{"game_id":"` + id1 + `","play_as":"white","opponent":"../admin"},{"game_id":"` + id2 + `","play_as":"white","opponent":"ok"}],"pagination":{"page":2,"per_page":4,"total":8,"pages":2}}`, []string{id2}, false},
		{"empty page", `{"games":[],"pagination":{"page":3,"per_page":100,"total":0,"pages":0}}`, []string{}, false},
		{"no pagination", `{"games":[]}`, nil, true},
		{"page 0", `{"games":[],"pagination":{"page":0,"per_page":20,"total":0,"pages":0}}`, nil, true},
		{"per page too large", `{"games":[],"pagination":{"page":1,"per_page":101,"total":0,"pages":0}}`, nil, true},
		{"negative total", `{"games":[],"pagination":{"page":1,"per_page":20,"total":-1,"pages":0}}`, nil, true},
		{"not json", `<html>`, nil, true},
		{"wrong type", `{"games":{},"pagination":{"page":1,"per_page":20,"total":0,"pages":0}}`, nil, true},
	} {
		g, err := ParseUserGames([]byte(tc.in))
		if tc.bad {
			if !errors.Is(err, ErrGarbage) {
				t.Errorf("%s: err %v, want garbage", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, r := range g.Games {
			got = append(got, r.GameID)
		}
		if len(got) != len(tc.ids) {
			t.Errorf("%s: kept %v, want %v", tc.name, got, tc.ids)
			continue
		}
		for i := range got {
			if got[i] != tc.ids[i] {
				t.Errorf("%s: kept %v, want %v", tc.name, got, tc.ids)
			}
		}
	}
}

func TestParseBots(t *testing.T) {
	l, err := ParseBots([]byte(`{"bots":[{"bot_id":"1","username":"kriegbot","supported_rule_variants":["wild16"]},{"username":"../x"},{"username":""}]}`))
	if err != nil || len(l.Bots) != 1 || l.Bots[0].Username != "kriegbot" || l.Bots[0].RuleVariants[0] != "wild16" {
		t.Errorf("bots: %+v %v", l, err)
	}
	if _, err := ParseBots([]byte(`{"bots":7}`)); !errors.Is(err, ErrGarbage) {
		t.Errorf("bots as a number: %v", err)
	}
}

// TestUserGamesRequest: the page and its size go in the query string, not
// escaped into the path, and no token is sent to the public route.
func TestUserGamesRequest(t *testing.T) {
	var path, query, auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, query, auth = r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization")
		w.Write([]byte(`{"games":[],"pagination":{"page":2,"per_page":50,"total":60,"pages":2}}`))
	}))
	defer srv.Close()
	c, err := New(Config{URL: srv.URL, Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.UserGames(context.Background(), "alice", 2, 50)
	if err != nil || g.Pagination.Total != 60 {
		t.Fatalf("UserGames: %+v %v", g, err)
	}
	if path != "/user/alice/games" || query != "page=2&per_page=50" || auth != "" {
		t.Errorf("request: path %q query %q auth %q", path, query, auth)
	}
	for _, bad := range []struct {
		name       string
		page, size int
	}{{"../x", 1, 20}, {"alice", 0, 20}, {"alice", 1, 0}, {"alice", 1, MaxPerPage + 1}} {
		if _, err := c.UserGames(context.Background(), bad.name, bad.page, bad.size); err == nil {
			t.Errorf("UserGames(%q, %d, %d) sent", bad.name, bad.page, bad.size)
		}
	}
}
