//go:build !unix

package server

import (
	"net"
	"testing"
)

// dialSmallWindow is a plain connection where socket options differ.
func dialSmallWindow(t testing.TB, addr string) *rawClient {
	t.Helper()
	return dialRawWith(t, net.Dialer{Timeout: wait}, addr)
}
