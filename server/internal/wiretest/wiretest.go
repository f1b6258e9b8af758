package wiretest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/protocol/iccclient"

	"github.com/rs/zerolog"
)

// Wait bounds every wait for something that must happen: only a server
// that never does it fails, even on a slow, loaded machine (a passing test
// never waits this long).
const Wait = 30 * time.Second

// RawClient is a raw TCP client for robustness tests. It keeps what it
// has read past the last match, so consecutive expects see every byte.
type RawClient struct {
	T       testing.TB
	Conn    net.Conn
	Reader  *bufio.Reader
	Pending string
}

func DialRaw(t testing.TB, addr string) *RawClient {
	t.Helper()
	return DialRawWith(t, net.Dialer{Timeout: Wait}, addr)
}

func DialRawWith(t testing.TB, d net.Dialer, addr string) *RawClient {
	t.Helper()
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &RawClient{T: t, Conn: nc, Reader: bufio.NewReader(nc)}
}

func (c *RawClient) Send(s string) {
	c.T.Helper()
	c.Conn.SetWriteDeadline(time.Now().Add(Wait))
	if _, err := c.Conn.Write([]byte(s)); err != nil {
		c.T.Fatalf("write: %v", err)
	}
}

// Expect reads until want appears and returns the text up to the end of
// the line holding it; the rest stays pending.
func (c *RawClient) Expect(want string, timeout time.Duration) string {
	c.T.Helper()
	c.Conn.SetReadDeadline(time.Now().Add(timeout))
	buf := make([]byte, 4096)
	for {
		if i := strings.Index(c.Pending, want); i >= 0 {
			end := i + len(want)
			if nl := strings.IndexByte(c.Pending[end:], '\n'); nl >= 0 {
				end += nl + 1
			} else if !strings.HasSuffix(want, ":") {
				// Wait a little for the rest of the line (the server
				// writes whole lines: it is normally there already).
				c.Conn.SetReadDeadline(time.Now().Add(2 * time.Second))
				n, _ := c.Reader.Read(buf)
				c.Pending += string(buf[:n])
				if nl := strings.IndexByte(c.Pending[end:], '\n'); nl >= 0 {
					end += nl + 1
				} else {
					end = len(c.Pending)
				}
			}
			out := c.Pending[:end]
			c.Pending = c.Pending[end:]
			return out
		}
		n, err := c.Reader.Read(buf)
		c.Pending += string(buf[:n])
		if err != nil && !strings.Contains(c.Pending, want) {
			c.T.Fatalf("waiting for %q: %v; got %q", want, err, Tail(c.Pending, 400))
		}
	}
}

func Tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// LoginGuest logs a raw text-mode client in as a guest.
func (c *RawClient) LoginGuest() {
	c.T.Helper()
	c.Expect("login:", Wait)
	c.Send("g\r\n")
	c.Expect("Starting session as", Wait)
}

// ExpectAny reads until one of wants appears and returns its index and
// the text up to the end of its line.
func (c *RawClient) ExpectAny(timeout time.Duration, wants ...string) (int, string) {
	c.T.Helper()
	c.Conn.SetReadDeadline(time.Now().Add(timeout))
	buf := make([]byte, 4096)
	for {
		best, at := -1, len(c.Pending)
		for i, w := range wants {
			if j := strings.Index(c.Pending, w); j >= 0 && j < at {
				if nl := strings.IndexByte(c.Pending[j:], '\n'); nl >= 0 {
					best, at = i, j
				}
			}
		}
		if best >= 0 {
			end := at + strings.IndexByte(c.Pending[at:], '\n') + 1
			out := c.Pending[:end]
			c.Pending = c.Pending[end:]
			return best, out
		}
		n, err := c.Reader.Read(buf)
		c.Pending += string(buf[:n])
		if err != nil {
			c.T.Fatalf("waiting for %q: %v; got %q", wants, err, Tail(c.Pending, 400))
		}
	}
}

// FakeClock is the server's clock in the golden tests: it moves only when
// the test moves it, so the clocks and dates on the wire are the same on
// every run. It starts in the future so that deadlines the server derives
// from it (login and idle timeouts) lie ahead of the real clock.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func NewFakeClock() *FakeClock {
	return &FakeClock{now: time.Date(2031, time.March, 14, 15, 9, 26, 0, time.UTC)}
}

func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *FakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// TapClient is a raw TCP client that keeps every byte it receives.
type TapClient struct {
	T    testing.TB
	Name string
	Conn net.Conn

	mu     sync.Mutex
	got    []byte
	eof    bool
	signal chan struct{} // a send after each read
}

func DialTap(t testing.TB, addr, name string) *TapClient {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, Wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &TapClient{T: t, Name: name, Conn: nc, signal: make(chan struct{}, 1)}
	go c.readLoop()
	return c
}

