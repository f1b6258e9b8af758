package httpdoor

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/umpire"
	"kriegbot/opponent/sitegames"
	"kriegbot/protocol/ksclient"
	"kriegbot/server"
)

// playPair plays one short lobby game between two registered bots to its
// end (the ply cap ends it soon).
func playPair(t *testing.T, a, b *apiClient, seed uint64) string {
	t.Helper()
	var created struct {
		GameCode string `json:"game_code"`
	}
	a.call("POST", "/game/create", createWild16(), 201, &created)
	var joined struct {
		GameID string `json:"game_id"`
	}
	b.call("POST", "/game/join/"+created.GameCode, nil, 200, &joined)
	pa := &botPlayer{c: a, rng: rand.New(rand.NewPCG(seed, 1)), gameID: joined.GameID}
	pb := &botPlayer{c: b, rng: rand.New(rand.NewPCG(seed, 2)), gameID: joined.GameID}
	var wg sync.WaitGroup
	for _, p := range []*botPlayer{pa, pb} {
		wg.Add(1)
		go func() { defer wg.Done(); p.play() }()
	}
	wg.Wait()
	for _, p := range []*botPlayer{pa, pb} {
		if p.err != nil {
			t.Fatal(p.err)
		}
	}
	return joined.GameID
}

// TestUserGames: GET /user/{name}/games lists a user's finished games,
// newest first and paged as the site pages them, without a token; a
// finished game's transcript is open to any signed-in bot.
func TestUserGames(t *testing.T) {
	rules := umpire.Olympiad()
	rules.MaxPlies = 12
	_, _, base := startHTTP(t, server.Config{Rules: rules}, Config{Minutes: 5, Inc: 1})
	var c [3]*apiClient
	for i := range c {
		c[i] = newAPIClient(t, base)
		c[i].register(fmt.Sprintf("ug%d", i))
	}
	ab := playPair(t, c[0], c[1], 1)
	bc := playPair(t, c[1], c[2], 2)
	ca := playPair(t, c[2], c[0], 3)

	type page struct {
		Games []struct {
			GameID       string `json:"game_id"`
			Opponent     string
			Result       string
			RuleVariant  string `json:"rule_variant"`
			PlayAs       string `json:"play_as"`
			OpponentRole string `json:"opponent_role"`
			MoveCount    int    `json:"move_count"`
			PlayedAt     string `json:"played_at"`
		}
		Pagination struct {
			Page    int
			PerPage int `json:"per_page"`
			Total   int
			Pages   int
		}
	}
	anon := newAPIClient(t, base) // no token: the route is public
	var p page
	anon.call("GET", "/user/UG0/games?per_page=1", nil, 200, &p)
	if p.Pagination.Total != 2 || p.Pagination.Pages != 2 || p.Pagination.PerPage != 1 || len(p.Games) != 1 || p.Games[0].GameID != ca {
		t.Fatalf("page 1 of ug0: %+v", p)
	}
	g := p.Games[0]
	if g.Opponent != "ug2" || g.PlayAs != "black" || g.RuleVariant != "wild16" || g.OpponentRole != "bot" ||
		g.MoveCount == 0 || g.PlayedAt == "" || !strings.Contains("win loss draw", g.Result) {
		t.Errorf("ug0's newest game: %+v", g)
	}
	anon.call("GET", "/user/ug0/games?page=2&per_page=1", nil, 200, &p)
	if len(p.Games) != 1 || p.Games[0].GameID != ab || p.Games[0].PlayAs != "white" {
		t.Errorf("page 2 of ug0: %+v", p)
	}
	anon.call("GET", "/user/ug0/games?page=3&per_page=1", nil, 200, &p)
	if len(p.Games) != 0 || p.Pagination.Total != 2 {
		t.Errorf("page 3 of ug0: %+v", p)
	}
	anon.wantErr("GET", "/user/nobody/games", nil, 404, "")
	anon.wantErr("GET", "/user/ug0/games?per_page=101", nil, 422, "")
	anon.wantErr("GET", "/user/ug0/games?page=0", nil, 422, "")

	// ug0 did not play bc, and may read its transcript now it is over.
	var tr struct {
		GameID      string  `json:"game_id"`
		ViewerColor *string `json:"viewer_color"`
		Moves       []struct {
			UCI      *string `json:"uci"`
			MoveDone bool    `json:"move_done"`
		}
	}
	c[0].call("GET", "/game/"+bc+"/moves", nil, 200, &tr)
	if tr.GameID != bc || tr.ViewerColor != nil || len(tr.Moves) == 0 {
		t.Errorf("a bystander's transcript: %+v", tr)
	}
	c[1].call("GET", "/game/"+bc+"/moves", nil, 200, &tr)
	if tr.ViewerColor == nil || *tr.ViewerColor != "white" {
		t.Errorf("a player's transcript: viewer %v", tr.ViewerColor)
	}
	anon.wantErr("GET", "/game/"+bc+"/moves", nil, 401, "")
}

// TestModelFetchFromDoor: the fetcher of `kriegbot model fetch`, through
// the real client, walks this door's bots and archives and stores every
// finished game once; a second run fetches no transcript again.
func TestModelFetchFromDoor(t *testing.T) {
	rules := umpire.Olympiad()
	rules.MaxPlies = 12
	_, _, base := startHTTP(t, server.Config{Rules: rules}, Config{Minutes: 5, Inc: 1})
	var c [3]*apiClient
	for i := range c {
		c[i] = newAPIClient(t, base)
		c[i].register(fmt.Sprintf("mf%d", i))
	}
	ids := map[string]bool{}
	for i := range 5 {
		ids[playPair(t, c[i%3], c[(i+1)%3], uint64(i))] = true
	}
	dir := t.TempDir()
	fetch := func() sitegames.Summary {
		t.Helper()
		cl, err := ksclient.New(ksclient.Config{URL: base, Token: c[0].token, Rate: 1e6})
		if err != nil {
			t.Fatal(err)
		}
		st, warn, err := sitegames.Open(dir)
		if err != nil || len(warn) > 0 {
			t.Fatalf("open: %v %v", warn, err)
		}
		sum, err := sitegames.Fetch(context.Background(), cl, st, sitegames.Options{Pause: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if sum := fetch(); sum.Stored != 5 || sum.UsersDone != 3 {
		t.Fatalf("first fetch: %+v", sum)
	}
	st, _, _ := sitegames.Open(dir)
	err := st.Read("wild16", func(g sitegames.Game) error {
		if !ids[g.ID] || len(g.Moves) == 0 || !g.White.Bot || g.Result == "" {
			t.Errorf("stored %+v", g)
		}
		if _, err := g.Played(); err != nil {
			t.Errorf("game %s: %v", g.ID, err)
		}
		delete(ids, g.ID)
		return nil
	}, func(p string, err error) { t.Errorf("%s: %v", p, err) })
	if err != nil || len(ids) != 0 {
		t.Errorf("games not stored: %v, %v", ids, err)
	}
	if sum := fetch(); sum.Stored != 0 || sum.Skipped != 10 {
		t.Errorf("second fetch: %+v (each game is listed under both players)", sum)
	}
}
