package config

import (
	"strings"
	"testing"
	"time"
)

func TestValidateRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string // "" = valid; else the whole error text
	}{
		{"defaults", func(*Config) {}, ""},
		{"real server", func(c *Config) { *c = realServer() }, ""},
		{"guest on a real server", func(c *Config) { *c = realServer(); c.Account.Guest = true; c.Account.Handle = "" }, ""},
		{"loopback ::1", func(c *Config) { c.Server.Host = "::1" }, ""},
		{"loopback localhost", func(c *Config) { c.Server.Host = "localhost" }, ""},
		{"loopback 127.0.0.2", func(c *Config) { c.Server.Host = "127.0.0.2" }, ""},
		{"host with scheme", func(c *Config) { *c = realServer(); c.Server.Host = "telnet://chessclub.com" },
			`server.host: must be a host name or IP address without port or scheme; got "telnet://chessclub.com"`},
		{"empty host", func(c *Config) { *c = realServer(); c.Server.Host = "" }, "server.host: must not be empty"},
		{"every variant, rotating", func(c *Config) {
			c.Server.SupportedRuleVariants = []string{"crazykrieg", "wild16", "rand"}
			c.Server.CreateRuleVariant = "rotate"
		}, ""},
		{"unknown variant", func(c *Config) { c.Server.SupportedRuleVariants = []string{"berkeley_any", "fischer"} },
			`server.supported_rule_variants: umpire: unknown variant "fischer" (want berkeley, berkeley_any, cincinnati, english, rand, crazykrieg, wild16)`},
		{"variant misspelt", func(c *Config) { c.Server.SupportedRuleVariants = []string{"berkeley_any", "Wild16"} },
			`server.supported_rule_variants: "Wild16" is spelt "wild16"`},
		{"variant twice", func(c *Config) { c.Server.SupportedRuleVariants = []string{"berkeley_any", "berkeley_any"} },
			`server.supported_rule_variants: names "berkeley_any" twice`},
		{"no variant", func(c *Config) { c.Server.SupportedRuleVariants, c.Server.CreateRuleVariant = nil, "rotate" },
			"server.supported_rule_variants: must name at least one of berkeley, berkeley_any, cincinnati, english, rand, crazykrieg, wild16"},
		{"creating an unplayed variant", func(c *Config) {
			c.Server.SupportedRuleVariants = []string{"berkeley_any", "wild16"}
			c.Server.CreateRuleVariant = "crazykrieg"
		}, `server.create_rule_variant: must be one of server.supported_rule_variants (berkeley_any, wild16) or "rotate"; got "crazykrieg"`},
		{"too many settings", func(c *Config) { c.Server.Settings = make([]string, 65) },
			"server.settings: must list at most 64 commands, got 65"},
		{"empty setting", func(c *Config) { c.Server.Settings = []string{""} }, "server.settings: must not be empty"},
		{"registered account needs a password source", func(c *Config) { *c = realServer(); c.Account.PasswordEnv = "" },
			"account.password_env: a registered account needs a password source: set account.password_env or account.password_file"},
		{"bad handle", func(c *Config) { c.Account.Handle = "kriegbot!" },
			`account.handle: must be a handle of 1-20 letters, digits, '-' or '_'; got "kriegbot!"`},
		{"greeting too long", func(c *Config) { c.Policy.Greeting = strings.Repeat("a", 201) },
			"policy.greeting: must be at most 200 bytes, got 201"},
		{"greeting not UTF-8", func(c *Config) { c.Policy.Greeting = "\xff" }, "policy.greeting: must be valid UTF-8"},
		{"both rated and unrated off", func(c *Config) { c.Policy.Rated, c.Policy.Unrated = false, false },
			"policy.rated: policy.rated and policy.unrated are both false, so no challenge could be accepted: set one, or set policy.accept_challenges = false"},
		{"both off but not accepting", func(c *Config) {
			c.Policy.Rated, c.Policy.Unrated, c.Policy.AcceptChallenges = false, false, false
		}, ""},
		{"rating bounds", func(c *Config) { c.Policy.MinRating, c.Policy.MaxRating = 1800, 1500 },
			"policy.max_rating: must be 0 (no bound) or at least policy.min_rating (1800), got 1500"},
		{"open rating bound", func(c *Config) { c.Policy.MinRating = 1800 }, ""},
		{"duplicate handles", func(c *Config) { c.Owner.Handles = []string{"Me", "me"} }, `owner.handles: lists "me" twice`},
		{"too many handles", func(c *Config) { c.Owner.Handles = make([]string, 101) }, "owner.handles: must list at most 100 handles, got 101"},
		{"duplicate settable", func(c *Config) { c.Owner.Settable = []string{"policy.seek", "policy.seek"} },
			`owner.settable: lists "policy.seek" twice`},
		{"challenging ourselves", func(c *Config) { c.Policy.Challenge = "Kriegbot" }, `policy.challenge: "Kriegbot" is our own handle`},
		{"time-less seek", func(c *Config) { c.Policy.SeekBase, c.Policy.SeekIncrement = 0, 0 },
			"policy.seek_increment: policy.seek_base and policy.seek_increment cannot both be 0 (a game without time)"},
		{"sparring as ourselves", func(c *Config) { c.Sparring.Handle = "KRIEGBOT" },
			`sparring.handle: must differ from account.handle ("kriegbot")`},
		{"seed beyond TOML", func(c *Config) { c.Engine.Seed = 1 << 63 },
			"engine.seed: must be at most 9223372036854775807, got 9223372036854775808"},
		{"reconnect bounds", func(c *Config) {
			c.Connection.ReconnectMin = Duration{time.Minute}
			c.Connection.ReconnectMax = Duration{2 * time.Second}
		},
			"connection.reconnect_max: must be at least connection.reconnect_min (1m), got 2s"},
		{"flooding", func(c *Config) { c.Connection.LinesPerSecond = 1000 }, "connection.lines_per_second: must be 0.5 to 100, got 1000"},
		{"console", func(c *Config) { c.Logs.Console = "tty" }, `logs.console: must be one of "auto", "pretty", "json", "off"; got "tty"`},
		{"unknown player kind", func(c *Config) { c.Engine.Player = "mtcs" },
			`engine.player: spec "mtcs": unknown kind "mtcs" (known: random, heuristic, mcts, sampled, boardtree)`},
		{"bad player option", func(c *Config) { c.Sparring.Player = "mcts:threads=0" },
			`sparring.player: spec "mcts:threads=0": option threads: "0" is not an integer from 1 to 64`},
		{"tournament defaults on a real server", func(c *Config) { *c = realServer(); c.Tournament.Join = []int{3, 7} },
			`tournament.join: needs a TD to join with: list one in tournament.td (the default trusts "TD" on our own server only)`},
		{"a TD listed on a real server", func(c *Config) {
			*c = realServer()
			c.Tournament.TD, c.Tournament.Join = []string{"Tomato"}, []int{3, 7}
		}, ""},
		{"ourselves as TD", func(c *Config) { c.Tournament.TD = []string{"TD", "KriegBot"} }, `tournament.td: "KriegBot" is our own handle`},
		{"duplicate event", func(c *Config) { c.Tournament.Join = []int{3, 3} }, "tournament.join: lists 3 twice"},
		{"auto-join without a TD", func(c *Config) { c.Tournament.TD, c.Tournament.AutoJoin = []string{}, true },
			"tournament.auto_join: needs a trusted TD: list one in tournament.td"},
		{"unknown placeholder", func(c *Config) { c.Tournament.JoinCommand = "tell {td} join {id}" },
			`tournament.join_command: may hold only the placeholders {td} and {event}; got "tell {td} join {id}"`},
		{"two-line leave", func(c *Config) { c.Tournament.LeaveCommand = "tell {td} leave\nquit" },
			`tournament.leave_command: must not contain control characters such as line breaks; got "tell {td} leave\nquit"`},
		{"tournament on kriegspiel.org", func(c *Config) { c.Server.Protocol = "kriegspiel"; c.Tournament.AutoJoin = true },
			`tournament.join: tournaments are entered on ICC-protocol servers (server.protocol = "icc"); kriegspiel.org has no TD`},
		{"silence within the grace", func(c *Config) { c.Tournament.Silence = Duration{5 * time.Minute} },
			"tournament.silence: must be longer than tournament.round_grace (10m), got 5m: the event would end while a round may still start"},
		{"promotion", func(c *Config) { c.Server.PromotionStyle = "san" }, `server.promotion_style: must be one of "uci", "equals"; got "san"`},
	} {
		c := Defaults()
		tc.change(&c)
		err := c.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}
