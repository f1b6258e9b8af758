package config

import (
	"fmt"
	"strings"
	"time"
)

// Config is the whole daemon configuration: config.toml decoded onto
// Defaults(). Every field has a default, a range (checked by Validate) and a
// comment in the shipped config.toml.
type Config struct {
	Server     Server     `toml:"server"`
	Account    Account    `toml:"account"`
	Engine     Engine     `toml:"engine"`
	Policy     Policy     `toml:"policy"`
	Owner      Owner      `toml:"owner"`
	Sparring   Sparring   `toml:"sparring"`
	Tournament Tournament `toml:"tournament"`
	Connection Connection `toml:"connection"`
	Logs       Logs       `toml:"logs"`
	Retention  Retention  `toml:"retention"`
}

// Server says where to play.
type Server struct {
	// Protocol is the server's front door: "icc" (the ICC telnet protocol:
	// ICC, or the embedded server's ICC door) or "kriegspiel" (the
	// kriegspiel.org bot API over HTTPS: the site at URL, or the embedded
	// server's HTTP door).
	Protocol string `toml:"protocol"`
	// URL is the kriegspiel.org API's base URL (protocol "kriegspiel",
	// embedded = false); ignored for "icc".
	URL string `toml:"url"`
	// SupportedRuleVariants are the kriegspiel.org rule variants we play,
	// by the site's identifiers (umpire.VariantNames): sent to POST
	// /bots/profile at start and by kriegbot register; lobby games in
	// others are not joined, and a game in another is resigned.
	SupportedRuleVariants []string `toml:"supported_rule_variants"`
	// CreateRuleVariant is the variant of the lobby games we create: one
	// of SupportedRuleVariants, or "rotate": the supported variant played
	// least so far (each in turn on a tie); a rotated game nobody takes
	// in 5 minutes, in a variant not played yet, is withdrawn and its
	// variant rested (20 minutes, doubling, up to an hour).
	CreateRuleVariant string `toml:"create_rule_variant"`
	// Embedded starts kriegbot's own wild 16 server in-process on a loopback
	// port and plays there (no account, no network).
	Embedded bool `toml:"embedded"`
	// Host and Port of the chess server (ICC: chessclub.com 5000). With
	// Embedded, Host must be a loopback address and Port 0 picks a free port.
	Host string `toml:"host"`
	Port int    `toml:"port"`
	// Rules of the embedded server's referee: "icc", "olympiad" or "ks"
	// (kriegspiel.org's).
	Rules string `toml:"rules"`
	// Level1 bits sent at login (ICC: 5 gives unit brackets and tags).
	Level1 int `toml:"level1"`
	// PromotionStyle is how promotions are typed: "uci" (e7e8q) or "equals" (e7e8=Q).
	PromotionStyle string `toml:"promotion_style"`
	// Settings are command lines sent once logged in.
	Settings []string `toml:"settings"`
}

// Account is who we log in as. The password never lives in config.toml.
type Account struct {
	Handle string `toml:"handle"`
	// Guest logs in as a guest (Handle is then ignored).
	Guest bool `toml:"guest"`
	// PasswordEnv names the environment variable holding the password.
	PasswordEnv string `toml:"password_env"`
	// PasswordFile is a file whose first line is the password (used when
	// PasswordEnv is empty or unset).
	PasswordFile string `toml:"password_file"`
	// PasswordPrompt sends the password on its own line when the server asks,
	// instead of "handle password" on one line.
	PasswordPrompt bool `toml:"password_prompt"`
	// TokenEnv names the environment variable holding the kriegspiel.org
	// bot token (protocol "kriegspiel").
	TokenEnv string `toml:"token_env"`
	// TokenFile is a file (mode 0600) holding the token, used when TokenEnv
	// is empty or unset; `kriegbot register` writes it.
	TokenFile string `toml:"token_file"`
}

