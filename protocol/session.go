package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ziutek/telnet"
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
		return telnet.NewConn(c)
	}
}

// SessionConfig says how to log in and behave. Zero fields take the defaults
// named in their comments.
type SessionConfig struct {
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
	Datagrams      []int // DGs to enable at login; default BotDatagrams
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

func (c *SessionConfig) fill() {
	if c.Level1 == 0 {
		c.Level1 = 5
	}
	if c.Datagrams == nil {
		c.Datagrams = BotDatagrams
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

// MoveFieldsFor returns the DG 24 fields a server sends when exactly dgs are on.
func MoveFieldsFor(dgs []int) MoveFields {
	var mf MoveFields
	for _, d := range dgs {
		switch d {
		case DGMoveAlgebraic:
			mf.Algebraic = true
		case DGMoveSmith:
			mf.Smith = true
		case DGMoveTime:
			mf.Time = true
		case DGMoveClock:
			mf.Clock = true
		case DGIsVariation:
			mf.Variation = true
		}
	}
	return mf
}

// LoginError is a DG 69 login refusal.
type LoginError struct {
	Code        int
	Explanation string
}

func (e *LoginError) Error() string {
	return fmt.Sprintf("protocol: login refused (DG 69 code %d): %s", e.Code, e.Explanation)
}

// Retryable reports whether trying again later may succeed: the handle is
// already logged in (14) or the server is full or queueing (17-20).
func (e *LoginError) Retryable() bool {
	return e.Code == 14 || e.Code >= 17 && e.Code <= 20
}

// SwitchServerError is returned when the server sends DG 120: the caller
// should reconnect to Addr with the same handle and password.
type SwitchServerError struct{ Addr string }

func (e *SwitchServerError) Error() string {
	return "protocol: server asks us to switch to " + e.Addr
}

// Errors of a session.
var (
	ErrDead         = errors.New("protocol: connection dead (no bytes from the server)")
	ErrClosed       = errors.New("protocol: session closed")
	ErrLoginTimeout = errors.New("protocol: login timed out")
)

// MessageKind is the kind of a Message.
type MessageKind uint8

// Message kinds, mirroring the Reader's events.
const (
	MsgText MessageKind = iota + 1
	MsgDatagram
	MsgUnitBegin
	MsgUnitEnd
	MsgOverflow
	MsgError
	// MsgPrompt is a login or password prompt: unterminated text ending in
	// "login:" or "password:", reported during login only.
	MsgPrompt
)

// Unit is a level-1 unit header.
type Unit struct {
	Command int
	Issuer  string
	Tag     string
}

// Message is one event of the session, with its own copies of the bytes.
type Message struct {
	Kind MessageKind
	Time time.Time
	// Text: a text line (ISO-8859-1 bytes as a string), a prompt, or the
	// reader's error.
	Text string
	// N is the datagram number; DG its decoded value, or nil with
	// DecodeErr set when it did not decode; Fields the raw fields.
	N         int
	DG        DG
	DecodeErr error
	Fields    []string
	// Unit is the innermost level-1 unit around this message (zero when
	// none), or the unit that begins or ends.
	Unit Unit
}

// Session is a logged-in client connection. Next returns what the server
// sends; Send writes commands, paced. It is safe to call Send from several
// goroutines; Next from one.
type Session struct {
	cfg        SessionConfig
	conn       Conn
	tr         *TranscriptWriter
	dec        Decoder
	handle     string
	titles     string
	msgs       chan Message
	done       chan struct{}
	closeOnce  sync.Once
	errMu      sync.Mutex
	err        error
	lastRead   atomic.Int64
	lastWrite  atomic.Int64
	loggedIn   atomic.Bool
	writeMu    sync.Mutex
	tokens     float64
	tokensTime time.Time
}

// Dial connects, logs in and sends the settings. It follows DG 120
// redirections up to MaxSwitches. On failure the error is a *LoginError,
// ErrLoginTimeout, or a connection error; the password never appears in it.
func Dial(ctx context.Context, cfg SessionConfig) (*Session, error) {
	cfg.fill()
	for switches := 0; ; switches++ {
		s, err := dialOnce(ctx, cfg)
		var sw *SwitchServerError
		if errors.As(err, &sw) && switches < cfg.MaxSwitches {
			cfg.Addr = sw.Addr
			continue
		}
		return s, err
	}
}

func dialOnce(ctx context.Context, cfg SessionConfig) (*Session, error) {
	conn, err := cfg.Dial(ctx, cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("protocol: connect %s: %w", cfg.Addr, err)
	}
	s := &Session{
		cfg:  cfg,
		conn: conn,
		dec:  Decoder{Moves: MoveFieldsFor(cfg.Datagrams), Intern: NewInterner(4096)},
		msgs: make(chan Message, 256),
		done: make(chan struct{}),
	}
	if cfg.Transcript != nil {
		s.tr = NewTranscriptWriter(cfg.Transcript, cfg.Password, cfg.Now)
		s.tr.Note("connect %s", cfg.Addr)
	}
	now := cfg.Now()
	s.lastRead.Store(now.UnixNano())
	s.lastWrite.Store(now.UnixNano())
	s.tokens = float64(cfg.Burst)
	s.tokensTime = now
	go s.readLoop()
	go s.watch()
	lctx, cancel := context.WithTimeout(ctx, cfg.LoginTimeout)
	defer cancel()
	if err := s.login(lctx); err != nil {
		s.closeWith(err)
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = ErrLoginTimeout
		}
		return nil, err
	}
	s.loggedIn.Store(true)
	for _, line := range cfg.Settings {
		if err := s.Send(line); err != nil {
			s.closeWith(err)
			return nil, err
		}
	}
	return s, nil
}

func isGuest(h string) bool {
	return h == "" || strings.EqualFold(h, "g") || strings.EqualFold(h, "guest")
}

func (s *Session) login(ctx context.Context) error {
	if err := s.waitPrompt(ctx, "login:"); err != nil {
		return err
	}
	if err := s.sendRaw(Level1Line(s.cfg.Level1), false); err != nil {
		return err
	}
	if err := s.sendRaw(Level2Line(s.cfg.Datagrams), false); err != nil {
		return err
	}
	name := s.cfg.Handle
	if isGuest(name) {
		name = "g"
	}
	pw := s.cfg.Password
	if isGuest(s.cfg.Handle) || s.cfg.PasswordPrompt {
		pw = ""
	}
	line, err := LoginLine(name, pw)
	if err != nil {
		return err
	}
	if err := s.sendRaw(line, pw != ""); err != nil {
		return err
	}
	sentPassword := pw != ""
	for {
		m, err := s.Next(ctx)
		if err != nil {
			return err
		}
		switch {
		case m.Kind == MsgDatagram && m.N == DGWhoAmI && m.DG != nil:
			w := m.DG.(WhoAmIDG)
			s.handle, s.titles = w.Name, w.Titles
			return nil
		case m.Kind == MsgDatagram && m.N == DGLoginFailed && m.DG != nil:
			lf := m.DG.(LoginFailedDG)
			if lf.Code == 5 && !sentPassword && s.cfg.Password != "" {
				if err := s.sendRaw(s.cfg.Password, true); err != nil {
					return err
				}
				sentPassword = true
				continue
			}
			return &LoginError{Code: lf.Code, Explanation: strings.TrimSpace(lf.Explanation)}
		case m.Kind == MsgDatagram && m.N == DGSwitchServers && m.DG != nil:
			sw := m.DG.(SwitchServersDG)
			host := sw.IP
			if host == "" {
				host = sw.Server
			}
			return &SwitchServerError{Addr: net.JoinHostPort(host, fmt.Sprint(sw.Port))}
		case m.Kind == MsgPrompt && m.Text == "password:" && !sentPassword && s.cfg.Password != "":
			if err := s.sendRaw(s.cfg.Password, true); err != nil {
				return err
			}
			sentPassword = true
		}
	}
}

// waitPrompt reads until a prompt ending in want.
func (s *Session) waitPrompt(ctx context.Context, want string) error {
	for {
		m, err := s.Next(ctx)
		if err != nil {
			return err
		}
		if m.Kind == MsgPrompt && m.Text == want {
			return nil
		}
	}
}

// Handle is our handle as the server gave it in DG 0 (a guest's assigned
// name, or the registered handle with the server's capitalisation).
func (s *Session) Handle() string { return s.handle }

// Titles are our titles from DG 0 ("C" for a computer account).
func (s *Session) Titles() string { return s.titles }

// MoveFields are the DG 24 fields this session enabled.
func (s *Session) MoveFields() MoveFields { return s.dec.Moves }

// Next returns the next message. When the connection ends it returns the
// reason: ErrDead, ErrClosed, io.EOF for a server close, a
// *SwitchServerError, or the read error.
func (s *Session) Next(ctx context.Context) (Message, error) {
	select {
	case m, ok := <-s.msgs:
		if ok {
			return m, nil
		}
		return Message{}, s.Err()
	case <-ctx.Done():
		return Message{}, ctx.Err()
	}
}

// Messages is the channel Next reads; it is closed when the connection ends.
func (s *Session) Messages() <-chan Message { return s.msgs }

// Done is closed when the connection has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err is why the connection ended, or nil while it lives.
func (s *Session) Err() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// Send writes one command line, waiting for the pacing bucket if the caller
// sends faster than LinesPerSecond. A line holding a line end is refused.
func (s *Session) Send(line string) error {
	if strings.ContainsAny(line, "\r\n") {
		return &CommandError{"send", line, "a command is one line"}
	}
	return s.sendRaw(line, false)
}

func (s *Session) sendRaw(line string, secret bool) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	select {
	case <-s.done:
		return s.Err()
	default:
	}
	s.pace()
	b := make([]byte, 0, len(line)+1)
	b = append(b, line...)
	b = append(b, '\n')
	if s.tr != nil {
		if secret {
			s.tr.Record(DirOut, []byte(maskSecret(line, s.cfg.Password)+"\n"))
		} else {
			s.tr.Record(DirOut, b)
		}
	}
	s.lastWrite.Store(s.cfg.Now().UnixNano())
	if _, err := s.conn.Write(b); err != nil {
		s.closeWith(fmt.Errorf("protocol: write: %w", err))
		return s.Err()
	}
	return nil
}

// maskSecret hides the password in a login line.
func maskSecret(line, pw string) string {
	if pw == "" {
		return line
	}
	return strings.ReplaceAll(line, pw, Mask)
}

// pace takes one token from the bucket, sleeping if it is empty. Called
// with writeMu held.
func (s *Session) pace() {
	now := s.cfg.Now()
	s.tokens += now.Sub(s.tokensTime).Seconds() * s.cfg.LinesPerSecond
	s.tokensTime = now
	if max := float64(s.cfg.Burst); s.tokens > max {
		s.tokens = max
	}
	if s.tokens < 1 {
		wait := time.Duration((1 - s.tokens) / s.cfg.LinesPerSecond * float64(time.Second))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-s.done:
			t.Stop()
		}
		s.tokens = 1
		s.tokensTime = s.cfg.Now()
	}
	s.tokens--
}

