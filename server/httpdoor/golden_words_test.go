package httpdoor

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// TestGoldenHTTPReferee plays two games between HTTP bots that make the
// referee say most of what it says on the site: pawn tries, captures of
// pawns and pieces, checks of two kinds, illegal attempts and a mate,
// each move's reply, both players' state (scoresheets, referee logs) and
// the move lists once over. The requests and answers must be those in
// testdata/http-referee.golden.
func TestGoldenHTTPReferee(t *testing.T) {
	clock := wiretest.NewFakeClock()
	_, _, base := startHTTP(t, server.Config{Now: clock.Now}, Config{Minutes: 5, Inc: 1})
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
	white := token(h.do("", "POST", "/auth/bots/register", `{"username":"whitebot","display_name":"White bot","owner_email":"w@example.org","supported_rule_variants":["wild16"]}`))
	black := token(h.do("", "POST", "/auth/bots/register", `{"username":"blackbot","display_name":"Black bot","owner_email":"b@example.org","supported_rule_variants":["wild16"]}`))
	play := func(moves []string) string {
		var g struct {
			ID   string `json:"game_id"`
			Code string `json:"game_code"`
		}
		if err := json.Unmarshal(h.do(white, "POST", "/game/create", `{"rule_variant":"wild16","play_as":"white","time_control":"rapid","opponent_type":"human"}`), &g); err != nil {
			t.Fatal(err)
		}
		h.join(black, g.Code)
		for i, m := range moves {
			who := white
			if i%2 == 1 {
				who = black
			}
			for _, try := range strings.Split(m, "|") { // refused attempts first
				clock.Advance(time.Second)
				h.do(who, "POST", "/game/"+g.ID+"/move", `{"uci":"`+try+`"}`)
			}
		}
		return g.ID
	}
	// 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Qxc3 5. dxc3 Nf6 6. Bb5+ c6
	one := play([]string{"e2e4", "d7d5", "e4e6|e4d5", "d8d5", "b1c3", "d5e5", "e1f1|f1e2", "e5c3", "d2c3", "g8f6", "e2b5", "c7c6"})
	h.do(white, "GET", "/game/"+one+"/state", "")
	h.do(black, "GET", "/game/"+one+"/state", "")
	h.do(black, "POST", "/game/"+one+"/resign", "")
	h.do(white, "GET", "/game/"+one+"/moves", "")
	h.do(black, "GET", "/game/"+one+"/state", "")
	// The fool's mate.
	two := play([]string{"f2f3", "e7e5", "g2g4", "d8h4"})
	h.do(white, "GET", "/game/"+two+"/state", "")
	h.do(black, "GET", "/game/"+two+"/state", "")
	h.do(black, "GET", "/game/"+two+"/moves", "")
	wiretest.CompareGolden(t, "http-referee.golden", h.out.Bytes(), *update)
}
