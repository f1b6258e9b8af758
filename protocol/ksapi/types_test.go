package ksapi

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// The server's replies are golden: these are the bytes it wrote before
// the types moved here, from Go maps and its own structs.
func TestWireBytes(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"status entry", Entry{Kind: "status", Actor: "self", Message: "No pawn captures", Messages: []string{"No pawn captures"}},
			`{"kind":"status","actor":"self","prompt":null,"message":"No pawn captures","messages":["No pawn captures"],"move_uci":null,"question_type":null}`},
		{"own entry", Entry{Kind: "move", Actor: "self", Prompt: "Move attempt", Message: "Move attempt — Move complete",
			Messages: []string{"Move complete"}, MoveUCI: s("e2e4"), QuestionType: "COMMON"},
			`{"kind":"move","actor":"self","prompt":"Move attempt","message":"Move attempt — Move complete","messages":["Move complete"],"move_uci":"e2e4","question_type":"COMMON"}`},
		{"material", MaterialSummary{White: SideMaterial{PiecesRemaining: 16}, Black: SideMaterial{PiecesRemaining: 15}},
			`{"black":{"pawns_captured":null,"pieces_remaining":15},"white":{"pawns_captured":null,"pieces_remaining":16}}`},
		{"reserve", ReserveSummary{}, `{"black":{"bishops":0,"knights":0,"pawns":0,"queens":0,"rooks":0},"white":{"bishops":0,"knights":0,"pawns":0,"queens":0,"rooks":0}}`},
		{"clock", Clock{WhiteRemaining: f(1500), BlackRemaining: f(1490.5), ActiveColor: s("black")},
			`{"white_remaining":1500,"black_remaining":1490.5,"active_color":"black"}`},
		{"open game", OpenGame{GameCode: "AB23CD", RuleVariant: "wild16", CreatedBy: "bot", CreatedAt: "2026-01-01T00:00:00.000Z", AvailableColor: "white"},
			`{"available_color":"white","created_at":"2026-01-01T00:00:00.000Z","created_by":"bot","game_code":"AB23CD","rule_variant":"wild16"}`},
		{"create body", CreateGame{RuleVariant: s("wild16"), PlayAs: s("random"), TimeControl: s("rapid"), OpponentType: s("human")},
			`{"opponent_type":"human","play_as":"random","rule_variant":"wild16","time_control":"rapid"}`},
		{"created", Created{GameID: "i", GameCode: "c", PlayAs: "white", RuleVariant: "wild16", State: "waiting", JoinURL: "/join/c", OpponentType: "human"},
			`{"bot":null,"game_code":"c","game_id":"i","game_url":null,"join_url":"/join/c","opponent_type":"human","play_as":"white","rule_variant":"wild16","state":"waiting"}`},
		{"joined", Joined{GameID: "i", GameCode: "c", PlayAs: "black", RuleVariant: "wild16", State: "active", GameURL: "/game/i"},
			`{"game_code":"c","game_id":"i","game_url":"/game/i","play_as":"black","rule_variant":"wild16","state":"active"}`},
		{"registration", Registration{Username: s("b"), DisplayName: s("Bot"), OwnerEmail: s("a@b"), Description: s(""), RuleVariants: []string{"wild16"}},
			`{"username":"b","display_name":"Bot","owner_email":"a@b","description":"","supported_rule_variants":["wild16"]}`},
		{"registered", Registered{BotID: "x", Username: "b", DisplayName: "Bot", OwnerEmail: "a@b", APIToken: "t", Message: "m"},
			`{"api_token":"t","bot_id":"x","display_name":"Bot","message":"m","owner_email":"a@b","username":"b"}`},
		{"user", User{Username: "b", DisplayName: "b", Role: "bot", IsBot: true, Elo: 1500, Ratings: map[string]any{}, Stats: map[string]any{}},
			`{"display_name":"b","elo":1500,"is_bot":true,"ratings":{},"role":"bot","stats":{},"username":"b"}`},
		{"event", GameEvent{Type: EventGameChanged, GameID: "i", GameCode: "c", State: "active", Turn: s("white"), MoveNumber: 3, UpdatedAt: "u"},
			`{"type":"game_changed","game_id":"i","game_code":"c","state":"active","turn":"white","move_number":3,"updated_at":"u"}`},
		{"shutdown", Shutdown{Type: EventShutdown}, `{"type":"shutdown"}`},
		{"move request", MoveRequest{UCI: "e7e8q"}, `{"uci":"e7e8q"}`},
		{"profile", Profile{RuleVariants: []string{"wild16"}}, `{"supported_rule_variants":["wild16"]}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s, %v\nwant %s", tc.name, b, err, tc.want)
		}
	}
}

func TestEntry(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  Entry
		texts []string
	}{
		{`{"kind":"status","actor":"opponent","prompt":null,"message":"2 pawn tries","messages":["2 pawn tries"],"move_uci":null,"question_type":null}`,
			Entry{Kind: "status", Actor: "opponent", Message: "2 pawn tries", Messages: []string{"2 pawn tries"}}, []string{"2 pawn tries"}},
		{`"Opponent move — Capture done at E4 · Check on rank"`, Entry{Kind: "capture", Message: "Opponent move — Capture done at E4 · Check on rank"},
			[]string{"Capture done at E4", "Check on rank"}},
		{`"e2e4 — Illegal move"`, Entry{Kind: "illegal_move", Message: "e2e4 — Illegal move"}, []string{"Illegal move"}},
		{`"Move attempt — "`, Entry{Kind: "move", Message: "Move attempt — "}, nil},
	} {
		var e Entry
		if err := json.Unmarshal([]byte(tc.in), &e); err != nil || !reflect.DeepEqual(e, tc.want) || !reflect.DeepEqual(e.Texts(), tc.texts) {
			t.Errorf("%s: %+v %q, %v; want %+v %q", tc.in, e, e.Texts(), err, tc.want, tc.texts)
		}
	}
	if err := json.Unmarshal([]byte(`{"kind":1}`), new(Entry)); err == nil {
		t.Error("an entry of the wrong type was read")
	}
}

// FuzzEntry: an entry round-trips through its JSON, and no bytes panic
// its reader.
func FuzzEntry(f *testing.F) {
	f.Add([]byte(`{"kind":"move","actor":"self","prompt":"Move attempt","message":"m","messages":["Move complete"],"move_uci":"e2e4","question_type":"COMMON"}`),
		"status", "", "e2e4")
	f.Add([]byte(`"Opponent move — Pawn captured at E5"`), "capture", "Opponent move", "")
	f.Add([]byte(`[1,2]`), "", "x", "\xff")
	f.Fuzz(func(t *testing.T, b []byte, kind, prompt, uci string) {
		var e Entry
		json.Unmarshal(b, &e)
		e.Texts()
		if !utf8.ValidString(kind) || !utf8.ValidString(prompt) || !utf8.ValidString(uci) {
			return // encoding/json replaces invalid UTF-8
		}
		in := Entry{Kind: kind, Actor: "self", Prompt: prompt, Message: EntryMessage(prompt, []string{kind, uci}),
			Messages: []string{kind, uci}, QuestionType: prompt}
		if uci != "" {
			in.MoveUCI = &uci
		}
		out, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var back Entry
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !reflect.DeepEqual(back, in) {
			t.Fatalf("%+v came back as %+v", in, back)
		}
	})
}

// FuzzTypes: any bytes decode into each type without panic, and what
// decodes comes back the same through its own JSON.
func FuzzTypes(f *testing.F) {
	for _, s := range []string{
		`{"game_id":"0123456789abcdef01234567","state":"active","turn":"white","move_number":3,"your_color":"white",
"allowed_moves":["e2e4"],"possible_actions":["move"],"material_summary":{"white":{"pieces_remaining":16,"pawns_captured":null}},
"scoresheet":{"viewer_color":"white","last_move_number":2,"turns":[{"turn":1,"white":[{"kind":"move","prompt":null,"messages":["Move complete"]}],
"black":["Opponent move — Capture done at E4"]}]},"result":{"winner":null,"reason":"insufficient"},"clock":{"white_remaining":1490.5,"active_color":null}}`,
		`{"move_done":true,"announcement":"CAPTURE_DONE","checks":["CHECK_FILE"],"capture_square":"e5","next_turn_pawn_tries":2,"clock":null}`,
		`{"games":[{"game_id":"x","white":{"username":"a","ratings":{"wild16":{"elo":1500}}},"black":null,"rating_snapshot":[1,"a",null]}]}`,
		`{"game_id":"x","moves":[{"ply":1,"uci":null,"answer":{"main":"REGULAR_MOVE"},"replay_fen":{"full":"8/8"}}]}`,
		`{"type":"game_changed","turn":null,"move_number":4}`, `{"bots":[{"elo":1e3}]}`, "null", "[]", `"x"`, "\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, v := range []any{new(State), new(MoveResult), new(Games), new(Metadata), new(OpenGames), new(Created), new(Joined),
			new(User), new(Bots), new(Registration), new(Registered), new(Transcript), new(GameEvent), new(CreateGame), new(Entry)} {
			if json.Unmarshal(b, v) != nil {
				continue
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%T %+v decoded from %q does not encode: %v", v, v, b, err)
			}
			back := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			if err := json.Unmarshal(out, back); err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("%T from %q: %+v written %s came back as %+v, %v", v, b, v, out, back, err)
			}
		}
	})
}

// TestSiteReplies: replies shaped as ks-backend's models write them
// (app v1.3.54: every field, nested ratings, timestamps, replay FENs)
// decode into these types; fields this package does not declare are
// ignored.
func TestSiteReplies(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		v    any
	}{
		{"state", `{"game_id":"0123456789abcdef01234567","state":"active","turn":"white","move_number":3,"your_color":"white",
"your_fen":"8/8/8/8/8/8/4P3/4K3 w - - 0 1","allowed_moves":["e2e4"],
"material_summary":{"white":{"pieces_remaining":16,"pawns_captured":null},"black":{"pieces_remaining":15,"pawns_captured":1}},
"reserve_summary":{"white":{"pawns":0,"knights":0,"bishops":0,"rooks":0,"queens":0},"black":{"pawns":1,"knights":0,"bishops":0,"rooks":0,"queens":0}},
"scoresheet":{"viewer_color":"white","last_move_number":2,"turns":[{"turn":1,"white":[{"kind":"move","actor":"self","prompt":"Move attempt",
"message":"Move attempt — Move complete","messages":["Move complete"],"move_uci":"e2e4","question_type":"COMMON"}],
"black":[{"kind":"status","actor":null,"prompt":null,"message":"No pawn captures","messages":["No pawn captures"],"move_uci":null,"question_type":null},
"Opponent move — Move complete"]}]},
"referee_log":[{"ply":1,"announcement":"Move attempt — Move complete","special_announcement":null,"capture_square":null,
"timestamp":"2026-03-31T12:00:00.123000","replay_fen":{"full":"8/8","white":"8/8","black":"8/8"}},{"ply":null,"announcement":"x"}],
"referee_turns":[],"possible_actions":["move","ask_any"],"result":{"winner":null,"reason":"insufficient","extra":1},
"clock":{"white_remaining":1490.25,"black_remaining":1500.0,"active_color":"white"}}`, new(State)},
		{"move", `{"move_done":true,"announcement":"CAPTURE_DONE","special_announcement":"CHECK_DOUBLE","checks":["CHECK_FILE","CHECK_KNIGHT"],
"capture_square":"e5","captured_piece_announcement":"PAWN","dropped_piece_announcement":null,"en_passant_announced":null,
"promotion_announced":true,"next_turn_pawn_tries":2,"next_turn_has_pawn_capture":null,"next_turn_pawn_try_squares":["E4","G4"],
"turn":"black","game_over":false,"clock":{"white_remaining":100,"black_remaining":200.5,"active_color":"black"},"has_any":true}`, new(MoveResult)},
		{"games", `{"games":[{"game_id":"0123456789abcdef01234567","game_code":"AB23CD","rule_variant":"wild16","state":"active",
"opponent_type":"human","white":{"username":"a","connected":true,"role":"bot","elo":1213,"ratings":{"overall":{"elo":1213,"peak":1250}}},
"black":null,"turn":"white","move_number":1,"created_at":"2026-03-31T12:00:00","updated_at":"2026-03-31T12:00:01",
"result":null,"rating_snapshot":{"white":{"overall":1200}}}]}`, new(Games)},
		{"transcript", `{"game_id":"x","rule_variant":"wild16","viewer_color":null,"moves":[{"ply":1,"color":"white","question_type":"COMMON",
"uci":"e2e4","answer":{"main":"REGULAR_MOVE","capture_square":null,"special":null,"checks":[],"next_turn_pawn_tries":0},
"move_done":true,"timestamp":"2026-03-31T12:00:00","replay_fen":{"full":"a","white":"b","black":"c"}}]}`, new(Transcript)},
		{"user", `{"username":"bot_1","display_name":"Bot one","role":"bot","is_bot":true,"owner_email":"a@b",
"profile":{"bio":""},"stats":{"elo":1200,"ratings":{"overall":{"elo":1200,"peak":1200}}},"member_since":"2026-01-01T00:00:00","bot_metrics":{}}`, new(User)},
		{"created", `{"game_id":"i","game_code":"AB23CD","play_as":"white","rule_variant":"wild16","state":"waiting","join_url":"https://x/join/AB23CD",
"game_url":null,"opponent_type":"bot","bot":{"bot_id":"b","username":"u"}}`, new(Created)},
		{"bots", `{"bots":[{"bot_id":"b","username":"u","display_name":"U","description":"","elo":1200,"ratings":{"overall":{"elo":1200}},
"supported_rule_variants":["wild16"]}]}`, new(Bots)},
	} {
		if err := json.Unmarshal([]byte(tc.body), tc.v); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
