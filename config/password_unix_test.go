//go:build unix

package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPasswordFileSpecial checks that a password file that is a named pipe
// (or a link to one) is refused at once instead of hanging start-up and
// "kriegbot run -check" until someone writes to it.
func TestPasswordFileSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	linkToFIFO := filepath.Join(dir, "link-to-fifo")
	private := filepath.Join(dir, "private")
	writeFile(t, private, secret+"\n", 0o600)
	linkToFile := filepath.Join(dir, "link-to-file")
	for _, l := range [][2]string{{fifo, linkToFIFO}, {private, linkToFile}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, want, wantErr string }{
		{fifo, "", "password file " + fifo + " is not a regular file but a named pipe (FIFO)"},
		{linkToFIFO, "", "is not a regular file but a named pipe (FIFO)"},
		{linkToFile, secret, ""}, // mounted secrets are often links
	} {
		c := realServer()
		c.Account.PasswordEnv = ""
		c.Account.PasswordFile = tc.path
		type result struct {
			p   string
			err error
		}
		done := make(chan result, 1)
		go func() {
			p, err := Password(c, env(nil))
			done <- result{p, err}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		select {
		case r := <-done:
			switch {
			case tc.wantErr == "" && (r.err != nil || r.p != tc.want):
				t.Errorf("%s: Password = %q, %v; want %q", tc.path, r.p, r.err, tc.want)
			case tc.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.wantErr)):
				t.Errorf("%s: error %v, want one containing %q", tc.path, r.err, tc.wantErr)
			}
		case <-ctx.Done():
			// Unblock the reader left behind, so the test binary can exit.
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Errorf("%s: Password still blocked after 10s (it opened the named pipe)", tc.path)
		}
		cancel()
	}
}
