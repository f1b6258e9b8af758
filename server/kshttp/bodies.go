package kshttp

import (
	"crypto/rand"
	"slices"
	"strings"

	"kriegbot/protocol/ksapi"
)

// Checks of the request bodies that create things: a bot's registration
// and a lobby game, as the site checks them.

// IsRuleVariant reports whether v is one of the site's variant names;
// this server plays wild16 only.
func IsRuleVariant(v string) bool { return ksapi.IsRuleVariant(v) }

// Registration is a bot registration that passed CheckRegistration.
type Registration struct {
	Username    string // lower case
	DisplayName string
	Email       string
	Description string
	Listed      bool
	Variants    []string
}

// CheckRegistration validates POST /auth/bots/register's body as the site
// does and returns the bot it asks for.
func CheckRegistration(b *ksapi.Registration) (Registration, *Error) {
	if b.Username == nil {
		return Registration{}, Invalid("username", "Field required")
	}
	name := *b.Username
	if len(name) < 1 || len(name) > 33 || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) >= 0 {
		return Registration{}, Invalid("username", "1 to 33 letters, digits or _")
	}
	if b.DisplayName == nil || len(*b.DisplayName) < 3 || len(*b.DisplayName) > 40 {
		return Registration{}, Invalid("display_name", "3 to 40 characters")
	}
	if b.OwnerEmail == nil || len(*b.OwnerEmail) < 3 || len(*b.OwnerEmail) > 320 || !strings.Contains(*b.OwnerEmail, "@") {
		return Registration{}, Invalid("owner_email", "an email address")
	}
	desc := ""
	if b.Description != nil {
		desc = *b.Description
	}
	if len(desc) > 280 {
		return Registration{}, Invalid("description", "at most 280 characters")
	}
	variants := b.RuleVariants
	if variants == nil {
		variants = []string{"berkeley", "berkeley_any"}
	}
	if len(variants) > len(ksapi.RuleVariants()) {
		return Registration{}, Invalid("supported_rule_variants", "unknown rule variant")
	}
	for _, v := range variants {
		if !IsRuleVariant(v) {
			return Registration{}, Invalid("supported_rule_variants", "unknown rule variant")
		}
	}
	lname := strings.ToLower(name)
	listed := true
	if b.Listed != nil {
		listed = *b.Listed
	} else {
		for _, w := range []string{"e2e", "test", "probe"} {
			if strings.Contains(lname, w) || strings.Contains(strings.ToLower(desc), w) {
				listed = false
			}
		}
	}
	return Registration{Username: lname, DisplayName: *b.DisplayName, Email: *b.OwnerEmail,
		Description: desc, Listed: listed, Variants: slices.Clone(variants)}, nil
}

// CheckCreate validates POST /game/create's body and returns the colour
// asked for.
func CheckCreate(b *ksapi.CreateGame) (string, *Error) {
	variant, playAs, tc, opp := "berkeley_any", "random", "rapid", "human"
	for _, f := range []struct {
		p   *string
		dst *string
	}{{b.RuleVariant, &variant}, {b.PlayAs, &playAs}, {b.TimeControl, &tc}, {b.OpponentType, &opp}} {
		if f.p != nil {
			*f.dst = *f.p
		}
	}
	switch {
	case !IsRuleVariant(variant):
		return "", Invalid("rule_variant", "unknown rule variant")
	case playAs != "white" && playAs != "black" && playAs != "random":
		return "", Invalid("play_as", "white, black or random")
	case tc != "rapid":
		return "", Invalid("time_control", "only rapid")
	case opp != "human" && opp != "bot":
		return "", Invalid("opponent_type", "human or bot")
	case opp == "bot":
		return "", GameError(400, ksapi.CodeBotCreateRequiresHuman, "Bots must create open lobby games")
	case variant != "wild16":
		return "", GameError(400, ksapi.CodeRuleVariantUnsupported, "This server plays only wild16")
	}
	if playAs == "random" {
		var r [1]byte
		rand.Read(r[:])
		playAs = []string{"white", "black"}[r[0]&1]
	}
	return playAs, nil
}
