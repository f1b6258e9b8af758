package config

import (
	"time"

	"kriegbot/engine/clock"
)

// SettableKeys returns the keys an owner may change at run time with the
// "set" tell, in a new slice. Owner.Settable may only name keys from this
// list: connection, account and log settings stay fixed while the bot runs.
// (A function, not a variable, so that nobody can widen the list at run time.)
func SettableKeys() []string {
	return []string{
		"policy.accept_challenges",
		"policy.seek",
		"policy.max_games",
		"policy.min_base",
		"policy.max_base",
		"policy.min_increment",
		"policy.max_increment",
		"policy.rated",
		"policy.unrated",
		"policy.resign",
		"policy.accept_draw",
		"policy.greeting",
		"policy.max_rematches",
		"engine.player",
		"engine.wild16_player",
		"tournament.auto_join",
	}
}

// Defaults is the embedded default: kriegbot plays its sparring partner on an
// in-process server on a loopback port, with no account and no network. The
// shipped config.toml spells out exactly these values (a test keeps them equal).
func Defaults() Config {
	return Config{
		Server: Server{
			Protocol: "icc",
			URL:      "https://api.kriegspiel.org",
			// Every variant the site plays: mcts scores 93-98 % against
			// heuristic in each at 300 nodes (docs/rulesets.md).
			SupportedRuleVariants: []string{"berkeley_any", "berkeley", "cincinnati", "english", "rand", "crazykrieg", "wild16"},
			CreateRuleVariant:     "berkeley_any",
			Embedded:              true,
			Host:                  "127.0.0.1",
			Port:                  0,
			Rules:                 "olympiad",
			Level1:                5,
			PromotionStyle:        "uci",
			Settings:              []string{"set-quietly prompt 0", "set-quietly style 13"},
		},
		Account: Account{
			Handle:      "kriegbot",
			PasswordEnv: "KRIEGBOT_PASSWORD",
			TokenEnv:    "KRIEGBOT_TOKEN",
			TokenFile:   "data/kriegspiel.token",
		},
		Engine: Engine{
			Player:       "mcts:approach=c",
			Wild16Player: "boardtree",
			MoveOverhead: Duration{300 * time.Millisecond},
			// One set of defaults: the time policy's own, which match and
			// KEP play too.
			MinThink:  Duration{clock.DefaultMinThink},
			Emergency: Duration{clock.DefaultEmergency},
			Ponder:    true,
			// Beside logs/, so deleting logs keeps what was learnt.
			OpponentModels: "data/opponents",
			VariantModels:  "data/models",
		},
		Policy: Policy{
			AcceptChallenges: true,
			AnswerSeeks:      true,
			MinBase:          1,
			MaxBase:          60,
			MaxIncrement:     60,
			Rated:            true,
			Unrated:          true,
			Allow:            []string{},
			Block:            []string{},
			MaxGames:         1,
			SeekBase:         1,
			SeekIncrement:    1,
			Challenge:        "sparring",
			AbortAfter:       Duration{60 * time.Second},
			Resign:           true,
			ResignBelow:      -0.95,
			ResignMoves:      4,
			AcceptDraw:       true,
			DrawBelow:        -0.5,
			Greeting:         "Hello! I am kriegbot, a computer program playing Kriegspiel. Good luck!",
		},
		Owner: Owner{
			Handles:  []string{},
			Settable: SettableKeys(),
		},
		Sparring: Sparring{
			Enabled: true,
			Handle:  "sparring",
			Player:  "heuristic",
		},
		Tournament: Tournament{
			TD:           nil, // not set: TrustedTDs gives "TD" on our own server only
			Join:         []int{},
			JoinCommand:  "tell {td} join {event}",
			LeaveCommand: "tell {td} leave !",
			RoundGrace:   Duration{10 * time.Minute},
			Silence:      Duration{3 * time.Hour},
			Rejoin:       true,
		},
		Connection: Connection{
			KeepAlive:      Duration{50 * time.Second},
			DeadAfter:      Duration{120 * time.Second},
			LoginTimeout:   Duration{30 * time.Second},
			ReconnectMin:   Duration{time.Second},
			ReconnectMax:   Duration{5 * time.Minute},
			LinesPerSecond: 10,
		},
		Logs: Logs{
			Dir:         "logs",
			Level:       "info",
			MaxSizeMB:   20,
			Keep:        10,
			Transcripts: true,
			Records:     true,
			Console:     "auto",
		},
		// About 2 GB at most for the records, whatever the rate: the demo
		// writes a few hundred MB a day, so 3 days whole, then compressed
		// (a fifth to an eighth), and a month at the most.
		Retention: Retention{
			KeepDaysWhole: 3,
			MaxAge:        Duration{30 * 24 * time.Hour},
			MaxTotalSize:  Size{2_000_000_000},
			Compress:      true,
		},
	}
}
