package server

import (
	"bytes"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/server/telnet"
)

type loginState uint8

const (
	stLogin    loginState = iota // waiting for level1=, level2settings= or the name
	stPassword                   // a registered name was given alone
	stOnline
)

// Client is one telnet connection. Fields below the "guarded by s.mu" comment
// are guarded by the server mutex; the output queue by outMu.
type Client struct {
	s    *Server
	nc   net.Conn
	host string

	// Output: sendRaw appends to outBuf, the writer takes it whole. queued
	// counts the bytes not yet written (outBuf and the writer's chunk).
	outMu     sync.Mutex
	outBuf    []byte
	queued    atomic.Int64
	wake      chan struct{} // capacity 1: there is output
	closeOnce sync.Once
	done      chan struct{}
	why       string // why the server dropped the client; set before done closes

	// guarded by s.mu
	state      loginState
	pending    string // handle waiting for its password
	handle     string
	titles     string
	guest      bool
	level1     int
	dgs        [256]bool
	style      int
	prompt     bool
	game       *Game
	lastGame   *Game     // the game it played last, kept once over for "moves"
	lastActive time.Time // the last command line, login, or end of a game
	budget     float64   // bytes its commands may still send to others
	budgetAt   time.Time // when budget was last topped up
	warnedAt   time.Time // when it was last told it is throttled
}

func newClient(s *Server, nc net.Conn) *Client {
	return &Client{
		s:      s,
		nc:     nc,
		host:   HostOf(nc.RemoteAddr()),
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		prompt: true,
		style:  1,
		budget: float64(s.cfg.FanoutBurst),
	}
}

func (c *Client) dgOn(n int) bool { return n >= 0 && n < len(c.dgs) && c.dgs[n] }

func (c *Client) moveFields() protocol.MoveFields {
	return protocol.MoveFields{
		Algebraic: c.dgOn(protocol.DGMoveAlgebraic), Smith: c.dgOn(protocol.DGMoveSmith),
		Time: c.dgOn(protocol.DGMoveTime), Clock: c.dgOn(protocol.DGMoveClock),
		Variation: c.dgOn(protocol.DGIsVariation),
	}
}