// Close ends the connection without logging out. To leave politely, Send
// QuitLine first.
func (s *Session) Close() error {
	s.closeWith(ErrClosed)
	return nil
}

func (s *Session) closeWith(err error) {
	s.closeOnce.Do(func() {
		s.errMu.Lock()
		s.err = err
		s.errMu.Unlock()
		if s.tr != nil {
			s.tr.Note("closed: %v", err)
		}
		close(s.done)
		s.conn.Close()
	})
}

// watch sends keep-alives and declares the connection dead after silence.
func (s *Session) watch() {
	period := time.Second
	for _, d := range []time.Duration{s.cfg.KeepAlive / 4, s.cfg.DeadAfter / 4} {
		if d > 0 && d < period {
			period = d
		}
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		now := s.cfg.Now()
		if s.cfg.DeadAfter > 0 && now.Sub(time.Unix(0, s.lastRead.Load())) >= s.cfg.DeadAfter {
			s.closeWith(ErrDead)
			return
		}
		if s.cfg.KeepAlive > 0 && s.loggedIn.Load() && now.Sub(time.Unix(0, s.lastWrite.Load())) >= s.cfg.KeepAlive {
			cmd := s.cfg.KeepAliveCommand
			if strings.Contains(cmd, "%s") {
				cmd = strings.ReplaceAll(cmd, "%s", s.handle)
			}
			s.Send(cmd)
		}
	}
}