// Engine is the player and its time management.
type Engine struct {
	// Player is a player spec: "mcts:approach=c,threads=1", "heuristic", "random".
	Player string `toml:"player"`
	// Wild16Player, when not empty, is the player spec of the games under
	// wild 16's announcements (ICC's wild 16, kriegspiel.org's wild16),
	// where boardtree's tree fits; the other variants play Player.
	Wild16Player string `toml:"wild16_player"`
	// Seed is the base seed of the player's randomness; 0 draws one at start-up
	// (and logs it, so a game can be replayed).
	Seed uint64 `toml:"seed"`
	// MoveOverhead is the time kept back on every attempt for lag and wake-up.
	MoveOverhead Duration `toml:"move_overhead"`
	// MinThink is the least time spent on an attempt outside emergencies.
	MinThink Duration `toml:"min_think"`
	// Emergency is the clock level below which the bot answers at once.
	Emergency Duration `toml:"emergency"`
	// Ponder lets the player think during the opponent's turns (a player
	// that can: mcts). It is used while the bot plays one game at a time
	// (policy.max_games = 1): with several, a game's ponder would take the
	// processors from another game's search on its clock.
	Ponder bool `toml:"ponder"`
	// OpponentModels is the folder of per-opponent models: each finished
	// game's move list is added to its opponent's file ("" keeps none).
	OpponentModels string `toml:"opponent_models"`
	// VariantModels is the folder of the rule variants' models: a game of
	// variant V is played with VariantModels/V.kbm when `kriegbot model
	// build -games` wrote one there, else with the embedded default.
	VariantModels string `toml:"variant_models"`
}

// Policy is what the bot accepts, seeks and does in a game.
type Policy struct {
	// AcceptChallenges answers challenges; false declines them all.
	AcceptChallenges bool `toml:"accept_challenges"`
	// AnswerSeeks plays the seek ads (wild 16) that pass the same filters.
	AnswerSeeks bool `toml:"answer_seeks"`
	// MinBase/MaxBase bound the initial time (minutes); MinIncrement/MaxIncrement the increment (seconds).
	MinBase      int  `toml:"min_base"`
	MaxBase      int  `toml:"max_base"`
	MinIncrement int  `toml:"min_increment"`
	MaxIncrement int  `toml:"max_increment"`
	Rated        bool `toml:"rated"`
	Unrated      bool `toml:"unrated"`
	// MinRating/MaxRating bound the opponent's rating (0 = no bound).
	MinRating int `toml:"min_rating"`
	MaxRating int `toml:"max_rating"`
	// Allow, when not empty, is the only handles accepted; Block are never accepted.
	Allow []string `toml:"allow"`
	Block []string `toml:"block"`
	// MaxGames is the most games at once (never exceeded).
	MaxGames int `toml:"max_games"`
	// Seek posts a seek when idle; SeekBase/SeekIncrement/SeekRated describe it.
	Seek          bool `toml:"seek"`
	SeekBase      int  `toml:"seek_base"`
	SeekIncrement int  `toml:"seek_increment"`
	SeekRated     bool `toml:"seek_rated"`
	// Challenge, when set, is a handle the bot challenges whenever idle (the
	// embedded default uses it to play its sparring partner).
	Challenge string `toml:"challenge"`
	// MaxRematches bounds games in a row against one opponent (0 = no bound).
	MaxRematches int `toml:"max_rematches"`
	// AbortAfter aborts a game whose opponent has not made its first move in this time.
	AbortAfter Duration `toml:"abort_after"`
	// Resign when the engine's value stays below ResignBelow for ResignMoves moves in a row.
	Resign      bool    `toml:"resign"`
	ResignBelow float64 `toml:"resign_below"`
	ResignMoves int     `toml:"resign_moves"`
	// AcceptDraw accepts a draw offer when the engine's value is below DrawBelow.
	AcceptDraw bool    `toml:"accept_draw"`
	DrawBelow  float64 `toml:"draw_below"`
	// Greeting is said to the opponent at the start of each game ("" says nothing).
	Greeting string `toml:"greeting"`
	// Games stops after this many finished games (0 = run until told to stop).
	Games int `toml:"games"`
}

// Owner is who may command the bot by tell.
type Owner struct {
	Handles []string `toml:"handles"`
	// Settable lists the policy keys an owner may change with "set".
	Settable []string `toml:"settable"`
}

// Sparring is the embedded server's second account, which plays kriegbot.
type Sparring struct {
	Enabled bool   `toml:"enabled"`
	Handle  string `toml:"handle"`
	Player  string `toml:"player"`
}

