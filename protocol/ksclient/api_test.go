package ksclient

import (
	"errors"
	"strings"
	"testing"
)

const stateJSON = `{"game_id":"0123456789abcdef01234567","state":"active","turn":"white","move_number":3,
"your_color":"white","your_fen":"8/8/8/8/8/8/8/4K3 w - - 0 1","allowed_moves":["e2e4","g1f3"],
"possible_actions":["move"],"scoresheet":{"viewer_color":"white","last_move_number":2,"turns":[
{"turn":1,"white":[{"kind":"move","actor":"self","prompt":"Move attempt","message":"Move attempt — Move complete","messages":["Move complete"],"move_uci":"e2e4","question_type":"COMMON"}],
"black":[{"kind":"capture","actor":"opponent","prompt":"Opponent move","message":"Opponent move — Pawn captured at E4","messages":["Pawn captured at E4"],"move_uci":null,"question_type":"COMMON"},
{"kind":"status","actor":"opponent","prompt":"","message":"2 pawn tries","messages":["2 pawn tries"],"move_uci":null,"question_type":""}]}]},
"referee_log":[],"result":null,"clock":{"white_remaining":1490.5,"black_remaining":1500.0,"active_color":"white"},"extra_field":{"ignored":true}}`

func TestParseState(t *testing.T) {
	s, err := ParseState([]byte(stateJSON))
	if err != nil {
		t.Fatal(err)
	}
	if s.State != "active" || *s.Turn != "white" || s.MoveNumber != 3 || len(s.AllowedMoves) != 2 || len(s.Scoresheet.Turns) != 1 ||
		*s.Clock.WhiteRemaining != 1490.5 || s.Scoresheet.Turns[0].Black[0].Texts()[0] != "Pawn captured at E4" {
		t.Fatalf("%+v", s)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"truncated", stateJSON[:200], "reply not understood"},
		{"not JSON", "<html>502 Bad Gateway</html>", "reply not understood"},
		{"bad state", strings.Replace(stateJSON, `"state":"active"`, `"state":"paused"`, 1), "state"},
		{"bad colour", strings.Replace(stateJSON, `"your_color":"white"`, `"your_color":"red"`, 1), "your_color"},
		{"bad turn", strings.Replace(stateJSON, `"turn":"white"`, `"turn":"green"`, 1), "turn"},
		{"bad move", strings.Replace(stateJSON, `"e2e4","g1f3"`, `"e2e4","zz99"`, 1), "allowed move"},
		{"NaN-like clock", strings.Replace(stateJSON, `1490.5`, `1e308`, 1), "clock"},
		{"wrong type", strings.Replace(stateJSON, `"move_number":3`, `"move_number":"3"`, 1), "reply not understood"},
		{"negative move number", strings.Replace(stateJSON, `"move_number":3`, `"move_number":-1`, 1), "move_number"},
		{"bad winner", strings.Replace(stateJSON, `"result":null`, `"result":{"winner":"nobody","reason":"x"}`, 1), "winner"},
	} {
		_, err := ParseState([]byte(tc.body))
		if err == nil || !errors.Is(err, ErrGarbage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want garbage about %q", tc.name, err, tc.want)
		}
	}
	// An older site's plain-string entries are read too.
	old := strings.Replace(stateJSON, `"black":[{"kind":"capture"`, `"black":["Opponent move — Capture done at E4",{"kind":"capture"`, 1)
	s, err = ParseState([]byte(old))
	if err != nil || s.Scoresheet.Turns[0].Black[0].Kind != "capture" || s.Scoresheet.Turns[0].Black[0].Texts()[0] != "Capture done at E4" {
		t.Errorf("string entry: %v %+v", err, s.Scoresheet.Turns[0].Black)
	}
}

func TestParseMoveResult(t *testing.T) {
	ok := `{"move_done":true,"announcement":"CAPTURE_DONE","special_announcement":"CHECK_FILE","checks":["CHECK_FILE"],
"capture_square":"e5","captured_piece_announcement":"PAWN","next_turn_pawn_tries":2,"turn":"black","game_over":false,
"clock":{"white_remaining":100,"black_remaining":200,"active_color":"black"}}`
	r, err := ParseMoveResult([]byte(ok))
	if err != nil || !r.MoveDone || *r.CaptureSquare != "e5" || *r.NextTurnPawnTries != 2 || len(r.Checks) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
	for _, tc := range []struct{ name, body string }{
		{"empty", ""},
		{"no announcement", `{"move_done":false}`},
		{"bad square", strings.Replace(ok, `"e5"`, `"k9"`, 1)},
		{"tries out of range", strings.Replace(ok, `"next_turn_pawn_tries":2`, `"next_turn_pawn_tries":99`, 1)},
		{"bad clock colour", strings.Replace(ok, `"active_color":"black"`, `"active_color":"blue"`, 1)},
		{"array", `[1,2,3]`},
	} {
		if _, err := ParseMoveResult([]byte(tc.body)); !errors.Is(err, ErrGarbage) {
			t.Errorf("%s: %v; want garbage", tc.name, err)
		}
	}
}

