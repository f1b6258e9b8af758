package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
)

// Password returns the account's password: from the environment variable
// named by Account.PasswordEnv when it is set and not empty, else from the
// first line of Account.PasswordFile. The embedded server and guests need
// none (""). A registered account on a real server without a password is an
// error. No error ever contains the password or any part of the file.
//
// getenv is os.Getenv in the daemon; tests pass their own.
func Password(c Config, getenv func(string) string) (string, error) {
	a := c.Account
	if c.Server.Embedded || a.Guest {
		return "", nil
	}
	if a.PasswordEnv != "" {
		if p := firstLine([]byte(getenv(a.PasswordEnv))); len(p) > 0 {
			return string(p), nil
		}
	}
	if a.PasswordFile != "" {
		return readPasswordFile(a.PasswordFile)
	}
	if a.PasswordEnv != "" {
		return "", fmt.Errorf("account %q needs a password: the environment variable %s is empty or not set, and account.password_file is not set", a.Handle, a.PasswordEnv)
	}
	return "", fmt.Errorf("account %q needs a password: set account.password_env or account.password_file", a.Handle)
}

// maxPasswordFile bounds what is read of a password file.
const maxPasswordFile = 4096

// readPasswordFile returns the first line of a file that only its owner can
// read.
func readPasswordFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("password file %s is not a regular file", path)
	}
	// Windows has no such mode bits; its ACLs are the user's business.
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o044 != 0 {
		return "", fmt.Errorf("password file %s can be read by other users (mode %04o): run chmod 600 %s", path, st.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPasswordFile))
	if err != nil {
		return "", fmt.Errorf("password file %s: %w", path, err)
	}
	p := firstLine(data)
	if len(p) == 0 {
		return "", fmt.Errorf("password file %s: the first line is empty", path)
	}
	return string(p), nil
}

// firstLine is b up to its first line break, without a trailing '\r'.
func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}
