package live

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServeChecksHost: served on loopback, the page answers the Host names
// of its own address (the IP, localhost, ::1, with its port) and refuses
// others with 421, so a DNS-rebinding page cannot read /state.json. Before
// the check, Host: evil.example:PORT got the snapshot (200).
func TestServeChecksHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	s := New(t.TempDir(), nil)
	s.Publish(sample())
	s.AllowHosts("bot.example.org")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()

	for _, tc := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, 200},
		{"localhost:" + port, 200},
		{"LOCALHOST.:" + port, 200},
		{"[::1]:" + port, 200},
		{"bot.example.org:" + port, 200}, // given to AllowHosts
		{"evil.example:" + port, 421},
		{"evil.example", 421},
		{"127.0.0.1.evil.example:" + port, 421},
		{"localhost.evil.example:" + port, 421},
		{"127.0.0.1:1", 421}, // another port
		{"127.0.0.1", 421},   // port 80
		{"192.0.2.7:" + port, 421},
	} {
		req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/state.json", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = tc.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %q: %d, want %d", tc.host, resp.StatusCode, tc.want)
		}
		if tc.want != 200 && strings.Contains(string(body), "sparring") {
			t.Errorf("Host %q: the refusal shows the snapshot", tc.host)
		}
	}
}

// TestHostAllowed: which Host headers each listened address answers.
func TestHostAllowed(t *testing.T) {
	for _, tc := range []struct {
		listen string
		names  []string
		host   string
		want   bool
	}{
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "127.0.0.2:8080", true}, // loopback IP literal: no rebinding
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", nil, "evil.example:8080", false},
		{"127.0.0.1:8080", nil, "", false},
		{"127.0.0.1:8080", nil, ":8080", false},
		{"127.0.0.1:8080", nil, "127.0.0.1:8081", false},
		{"127.0.0.1:80", nil, "127.0.0.1", true},
		{"127.0.0.1:80", nil, "localhost", true},
		{"127.0.0.1:80", nil, "evil.example", false},
		{"[::1]:8080", nil, "[::1]:8080", true},
		{"[::1]:8080", nil, "localhost:8080", true},
		{"[::1]:8080", nil, "evil.example:8080", false},
		{"192.0.2.7:8080", nil, "192.0.2.7:8080", true},
		{"192.0.2.7:8080", nil, "localhost:8080", false},
		{"192.0.2.7:8080", nil, "198.51.100.1:8080", false},
		{"192.0.2.7:8080", nil, "bot.example.org:8080", false},
		{"192.0.2.7:8080", []string{"bot.example.org"}, "bot.example.org:8080", true},
		{"192.0.2.7:8080", []string{"Bot.Example.Org"}, "BOT.example.org:8080", true},
		{"192.0.2.7:8080", []string{"bot.example.org"}, "bot.example.org:9090", false},
		{"0.0.0.0:8080", nil, "198.51.100.1:8080", true},
		{"0.0.0.0:8080", nil, "localhost:8080", true},
		{"0.0.0.0:8080", nil, "evil.example:8080", false},
		{"[::]:8080", nil, "[2001:db8::1]:8080", true},
		{"[::]:8080", nil, "evil.example:8080", false},
	} {
		addr, err := net.ResolveTCPAddr("tcp", tc.listen)
		if err != nil {
			t.Fatal(err)
		}
		if got := newHostCheck(addr, tc.names, nil).allowed(tc.host); got != tc.want {
			t.Errorf("listening on %s (names %v): Host %q allowed %v, want %v", tc.listen, tc.names, tc.host, got, tc.want)
		}
	}
}