func TestParseLists(t *testing.T) {
	g, err := ParseGames([]byte(`{"games":[{"game_id":"0123456789abcdef01234567","game_code":"AB23CD","state":"waiting"},
{"game_id":"../../etc","state":"active"},{"game_id":"0123456789abcdef01234568","state":"bogus"}]}`))
	if err != nil || len(g.Games) != 1 || g.Games[0].Ref() != "0123456789abcdef01234567" {
		t.Errorf("games: %+v %v", g, err)
	}
	o, err := ParseOpenGames([]byte(`{"games":[{"game_code":"AB23CD","rule_variant":"wild16","created_by":"somebot"},
{"game_code":"XY","created_by":"x"},{"game_code":"AB23CE","created_by":"../admin"}]}`))
	if err != nil || len(o.Games) != 1 || o.Games[0].CreatedBy != "somebot" {
		t.Errorf("open: %+v %v", o, err)
	}
	if _, err := ParseCreated([]byte(`{"state":"waiting"}`)); !errors.Is(err, ErrGarbage) {
		t.Errorf("created without id: %v", err)
	}
	if _, err := ParseRegistered([]byte(`{"bot_id":"x","username":"b"}`)); !errors.Is(err, ErrGarbage) {
		t.Errorf("registered without token: %v", err)
	}
	tr, err := ParseTranscript([]byte(`{"game_id":"x","moves":[{"ply":1,"color":"white","question_type":"COMMON","uci":"e2e4","move_done":true,"answer":{}}]}`))
	if err != nil || len(tr.Moves) != 1 || *tr.Moves[0].UCI != "e2e4" {
		t.Errorf("transcript: %+v %v", tr, err)
	}
}

func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		status     int
		body       string
		code, text string
	}{
		{404, `{"error":{"code":"GAME_NOT_FOUND","message":"Game not found","details":{}}}`, "GAME_NOT_FOUND", "Game not found"},
		{401, `{"detail":"Authentication required"}`, "", "Authentication required"},
		{409, `{"detail":{"field":"username","code":"USERNAME_TAKEN","message":"taken"}}`, "USERNAME_TAKEN", "taken"},
		{422, `{"detail":[{"loc":["body","uci"],"msg":"bad"}]}`, "", ""},
		{502, `<html>bad gateway</html>`, "", ""},
		{500, ``, "", ""},
	} {
		e := ParseError(tc.status, []byte(tc.body))
		if e.Status != tc.status || e.Code != tc.code || e.Message != tc.text {
			t.Errorf("%d %s: %+v", tc.status, tc.body, e)
		}
		if !strings.Contains(e.Error(), "HTTP") {
			t.Errorf("error text %q", e.Error())
		}
	}
}

// FuzzParseReplies: no reply, however broken, panics a parser, and what
// they accept is within bounds.
func FuzzParseReplies(f *testing.F) {
	for _, s := range []string{stateJSON, `{"move_done":true,"announcement":"REGULAR_MOVE","next_turn_pawn_tries":0}`,
		`{"games":[{"game_id":"0123456789abcdef01234567","state":"active","white":null}]}`, `{"error":{"code":"X"}}`,
		`{"detail":{"code":"Y","message":"m"}}`, "", "null", "[]", `{"scoresheet":{"turns":[{"white":["a",1]}]}}`,
		`{"games":[{"game_id":"0123456789abcdef01234567","play_as":"white","opponent":"b"}],"pagination":{"page":1,"per_page":20,"total":1,"pages":1}}`,
		`{"bots":[{"username":"kriegbot"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := ParseState(b); err == nil {
			if !validGameState(s.State) || !validColor(s.YourColor) || len(s.AllowedMoves) > maxMoves {
				t.Fatalf("accepted %+v", s)
			}
		}
		if r, err := ParseMoveResult(b); err == nil {
			ReadMoveResult(r)
		}
		ParseGames(b)
		ParseOpenGames(b)
		ParseTranscript(b)
		if g, err := ParseUserGames(b); err == nil && (len(g.Games) > MaxPerPage || g.Pagination.PerPage > MaxPerPage) {
			t.Fatalf("accepted %+v", g.Pagination)
		}
		ParseBots(b)
		_ = ParseError(500, b).Error()
	})
}
