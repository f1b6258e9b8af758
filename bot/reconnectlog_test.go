package bot

import (
	"context"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestLoginFailureSaidOnceWithUnits (issue 44 item 9): on a terminal a
// failed login was reported twice, by the console and by the log's console
// writer, the latter with a unitless retry_in=513.799673. Each failure must
// reach the person once, its delay with a unit.
func TestLoginFailureSaidOnceWithUnits(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every login fails at once
	cfg := testConfig(t, "kriegbot", addr)
	d, _ := newTestDaemon(t, cfg, addr, "heuristic", nil)
	// What a person sees on a terminal: the console (progress shown) and
	// the log's warnings, both on the screen.
	var screen lockedBuffer
	d.opt.Console = NewConsole(&screen, true, false, nil)
	d.opt.Log = zerolog.New(consoleWriter("pretty", &screen)).With().Timestamp().Logger()
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- d.Run(ctx) }()
	waitFor(t, func() bool { return strings.Count(screen.String(), "connecting to") >= 3 })
	d.HardQuit()
	<-done
	out := screen.String()
	tries := strings.Count(out, "connecting to")
	said := strings.Count(out, "cannot log in")
	if said != tries && said != tries-1 { // the last try may be cut by the quit
		t.Errorf("%d logins tried, %d reports of the failure: want one each\n%s", tries, said, out)
	}
	unitless := regexp.MustCompile(`retry_in=\S*?[0-9.]+(\x1b\[0m)?(\s|$)`)
	withUnit := regexp.MustCompile(`retry_in=\S*?[0-9.]+(ms|s|m)(\s|$)`)
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "cannot log in") {
			continue
		}
		if unitless.MatchString(line) || !withUnit.MatchString(line) {
			t.Errorf("the retry delay without its unit: %q", line)
		}
	}
}
