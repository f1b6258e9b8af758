//go:build unix

package server

import (
	"net"
	"syscall"
	"testing"

	"kriegbot/server/internal/wiretest"
)

// dialSmallWindow connects with a 4 KiB receive buffer, set before the
// connection so the advertised window stays small: a client that then
// stops reading soon holds the server's writer back, whatever the
// machine's loopback buffers.
func dialSmallWindow(t testing.TB, addr string) *wiretest.RawClient {
	t.Helper()
	d := net.Dialer{Timeout: wait, Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return wiretest.DialRawWith(t, d, addr)
}