func (c *TapClient) readLoop() {
	buf := make([]byte, 4096)
	for {
		n, err := c.Conn.Read(buf)
		c.mu.Lock()
		c.got = append(c.got, buf[:n]...)
		c.eof = err != nil
		c.mu.Unlock()
		select {
		case c.signal <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (c *TapClient) Send(line string) {
	c.T.Helper()
	c.Conn.SetWriteDeadline(time.Now().Add(Wait))
	if _, err := c.Conn.Write([]byte(line + "\r\n")); err != nil {
		c.T.Fatalf("%s: write: %v", c.Name, err)
	}
}

// WaitFor waits until what c received holds want n times in all, or the
// connection ended when n is 0.
func (c *TapClient) WaitFor(want string, n int) {
	c.T.Helper()
	deadline := time.NewTimer(Wait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		done := n > 0 && bytes.Count(c.got, []byte(want)) >= n || n == 0 && c.eof
		eof, got := c.eof, string(c.got)
		c.mu.Unlock()
		if done {
			return
		}
		if eof {
			c.T.Fatalf("%s: connection ended waiting for %q (%d); got %q", c.Name, want, n, Tail(got, 600))
		}
		select {
		case <-c.signal:
		case <-deadline.C:
			c.T.Fatalf("%s: waiting for %q (%d); got %q", c.Name, want, n, Tail(got, 600))
		}
	}
}

func (c *TapClient) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.got)
}

// Session drives tap clients one command at a time. After each command,
// its sender and then every other client still connected runs "date" and
// the test waits for each answer in turn: a client's lines are handled in
// order and each command's output to everybody is queued before the next
// line is read, so once the sender's "date" is answered the command has
// run, once every other "date" is answered all it caused has arrived, and
// each client's bytes come in one order only.
type Session struct {
	T       testing.TB
	Clients []*TapClient        // in the order of the barrier and the transcript
	Gone    map[*TapClient]bool // clients that left
	dates   map[*TapClient]int
}

// NewSession starts a session of clients (more may join: append to
// Clients).
func NewSession(t testing.TB, clients ...*TapClient) *Session {
	return &Session{T: t, Clients: clients, Gone: map[*TapClient]bool{}, dates: map[*TapClient]int{}}
}

func (s *Session) Barrier(first *TapClient) {
	s.T.Helper()
	order := []*TapClient{first}
	for _, c := range s.Clients {
		if c != first {
			order = append(order, c)
		}
	}
	for _, c := range order {
		if c == nil || s.Gone[c] {
			continue
		}
		c.Send("date")
		s.dates[c]++
		c.WaitFor("Server time: ", s.dates[c])
	}
}

// Run sends line from c, waits for want on c (when not empty) and then
// for the barrier.
func (s *Session) Run(c *TapClient, line, want string) {
	s.T.Helper()
	c.Send(line)
	if want != "" {
		c.WaitFor(want, 1)
	}
	s.Barrier(c)
}

func (s *Session) Quit(c *TapClient) {
	s.T.Helper()
	c.Send("quit")
	c.WaitFor("", 0)
	s.Gone[c] = true
	s.Barrier(nil)
}

// CompareGolden compares got with testdata/name, or writes it with -update.
func CompareGolden(t *testing.T, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-200, 0)
	t.Fatalf("%s: bytes differ from offset %d of %d (want %d bytes)\ngot:  %q\nwant: %q", path, i, len(got), len(want),
		got[from:min(i+200, len(got))], want[from:min(i+200, len(want))])
}

// GoldenTranscript joins the clients' bytes, each under a header with its
// length, and the files of dir, so one golden file holds the whole run.
func GoldenTranscript(t testing.TB, clients []*TapClient, dir string) []byte {
	var out bytes.Buffer
	for _, c := range clients {
		b := c.Bytes()
		fmt.Fprintf(&out, "==== client %s: %d bytes ====\n", c.Name, len(b))
		out.Write(b)
		out.WriteString("\n")
	}
	if dir == "" {
		return out.Bytes()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "==== file %s: %d bytes ====\n", e.Name(), len(b))
		out.Write(b)
		out.WriteString("\n")
	}
	return out.Bytes()
}

// LogTo is a server logger that hands each line's message to f: the
// tests that read what the server logs.
func LogTo(f func(msg string)) zerolog.Logger { return zerolog.New(messageWriter(f)) }

// messageWriter calls itself with the message of each JSON log line.
type messageWriter func(msg string)

func (w messageWriter) Write(p []byte) (int, error) {
	var line struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(p, &line); err != nil {
		return 0, err
	}
	w(line.Message)
	return len(p), nil
}

// PlainDial connects an iccclient session with a plain TCP dialer (the
// server sends no telnet negotiation), so tests also see what a raw
// client sees.
func PlainDial(ctx context.Context, addr string) (iccclient.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// GuestHandle logs c in as a guest after the lines in pre, and returns its
// handle.
func (c *RawClient) GuestHandle(pre string) string {
	c.T.Helper()
	c.Expect("login:", Wait)
	c.Send(pre + "g\r\n")
	out := c.Expect("Starting session as", Wait)
	return strings.Fields(out[strings.Index(out, "Starting session as")+len("Starting session as"):])[0]
}
