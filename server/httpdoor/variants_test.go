package httpdoor

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// registerPlaying registers a bot whose profile lists variants.
func (c *apiClient) registerPlaying(name string, variants ...string) {
	c.t.Helper()
	var r struct {
		Token string `json:"api_token"`
		User  string `json:"username"`
	}
	c.call("POST", "/auth/bots/register", map[string]any{"username": name, "display_name": name + " bot",
		"owner_email": "owner@example.org", "supported_rule_variants": variants}, 201, &r)
	c.token, c.name = r.Token, r.User
}

// TestHTTPLobbyVariants: a bot creates lobby games in the variants its
// profile lists, the lobby and the game's metadata name the variant, a
// bot joins only the variants it plays, and telnet users never see a
// lobby game but wild 16's.
func TestHTTPLobbyVariants(t *testing.T) {
	s, telnet, base := startHTTP(t, server.Config{}, Config{})
	a, b, w := newAPIClient(t, base), newAPIClient(t, base), newAPIClient(t, base)
	a.registerPlaying("avar", "berkeley", "rand", "crazykrieg")
	b.registerPlaying("bvar", "rand")
	w.register("wvar") // wild16 alone
	a.wantErr("POST", "/game/create", map[string]any{"rule_variant": "cincinnati"}, 400, "RULE_VARIANT_UNSUPPORTED")
	var created struct {
		GameCode    string `json:"game_code"`
		RuleVariant string `json:"rule_variant"`
	}
	a.call("POST", "/game/create", map[string]any{"rule_variant": "rand", "play_as": "white"}, 201, &created)
	if created.RuleVariant != "rand" {
		t.Fatalf("created: %+v", created)
	}
	var open struct {
		Games []struct {
			GameCode    string `json:"game_code"`
			RuleVariant string `json:"rule_variant"`
		}
	}
	w.call("GET", "/game/open", nil, 200, &open)
	if len(open.Games) != 1 || open.Games[0].RuleVariant != "rand" {
		t.Fatalf("open: %+v", open)
	}
	tc := wiretest.DialRaw(t, telnet)
	tc.LoginGuest()
	tc.Send("sought\r\n")
	tc.Expect("0 ads displayed.", wait)

	w.wantErr("POST", "/game/join/"+created.GameCode, nil, 409, "GAME_NOT_JOINABLE")
	var joined struct {
		GameID      string `json:"game_id"`
		RuleVariant string `json:"rule_variant"`
	}
	b.call("POST", "/game/join/"+created.GameCode, nil, 200, &joined)
	if joined.RuleVariant != "rand" {
		t.Fatalf("joined: %+v", joined)
	}
	var meta struct {
		RuleVariant string `json:"rule_variant"`
	}
	b.call("GET", "/game/"+joined.GameID, nil, 200, &meta)
	var mine struct {
		Games []struct {
			RuleVariant string `json:"rule_variant"`
		}
	}
	a.call("GET", "/game/mine/active", nil, 200, &mine)
	if meta.RuleVariant != "rand" || len(mine.Games) != 1 || mine.Games[0].RuleVariant != "rand" {
		t.Fatalf("metadata %+v, mine %+v", meta, mine)
	}
	if got := fmt.Sprint(open.Games); !strings.Contains(got, created.GameCode) {
		t.Fatalf("lobby %s lacks %s", got, created.GameCode)
	}
	rand, err := umpire.ParseVariant("rand")
	if err != nil {
		t.Fatal(err)
	}
	want := umpire.Site(rand)
	want.MaxPlies = 200 // the site's rules under the server's move limit (startHTTP's)
	s.Lock()
	defer s.Unlock()
	if _, g := s.FindKey(joined.GameID, false); g == nil || g.Umpire().Rules() != want {
		t.Fatalf("the game's rules are not the site's rand under the server's move limit")
	}
}

// TestHTTPAskAnyRefusals: ask-any where the variant has none, asked twice
// in a turn, or out of turn is refused as the site refuses it; a drop
// where the variant has none is NONSENSE, an unparseable one INVALID_UCI.
func TestHTTPAskAnyRefusals(t *testing.T) {
	_, _, base := startHTTP(t, server.Config{}, Config{})
	a, b := newAPIClient(t, base), newAPIClient(t, base)
	a.registerPlaying("askw", "berkeley", "berkeley_any", "rand")
	b.registerPlaying("askb", "berkeley", "berkeley_any", "rand")
	start := func(variant string) string {
		var created struct {
			GameID   string `json:"game_id"`
			GameCode string `json:"game_code"`
		}
		a.call("POST", "/game/create", map[string]any{"rule_variant": variant, "play_as": "white"}, 201, &created)
		b.call("POST", "/game/join/"+created.GameCode, nil, 200, nil)
		return "/game/" + created.GameID
	}
	g := start("berkeley")
	a.wantErr("POST", g+"/ask-any", nil, 400, "ACTION_NOT_AVAILABLE")
	a.call("POST", g+"/resign", nil, 200, nil)

	g = start("berkeley_any")
	b.wantErr("POST", g+"/ask-any", nil, 400, "NOT_YOUR_TURN")
	var r ksapi.MoveResult
	a.call("POST", g+"/ask-any", nil, 200, &r)
	if r.Announcement != "NO_ANY" || r.HasAny == nil || *r.HasAny || r.MoveDone {
		t.Fatalf("ask-any: %+v", r)
	}
	a.wantErr("POST", g+"/ask-any", nil, 400, "ACTION_NOT_AVAILABLE")
	var st tState
	a.call("GET", g+"/state", nil, 200, &st)
	if !slices.Equal(st.PossibleActions, []string{"move"}) {
		t.Fatalf("after the question: %v", st.PossibleActions)
	}
	a.call("POST", g+"/resign", nil, 200, nil)

	g = start("rand")
	for uci, want := range map[string]string{"N@e4": "NONSENSE", "X@e4": "INVALID_UCI", "e2e5": "NONSENSE"} {
		a.call("POST", g+"/move", map[string]string{"uci": uci}, 200, &r)
		if r.Announcement != want || r.MoveDone {
			t.Errorf("%s: %+v, want %s", uci, r, want)
		}
	}
}

// FuzzParseMove: a move's uci never panics the parser, and what it reads
// it writes back as the site spells it.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "E2E4", "e7e8q", "N@e4", "n@E4", "P@a1", "X@e4", "@@@@", "e2e"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, wild bool) {
		m, err := parseMove(s, wild)
		if err != nil {
			return
		}
		if got := umpire.MoveText(m); !strings.EqualFold(got, s) {
			t.Fatalf("%q read as %q", s, got)
		}
	})
}
