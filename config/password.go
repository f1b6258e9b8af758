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
// read. The path is checked before it is opened: opening a named pipe (or a
// device) can block until someone writes to it, which would hang start-up
// and "kriegbot run -check". Symbolic links are followed (secrets mounted by
// Kubernetes or systemd credentials are links to regular files). The open is
// non-blocking as well, and the opened file is checked again, in case the
// path was replaced in between.
func readPasswordFile(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if err := regularFile(path, st); err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if err := regularFile(path, fst); err != nil {
		return "", err
	}
	if !os.SameFile(st, fst) {
		return "", fmt.Errorf("password file %s changed while it was opened", path)
	}
	// Windows has no such mode bits; its ACLs are the user's business.
	if runtime.GOOS != "windows" && fst.Mode().Perm()&0o044 != 0 {
		return "", fmt.Errorf("password file %s can be read by other users (mode %04o): run chmod 600 %s", path, fst.Mode().Perm(), path)
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

// regularFile refuses anything but a regular file, saying what it is.
func regularFile(path string, st os.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m.IsDir():
		what += " but a directory"
	case m&os.ModeNamedPipe != 0:
		what += " but a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		what += " but a socket"
	case m&os.ModeDevice != 0:
		what += " but a device"
	}
	return fmt.Errorf("password file %s is %s: give a file whose first line is the password", path, what)
}

// firstLine is b up to its first line break, without a trailing '\r'.
func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}
