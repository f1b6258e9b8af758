package iccclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"kriegbot/protocol"
)

// Send writes one command line, waiting for the pacing bucket if the caller
// sends faster than LinesPerSecond. A line holding a line end is refused.
func (s *Session) Send(line string) error {
	if strings.ContainsAny(line, "\r\n") {
		return &protocol.CommandError{Command: "send", Arg: line, Reason: "a command is one line"}
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
			s.tr.record(protocol.DirOut, []byte(maskSecret(line, s.cfg.Password)+"\n"))
		} else {
			s.tr.record(protocol.DirOut, b)
		}
	}
	s.lastWrite.Store(s.cfg.Now().UnixNano())
	if _, err := s.conn.Write(b); err != nil {
		s.closeWith(fmt.Errorf("iccclient: write: %w", err))
		return s.Err()
	}
	return nil
}

// maskSecret hides the password in a login line.
func maskSecret(line, pw string) string {
	if pw == "" {
		return line
	}
	return strings.ReplaceAll(line, pw, mask)
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

func (s *Session) closeWith(err error) {
	s.closeOnce.Do(func() {
		s.errMu.Lock()
		s.err = err
		s.errMu.Unlock()
		if s.tr != nil {
			s.tr.note("closed: %v", err)
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

// readLoop reads the connection, has protocol.MessageReader tokenize and
// decode it, and hands the messages, stamped with the time of the read, to
// Next. It ends the session on a read error.
func (s *Session) readLoop() {
	defer close(s.msgs)
	r := protocol.MessageReader{Decoder: protocol.Decoder{
		Moves: protocol.MoveFieldsFor(s.cfg.Datagrams), Intern: protocol.NewInterner(4096)}}
	var tail []byte
	buf := make([]byte, 4096)
	for {
		n, err := s.conn.Read(buf)
		if n > 0 {
			now := s.cfg.Now()
			s.lastRead.Store(now.UnixNano())
			s.tr.record(protocol.DirIn, buf[:n])
			r.Feed(buf[:n])
			for {
				m, ok := r.Next()
				if !ok {
					break
				}
				m.Time = now
				if !s.deliver(m) {
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
					if !s.deliver(protocol.Message{Kind: protocol.MsgPrompt, Time: now, Text: p}) {
						return
					}
				}
			}
		}
		if err != nil {
			r.Flush()
			for {
				m, ok := r.Next()
				if !ok {
					break
				}
				m.Time = s.cfg.Now()
				if !s.deliver(m) {
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

func (s *Session) deliver(m protocol.Message) bool {
	select {
	case s.msgs <- m:
		return true
	case <-s.done:
		return false
	}
}
