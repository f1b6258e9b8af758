package server

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/engine/umpire"
	"kriegbot/protocol/iccclient"
)

// wait bounds every wait for something that must happen: only a server
// that never does it fails, even on a slow, loaded machine (a passing test
// never waits this long).
const wait = 30 * time.Second

// startServer runs a server on a loopback port for one test.
func startServer(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	if cfg.Rules == (umpire.Rules{}) {
		cfg.Rules = umpire.Olympiad() // random games end by the draw rules
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

func testAccounts(t testing.TB, pw map[string]string) *Accounts {
	t.Helper()
	a, err := NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// plainDial connects with a plain TCP dialer (the server sends no telnet
// negotiation), so tests also see what a raw client sees.
func plainDial(ctx context.Context, addr string) (iccclient.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

func dialSession(t testing.TB, addr, handle, password string) *iccclient.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	s, err := iccclient.Dial(ctx, iccclient.Config{
		Addr: addr, Handle: handle, Password: password, Dial: plainDial,
		LinesPerSecond: 5000, Burst: 5000, KeepAlive: -1, DeadAfter: -1,
	})
	if err != nil {
		t.Fatalf("login %s: %v", handle, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rawClient is a raw TCP client for robustness tests. It keeps what it
// has read past the last match, so consecutive expects see every byte.
type rawClient struct {
	t       testing.TB
	nc      net.Conn
	r       *bufio.Reader
	pending string
}

func dialRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	return dialRawWith(t, net.Dialer{Timeout: wait}, addr)
}

func dialRawWith(t testing.TB, d net.Dialer, addr string) *rawClient {
	t.Helper()
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &rawClient{t: t, nc: nc, r: bufio.NewReader(nc)}
}

func (c *rawClient) send(s string) {
	c.t.Helper()
	c.nc.SetWriteDeadline(time.Now().Add(wait))
	if _, err := c.nc.Write([]byte(s)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// expect reads until want appears and returns the text up to the end of
// the line holding it; the rest stays pending.
func (c *rawClient) expect(want string, timeout time.Duration) string {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(timeout))
	buf := make([]byte, 4096)
	for {
		if i := strings.Index(c.pending, want); i >= 0 {
			end := i + len(want)
			if nl := strings.IndexByte(c.pending[end:], '\n'); nl >= 0 {
				end += nl + 1
			} else if !strings.HasSuffix(want, ":") {
				// Wait a little for the rest of the line (the server
				// writes whole lines: it is normally there already).
				c.nc.SetReadDeadline(time.Now().Add(2 * time.Second))
				n, _ := c.r.Read(buf)
				c.pending += string(buf[:n])
				if nl := strings.IndexByte(c.pending[end:], '\n'); nl >= 0 {
					end += nl + 1
				} else {
					end = len(c.pending)
				}
			}
			out := c.pending[:end]
			c.pending = c.pending[end:]
			return out
		}
		n, err := c.r.Read(buf)
		c.pending += string(buf[:n])
		if err != nil && !strings.Contains(c.pending, want) {
			c.t.Fatalf("waiting for %q: %v; got %q", want, err, tail(c.pending, 400))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// loginGuest logs a raw text-mode client in as a guest.
func (c *rawClient) loginGuest() {
	c.t.Helper()
	c.expect("login:", wait)
	c.send("g\r\n")
	c.expect("Starting session as", wait)
}
