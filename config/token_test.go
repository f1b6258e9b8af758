package config

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const tokenSecret = "ksbot_0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz012345"

func kriegspielServer() Config {
	c := Defaults()
	c.Server.Protocol = "kriegspiel"
	c.Server.Embedded = false
	c.Sparring.Enabled = false
	c.Policy.Challenge = ""
	c.Account.Handle = "MyBot"
	return c
}

func TestParseToken(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{tokenSecret, tokenSecret, ""},
		{tokenSecret + "\r\nsecond", tokenSecret, ""},
		{"  " + tokenSecret + "\t\n", tokenSecret, ""},
		{"", "", "empty"},
		{"\n" + tokenSecret, "", "empty"},
		{"short", "", "too short"},
		{strings.Repeat("a", 513), "", "too long"},
		{"ksbot_abc def0123", "", "character"},
		{"ksbot_abc\x00def0123", "", "character"},
		{"ksbot_abcé0123456", "", "character"},
		{"Bearer-ok_token.~+/=", "Bearer-ok_token.~+/=", ""},
	} {
		got, err := ParseToken([]byte(tc.in))
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("ParseToken(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseToken(%q) error %v; want one about %q", tc.in, err, tc.err)
		}
		if err != nil && len(tc.in) >= 8 && strings.Contains(err.Error(), tc.in[:8]) {
			t.Errorf("ParseToken error %q quotes the input", err)
		}
	}
}

func TestToken(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	writeFile(t, private, tokenSecret+"\n", 0o600)
	shared := filepath.Join(dir, "shared")
	writeFile(t, shared, tokenSecret+"\n", 0o644)
	groupWrite := filepath.Join(dir, "groupwrite")
	writeFile(t, groupWrite, tokenSecret+"\n", 0o620)
	bad := filepath.Join(dir, "bad")
	writeFile(t, bad, "not a token at all\n", 0o600)
	with := func(envName, file string) Config {
		c := kriegspielServer()
		c.Account.TokenEnv, c.Account.TokenFile = envName, file
		return c
	}
	for _, tc := range []struct {
		name    string
		c       Config
		env     map[string]string
		want    string
		wantErr string
		skipWin bool
	}{
		{"environment", with("KRIEGBOT_TOKEN", private), map[string]string{"KRIEGBOT_TOKEN": tokenSecret + "\n"}, tokenSecret, "", false},
		{"file when the environment is empty", with("KRIEGBOT_TOKEN", private), nil, tokenSecret, "", false},
		{"file readable by others", with("", shared), nil, "", "chmod 600", true},
		{"file writable by the group", with("", groupWrite), nil, "", "chmod 600", true},
		{"malformed file", with("", bad), nil, "", "character", false},
		{"malformed environment", with("KRIEGBOT_TOKEN", ""), map[string]string{"KRIEGBOT_TOKEN": "x"}, "", "too short", false},
		{"missing file", with("KRIEGBOT_TOKEN", filepath.Join(dir, "none")), nil, "", "kriegbot register", false},
		{"no source", with("", ""), nil, "", "no kriegspiel.org token source", false},
		{"env only, unset", with("KRIEGBOT_TOKEN", ""), nil, "", "not set", false},
	} {
		if tc.skipWin && runtime.GOOS == "windows" {
			continue
		}
		got, _, err := Token(tc.c, env(tc.env))
		if tc.wantErr == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: Token = %q, %v; want %q", tc.name, got, err, tc.want)
		}
		if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: error %v; want one about %q", tc.name, err, tc.wantErr)
		}
		if err != nil && strings.Contains(err.Error(), tokenSecret[:10]) {
			t.Errorf("%s: error %q holds the token", tc.name, err)
		}
	}
	// -check notes the source, never the token.
	note := with("KRIEGBOT_TOKEN", private).effective(env(map[string]string{"KRIEGBOT_TOKEN": tokenSecret}))
	if strings.Contains(note, tokenSecret) || !strings.Contains(note, "# token: from $KRIEGBOT_TOKEN") {
		t.Errorf("effective config: %s", note)
	}
}

func TestKriegspielValidation(t *testing.T) {
	ok := kriegspielServer()
	if err := ok.Validate(); err != nil {
		t.Fatalf("kriegspiel config: %v", err)
	}
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"unknown protocol", func(c *Config) { c.Server.Protocol = "fics" }, "server.protocol"},
		{"http off loopback", func(c *Config) { c.Server.URL = "http://api.kriegspiel.org" }, "https off loopback"},
		{"not a URL", func(c *Config) { c.Server.URL = "api.kriegspiel.org" }, "server.url"},
		{"query", func(c *Config) { c.Server.URL = "https://x.org/?a=1" }, "no user, query"},
		{"guest", func(c *Config) { c.Account.Guest = true }, "account.guest"},
		{"no token source", func(c *Config) { c.Account.TokenEnv, c.Account.TokenFile = "", "" }, "token source"},
		{"bad env name", func(c *Config) { c.Account.TokenEnv = "1X" }, "account.token_env"},
	} {
		c := kriegspielServer()
		tc.mod(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v; want an error about %q", tc.name, err, tc.want)
		}
	}
	loop := kriegspielServer()
	loop.Server.URL = "http://127.0.0.1:8080"
	if err := loop.Validate(); err != nil {
		t.Errorf("http on loopback: %v", err)
	}
}

func FuzzParseToken(f *testing.F) {
	for _, s := range []string{tokenSecret, "", "\n", "ksbot_\r\n", "a b c d e f g h", strings.Repeat("z", 600), "\xff\xfe token"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tok, err := ParseToken(b)
		if err != nil {
			return
		}
		if len(tok) < 8 || len(tok) > maxToken || strings.ContainsAny(tok, " \t\r\n") {
			t.Fatalf("ParseToken accepted %q", tok)
		}
		again, err := ParseToken([]byte(tok))
		if err != nil || again != tok {
			t.Fatalf("not idempotent: %q -> %q, %v", tok, again, err)
		}
	})
}
