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
		if !reflect.DeepEqual(back, c) {
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
