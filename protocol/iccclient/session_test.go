package iccclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"kriegbot/protocol"
)

// script is a fake server on one end of a net.Pipe: it runs fn with a line
// reader and a writer, and records every line the client sent.
type script struct {
	mu    sync.Mutex
	lines []string
}

func (sc *script) got() []string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return append([]string(nil), sc.lines...)
}

// pipeDialer returns a Dialer whose server side runs fn.
func pipeDialer(sc *script, fn func(r *bufio.Reader, w io.Writer, read func() string)) Dialer {
	return func(ctx context.Context, addr string) (Conn, error) {
		client, server := net.Pipe()
		go func() {
			defer server.Close()
			r := bufio.NewReader(server)
			read := func() string {
				l, err := r.ReadString('\n')
				if err != nil {
					return ""
				}
				l = strings.TrimRight(l, "\r\n")
				sc.mu.Lock()
				sc.lines = append(sc.lines, l)
				sc.mu.Unlock()
				return l
			}
			fn(r, server, read)
		}()
		return client, nil
	}
}

func dg(n int, fields ...string) string { return string(protocol.AppendDatagram(nil, n, fields...)) }

// quickConfig has a login timeout that only a login that never ends
// reaches, even on a slow, loaded machine.
func quickConfig(d Dialer) Config {
	return Config{Addr: "test:5000", Dial: d, LinesPerSecond: 1000, Burst: 1000,
		KeepAlive: -1, DeadAfter: -1, LoginTimeout: time.Minute}
}

func TestLoginOneLine(t *testing.T) {
	var sc script
	d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "Welcome\r\nlogin: ")
		read() // level1
		read() // level2settings
		if l := read(); l != "kriegbot s3cret!" {
			io.WriteString(w, dg(protocol.DGLoginFailed, "9", "bad"))
			return
		}
		io.WriteString(w, dg(protocol.DGWhoAmI, "KriegBot", "C"))
		read() // settings
		io.WriteString(w, "\x19[5 *\r\nhello\r\n\x19]")
		io.ReadAll(r)
	})
	var tr bytes.Buffer
	cfg := quickConfig(d)
	cfg.Handle, cfg.Password, cfg.Transcript = "kriegbot", "s3cret!", &tr
	cfg.Settings = []string{"set-quietly prompt 0"}
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Handle() != "KriegBot" || s.Titles() != "C" {
		t.Fatalf("handle %q titles %q", s.Handle(), s.Titles())
	}
	var got []protocol.Message
	for len(got) < 3 {
		m, err := s.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if got[1].Kind != protocol.MsgText || got[1].Text != "hello" || got[1].Unit.Command != 5 || got[1].Unit.Issuer != "*" {
		t.Fatalf("messages %+v", got)
	}
	s.Close()
	lines := sc.got()
	want := []string{"level1=5", protocol.Level2Line(protocol.BotDatagrams), "kriegbot s3cret!", "set-quietly prompt 0"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", lines, want)
	}
	if strings.Contains(tr.String(), "s3cret!") {
		t.Fatalf("transcript holds the password:\n%s", tr.String())
	}
	if !strings.Contains(tr.String(), "> kriegbot "+mask) || !strings.Contains(tr.String(), `< \x19(0 KriegBot C\x19)`) {
		t.Fatalf("transcript:\n%s", tr.String())
	}
}

func TestLoginPasswordPromptFlows(t *testing.T) {
	for _, viaDG := range []bool{true, false} {
		var sc script
		d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
			io.WriteString(w, "login: ")
			read()
			read()
			read() // name
			if viaDG {
				io.WriteString(w, dg(protocol.DGLoginFailed, "5", "\"bot\" is a registered name. If it is yours, type the password."))
			} else {
				io.WriteString(w, "\"bot\" is a registered name.\r\npassword: ")
			}
			if read() != "pw" {
				return
			}
			io.WriteString(w, dg(protocol.DGWhoAmI, "bot", ""))
			io.ReadAll(r)
		})
		cfg := quickConfig(d)
		cfg.Handle, cfg.Password, cfg.PasswordPrompt = "bot", "pw", true
		s, err := Dial(context.Background(), cfg)
		if err != nil {
			t.Fatalf("viaDG=%v: %v", viaDG, err)
		}
		s.Close()
		if got := sc.got(); len(got) != 4 || got[2] != "bot" || got[3] != "pw" {
			t.Fatalf("viaDG=%v: sent %q", viaDG, got)
		}
	}
}

func TestLoginRefusals(t *testing.T) {
	for _, c := range []struct {
		code      string
		retryable bool
	}{{"9", false}, {"12", false}, {"14", true}, {"18", true}} {
		var sc script
		d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
			io.WriteString(w, "login: ")
			read()
			read()
			read()
			io.WriteString(w, dg(protocol.DGLoginFailed, c.code, "no"))
			io.ReadAll(r)
		})
		cfg := quickConfig(d)
		cfg.Handle, cfg.Password = "bot", "topsecret"
		_, err := Dial(context.Background(), cfg)
		var le *LoginError
		if !errors.As(err, &le) || le.Retryable() != c.retryable {
			t.Fatalf("code %s: err %v", c.code, err)
		}
		if strings.Contains(err.Error(), "topsecret") {
			t.Fatalf("error shows the password: %v", err)
		}
	}
}

// TestLoginTimeout runs in a synctest bubble: the login's timeout is fake
// time, so the test neither waits it nor depends on the machine's speed.
func TestLoginTimeout(t *testing.T) { synctest.Test(t, testLoginTimeout) }

