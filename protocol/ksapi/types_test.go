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