// readLoop reads the connection, tokenizes and decodes, and hands messages
// to Next. It ends the session on a read error.
func (s *Session) readLoop() {
	defer close(s.msgs)
	var r Reader
	var units []Unit
	var tail []byte
	buf := make([]byte, 4096)
	for {
		n, err := s.conn.Read(buf)
		if n > 0 {
			now := s.cfg.Now()
			s.lastRead.Store(now.UnixNano())
			s.tr.Record(DirIn, buf[:n])
			r.Feed(buf[:n])
			for {
				ev, ok := r.Next()
				if !ok {
					break
				}
				if !s.deliver(s.message(ev, now, &units)) {
					return
				}
			}
			if !s.loggedIn.Load() {
				tail = append(tail, buf[:n]...)
				if len(tail) > 64 {
					tail = append(tail[:0], tail[len(tail)-64:]...)
				}
				if p := promptIn(tail); p != "" {
					tail = tail[:0]
					if !s.deliver(Message{Kind: MsgPrompt, Time: now, Text: p}) {
						return
					}
				}
			}
		}
		if err != nil {
			r.Flush()
			for {
				ev, ok := r.Next()
				if !ok {
					break
				}
				if !s.deliver(s.message(ev, s.cfg.Now(), &units)) {
					return
				}
			}
			if errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
				err = ErrClosed
			}
			s.closeWith(err)
			return
		}
	}
}

