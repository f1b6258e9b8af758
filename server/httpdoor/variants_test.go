package httpdoor

import (
	"fmt"
	"strings"
	"testing"

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
	_, telnet, base := startHTTP(t, server.Config{}, Config{})
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
}