// sendRaw queues b for the writer without blocking. The queue is bounded
// in bytes (MaxOutput): a client that lets it fill is not reading, and is
// dropped rather than slow the others down. Output that others' commands
// would add to a congested client is held back before it gets here (see
// congested), so only a client's own commands and games can fill its queue.
func (c *Client) sendRaw(b []byte) {
	if len(b) == 0 || c.closed() {
		return
	}
	c.outMu.Lock()
	if n := c.queued.Load(); n+int64(len(b)) > int64(c.s.cfg.MaxOutput) {
		c.outMu.Unlock()
		c.drop(fmt.Sprintf("output overflow (%d bytes unread)", n))
		return
	}
	c.outBuf = append(c.outBuf, b...)
	c.queued.Add(int64(len(b)))
	c.outMu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// congested reports whether half of c's output queue is taken: output
// that other clients' commands would send it (tells, seek ads, challenges)
// is then held back, so that nobody's flood can fill c's queue and get c
// dropped.
func (c *Client) congested() bool {
	return c.queued.Load() > int64(c.s.cfg.MaxOutput/2)
}

func (c *Client) closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close ends the connection: the reader stops at once, the writer sends
// what is queued (for at most a fraction of a second) and closes the socket.
func (c *Client) close() { c.shut("") }

// drop closes the connection for a reason the log tells, once.
func (c *Client) drop(why string) { c.shut(why) }

func (c *Client) shut(why string) {
	c.closeOnce.Do(func() {
		if why != "" {
			c.why = why
			c.s.note().Msgf("drop %s: %s", c.nc.RemoteAddr(), why)
		}
		close(c.done)
		// A write blocked on a client that does not read ends soon; the
		// writer gives what is left the same short time.
		c.nc.SetWriteDeadline(time.Now().Add(lastWords))
		if cr, ok := c.nc.(interface{ CloseRead() error }); ok {
			cr.CloseRead()
		} else {
			c.nc.Close()
		}
	})
}

// writeChunk bounds one write, so that a slow reader gets its deadline per
// 16 KiB, not per queue. A reading client has WriteWait per piece; once the
// connection is closing, what is left gets lastWords in all.
const (
	writeChunk = 16 << 10
	lastWords  = 200 * time.Millisecond
)

// WriteWait is the time one write to a client may take, on every door
// (a telnet piece, an event stream's frame).
const WriteWait = 30 * time.Second

func (c *Client) writeLoop() {
	defer c.s.wg.Done()
	defer c.nc.Close()
	write := func(b []byte) error {
		for len(b) > 0 {
			n := min(len(b), writeChunk)
			piece := b[:n]
			if bytes.IndexByte(piece, 0xff) >= 0 { // telnet: a data 0xFF is doubled
				piece = bytes.ReplaceAll(piece, []byte{0xff}, []byte{0xff, 0xff})
			}
			if !c.closed() {
				c.nc.SetWriteDeadline(time.Now().Add(WriteWait))
				if c.closed() { // closed meanwhile: keep its short deadline
					c.nc.SetWriteDeadline(time.Now().Add(lastWords))
				}
			}
			_, err := c.nc.Write(piece)
			c.queued.Add(-int64(n))
			b = b[n:]
			if err != nil {
				c.queued.Add(-int64(len(b)))
				return err
			}
		}
		return nil
	}
	take := func(spare []byte) []byte {
		c.outMu.Lock()
		defer c.outMu.Unlock()
		chunk := c.outBuf
		if cap(spare) > 4*writeChunk {
			spare = nil // let a burst's buffer go
		}
		c.outBuf = spare[:0]
		return chunk
	}
	var chunk []byte
	for {
		select {
		case <-c.wake:
			chunk = take(chunk)
			if err := write(chunk); err != nil {
				if !c.closed() {
					c.drop("write: " + err.Error())
				}
				return
			}
		case <-c.done:
			// Say what is left, briefly, then stop.
			write(take(nil))
			return
		}
	}
}

// readLoop assembles lines (bounded) from the connection, strips telnet
// negotiation, and hands each line to the server.
func (c *Client) readLoop() {
	defer c.s.wg.Done()
	reason := "closed"
	defer func() {
		c.close()
		if c.why != "" { // dropped by the server; c.why is set before done closes
			reason = "dropped: " + c.why
		}
		c.s.dropped(c, reason)
	}()
	start := c.s.cfg.Now()
	buf := make([]byte, 4096)
	lines := telnet.NewLineReader(c.s.cfg.MaxLine)
	handle := func(line []byte) bool {
		if !c.s.telnet.handleLine(c, line) {
			reason = "quit"
			return false
		}
		return !c.closed() // dropped: the rest of its input is not read
	}
	tooLong := func() { c.sendRaw([]byte("Your line was too long and has been ignored.\r\n")) }
	for {
		c.nc.SetReadDeadline(c.readDeadline(start))
		n, err := c.nc.Read(buf)
		if !lines.Feed(buf[:n], handle, tooLong) {
			return
		}
		if err != nil {
			select {
			case <-c.done:
				return // closed by the server
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				if d := c.readDeadline(start); d.IsZero() || d.After(time.Now()) {
					continue // a game began, or a command came, since the deadline was set
				}
				reason = "timeout"
				c.sendRaw([]byte("\r\n**** Auto-logout: idle or login too slow. ****\r\n"))
			} else {
				reason = err.Error()
			}
			return
		}
	}
}

// readDeadline is when c is logged out for silence: LoginTimeout after
// connecting until it has logged in; then IdleTimeout after its last
// command line (bytes that do not finish a line do not count, so a trickle
// cannot hold the connection forever); never in a game, where its clock is
// the limit. Zero means none.
func (c *Client) readDeadline(start time.Time) time.Time {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.state != stOnline {
		return start.Add(c.s.cfg.LoginTimeout)
	}
	if c.game != nil || c.s.cfg.IdleTimeout < 0 {
		return time.Time{}
	}
	return c.lastActive.Add(c.s.cfg.IdleTimeout)
}

// events collects the output of one command (or one timer event) per
// client, and sends each client's share as one level-1 unit, or followed by
// a prompt for text-mode clients.
type Events struct {
	s      *Server
	cn     int
	issuer *Client
	tag    string
	order  []*Client
	hangup bool // the command ended the session (quit)
	charge bool // what it sends to others is paid from the issuer's budget
	out    map[*Client][]byte
}

func (s *Server) newEvents() *Events {
	return &Events{s: s, out: map[*Client][]byte{}}
}

func (ev *Events) buf(c *Client) []byte {
	b, ok := ev.out[c]
	if !ok {
		ev.order = append(ev.order, c)
	}
	return b
}

// text queues one line for c.
func (ev *Events) text(c *Client, line string) {
	if c == nil {
		return
	}
	b := ev.buf(c)
	b = append(b, line...)
	ev.out[c] = append(b, '\r', '\n')
}

// dg queues a datagram for c if c enabled it.
func (ev *Events) dg(c *Client, n int, fields ...string) {
	if c == nil || !c.dgOn(n) {
		return
	}
	ev.out[c] = protocol.AppendDatagram(ev.buf(c), n, fields...)
}

// touch makes sure c gets a (possibly empty) unit or prompt.
func (ev *Events) touch(c *Client) {
	if c != nil {
		ev.out[c] = ev.buf(c)
	}
}

func (ev *Events) flush() {
	cost := 0 // the most sent to any one client but the issuer
	for _, c := range ev.order {
		body := ev.out[c]
		var b []byte
		if c.level1 > 0 && c.state == stOnline {
			issuer, tag := "$server$", ""
			if ev.issuer == c {
				issuer, tag = "*", ev.tag
			} else if ev.issuer != nil && ev.issuer.handle != "" {
				issuer = ev.issuer.handle
			}
			b = protocol.AppendUnitBegin(make([]byte, 0, len(body)+32), ev.cn, issuer, tag)
			b = append(b, body...)
			b = protocol.AppendUnitEnd(b)
		} else {
			b = body
			if c.state == stOnline && c.prompt {
				b = append(b, "aics% "...)
			}
		}
		if c != ev.issuer {
			cost = max(cost, len(b))
		}
		c.sendRaw(b)
	}
	if ev.charge && ev.issuer != nil {
		ev.issuer.budget -= float64(cost)
	}
	ev.order, ev.out = nil, map[*Client][]byte{}
}

// boardText draws c's own men only, as a Kriegspiel player sees the board.
func boardText(pos *chess.Position, own chess.Color) []string {
	lines := make([]string, 0, 10)
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	files := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if own == chess.Black {
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
		files = []int{7, 6, 5, 4, 3, 2, 1, 0}
	}
	for _, r := range ranks {
		row := []byte{byte('1' + r), ' ', ' '}
		for _, f := range files {
			sq := chess.NewSquare(f, r)
			p := pos.PieceAt(sq)
			ch := byte('.')
			if p != chess.NoPiece && p.Color() == own {
				ch = p.Letter()
			}
			row = append(row, ch, ' ')
		}
		lines = append(lines, string(bytes.TrimRight(row, " ")))
	}
	foot := []byte("   ")
	for _, f := range files {
		foot = append(foot, byte('a'+f), ' ')
	}
	return append(lines, string(bytes.TrimRight(foot, " ")))
}
