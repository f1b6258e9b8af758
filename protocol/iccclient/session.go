package iccclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kriegbot/protocol"
)

// LoginError is a DG 69 login refusal.
type LoginError struct {
	Code        int
	Explanation string
}

func (e *LoginError) Error() string {
	return fmt.Sprintf("iccclient: login refused (DG 69 code %d): %s", e.Code, e.Explanation)
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
	return "iccclient: server asks us to switch to " + e.Addr
}

// Errors of a session.
var (
	ErrDead         = errors.New("iccclient: connection dead (no bytes from the server)")
	ErrClosed       = errors.New("iccclient: session closed")
	ErrLoginTimeout = errors.New("iccclient: login timed out")
)

// Session is a logged-in client connection. Next returns what the server
// sends; Send writes commands, paced. It is safe to call Send from several
// goroutines; Next from one.
type Session struct {
	cfg        Config
	conn       Conn
	tr         *transcriptWriter
	handle     string
	titles     string
	msgs       chan protocol.Message
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
func Dial(ctx context.Context, cfg Config) (*Session, error) {
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

func dialOnce(ctx context.Context, cfg Config) (*Session, error) {
	conn, err := cfg.Dial(ctx, cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("iccclient: connect %s: %w", cfg.Addr, err)
	}
	s := &Session{
		cfg:  cfg,
		conn: conn,
		msgs: make(chan protocol.Message, 256),
		done: make(chan struct{}),
	}
	if cfg.Transcript != nil {
		s.tr = newTranscriptWriter(cfg.Transcript, cfg.Password, cfg.Now)
		s.tr.note("connect %s", cfg.Addr)
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
	if err := s.sendRaw(protocol.Level1Line(s.cfg.Level1), false); err != nil {
		return err
	}
	if err := s.sendRaw(protocol.Level2Line(s.cfg.Datagrams), false); err != nil {
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
	line, err := protocol.LoginLine(name, pw)
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
		case m.Kind == protocol.MsgDatagram && m.N == protocol.DGWhoAmI && m.DG != nil:
			w := m.DG.(protocol.WhoAmIDG)
			s.handle, s.titles = w.Name, w.Titles
			return nil
		case m.Kind == protocol.MsgDatagram && m.N == protocol.DGLoginFailed && m.DG != nil:
			lf := m.DG.(protocol.LoginFailedDG)
			if lf.Code == 5 && !sentPassword && s.cfg.Password != "" {
				if err := s.sendRaw(s.cfg.Password, true); err != nil {
					return err
				}
				sentPassword = true
				continue
			}
			return &LoginError{Code: lf.Code, Explanation: strings.TrimSpace(lf.Explanation)}
		case m.Kind == protocol.MsgDatagram && m.N == protocol.DGSwitchServers && m.DG != nil:
			sw := m.DG.(protocol.SwitchServersDG)
			host := sw.IP
			if host == "" {
				host = sw.Server
			}
			return &SwitchServerError{Addr: net.JoinHostPort(host, fmt.Sprint(sw.Port))}
		case m.Kind == protocol.MsgPrompt && m.Text == "password:" && !sentPassword && s.cfg.Password != "":
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
		if m.Kind == protocol.MsgPrompt && m.Text == want {
			return nil
		}
	}
}

// Handle is our handle as the server gave it in DG 0 (a guest's assigned
// name, or the registered handle with the server's capitalisation).
func (s *Session) Handle() string { return s.handle }

// Titles are our titles from DG 0 ("C" for a computer account). No caller
// yet: kept for a daemon to check the computer title ICC asks of bots;
// TestLoginOneLine checks that the login reads it.
func (s *Session) Titles() string { return s.titles }

// Next returns the next message. When the connection ends it returns the
// reason: ErrDead, ErrClosed, io.EOF for a server close, a
// *SwitchServerError, or the read error.
func (s *Session) Next(ctx context.Context) (protocol.Message, error) {
	select {
	case m, ok := <-s.msgs:
		if ok {
			return m, nil
		}
		return protocol.Message{}, s.Err()
	case <-ctx.Done():
		return protocol.Message{}, ctx.Err()
	}
}

// Messages is the channel Next reads; it is closed when the connection ends.
func (s *Session) Messages() <-chan protocol.Message { return s.msgs }

// Err is why the connection ended, or nil while it lives.
func (s *Session) Err() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// Close ends the connection without logging out. To leave politely, Send
// QuitLine first.
func (s *Session) Close() error {
	s.closeWith(ErrClosed)
	return nil
}
