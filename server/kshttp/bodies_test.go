package kshttp

import (
	"fmt"
	"strings"
	"testing"

	"kriegbot/protocol/ksapi"
)

func TestRegisterBodyCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	ok := func(b ksapi.Registration) ksapi.Registration {
		if b.Username == nil {
			b.Username = str("Bot_1")
		}
		if b.DisplayName == nil {
			b.DisplayName = str("Bot one")
		}
		if b.OwnerEmail == nil {
			b.OwnerEmail = str("a@b")
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		body   ksapi.Registration
		field  string // "" for accepted
		listed bool
	}{
		{"plain", ok(ksapi.Registration{}), "", true},
		{"test name unlisted", ok(ksapi.Registration{Username: str("mytestbot")}), "", false},
		{"probe description unlisted", ok(ksapi.Registration{Description: str("a Probe")}), "", false},
		{"listed given", ok(ksapi.Registration{Username: str("e2ebot"), Listed: new(true)}), "", true},
		{"no username", ksapi.Registration{DisplayName: str("abc"), OwnerEmail: str("a@b")}, "username", false},
		{"empty username", ok(ksapi.Registration{Username: str("")}), "username", false},
		{"long username", ok(ksapi.Registration{Username: str(strings.Repeat("a", 34))}), "username", false},
		{"dash", ok(ksapi.Registration{Username: str("a-b")}), "username", false},
		{"non-ASCII", ok(ksapi.Registration{Username: str("bö")}), "username", false},
		{"short display", ok(ksapi.Registration{DisplayName: str("ab")}), "display_name", false},
		{"mail without @", ok(ksapi.Registration{OwnerEmail: str("abc")}), "owner_email", false},
		{"long description", ok(ksapi.Registration{Description: str(strings.Repeat("x", 281))}), "description", false},
		{"bad variant", ok(ksapi.Registration{RuleVariants: []string{"wild17"}}), "supported_rule_variants", false},
		{"too many variants", ok(ksapi.Registration{RuleVariants: make([]string, 8)}), "supported_rule_variants", false},
	} {
		bot, e := CheckRegistration(&tc.body)
		switch {
		case tc.field == "" && e != nil:
			t.Errorf("%s: refused: %+v", tc.name, e.Detail)
		case tc.field == "" && (bot.Listed != tc.listed || bot.Username != strings.ToLower(*tc.body.Username)):
			t.Errorf("%s: %+v", tc.name, bot)
		case tc.field != "" && (e == nil || e.Status != 422 || !strings.Contains(fmt.Sprint(e.Detail), tc.field)):
			t.Errorf("%s: want 422 on %s, got %+v", tc.name, tc.field, e)
		}
	}
}

// TestCreateVariants: a bot creates lobby games in every variant its
// profile lists (berkeley_any by default), and in no other but wild16.
func TestCreateVariants(t *testing.T) {
	str := func(s string) *string { return &s }
	all := ksapi.RuleVariants()
	for _, v := range all {
		_, got, e := CheckCreate(&ksapi.CreateGame{RuleVariant: str(v)}, all)
		if e != nil || got != v {
			t.Errorf("%s: got %q %+v", v, got, e)
		}
		if _, _, e := CheckCreate(&ksapi.CreateGame{RuleVariant: str(v)}, []string{"nothing"}); (e == nil) != (v == "wild16") || e != nil && e.Code != ksapi.CodeRuleVariantUnsupported {
			t.Errorf("%s not supported: got %+v", v, e)
		}
	}
	if _, got, e := CheckCreate(&ksapi.CreateGame{}, []string{"berkeley_any"}); e != nil || got != "berkeley_any" {
		t.Errorf("default: got %q %+v", got, e)
	}
}

func TestCreateBodyCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		body   ksapi.CreateGame
		status int
		code   string
	}{
		{ksapi.CreateGame{RuleVariant: str("wild16"), PlayAs: str("black")}, 0, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16")}, 0, ""},
		{ksapi.CreateGame{}, 400, "RULE_VARIANT_UNSUPPORTED"},
		{ksapi.CreateGame{RuleVariant: str("wild16"), PlayAs: str("red")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), TimeControl: str("blitz")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), OpponentType: str("robot")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("wild16"), OpponentType: str("bot")}, 400, "BOT_CREATE_REQUIRES_HUMAN_OPPONENT"},
		{ksapi.CreateGame{RuleVariant: str("wild99")}, 422, ""},
		{ksapi.CreateGame{RuleVariant: str("berkeley")}, 400, "RULE_VARIANT_UNSUPPORTED"},
	} {
		color, variant, e := CheckCreate(&tc.body, []string{"wild16"})
		if tc.status == 0 {
			if e != nil || color != "white" && color != "black" || tc.body.PlayAs != nil && color != *tc.body.PlayAs || variant != "wild16" {
				t.Errorf("%+v: %q %q %+v", tc.body, color, variant, e)
			}
			continue
		}
		if e == nil || e.Status != tc.status || e.Code != tc.code {
			t.Errorf("%+v: want %d %s, got %+v", tc.body, tc.status, tc.code, e)
		}
	}
}
