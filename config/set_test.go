package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		check      func(Config) bool
	}{
		{"policy.max_games", "3", func(c Config) bool { return c.Policy.MaxGames == 3 }},
		{"policy.max_games", " 4 ", func(c Config) bool { return c.Policy.MaxGames == 4 }},
		{"policy.seek", "on", func(c Config) bool { return c.Policy.Seek }},
		{"policy.rated", "no", func(c Config) bool { return !c.Policy.Rated }},
		{"policy.accept_draw", "FALSE", func(c Config) bool { return !c.Policy.AcceptDraw }},
		{"policy.greeting", "Hi, I am a bot.", func(c Config) bool { return c.Policy.Greeting == "Hi, I am a bot." }},
		{"policy.greeting", `""`, func(c Config) bool { return c.Policy.Greeting == "" }},
		{"policy.greeting", `"  spaced  "`, func(c Config) bool { return c.Policy.Greeting == "  spaced  " }},
		{"engine.player", "heuristic", func(c Config) bool { return c.Engine.Player == "heuristic" }},
		{"policy.max_base", "120", func(c Config) bool { return c.Policy.MaxBase == 120 }},
	} {
		c := Defaults()
		if err := c.Set(tc.key, tc.value); err != nil {
			t.Errorf("Set(%s, %q): %v", tc.key, tc.value, err)
			continue
		}
		if !tc.check(c) {
			t.Errorf("Set(%s, %q) did not take", tc.key, tc.value)
		}
	}
}

func TestSetRefusesAndChangesNothing(t *testing.T) {
	restricted := Defaults()
	restricted.Owner.Settable = []string{"policy.seek"}
	for _, tc := range []struct {
		c          Config
		key, value string
		want       string
	}{
		{Defaults(), "policy.max_games", "0", "policy.max_games: must be 1-16, got 0"},
		{Defaults(), "policy.max_games", "two", `policy.max_games: must be an integer, got "two"`},
		{Defaults(), "policy.seek", "maybe", `policy.seek: must be true or false (or on/off, yes/no), got "maybe"`},
		{Defaults(), "policy.min_base", "61", "policy.max_base: must be at least policy.min_base (61), got 60"},
		{Defaults(), "policy.greeting", "line\nbreak", `policy.greeting: must not contain control characters such as line breaks; got "line\nbreak"`},
		{Defaults(), "policy.greeting", `"bad \q"`, `policy.greeting: bad quoted string "bad \q": invalid syntax`},
		{Defaults(), "engine.player", "", "engine.player: must not be empty"},
		{Defaults(), "account.handle", "x", "account.handle: cannot be changed by tell; settable keys are " + strings.Join(SettableKeys(), ", ")},
		{Defaults(), "server.embedded", "false", "server.embedded: cannot be changed by tell"},
		{restricted, "policy.max_games", "2", "policy.max_games: is not in owner.settable, so it cannot be changed by tell"},
	} {
		before := tc.c
		c := tc.c
		err := c.Set(tc.key, tc.value)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Set(%s, %q) = %v, want %q", tc.key, tc.value, err, tc.want)
		}
		if !reflect.DeepEqual(c, before) {
			t.Errorf("Set(%s, %q) failed but changed the config", tc.key, tc.value)
		}
	}
}

// Every settable key can be set from the text Effective prints for it, so
// the owner can always type back what "status" shows.
func TestEverySettableKeySetsFromItsOwnText(t *testing.T) {
	c := Defaults()
	for _, key := range SettableKeys() {
		f, ok := lookup(&c, key)
		if !ok {
			t.Fatalf("settable key %s is not in the schema", key)
		}
		text := formatValue(f)
		before := c
		if err := c.Set(key, text); err != nil {
			t.Errorf("Set(%s, %s): %v", key, text, err)
		}
		if !reflect.DeepEqual(c, before) {
			t.Errorf("Set(%s, %s) changed the value", key, text)
		}
	}
}

func TestSetTextKinds(t *testing.T) {
	var c Config
	for key, text := range map[string]string{
		"engine.seed":                 "9223372036854775807",
		"connection.lines_per_second": "2.5",
		"connection.keep_alive":       "1m",
		"policy.allow":                "a, b,,c",
	} {
		f, _ := lookup(&c, key)
		if msg := setText(f, text); msg != "" {
			t.Errorf("setText(%s, %q): %s", key, text, msg)
		}
	}
	if c.Engine.Seed != 1<<63-1 || c.Connection.LinesPerSecond != 2.5 || c.Connection.KeepAlive.Duration != time.Minute || !reflect.DeepEqual(c.Policy.Allow, []string{"a", "b", "c"}) {
		t.Errorf("setText gave %+v %+v %+v", c.Engine, c.Connection, c.Policy.Allow)
	}
}
