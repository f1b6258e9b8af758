package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
)

// The kriegspiel.org bot token (protocol "kriegspiel"): like the password,
// it never lives in config.toml and never appears in an error, a log line,
// a transcript or the -check output.

// maxToken bounds a token's length; the site's are 55 bytes
// ("ksbot_" + 16 hex + "." + 32 characters).
const maxToken = 512

// Token returns the kriegspiel.org bot token and where it came from ("$VAR"
// or the file's name): from the environment variable named by
// Account.TokenEnv when it is set and not empty, else from Account.TokenFile,
// which must be a regular file only its owner can read. No error contains
// the token or any part of the file.
func Token(c Config, getenv func(string) string) (token, source string, err error) {
	a := c.Account
	if a.TokenEnv != "" {
		if v := getenv(a.TokenEnv); v != "" {
			t, err := ParseToken([]byte(v))
			if err != nil {
				return "", "", fmt.Errorf("$%s: %w", a.TokenEnv, err)
			}
			return t, "$" + a.TokenEnv, nil
		}
	}
	if a.TokenFile != "" {
		t, err := readTokenFile(a.TokenFile)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && a.TokenEnv != "" {
				return "", "", fmt.Errorf("no kriegspiel.org token: $%s is not set and %s does not exist (run `kriegbot register` first)", a.TokenEnv, a.TokenFile)
			}
			return "", "", err
		}
		return t, a.TokenFile, nil
	}
	if a.TokenEnv != "" {
		return "", "", fmt.Errorf("no kriegspiel.org token: $%s is empty or not set, and account.token_file is not set", a.TokenEnv)
	}
	return "", "", errors.New("no kriegspiel.org token source: set account.token_env or account.token_file")
}

// ParseToken reads a token: the first line of b, without a trailing '\r'
// and surrounding spaces, 8 to 512 bytes of letters, digits and "._~+/=-"
// (the site's tokens are "ksbot_<16 hex>.<32 URL-safe base64>"). Errors
// never quote the bytes.
func ParseToken(b []byte) (string, error) {
	line := firstLine(b)
	for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
		line = line[1:]
	}
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
		line = line[:len(line)-1]
	}
	switch {
	case len(line) == 0:
		return "", errors.New("the token is empty")
	case len(line) < 8:
		return "", fmt.Errorf("the token is too short (%d bytes)", len(line))
	case len(line) > maxToken:
		return "", fmt.Errorf("the token is too long (%d bytes, at most %d)", len(line), maxToken)
	}
	for i, c := range line {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-') {
			return "", fmt.Errorf("the token has a character a token cannot hold at byte %d", i+1)
		}
	}
	return string(line), nil
}

// readTokenFile reads a token from a file only its owner can read.
func readTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("token file %s is not a regular file", path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("token file %s can be read or written by other users (mode %04o): run chmod 600 %s", path, st.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxToken+2))
	if err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	t, err := ParseToken(data)
	if err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	return t, nil
}

// tokenNote says where the token would come from, never what it is.
func (c Config) tokenNote(getenv func(string) string) string {
	if c.Server.Protocol != "kriegspiel" {
		return ""
	}
	if c.Server.Embedded {
		return "# token: none needed (embedded server)\n"
	}
	_, src, err := Token(c, getenv)
	if err != nil {
		return "# token: NOT USABLE: " + err.Error() + "\n"
	}
	return "# token: from " + src + " (present, well-formed)\n"
}
