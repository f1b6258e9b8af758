package config

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/handle"
)

// Validate checks every value against its range and the values against
// each other. It returns all problems found, joined, as *Error values
// without file or line (Parse adds those). Player specs are parsed with
// engine/players, so a bad spec is reported with the other errors.
func (c Config) Validate() error {
	return joinErrors(c.validate())
}

func (c Config) validate() []*Error {
	var ck checker
	ck.server(c)
	ck.account(c)
	ck.engine(c)
	ck.policy(c)
	ck.owner(c)
	ck.sparring(c)
	ck.tournament(c)
	ck.connection(c)
	ck.logs(c)
	ck.retention(c)
	return ck.errs
}

// checker collects validation errors.
type checker struct{ errs []*Error }

// add records msg about key; also are keys that may place the error in the
// file when key itself is not there (cross-field rules).
func (ck *checker) add(key, msg string, also ...string) {
	ck.errs = append(ck.errs, &Error{Key: key, Msg: msg, path: strings.Split(key, "."), also: also})
}

func (ck *checker) intRange(key string, v, lo, hi int) {
	if v < lo || v > hi {
		ck.add(key, fmt.Sprintf("must be %d-%d, got %d", lo, hi, v))
	}
}

func (ck *checker) floatRange(key string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) { // also catches NaN
		ck.add(key, fmt.Sprintf("must be %g to %g, got %g", lo, hi, v))
	}
}

func (ck *checker) durRange(key string, d Duration, lo, hi time.Duration) {
	if d.Duration < lo || d.Duration > hi {
		ck.add(key, fmt.Sprintf("must be %v-%v, got %v", Duration{lo}, Duration{hi}, d))
	}
}

func (ck *checker) oneOf(key, v string, allowed ...string) {
	if !slices.Contains(allowed, v) {
		ck.add(key, fmt.Sprintf("must be one of %s; got %q", quoteAll(allowed), v))
	}
}

func (ck *checker) handle(key, h string) {
	if !handle.Valid(h) {
		ck.add(key, fmt.Sprintf("must be a handle of %s; got %q", handle.Syntax, h))
	}
}

func (ck *checker) handles(key string, hs []string, max int) {
	if len(hs) > max {
		ck.add(key, fmt.Sprintf("must list at most %d handles, got %d", max, len(hs)))
		return
	}
	seen := make(map[string]bool, len(hs))
	for _, h := range hs {
		if !handle.Valid(h) {
			ck.add(key, fmt.Sprintf("must list handles of %s; got %q", handle.Syntax, h))
			continue
		}
		if seen[strings.ToLower(h)] {
			ck.add(key, fmt.Sprintf("lists %q twice", h))
		}
		seen[strings.ToLower(h)] = true
	}
}

// text checks a free-text value: valid UTF-8, no control characters (a line
// break in a command or a tell would let it send a second line), at most
// max bytes, and not empty unless allowed.
func (ck *checker) text(key, s string, max int, emptyOK bool) {
	switch {
	case s == "" && !emptyOK:
		ck.add(key, "must not be empty")
	case len(s) > max:
		ck.add(key, fmt.Sprintf("must be at most %d bytes, got %d", max, len(s)))
	case !utf8.ValidString(s):
		ck.add(key, "must be valid UTF-8")
	case strings.ContainsFunc(s, unicode.IsControl):
		ck.add(key, fmt.Sprintf("must not contain control characters such as line breaks; got %q", s))
	}
}

