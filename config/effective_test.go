package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestEffectiveRoundTrips(t *testing.T) {
	odd := Defaults()
	odd.Policy.Greeting = "\"quotes\", back\\slash, é ♞"
	odd.Policy.ResignBelow = -1
	odd.Connection.LinesPerSecond = 2.5
	odd.Engine.Seed = 1<<63 - 1
	odd.Policy.Allow = []string{"alice", "bob"}
	for _, c := range []Config{Defaults(), realServer(), odd} {
		text := c.effective(env(nil))
		back, err := Parse([]byte(text), "effective")
		if err != nil {
			t.Fatalf("Effective does not parse: %v\n%s", err, text)
		}
		want := c
		want.Tournament.TD = c.TrustedTDs() // spelled out as it applies
		if !reflect.DeepEqual(back, want) {
			t.Errorf("Effective round trip changed the config:\n%s", text)
		}
	}
}

func TestEffectiveNeverShowsThePassword(t *testing.T) {
	c := realServer()
	text := c.effective(env(map[string]string{"KRIEGBOT_PASSWORD": secret}))
	if strings.Contains(text, secret) {
		t.Fatal("Effective shows the password")
	}
	if !strings.Contains(text, "# password: from $KRIEGBOT_PASSWORD (set)\n") {
		t.Errorf("no password note in\n%s", text)
	}
	if text := c.effective(env(nil)); !strings.Contains(text, "# password: from $KRIEGBOT_PASSWORD (not set)\n") {
		t.Errorf("unset variable not reported:\n%s", text)
	}
	dir := t.TempDir()
	c.Account.PasswordFile = filepath.Join(dir, "pw")
	writeFile(t, c.Account.PasswordFile, secret+"\n", 0o600)
	text = c.effective(env(nil))
	if strings.Contains(text, secret) || !strings.Contains(text, "else from file "+c.Account.PasswordFile+" (present)") {
		t.Errorf("file source:\n%s", text)
	}
	if text := Defaults().effective(env(nil)); !strings.Contains(text, "# password: none needed (embedded server)") {
		t.Errorf("embedded:\n%s", text)
	}
}

// tomlQuote must give back any valid UTF-8 string through a TOML decoder,
// control characters included.
func TestTOMLQuote(t *testing.T) {
	for _, s := range []string{"", "plain", `"`, `\`, "a\nb\tc\rd", "\x00\x1f\x7f", "é ♞ 𝄞", `\u0041`, `"""`, "'''"} {
		var v struct{ S string }
		if _, err := toml.Decode("S = "+tomlQuote(s), &v); err != nil || v.S != s {
			t.Errorf("tomlQuote(%q) = %s decodes to %q, %v", s, tomlQuote(s), v.S, err)
		}
	}
	for f, want := range map[float64]string{10: "10.0", -0.95: "-0.95", 1e21: "1e+21", 0.5: "0.5"} {
		if got := formatFloat(f); got != want {
			t.Errorf("formatFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestEffectiveReadsTheEnvironment(t *testing.T) {
	t.Setenv("KRIEGBOT_TEST_PW", secret)
	c := realServer()
	c.Account.PasswordEnv = "KRIEGBOT_TEST_PW"
	text := c.Effective()
	if strings.Contains(text, secret) || !strings.Contains(text, "# password: from $KRIEGBOT_TEST_PW (set)") {
		t.Errorf("Effective:\n%s", text)
	}
}

// tournament.td, when not set, trusts "TD" on our own server only: on an
// outside server "TD" is whoever holds the handle. -check shows the list
// in effect and why.
func TestTrustedTDs(t *testing.T) {
	loopback := func(host string) func(*Config) {
		return func(c *Config) { c.Server.Embedded, c.Server.Host, c.Server.Port = false, host, 5000 }
	}
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   []string
	}{
		{"embedded", func(*Config) {}, []string{"TD"}},
		{"127.0.0.1", loopback("127.0.0.1"), []string{"TD"}},
		{"localhost", loopback("localhost"), []string{"TD"}},
		{"::1", loopback("::1"), []string{"TD"}},
		{"ICC", func(c *Config) { *c = realServer() }, []string{}},
		{"a LAN address", loopback("192.168.1.5"), []string{}},
		{"kriegspiel.org", func(c *Config) { c.Server.Embedded, c.Server.Protocol = false, "kriegspiel" }, []string{}},
		{"kriegspiel door on loopback", func(c *Config) {
			c.Server.Embedded, c.Server.Protocol, c.Server.URL = false, "kriegspiel", "http://127.0.0.1:8080"
		}, []string{"TD"}},
		{"set on ICC", func(c *Config) { *c = realServer(); c.Tournament.TD = []string{"Tomato", "TD"} }, []string{"Tomato", "TD"}},
		{"set empty on our own", func(c *Config) { c.Tournament.TD = []string{} }, []string{}},
	} {
		c := Defaults()
		tc.change(&c)
		if got := c.TrustedTDs(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: TrustedTDs() = %q, want %q", tc.name, got, tc.want)
		}
	}
	if text := Defaults().effective(env(nil)); !strings.Contains(text, "# td is not set: the default trusts \"TD\", because the server is our own") ||
		!strings.Contains(text, "\ntd = [\"TD\"]\n") {
		t.Errorf("embedded -check:\n%s", text)
	}
	text := realServer().effective(env(nil))
	if !strings.Contains(text, "# td is not set: the default trusts no TD, because chessclub.com is not our own server") ||
		!strings.Contains(text, "\ntd = []\n") {
		t.Errorf("ICC -check:\n%s", text)
	}
	c := realServer()
	c.Tournament.TD = []string{"Tomato"}
	if text := c.effective(env(nil)); strings.Contains(text, "# td is not set") || !strings.Contains(text, "\ntd = [\"Tomato\"]\n") {
		t.Errorf("ICC -check with td set:\n%s", text)
	}
}
