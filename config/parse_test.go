package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want []string // the error's lines, in order
	}{
		{"unknown key with line",
			"[policy]\nmax_games = 2\nmax_game = 2\n",
			[]string{"t.toml:3: policy.max_game: unknown key (did you mean max_games?)"}},
		{"key case must match",
			"[policy]\nMax_Games = 2\n",
			[]string{"t.toml:2: policy.Max_Games: unknown key (did you mean max_games?)"}},
		{"key in the wrong section",
			"[server]\n\n# c\nmax_games = 2\n",
			[]string{"t.toml:4: server.max_games: unknown key (max_games belongs in [policy])"}},
		{"unknown section",
			"# top\n[polcy]\nmax_games = 2\n",
			[]string{"t.toml:2: polcy: unknown section (did you mean [policy]?)"}},
		{"root key",
			"games = 3\n",
			[]string{"t.toml:1: games: unknown key: keys belong in a [section] (games belongs in [policy])"}},
		{"a password in the file",
			"[account]\npassword = \"hunter2\"\npassword_env = \"ICC_PW\"\n",
			[]string{"t.toml:2: account.password: unknown key: the password is never read from config.toml but from the environment variable $ICC_PW (named by account.password_env), else from the first line of account.password_file; remove it from this file"}},
		{"a password at the root, no variable named",
			"Token = \"hunter2\"\n[account]\npassword_env = \"\"\n",
			[]string{`t.toml:1: Token: unknown key: the password is never read from config.toml; name an environment variable holding it in account.password_env (e.g. "KRIEGBOT_PASSWORD") or a file whose first line is the password in account.password_file; remove it from this file`}},
		{"other unknown keys keep their hints",
			"[account]\npasswordenv = \"X\"\nhandel = \"x\"\n[server]\npassword_file = \"pw\"\n",
			[]string{"t.toml:2: account.passwordenv: unknown key (did you mean password_env?)",
				"t.toml:3: account.handel: unknown key (did you mean handle?)",
				"t.toml:5: server.password_file: unknown key (password_file belongs in [account])"}},
		{"secrets in other sections",
			"[server]\napi_token = \"x\"\n[sparring]\npassword = \"y\"\n",
			[]string{"t.toml:2: server.api_token: unknown key: the password is never read from config.toml but from the environment variable $KRIEGBOT_PASSWORD (named by account.password_env), else from the first line of account.password_file; remove it from this file",
				"t.toml:4: sparring.password: unknown key: the password is never read from config.toml but from the environment variable $KRIEGBOT_PASSWORD (named by account.password_env), else from the first line of account.password_file; remove it from this file"}},
		{"array of tables is not a section",
			"[[policy]]\nmax_games = 2\n",
			[]string{"t.toml:1: policy: must be a table ([policy]), got an array"}},
		{"byte order mark",
			"\ufeff[policy]\nmax_games = 0\n",
			[]string{"t.toml:2: policy.max_games: must be 1-16, got 0"}},
		{"out of range",
			"[policy]\nmax_games = 0\n",
			[]string{"t.toml:2: policy.max_games: must be 1-16, got 0"}},
		{"event numbers are integers",
			"[tournament]\njoin = [3, \"4\"]\n",
			[]string{`t.toml:2: tournament.join: must be an array of integers, item 2 is a string ("4")`}},
		{"an event out of range, and a TD-less join",
			"[tournament]\ntd = []\njoin = [0]\n",
			[]string{"t.toml:3: tournament.join: event numbers must be 1-999999999, got 0",
				"t.toml:3: tournament.join: needs a TD to join with: list one in tournament.td"}},
		{"wrong type",
			"[policy]\nmax_games = \"2\"\n",
			[]string{`t.toml:2: policy.max_games: must be an integer, got a string ("2")`}},
		{"float for an integer",
			"[policy]\nmax_games = 2.5\n",
			[]string{"t.toml:2: policy.max_games: must be an integer, got a float (2.5)"}},
		{"integer for a float is fine, range still checked",
			"[policy]\nresign_below = 1\n",
			[]string{"t.toml:2: policy.resign_below: must be -1 to 0, got 1"}},
		{"nan",
			"[policy]\ndraw_below = nan\n",
			[]string{"t.toml:2: policy.draw_below: must be -1 to 1, got NaN"}},
		{"negative seed",
			"[engine]\nseed = -1\n",
			[]string{"t.toml:2: engine.seed: must not be negative, got -1"}},
		{"duration without unit",
			"[policy]\nabort_after = \"30\"\n",
			[]string{`t.toml:2: policy.abort_after: duration "30" has no unit: write e.g. "30ms" or "30s"`}},
		{"duration as integer",
			"[policy]\nabort_after = 30\n",
			[]string{`t.toml:2: policy.abort_after: must be a duration string such as "300ms" or "2m", got an integer (30)`}},
		{"negative duration",
			"[engine]\nmove_overhead = \"-1s\"\n",
			[]string{"t.toml:2: engine.move_overhead: duration must not be negative, got -1s"}},
		{"bad duration",
			"[engine]\nmin_think = \"soon\"\n",
			[]string{`t.toml:2: engine.min_think: invalid duration "soon": write e.g. "300ms", "2m" or "1h30m"`}},
		{"duration out of range",
			"[connection]\nreconnect_max = \"2h\"\n",
			[]string{"t.toml:2: connection.reconnect_max: must be 100ms-1h, got 2h"}},
		{"dotted key at the root",
			"# x\npolicy.max_games = 0\n",
			[]string{"t.toml:2: policy.max_games: must be 1-16, got 0"}},
		{"dotted key under a header",
			"[policy]\nx.y = 1\n",
			[]string{"t.toml:2: policy.x: unknown key"}},
		{"quoted keys",
			"[\"policy\"]\n\"max_games\" = 0\n'min_base' = -1\n",
			[]string{"t.toml:2: policy.max_games: must be 1-16, got 0", "t.toml:3: policy.min_base: must be 0-300, got -1"}},
		{"quoted key needing quotes",
			"[policy]\n\"max games\" = 0\n",
			[]string{`t.toml:2: policy."max games": unknown key (did you mean max_games?)`}},
		{"inline table",
			"\npolicy = { max_games = 0,\n  seek = true }\n",
			[]string{"t.toml:2: policy.max_games: must be 1-16, got 0"}},
		{"array spanning lines, then a bad key",
			"[server]\nsettings = [\n  \"a\", # one\n  \"b]\",\n]\nport = -1\n",
			[]string{"t.toml:6: server.port: must be 0-65535, got -1"}},
		{"array with a bad item",
			"[server]\nsettings = [\n  \"a\",\n  5,\n]\n",
			[]string{"t.toml:2: server.settings: must be an array of strings, item 2 is an integer (5)"}},
		{"control characters in a command",
			"[server]\nsettings = [\"set a 1\\nquit\"]\n",
			[]string{`t.toml:2: server.settings: must not contain control characters such as line breaks; got "set a 1\nquit"`}},
		{"multi-line strings counted",
			"[policy]\ngreeting = '''\nhello\n'''\nmax_games = 0\nchallenge = \"\"\"a\n\"\"\"\nmax_base = 0\n",
			[]string{
				"t.toml:2: policy.greeting: must not contain control characters such as line breaks; got \"hello\\n\"",
				"t.toml:6: policy.challenge: must be a handle of 1-20 letters, digits, '-' or '_'; got \"a\\n\"",
				"t.toml:5: policy.max_games: must be 1-16, got 0",
				"t.toml:8: policy.max_base: must be at least policy.min_base (1), got 0",
			}},
		{"bad player spec placed and reported with the rest",
			"[engine]\nseed = 1\nplayer = \"mcts:threds=2\"\n[policy]\nmax_games = 0\n",
			[]string{
				`t.toml:3: engine.player: spec "mcts:threds=2": mcts has no option "threds"`,
				"t.toml:5: policy.max_games: must be 1-16, got 0",
			}},
		{"cross-field error placed at the key in the file",
			"[policy]\nmin_base = 100\n",
			[]string{"t.toml:2: policy.max_base: must be at least policy.min_base (100), got 60"}},
		{"several errors sorted by line",
			"[logs]\nlevel = \"loud\"\n[server]\nrules = \"fide\"\nhost = \"example.org\"\n",
			[]string{
				`t.toml:2: logs.level: must be one of "debug", "info", "warn", "error"; got "loud"`,
				`t.toml:4: server.rules: must be one of "icc", "olympiad", "ks"; got "fide"`,
				`t.toml:5: server.host: must be a loopback address (127.0.0.1, ::1 or localhost) when server.embedded is true; got "example.org"`,
			}},
		{"real server keeps the sparring partner",
			"[server]\nembedded = false\nhost = \"chessclub.com\"\nport = 5000\n",
			[]string{"t.toml:2: sparring.enabled: needs server.embedded = true: the sparring partner plays on the embedded server"}},
		{"real server needs a registered handle",
			"[server]\nembedded = false\nhost = \"chessclub.com\"\nport = 0\n[account]\nhandle = \"guest123\"\n[sparring]\nenabled = false\n",
			[]string{
				"t.toml:4: server.port: must be 1-65535, got 0",
				`t.toml:6: account.handle: "guest123" is a guest handle: give a registered handle, or set account.guest = true`,
			}},
		{"handles checked",
			"[policy]\nallow = [\"ok\", \"no spaces\"]\nblock = [\"OK\"]\n[owner]\nhandles = [\"abcdefghijklmnopqrstu\"]\n",
			[]string{
				`t.toml:2: policy.allow: must list handles of 1-20 letters, digits, '-' or '_'; got "no spaces"`,
				`t.toml:3: policy.block: "OK" is in both policy.allow and policy.block`,
				`t.toml:5: owner.handles: must list handles of 1-20 letters, digits, '-' or '_'; got "abcdefghijklmnopqrstu"`,
			}},
		{"settable whitelist",
			"[owner]\nsettable = [\"policy.seek\", \"account.handle\"]\n",
			[]string{`t.toml:2: owner.settable: "account.handle" cannot be set by tell; settable keys are ` + strings.Join(SettableKeys(), ", ")}},
		{"password env name",
			"[account]\npassword_env = \"MY-PASS\"\n",
			[]string{`t.toml:2: account.password_env: must be an environment variable name (letters, digits, '_', not starting with a digit); got "MY-PASS"`}},
		{"dead_after must exceed keep_alive",
			"[connection]\nkeep_alive = \"3m\"\n",
			[]string{"t.toml:2: connection.dead_after: must be longer than connection.keep_alive (3m), got 2m: a quiet link would count as dead between keep-alives"}},
		{"retention values, types and units",
			"[retention]\nkeep_days_whole = -1\nmax_age = \"12h\"\nmax_total_size = 2000\ncompress = \"yes\"\n",
			[]string{
				"t.toml:2: retention.keep_days_whole: must be 0-3650, got -1",
				"t.toml:3: retention.max_age: must be 1d-3650d, got 12h",
				`t.toml:4: retention.max_total_size: size 2000 has no unit: write e.g. "2000MB" or "2000GB"`,
				`t.toml:5: retention.compress: must be true or false, got a string ("yes")`,
			}},
		{"retention bounds",
			"[retention]\nkeep_days_whole = 10\nmax_age = \"7d\"\nmax_total_size = \"1MB\"\n",
			[]string{
				"t.toml:3: retention.max_age: must be 0 (no bound) or at least retention.keep_days_whole (10 days), got 7d",
				"t.toml:4: retention.max_total_size: must be 0 (no bound) or 10MB-100TB, got 1MB",
			}},
		{"opponent models where records are pruned",
			"[logs]\ndir = \"logs\"\n[engine]\nopponent_models = \"logs/games/\"\n",
			[]string{`t.toml:4: engine.opponent_models: "logs/games/" is a records folder that [retention] prunes: keep the models elsewhere (default "data/opponents")`}},
		{"retention size syntax",
			"[retention]\nmax_total_size = \"2 gigs\"\n",
			[]string{`t.toml:2: retention.max_total_size: invalid size "2 gigs": write e.g. "500MB", "2GB" or "1.5GiB"`}},
		{"empty player",
			"[engine]\nplayer = \"\"\n[sparring]\nplayer = \"\"\n",
			[]string{"t.toml:2: engine.player: must not be empty", "t.toml:4: sparring.player: must not be empty"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.toml), "t.toml")
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			got := strings.Split(err.Error(), "\n")
			want := append([]string(nil), tc.want...)
			sortByLine(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "t.toml" || e.Line == 0 {
				t.Errorf("errors.As(*Error) = %+v", e)
			}
		})
	}
}