// player checks a player spec: free text first, then the spec's syntax and
// options as engine/players reads them.
func (ck *checker) player(key, spec string) {
	n := len(ck.errs)
	ck.text(key, spec, 200, false)
	if len(ck.errs) > n {
		return
	}
	if _, err := players.Parse(spec, players.Kinds()); err != nil {
		ck.add(key, strings.TrimPrefix(err.Error(), "players: "))
	}
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (ck *checker) server(c Config) {
	s := c.Server
	ck.text("server.host", s.Host, 253, false)
	if strings.ContainsAny(s.Host, " /:") && net.ParseIP(s.Host) == nil {
		ck.add("server.host", fmt.Sprintf("must be a host name or IP address without port or scheme; got %q", s.Host))
	}
	ck.oneOf("server.protocol", s.Protocol, "icc", "kriegspiel")
	ck.serverURL(c)
	if s.Embedded {
		if !isLoopback(s.Host) {
			ck.add("server.host", fmt.Sprintf("must be a loopback address (127.0.0.1, ::1 or localhost) when server.embedded is true; got %q", s.Host), "server.embedded")
		}
		ck.intRange("server.port", s.Port, 0, 65535)
	} else if s.Protocol != "kriegspiel" { // kriegspiel.org is reached at server.url
		ck.intRange("server.port", s.Port, 1, 65535)
	}
	ck.oneOf("server.rules", s.Rules, umpire.RuleNames()...)
	ck.variants(s)
	ck.intRange("server.level1", s.Level1, 0, 255)
	ck.oneOf("server.promotion_style", s.PromotionStyle, "uci", "equals")
	if len(s.Settings) > 64 {
		ck.add("server.settings", fmt.Sprintf("must list at most 64 commands, got %d", len(s.Settings)))
	} else {
		for _, cmd := range s.Settings {
			ck.text("server.settings", cmd, 200, false)
		}
	}
}

// variants checks the kriegspiel.org rule variants: each a name the
// umpire knows (umpire.ParseVariant), spelt as the site does, once; and
// the variant of our lobby games one of them, or "rotate".
func (ck *checker) variants(s Server) {
	if len(s.SupportedRuleVariants) == 0 {
		ck.add("server.supported_rule_variants", fmt.Sprintf("must name at least one of %s", strings.Join(umpire.VariantNames(), ", ")))
	}
	seen := map[string]bool{}
	for _, name := range s.SupportedRuleVariants {
		switch v, err := umpire.ParseVariant(name); {
		case err != nil:
			ck.add("server.supported_rule_variants", err.Error())
		case v.Name != name:
			ck.add("server.supported_rule_variants", fmt.Sprintf("%q is spelt %q", name, v.Name))
		case seen[name]:
			ck.add("server.supported_rule_variants", fmt.Sprintf("names %q twice", name))
		}
		seen[name] = true
	}
	if s.CreateRuleVariant != "rotate" && !seen[s.CreateRuleVariant] {
		ck.add("server.create_rule_variant", fmt.Sprintf("must be one of server.supported_rule_variants (%s) or \"rotate\"; got %q",
			strings.Join(s.SupportedRuleVariants, ", "), s.CreateRuleVariant), "server.supported_rule_variants")
	}
}

func (ck *checker) account(c Config) {
	a := c.Account
	if !a.Guest {
		ck.handle("account.handle", a.Handle)
		if !c.Server.Embedded && strings.HasPrefix(strings.ToLower(a.Handle), "guest") {
			ck.add("account.handle", fmt.Sprintf("%q is a guest handle: give a registered handle, or set account.guest = true", a.Handle))
		}
	}
	if a.PasswordEnv != "" && !validEnvName(a.PasswordEnv) {
		ck.add("account.password_env", fmt.Sprintf("must be an environment variable name (letters, digits, '_', not starting with a digit); got %q", a.PasswordEnv))
	}
	ck.text("account.password_file", a.PasswordFile, 4096, true)
	if a.TokenEnv != "" && !validEnvName(a.TokenEnv) {
		ck.add("account.token_env", fmt.Sprintf("must be an environment variable name (letters, digits, '_', not starting with a digit); got %q", a.TokenEnv))
	}
	ck.text("account.token_file", a.TokenFile, 4096, true)
	if c.Server.Protocol == "kriegspiel" {
		if a.Guest {
			ck.add("account.guest", "kriegspiel.org has no guest bots: register one (kriegbot register) and set account.guest = false", "server.protocol")
		}
		if !c.Server.Embedded && a.TokenEnv == "" && a.TokenFile == "" {
			ck.add("account.token_env", "a kriegspiel.org bot needs a token source: set account.token_env or account.token_file", "account.token_file", "server.protocol")
		}
		return
	}
	if !c.Server.Embedded && !a.Guest && a.PasswordEnv == "" && a.PasswordFile == "" {
		ck.add("account.password_env", "a registered account needs a password source: set account.password_env or account.password_file", "account.password_file", "account.handle", "server.embedded")
	}
}

func validEnvName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

func (ck *checker) engine(c Config) {
	e := c.Engine
	ck.player("engine.player", e.Player)
	if e.Wild16Player != "" {
		ck.player("engine.wild16_player", e.Wild16Player)
	}
	if e.Seed > math.MaxInt64 { // TOML integers are signed 64-bit: a larger seed could not be written back
		ck.add("engine.seed", fmt.Sprintf("must be at most %d, got %d", int64(math.MaxInt64), e.Seed))
	}
	ck.durRange("engine.move_overhead", e.MoveOverhead, 0, 10*time.Second)
	ck.durRange("engine.min_think", e.MinThink, 0, 10*time.Second)
	ck.durRange("engine.emergency", e.Emergency, 0, time.Minute)
	ck.text("engine.opponent_models", e.OpponentModels, 500, true)
	ck.text("engine.variant_models", e.VariantModels, 500, true)
}

func (ck *checker) policy(c Config) {
	p := c.Policy
	ck.intRange("policy.min_base", p.MinBase, 0, 300)
	ck.intRange("policy.max_base", p.MaxBase, 0, 300)
	if p.MaxBase < p.MinBase {
		ck.add("policy.max_base", fmt.Sprintf("must be at least policy.min_base (%d), got %d", p.MinBase, p.MaxBase), "policy.min_base")
	}
	ck.intRange("policy.min_increment", p.MinIncrement, 0, 300)
	ck.intRange("policy.max_increment", p.MaxIncrement, 0, 300)
	if p.MaxIncrement < p.MinIncrement {
		ck.add("policy.max_increment", fmt.Sprintf("must be at least policy.min_increment (%d), got %d", p.MinIncrement, p.MaxIncrement), "policy.min_increment")
	}
	if p.AcceptChallenges && !p.Rated && !p.Unrated {
		ck.add("policy.rated", "policy.rated and policy.unrated are both false, so no challenge could be accepted: set one, or set policy.accept_challenges = false", "policy.unrated", "policy.accept_challenges")
	}
	ck.intRange("policy.min_rating", p.MinRating, 0, 4000)
	ck.intRange("policy.max_rating", p.MaxRating, 0, 4000)
	if p.MinRating > 0 && p.MaxRating > 0 && p.MaxRating < p.MinRating {
		ck.add("policy.max_rating", fmt.Sprintf("must be 0 (no bound) or at least policy.min_rating (%d), got %d", p.MinRating, p.MaxRating), "policy.min_rating")
	}
	ck.handles("policy.allow", p.Allow, 10000)
	ck.handles("policy.block", p.Block, 10000)
	for _, h := range p.Block {
		if slices.ContainsFunc(p.Allow, func(a string) bool { return strings.EqualFold(a, h) }) {
			ck.add("policy.block", fmt.Sprintf("%q is in both policy.allow and policy.block", h), "policy.allow")
		}
	}
	ck.intRange("policy.max_games", p.MaxGames, 1, 16)
	ck.intRange("policy.seek_base", p.SeekBase, 0, 300)
	ck.intRange("policy.seek_increment", p.SeekIncrement, 0, 300)
	if p.SeekBase == 0 && p.SeekIncrement == 0 {
		ck.add("policy.seek_increment", "policy.seek_base and policy.seek_increment cannot both be 0 (a game without time)", "policy.seek_base")
	}
	if p.Challenge != "" {
		ck.handle("policy.challenge", p.Challenge)
		if strings.EqualFold(p.Challenge, c.Account.Handle) {
			ck.add("policy.challenge", fmt.Sprintf("%q is our own handle", p.Challenge))
		}
	}
	ck.intRange("policy.max_rematches", p.MaxRematches, 0, 1000)
	ck.durRange("policy.abort_after", p.AbortAfter, 10*time.Second, time.Hour)
	ck.floatRange("policy.resign_below", p.ResignBelow, -1, 0)
	ck.intRange("policy.resign_moves", p.ResignMoves, 1, 100)
	ck.floatRange("policy.draw_below", p.DrawBelow, -1, 1)
	ck.text("policy.greeting", p.Greeting, 200, true)
	ck.intRange("policy.games", p.Games, 0, 1_000_000)
}

func (ck *checker) owner(c Config) {
	ck.handles("owner.handles", c.Owner.Handles, 100)
	allowed := SettableKeys()
	seen := map[string]bool{}
	for _, k := range c.Owner.Settable {
		if !slices.Contains(allowed, k) {
			ck.add("owner.settable", fmt.Sprintf("%q cannot be set by tell; settable keys are %s", k, strings.Join(allowed, ", ")))
		}
		if seen[k] {
			ck.add("owner.settable", fmt.Sprintf("lists %q twice", k))
		}
		seen[k] = true
	}
}

func (ck *checker) sparring(c Config) {
	s := c.Sparring
	if s.Enabled && !c.Server.Embedded {
		ck.add("sparring.enabled", "needs server.embedded = true: the sparring partner plays on the embedded server", "server.embedded")
	}
	ck.handle("sparring.handle", s.Handle)
	if s.Enabled && strings.EqualFold(s.Handle, c.Account.Handle) {
		ck.add("sparring.handle", fmt.Sprintf("must differ from account.handle (%q)", c.Account.Handle), "account.handle")
	}
	ck.player("sparring.player", s.Player)
}

func (ck *checker) tournament(c Config) {
	t := c.Tournament
	tds := c.TrustedTDs()
	ck.handles("tournament.td", t.TD, 20)
	for _, h := range t.TD {
		if strings.EqualFold(h, c.Account.Handle) {
			ck.add("tournament.td", fmt.Sprintf("%q is our own handle", h), "account.handle")
		}
	}
	if len(t.Join) > 16 {
		ck.add("tournament.join", fmt.Sprintf("must list at most 16 events, got %d", len(t.Join)))
	}
	seen := map[int]bool{}
	for _, n := range t.Join {
		if n < 1 || n > MaxEvent {
			ck.add("tournament.join", fmt.Sprintf("event numbers must be 1-%d, got %d", MaxEvent, n))
		}
		if seen[n] {
			ck.add("tournament.join", fmt.Sprintf("lists %d twice", n))
		}
		seen[n] = true
	}
	if len(tds) == 0 {
		hint := ""
		if t.TD == nil {
			hint = fmt.Sprintf(" (the default trusts %q on our own server only)", OwnTD)
		}
		if len(t.Join) > 0 {
			ck.add("tournament.join", "needs a TD to join with: list one in tournament.td"+hint, "tournament.td")
		}
		if t.AutoJoin {
			ck.add("tournament.auto_join", "needs a trusted TD: list one in tournament.td"+hint, "tournament.td")
		}
	}
	if c.Server.Protocol == "kriegspiel" && (len(t.Join) > 0 || t.AutoJoin) {
		ck.add("tournament.join", "tournaments are entered on ICC-protocol servers (server.protocol = \"icc\"); kriegspiel.org has no TD", "tournament.auto_join", "server.protocol")
	}
	ck.command("tournament.join_command", t.JoinCommand)
	ck.command("tournament.leave_command", t.LeaveCommand)
	ck.durRange("tournament.round_grace", t.RoundGrace, 10*time.Second, 2*time.Hour)
	ck.durRange("tournament.silence", t.Silence, time.Minute, 48*time.Hour)
	if t.Silence.Duration <= t.RoundGrace.Duration {
		ck.add("tournament.silence", fmt.Sprintf("must be longer than tournament.round_grace (%v), got %v: the event would end while a round may still start", t.RoundGrace, t.Silence), "tournament.round_grace")
	}
}

// MaxEvent is the largest event number a TD may use (nine digits, as the
// TD lines are read).
const MaxEvent = 999_999_999

// command checks a TD command template: one line of text whose only
// placeholders are {td} and {event}.
func (ck *checker) command(key, s string) {
	n := len(ck.errs)
	ck.text(key, s, 200, false)
	if len(ck.errs) > n {
		return
	}
	rest := strings.NewReplacer("{td}", "", "{event}", "").Replace(s)
	if strings.ContainsAny(rest, "{}") {
		ck.add(key, fmt.Sprintf("may hold only the placeholders {td} and {event}; got %q", s))
	}
}

func (ck *checker) connection(c Config) {
	n := c.Connection
	ck.durRange("connection.keep_alive", n.KeepAlive, time.Second, 30*time.Minute)
	ck.durRange("connection.dead_after", n.DeadAfter, 5*time.Second, 2*time.Hour)
	if n.DeadAfter.Duration <= n.KeepAlive.Duration {
		ck.add("connection.dead_after", fmt.Sprintf("must be longer than connection.keep_alive (%v), got %v: a quiet link would count as dead between keep-alives", n.KeepAlive, n.DeadAfter), "connection.keep_alive")
	}
	ck.durRange("connection.login_timeout", n.LoginTimeout, time.Second, 5*time.Minute)
	ck.durRange("connection.reconnect_min", n.ReconnectMin, 100*time.Millisecond, 5*time.Minute)
	ck.durRange("connection.reconnect_max", n.ReconnectMax, 100*time.Millisecond, time.Hour)
	if n.ReconnectMax.Duration < n.ReconnectMin.Duration {
		ck.add("connection.reconnect_max", fmt.Sprintf("must be at least connection.reconnect_min (%v), got %v", n.ReconnectMin, n.ReconnectMax), "connection.reconnect_min")
	}
	ck.floatRange("connection.lines_per_second", n.LinesPerSecond, 0.5, 100)
	ck.intRange("connection.max_reconnects", n.MaxReconnects, 0, 1_000_000)
}

func (ck *checker) logs(c Config) {
	l := c.Logs
	ck.text("logs.dir", l.Dir, 4096, false)
	ck.oneOf("logs.level", l.Level, "debug", "info", "warn", "error")
	ck.intRange("logs.max_size_mb", l.MaxSizeMB, 1, 10240)
	ck.intRange("logs.keep", l.Keep, 1, 1000)
	ck.oneOf("logs.console", l.Console, "auto", "pretty", "json", "off")
}

func (ck *checker) retention(c Config) {
	r := c.Retention
	ck.intRange("retention.keep_days_whole", r.KeepDaysWhole, 0, 3650)
	if n := len(ck.errs); r.MaxAge.Duration != 0 {
		ck.durRange("retention.max_age", r.MaxAge, 24*time.Hour, 3650*24*time.Hour)
		if whole := time.Duration(r.KeepDaysWhole) * 24 * time.Hour; len(ck.errs) == n && r.MaxAge.Duration < whole {
			ck.add("retention.max_age", fmt.Sprintf("must be 0 (no bound) or at least retention.keep_days_whole (%d days), got %v", r.KeepDaysWhole, r.MaxAge), "retention.keep_days_whole")
		}
	}
	if n := r.MaxTotalSize.Bytes; n != 0 && (n < minTotalSize || n > maxTotalSize) {
		ck.add("retention.max_total_size", fmt.Sprintf("must be 0 (no bound) or %v-%v, got %v", Size{minTotalSize}, Size{maxTotalSize}, r.MaxTotalSize))
	}
	// The models are what was learnt: they must not sit where old records
	// are removed.
	if m := c.Engine.OpponentModels; m != "" && !r.Off() {
		for _, sub := range RecordFolders() {
			if filepath.Clean(m) == filepath.Join(c.Logs.Dir, sub) {
				ck.add("engine.opponent_models", fmt.Sprintf("%q is a records folder that [retention] prunes: keep the models elsewhere (default \"data/opponents\")", m), "logs.dir")
			}
		}
	}
}

// RecordFolders are the folders under logs.dir that [retention] prunes:
// the daemon's per-game records, its transcripts, the embedded server's
// records.
func RecordFolders() []string { return []string{"games", "transcripts", "server"} }

// The bounds of retention.max_total_size: below 10 MB a few games of the
// demo fill it; above 100 TB is a typing slip.
const (
	minTotalSize = 10_000_000
	maxTotalSize = 100_000_000_000_000
)

// serverURL checks server.url: an http(s) URL of a host, without query or
// fragment; plain http only on loopback (the token must not cross a network
// in clear).
func (ck *checker) serverURL(c Config) {
	raw := c.Server.URL
	ck.text("server.url", raw, 2048, false)
	if raw == "" {
		return
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		ck.add("server.url", fmt.Sprintf("not a URL: %v", err))
	case u.Scheme != "https" && u.Scheme != "http", u.Host == "":
		ck.add("server.url", fmt.Sprintf("must be an http(s) URL such as \"https://api.kriegspiel.org\"; got %q", raw))
	case u.User != nil, u.RawQuery != "", u.Fragment != "":
		ck.add("server.url", fmt.Sprintf("must hold no user, query or fragment; got %q", raw))
	case u.Scheme == "http" && !isLoopback(u.Hostname()):
		ck.add("server.url", fmt.Sprintf("must use https off loopback (the bot token would travel in clear); got %q", raw))
	}
}
