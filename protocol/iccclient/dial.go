package iccclient

import (
	"context"
	"io"
	"net"
	"strings"
	"time"

	"github.com/ziutek/telnet"

	"kriegbot/protocol"
)

// Conn is the byte stream under a Session. *telnet.Conn (which answers the
// server's telnet option negotiation) and net.Conn both satisfy it, so tests
// run over net.Pipe or loopback.
type Conn interface {
	io.ReadWriteCloser
}

// Dialer opens a connection to addr ("host:port").
type Dialer func(ctx context.Context, addr string) (Conn, error)

// TelnetDialer dials TCP and wraps the connection in github.com/ziutek/telnet,
// which strips and refuses the server's telnet option negotiation. TCP
// keep-alive is on, as JudgeBot does.
func TelnetDialer() Dialer {
	return func(ctx context.Context, addr string) (Conn, error) {
		d := net.Dialer{KeepAlive: 30 * time.Second}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		return telnetConn(c), nil
	}
}

// telnetConn wraps c in github.com/ziutek/telnet, tolerating stray IAC
// bytes (see strayIAC).
func telnetConn(c net.Conn) Conn {
	t, _ := telnet.NewConn(c) // never fails: it only wraps c
	return strayIAC{t}
}

// strayIAC keeps a connection alive through a stray 0xFF (IAC) byte from
// the server. ziutek/telnet answers IAC followed by anything but GA, SB,
// IAC or an option verb with the error "unknown command: N", which the
// session took for a dead connection: one garbled byte cost a
// reconnection (and, on ICC, where a disconnection loses the game, the
// game). The library has consumed both bytes when it says so and its
// reader is intact, so the read goes on; the two bytes are lost, as
// garbage, which the codec survives.
type strayIAC struct{ *telnet.Conn }

func (c strayIAC) Read(b []byte) (int, error) {
	for {
		n, err := c.Conn.Read(b)
		if err != nil && strings.HasPrefix(err.Error(), "unknown command: ") {
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// Config says how to log in and behave. Zero fields take the defaults
// named in their comments.
type Config struct {
	Addr string // host:port
	// Handle is the account name; "" or "g" or "guest" logs in as a guest.
	Handle string
	// Password of a registered handle. It is never written to a transcript
	// or returned in an error.
	Password string
	// PasswordPrompt sends the name alone and the password only when the
	// server asks for it (DG 69 code 5 or a "password:" prompt); otherwise
	// name and password go on one line.
	PasswordPrompt bool
	Level1         int   // level1 bits; default 5 (brackets and tags)
	Datagrams      []int // DGs to enable at login; default protocol.BotDatagrams
	// Settings are command lines sent once logged in (e.g. "set-quietly
	// prompt 0", "set style 13").
	Settings []string
	// KeepAlive is how long the session may stay silent before it sends
	// KeepAliveCommand (default 50 s; negative disables).
	KeepAlive time.Duration
	// KeepAliveCommand is a cheap command that draws an answer; "%s" is
	// replaced by our handle. Default: "tell %s keep-alive" (Wohl's bots).
	KeepAliveCommand string
	// DeadAfter is how long without a byte from the server before the
	// connection is declared dead and closed (default 120 s; negative
	// disables).
	DeadAfter time.Duration
	// LoginTimeout bounds the whole login (default 30 s).
	LoginTimeout time.Duration
	// LinesPerSecond and Burst pace what we send, so the bot never floods
	// the server (defaults 10 and 20).
	LinesPerSecond float64
	Burst          int
	// MaxSwitches bounds how many DG 120 switch-server redirections a login
	// follows (default 3).
	MaxSwitches int
	// Dial opens the connection; default TelnetDialer().
	Dial Dialer
	// Transcript, when set, receives the raw bytes of both directions.
	Transcript io.Writer
	// Now is the clock; default time.Now.
	Now func() time.Time
}

func (c *Config) fill() {
	if c.Level1 == 0 {
		c.Level1 = 5
	}
	if c.Datagrams == nil {
		c.Datagrams = protocol.BotDatagrams
	}
	if c.KeepAlive == 0 {
		c.KeepAlive = 50 * time.Second
	}
	if c.KeepAliveCommand == "" {
		c.KeepAliveCommand = "tell %s keep-alive"
	}
	if c.DeadAfter == 0 {
		c.DeadAfter = 120 * time.Second
	}
	if c.LoginTimeout == 0 {
		c.LoginTimeout = 30 * time.Second
	}
	if c.LinesPerSecond == 0 {
		c.LinesPerSecond = 10
	}
	if c.Burst == 0 {
		c.Burst = 20
	}
	if c.MaxSwitches == 0 {
		c.MaxSwitches = 3
	}
	if c.Dial == nil {
		c.Dial = TelnetDialer()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}
