package config

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const secret = "hunter2-Secret"

func realServer() Config {
	c := Defaults()
	c.Server.Embedded = false
	c.Server.Host = "chessclub.com"
	c.Server.Port = 5000
	c.Sparring.Enabled = false
	c.Policy.Challenge = ""
	c.Account.Handle = "MyBot"
	return c
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestPassword(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	writeFile(t, private, secret+"\r\nsecond line\n", 0o600)
	shared := filepath.Join(dir, "shared")
	writeFile(t, shared, secret+"\n", 0o644)
	groupRead := filepath.Join(dir, "group")
	writeFile(t, groupRead, secret+"\n", 0o640)
	writeOnly := filepath.Join(dir, "writeonly") // group/other write bits alone are not a leak
	writeFile(t, writeOnly, secret+"\n", 0o622)
	empty := filepath.Join(dir, "empty")
	writeFile(t, empty, "\nsecret on line 2\n", 0o600)

	withFile := func(path, envName string) Config {
		c := realServer()
		c.Account.PasswordFile = path
		c.Account.PasswordEnv = envName
		return c
	}
	guest := realServer()
	guest.Account.Guest = true

	for _, tc := range []struct {
		name    string
		c       Config
		env     map[string]string
		want    string
		wantErr string // substring; "" = no error
	}{
		{"embedded needs none", Defaults(), map[string]string{"KRIEGBOT_PASSWORD": secret}, "", ""},
		{"guest needs none", guest, nil, "", ""},
		{"from the environment", realServer(), map[string]string{"KRIEGBOT_PASSWORD": secret}, secret, ""},
		{"environment line break trimmed", realServer(), map[string]string{"KRIEGBOT_PASSWORD": secret + "\n"}, secret, ""},
		{"environment wins over file", withFile(shared, "KRIEGBOT_PASSWORD"), map[string]string{"KRIEGBOT_PASSWORD": secret}, secret, ""},
		{"file when the variable is unset", withFile(private, "KRIEGBOT_PASSWORD"), nil, secret, ""},
		{"file only", withFile(private, ""), nil, secret, ""},
		{"none at all", realServer(), nil, "", `account "MyBot" needs a password: the environment variable KRIEGBOT_PASSWORD is empty or not set`},
		{"no source configured", withFile("", ""), nil, "", `set account.password_env or account.password_file`},
		{"missing file", withFile(filepath.Join(dir, "nope"), ""), nil, "", "no such file"},
		{"empty first line", withFile(empty, ""), nil, "", "the first line is empty"},
		{"directory", withFile(dir, ""), nil, "", "not a regular file"},
	} {
		got, err := Password(tc.c, env(tc.env))
		if tc.wantErr == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: Password = %q, %v; want %q", tc.name, got, err, tc.want)
		}
		if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error reveals the password", tc.name)
		}
	}

	if runtime.GOOS == "windows" {
		return
	}
	for _, path := range []string{shared, groupRead} {
		_, err := Password(withFile(path, ""), env(nil))
		if err == nil || !strings.Contains(err.Error(), "chmod 600 "+path) || strings.Contains(err.Error(), secret) {
			t.Errorf("readable file %s: %v, want a chmod 600 error without the password", path, err)
		}
	}
	if p, err := Password(withFile(writeOnly, ""), env(nil)); err != nil || p != secret {
		t.Errorf("write-only-by-others file: %q, %v", p, err)
	}
}
