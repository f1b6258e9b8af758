package server

import (
	"strings"
	"testing"

	"kriegbot/server/internal/wiretest"
)

// TestGoldenTelnetBytes sends the bytes a telnet client may send besides
// plain lines: negotiation (WILL, a subnegotiation, IAC IAC), NUL bytes,
// CR, LF and LFCR line ends, a line over MaxLine. What the client gets
// back must be the bytes in testdata/telnet-bytes.golden.
func TestGoldenTelnetBytes(t *testing.T) {
	clock := wiretest.NewFakeClock()
	_, addr := startServer(t, Config{Now: clock.Now, MaxLine: 100})
	c := wiretest.DialTap(t, addr, "raw")
	c.WaitFor("login:", 1)
	raw := func(b string) {
		t.Helper()
		if _, err := c.Conn.Write([]byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	raw("\xff\xfb\x01\xff\xfd\x03g\r\n")
	c.WaitFor("Starting session as", 1)
	dates := 0
	date := func(line string) {
		t.Helper()
		raw(line)
		dates++
		c.WaitFor("Server time: ", dates)
	}
	date("date\n\r")
	date("da\x00te\r")
	date("\xff\xfa\x18\x00xterm\xff\xf0date\r\n")
	date("tell Guest0001 a\xff\xffb\r\ndate\r\n")
	date(strings.Repeat("x", 250) + "\r\ndate\r\n")
	date("\r\n\n\r\rdate\n")
	c.Send("quit")
	c.WaitFor("", 0)
	wiretest.CompareGolden(t, "telnet-bytes.golden", wiretest.GoldenTranscript(t, []*wiretest.TapClient{c}, ""), *update)
}
