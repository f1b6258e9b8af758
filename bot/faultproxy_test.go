package bot

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultProxy sits between one daemon and the server, like proxy
// (fault_test.go), and can change its faults while connections run: a lag
// that can be set at any time, a stall (nothing forwarded either way for a
// while, the bytes kept in order), bytes injected into the server→client
// stream between two chunks (garbage, an oversize line), and cuts. The
// accept times are kept, so that a test can tell when the daemon came back
// after a cut.
type faultProxy struct {
	ln     net.Listener
	target string
	lag    atomic.Int64 // nanoseconds, each way
	stall  atomic.Int64 // UnixNano until which nothing is forwarded
	mu     sync.Mutex
	links  []*faultLink
	accept []time.Time
}

// faultLink is one connection through the proxy.
type faultLink struct {
	c, s   net.Conn
	inject chan []byte // written to c between two chunks from s
}

func startFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.cut() })
	return p
}

func (p *faultProxy) addr() string { return p.ln.Addr().String() }

func (p *faultProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil { // the server is down (a restart): the daemon retries
			c.Close()
			continue
		}
		l := &faultLink{c: c, s: s, inject: make(chan []byte, 16)}
		p.mu.Lock()
		p.links = append(p.links, l)
		p.accept = append(p.accept, time.Now())
		p.mu.Unlock()
		go p.pump(c, s, nil, nil)
		go p.pump(s, c, l.inject, func() { p.forget(l) })
	}
}

// pump copies src to dst in order, each chunk held until lag after it was
// read and while the proxy is stalled; injected bytes go out between chunks.
// ended, if set, is called when dst can take no more.
func (p *faultProxy) pump(src, dst net.Conn, inject <-chan []byte, ended func()) {
	type chunk struct {
		at time.Time
		b  []byte
	}
	ch := make(chan chunk, 4096)
	go func() {
		defer dst.Close()
		defer src.Close()
		if ended != nil {
			defer ended()
		}
		for {
			var b []byte
			select {
			case c, ok := <-ch:
				if !ok {
					return
				}
				time.Sleep(time.Until(c.at))
				b = c.b
			case b = <-inject:
			}
			p.waitStall()
			if _, err := dst.Write(b); err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			ch <- chunk{time.Now().Add(time.Duration(p.lag.Load())), append([]byte(nil), buf[:n]...)}
		}
		if err != nil {
			close(ch)
			return
		}
	}
}

func (p *faultProxy) waitStall() {
	for {
		until := time.Unix(0, p.stall.Load())
		if !time.Now().Before(until) {
			return
		}
		time.Sleep(time.Until(until))
	}
}

// setLag sets the delay of every chunk from now on, each way.
func (p *faultProxy) setLag(d time.Duration) { p.lag.Store(int64(d)) }

// stallFor stops all forwarding for d from now.
func (p *faultProxy) stallFor(d time.Duration) { p.stall.Store(time.Now().Add(d).UnixNano()) }

// injectToClient queues b for the server→client stream of every current
// connection; it reports how many connections got it.
func (p *faultProxy) injectToClient(b []byte) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.links {
		select {
		case l.inject <- b:
			n++
		default:
		}
	}
	return n
}

// forget drops a link that ended (the daemon or the server closed it):
// injections go to live links only, and a dead link's queue of up to 16
// injected 1 MiB lines is not kept for the rest of the soak (in a 100-game
// run they were 12 of the 26 MiB of heap after the games).
func (p *faultProxy) forget(l *faultLink) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.links {
		if x == l {
			p.links = append(p.links[:i], p.links[i+1:]...)
			return
		}
	}
}

// cut closes every connection through the proxy (a network failure).
func (p *faultProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.links {
		l.c.Close()
		l.s.Close()
	}
	p.links = nil
}

// acceptedAfter returns the first connection accepted after t, or the zero
// time.
func (p *faultProxy) acceptedAfter(t time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range p.accept {
		if a.After(t) {
			return a
		}
	}
	return time.Time{}
}