// sortByLine orders expected messages the way Parse does (by line number,
// then text), so that tables can list them by topic.
func sortByLine(msgs []string) {
	line := func(s string) int {
		var n int
		_, rest, _ := strings.Cut(s, ":")
		for _, r := range rest {
			if r < '0' || r > '9' {
				break
			}
			n = n*10 + int(r-'0')
		}
		return n
	}
	for i := 1; i < len(msgs); i++ {
		for j := i; j > 0 && line(msgs[j]) < line(msgs[j-1]); j-- {
			msgs[j], msgs[j-1] = msgs[j-1], msgs[j]
		}
	}
}

func TestParseSyntaxErrorKeepsPosition(t *testing.T) {
	for _, tc := range []struct{ toml, prefix string }{
		{"[policy]\nmax_games = = 2\n", "t.toml:2:13:"},
		// The library reports these at the newline it stopped on, and its
		// own line count has already moved on to the next line.
		{"[policy\n", "t.toml:1:8:"},
		{"[policy\nmax_games = 2\n", "t.toml:1:8:"},
		{"max_games = \n[policy]\n", "t.toml:1:13:"},
		{"[policy]\nmax_games = 1\nmax_games = 2\n", "t.toml:3:"},
		{"[server]\nsettings = [\n\"a\",\n\"b\n]\n", "t.toml:4:"},
		{"\ufeff[policy\n", "t.toml:1:8:"},    // an editor does not show the byte order mark
		{"# é\nk = \"é\" x\n", "t.toml:2:8:"}, // columns count characters, not bytes
		{"[policy]", ""},                      // no syntax error: nothing to place
	} {
		_, err := Parse([]byte(tc.toml), "t.toml")
		if tc.prefix == "" {
			if err != nil && strings.Contains(err.Error(), "invalid TOML") {
				t.Errorf("Parse(%q) = %v, want no syntax error", tc.toml, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.prefix) || !strings.Contains(err.Error(), "invalid TOML") {
			t.Errorf("Parse(%q) = %v, want an error starting %q", tc.toml, err, tc.prefix)
		}
	}
}

func TestParseOverlaysDefaults(t *testing.T) {
	c, err := Parse([]byte(`
[policy]
max_games = 3
allow = [
  "alice",   # a friend
  "bob",
]
abort_after = "30m"
resign_below = -1

[engine]
seed = 42
player = "heuristic"
`), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.Policy.MaxGames = 3
	want.Policy.Allow = []string{"alice", "bob"}
	want.Policy.AbortAfter = Duration{30 * time.Minute}
	want.Policy.ResignBelow = -1
	want.Engine.Seed = 42
	want.Engine.Player = "heuristic"
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if c, err := Parse(nil, "empty.toml"); err != nil || !reflect.DeepEqual(c, Defaults()) {
		t.Errorf("empty file: %v", err)
	}
}

func TestLoad(t *testing.T) {
	if _, err := Load("testdata/does-not-exist.toml"); err == nil {
		t.Error("missing file: no error")
	}
	dir := t.TempDir()
	big := dir + "/big.toml"
	writeFile(t, big, strings.Repeat("# padding\n", MaxFileSize/10+1), 0o644)
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized file: %v", err)
	}
	bad := dir + "/bad.toml"
	writeFile(t, bad, "[policy]\nmax_games = 99\n", 0o644)
	if _, err := Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: policy.max_games:") {
		t.Errorf("Load(bad) = %v", err)
	}
}

func TestLoadOrDefaults(t *testing.T) {
	missing := "testdata/does-not-exist.toml"
	if c, src, err := LoadOrDefaults(missing, false); err != nil || src != "built-in defaults" || !reflect.DeepEqual(c, Defaults()) {
		t.Errorf("missing default file: %q %v", src, err)
	}
	if _, _, err := LoadOrDefaults(missing, true); err == nil {
		t.Error("missing file given by -config: no error")
	}
	bad := t.TempDir() + "/bad.toml"
	writeFile(t, bad, "[policy]\nmax_games = 99\n", 0o644)
	if _, src, err := LoadOrDefaults(bad, false); err == nil || src != bad {
		t.Errorf("a broken default file: %q %v, want its error", src, err)
	}
}

func TestDefaultsValidateAndAreFresh(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatal(err)
	}
	a := Defaults()
	a.Server.Settings[0] = "changed"
	a.Owner.Settable[0] = "changed"
	if b := Defaults(); b.Server.Settings[0] == "changed" || b.Owner.Settable[0] == "changed" || SettableKeys()[0] == "changed" {
		t.Error("Defaults() shares slices between calls")
	}
}

func TestValidateWithoutFile(t *testing.T) {
	c := Defaults()
	c.Policy.MaxGames = 0
	c.Logs.Keep = 0
	err := c.Validate()
	if err == nil || err.Error() != "logs.keep: must be 1-1000, got 0\npolicy.max_games: must be 1-16, got 0" {
		t.Errorf("Validate() = %v", err)
	}
}

func TestParseBoundsTheErrorList(t *testing.T) {
	var b strings.Builder
	b.WriteString("[policy]\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "unknown_key_number_%d = %d\n", i, i)
	}
	_, err := Parse([]byte(b.String()), "t.toml")
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrors+1 || lines[maxErrors] != fmt.Sprintf("t.toml: %d more errors not shown", 5000-maxErrors) {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if !strings.HasPrefix(lines[0], "t.toml:2: policy.unknown_key_number_0: unknown key") {
		t.Errorf("first error %q", lines[0])
	}
}
