//go:build !unix

package server

import (
	"net"
	"testing"

	"kriegbot/server/internal/wiretest"
)

// dialSmallWindow is a plain connection where socket options differ.
func dialSmallWindow(t testing.TB, addr string) *wiretest.RawClient {
	t.Helper()
	return wiretest.DialRawWith(t, net.Dialer{Timeout: wait}, addr)
}