// Tournament is how the bot enters computer tournaments run by a TD
// (tournament director) account: whom it trusts, what it joins, and the
// commands and times that differ between TDs (docs/tournaments.md).
type Tournament struct {
	// TD lists the TD handles whose pairings, ends and standings the bot
	// obeys; the first is the one "join" and "tourney join N" address.
	// Pairings and ends from anyone else are ignored and logged, so a
	// stranger cannot steer the bot into a game or out of an event.
	// Nil (not set) is the default, which Config.TrustedTDs resolves:
	// "TD" on our own server, nobody elsewhere; read it through that.
	TD []string `toml:"td"`
	// Join lists events to join at start, in order (each by JoinCommand).
	Join []int `toml:"join"`
	// AutoJoin joins events a trusted TD announces (DG 103) whose
	// description says wild 16, while the bot is in no event.
	AutoJoin bool `toml:"auto_join"`
	// JoinCommand and LeaveCommand are the lines sent to join and leave an
	// event, with {td} and {event} replaced: TDs differ ("tell TD join 3" on
	// kriegbot serve, "td join 3" to FICS's mamer, "tell Tomato join" on
	// ICC). An event announced by DG 103 is joined by its own join commands.
	JoinCommand  string `toml:"join_command"`
	LeaveCommand string `toml:"leave_command"`
	// RoundGrace is how long a paired game may take to start before the
	// bot stops waiting for it (the opponent is absent: the TD forfeits
	// them) and waits for the next round, still refusing other games.
	RoundGrace Duration `toml:"round_grace"`
	// Silence ends the bot's part in an event when no pairing, game or TD
	// line has come for this long: a TD that vanished must not keep the bot
	// from playing for ever.
	Silence Duration `toml:"silence"`
	// Rejoin sends the join command again after a reconnection while in an
	// event, for TDs that drop absent players; the game in progress, if
	// any, is resumed by the server either way.
	Rejoin bool `toml:"rejoin"`
}

// Connection is keep-alive and reconnect behaviour.
type Connection struct {
	KeepAlive      Duration `toml:"keep_alive"`
	DeadAfter      Duration `toml:"dead_after"`
	LoginTimeout   Duration `toml:"login_timeout"`
	ReconnectMin   Duration `toml:"reconnect_min"`
	ReconnectMax   Duration `toml:"reconnect_max"`
	LinesPerSecond float64  `toml:"lines_per_second"`
	MaxReconnects  int      `toml:"max_reconnects"`
}

// Logs is where records go.
type Logs struct {
	Dir         string `toml:"dir"`
	Level       string `toml:"level"`
	MaxSizeMB   int    `toml:"max_size_mb"`
	Keep        int    `toml:"keep"`
	Transcripts bool   `toml:"transcripts"`
	Records     bool   `toml:"records"`
	Console     string `toml:"console"`
}

// Retention bounds the disk the records take: the per-game records, PGNs
// and replay pages (logs/games), the transcripts (logs/transcripts) and
// the embedded server's records (logs/server). The JSON log rotates by
// itself (logs.max_size_mb, logs.keep); the opponent models are never
// touched.
type Retention struct {
	// KeepDaysWhole keeps the records of the last this many days as
	// written: never compressed, removed only if they alone pass
	// MaxTotalSize.
	KeepDaysWhole int `toml:"keep_days_whole"`
	// MaxAge removes records older than this ("0" keeps them at any age).
	MaxAge Duration `toml:"max_age"`
	// MaxTotalSize is the most all records may take; past it the oldest
	// go first ("0" sets no bound).
	MaxTotalSize Size `toml:"max_total_size"`
	// Compress gzips the JSON Lines records and transcripts older than
	// KeepDaysWhole in place (.jsonl to .jsonl.gz); kriegbot replay reads
	// either.
	Compress bool `toml:"compress"`
}

// Off says whether retention bounds nothing (max_age and max_total_size
// both 0): the records then grow without bound.
func (r Retention) Off() bool { return r.MaxAge.Duration == 0 && r.MaxTotalSize.Bytes == 0 }

// Summary says in one line what the policy keeps of the records under
// dir, for `kriegbot run -check` and the log.
func (r Retention) Summary(dir string) string {
	where := fmt.Sprintf("%s/{games,transcripts,server}", dir)
	if r.Off() {
		return fmt.Sprintf("retention: off (max_age and max_total_size are 0): the records in %s grow without bound", where)
	}
	var s strings.Builder
	fmt.Fprintf(&s, "retention: the records in %s of the last %d day%s are kept whole", where, r.KeepDaysWhole, plural(r.KeepDaysWhole))
	if r.Compress {
		s.WriteString(", older ones gzipped")
	}
	var bounds []string
	if r.MaxAge.Duration > 0 {
		bounds = append(bounds, "older than "+r.MaxAge.String())
	}
	if r.MaxTotalSize.Bytes > 0 {
		bounds = append(bounds, "the oldest past "+r.MaxTotalSize.String()+" in all")
	}
	s.WriteString("; removed: " + strings.Join(bounds, ", and "))
	return s.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Duration is a time.Duration written as "300ms" or "2m" in TOML.
type Duration struct{ time.Duration }