func testLoginTimeout(t *testing.T) {
	var sc script
	d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		for read() != "" { // never answers
		}
	})
	cfg := quickConfig(d)
	cfg.LoginTimeout = 200 * time.Millisecond
	if _, err := Dial(context.Background(), cfg); !errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("err %v", err)
	}
}

// TestGuestLogin: with no handle the session logs in as a guest. (Checked
// apart from the timeout: what a timed-out login managed to send depends
// on the machine's speed.)
func TestGuestLogin(t *testing.T) {
	var sc script
	d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		read()
		read()
		if read() != "g" {
			return
		}
		io.WriteString(w, dg(protocol.DGWhoAmI, "guest123", ""))
		io.ReadAll(r)
	})
	s, err := Dial(context.Background(), quickConfig(d))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := sc.got(); len(got) != 3 || got[2] != "g" || s.Handle() != "guest123" {
		t.Fatalf("guest login sent %q, handle %q", got, s.Handle())
	}
}

func TestSwitchServer(t *testing.T) {
	var sc script
	calls := 0
	var addrs []string
	inner := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		read()
		read()
		read()
		calls++
		if calls == 1 {
			io.WriteString(w, dg(protocol.DGSwitchServers, "other.example", "5001", "10.0.0.2"))
		} else {
			io.WriteString(w, dg(protocol.DGWhoAmI, "bot", ""))
		}
		io.ReadAll(r)
	})
	d := func(ctx context.Context, addr string) (Conn, error) {
		addrs = append(addrs, addr)
		return inner(ctx, addr)
	}
	cfg := quickConfig(d)
	cfg.Handle = "g"
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(addrs) != 2 || addrs[1] != "10.0.0.2:5001" {
		t.Fatalf("dialled %q", addrs)
	}
}

// TestKeepAliveAndDeadConnection runs in a synctest bubble: the
// session's watcher ticks on fake time, which moves only when every
// goroutine waits, so the keep-alives and the death come whatever the
// machine's speed.
func TestKeepAliveAndDeadConnection(t *testing.T) { synctest.Test(t, testKeepAliveAndDeadConnection) }

func testKeepAliveAndDeadConnection(t *testing.T) {
	var sc script
	d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		read()
		read()
		read()
		io.WriteString(w, dg(protocol.DGWhoAmI, "bot", ""))
		for { // read keep-alives, answer nothing: the session must give up
			if read() == "" {
				return
			}
		}
	})
	cfg := quickConfig(d)
	cfg.KeepAlive, cfg.DeadAfter = 50*time.Millisecond, 400*time.Millisecond
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if _, err = s.Next(ctx); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrDead) {
		t.Fatalf("err %v, want ErrDead", err)
	}
	n := 0
	for _, l := range sc.got() {
		if l == "tell bot keep-alive" {
			n++
		}
	}
	if n < 2 {
		t.Fatalf("%d keep-alives in %q", n, sc.got())
	}
}

// TestSendPacing runs in a synctest bubble: the pacing's waits are fake
// time, measured exactly.
func TestSendPacing(t *testing.T) { synctest.Test(t, testSendPacing) }

func testSendPacing(t *testing.T) {
	var sc script
	d := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		read()
		read()
		read()
		io.WriteString(w, dg(protocol.DGWhoAmI, "bot", ""))
		io.ReadAll(r)
	})
	cfg := quickConfig(d)
	cfg.LinesPerSecond, cfg.Burst = 50, 5
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	for i := 0; i < 15; i++ { // what is left of the burst of 5, then 50 a second
		if err := s.Send("z"); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Fatalf("15 lines in %v: not paced", el)
	}
	if err := s.Send("a\nquit"); err == nil {
		t.Fatal("a line with a line end was sent")
	}
}

// TestStrayIACKeepsTheSession: a stray 0xFF (telnet IAC) from the server,
// followed by a byte that is no telnet command, used to end the session
// ("unknown command: 220" from ziutek/telnet), so one garbled byte cost a
// reconnection. The session now reads on; an escaped IAC IAC is a 0xFF.
func TestStrayIACKeepsTheSession(t *testing.T) {
	var sc script
	pipe := pipeDialer(&sc, func(r *bufio.Reader, w io.Writer, read func() string) {
		io.WriteString(w, "login: ")
		read() // level1
		read() // level2settings
		read() // name and password
		io.WriteString(w, dg(protocol.DGWhoAmI, "KriegBot", "C"))
		io.WriteString(w, "before\r\n\xff\xdcjunk\r\n\xff\xf1nop\r\nff\xff\xff\r\n"+dg(protocol.DGWhoAmI, "After", "")+"after\r\n")
		io.ReadAll(r)
	})
	d := func(ctx context.Context, addr string) (Conn, error) {
		c, err := pipe(ctx, addr)
		if err != nil {
			return nil, err
		}
		return telnetConn(c.(net.Conn)), nil
	}
	cfg := quickConfig(d)
	cfg.Handle, cfg.Password = "kriegbot", "pw"
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var texts []string
	for {
		m, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("the session ended: %v (texts so far %q)", err, texts)
		}
		if m.Kind == protocol.MsgText {
			texts = append(texts, m.Text)
		}
		if m.Kind == protocol.MsgText && m.Text == "after" {
			break
		}
	}
	if got := strings.Join(texts, "|"); !strings.Contains(got, "before|") || !strings.Contains(got, "junk|") || !strings.Contains(got, "ff\xff|") {
		t.Fatalf("texts %q", texts)
	}
}