// promptIn reports a login or password prompt at the end of raw input.
func promptIn(tail []byte) string {
	t := bytes.ToLower(bytes.TrimRight(tail, " \t"))
	for _, p := range []string{"login:", "password:"} {
		if bytes.HasSuffix(t, []byte(p)) {
			return p
		}
	}
	return ""
}

func (s *Session) deliver(m Message) bool {
	select {
	case s.msgs <- m:
		return true
	case <-s.done:
		return false
	}
}

func (s *Session) message(ev Event, now time.Time, units *[]Unit) Message {
	m := Message{Time: now}
	if len(*units) > 0 {
		m.Unit = (*units)[len(*units)-1]
	}
	switch ev.Kind {
	case Text:
		m.Kind = MsgText
		m.Text = string(ev.Text)
	case Datagram:
		m.Kind = MsgDatagram
		m.N = ev.DG
		m.Fields = make([]string, len(ev.Fields))
		for i, f := range ev.Fields {
			m.Fields[i] = string(f)
		}
		m.DG, m.DecodeErr = s.dec.Decode(ev.DG, ev.Fields)
	case UnitBegin:
		m.Kind = MsgUnitBegin
		m.Unit = Unit{Command: ev.Command, Issuer: string(ev.Issuer), Tag: string(ev.Tag)}
		*units = append(*units, m.Unit)
	case UnitEnd:
		m.Kind = MsgUnitEnd
		if len(*units) > 0 {
			*units = (*units)[:len(*units)-1]
		}
	case Overflow:
		m.Kind = MsgOverflow
		*units = (*units)[:0]
	case Error:
		m.Kind = MsgError
		m.Text = ev.Err
	}
	return m
}
