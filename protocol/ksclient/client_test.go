package ksclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testToken = "ksbot_0011223344556677.AbCdEfGhIjKlMnOpQrStUvWxYz_-0123"

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestMask(t *testing.T) {
	for _, in := range []string{
		`{"bot_id":"1","api_token":"` + testToken + `","message":"keep it"}`,
		`{"api_token" : "ksbot_x\"y"}`,
		"Authorization: Bearer " + testToken,
		"token " + testToken + " in a sentence",
		"Bearer abc.def",
	} {
		out := Mask(in, testToken)
		if strings.Contains(out, testToken) || strings.Contains(out, "ksbot_x") || strings.Contains(out, "abc.def") {
			t.Errorf("Mask(%q) = %q", in, out)
		}
	}
	if got := Mask(`{"message":"hello"}`, testToken); got != `{"message":"hello"}` {
		t.Errorf("Mask changed harmless text: %q", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"": 0, "2": 2 * time.Second, " 7 ": 7 * time.Second, "-3": 0, "99999": 10 * time.Minute, "soon": 0,
		now.Add(30 * time.Second).Format(http.TimeFormat): 30 * time.Second,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestClientExchanges: the token goes in the header only; the transcript
// masks it (also in a registration reply); failures are classified.
func TestClientExchanges(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		switch r.URL.Path {
		case "/auth/bots/register":
			w.WriteHeader(201)
			fmt.Fprintf(w, `{"bot_id":"b1","username":"mybot","display_name":"My Bot","api_token":%q,"message":"shown once"}`, testToken)
		case "/game/mine/active":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(429)
			io.WriteString(w, `{"detail":"slow down"}`)
		case "/bots/profile":
			w.WriteHeader(401)
			io.WriteString(w, `{"detail":"Authentication required"}`)
		case "/game/open":
			w.WriteHeader(503)
			io.WriteString(w, `{"detail":"Database unavailable"}`)
		case "/game/0123456789abcdef01234567/state":
			w.WriteHeader(404)
			io.WriteString(w, `{"error":{"code":"GAME_NOT_FOUND","message":"no"}}`)
		case "/game/0123456789abcdef01234567/events":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: connected\ndata: {\"type\":\"connected\"}\n\n: keepalive\n\nevent: shutdown\ndata: {}\n\n")
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	var tr lockedBuf
	c, err := New(Config{URL: srv.URL + "/", Token: testToken, Transcript: &tr, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reg, err := c.Register(ctx, Registration{Username: "mybot", DisplayName: "My Bot", OwnerEmail: "a@b.c", RuleVariants: []string{"wild16"}})
	if err != nil || reg.APIToken != testToken {
		t.Fatalf("register: %+v %v", reg, err)
	}
	_, err = c.Active(ctx)
	if !Retryable(err) || RetryAfter(err) != 3*time.Second || Status(err) != 429 {
		t.Errorf("429: %v retryable %v after %v", err, Retryable(err), RetryAfter(err))
	}
	c.Active(ctx) // the same reply again: written once
	if err := c.Profile(ctx, []string{"wild16"}); !Unauthorized(err) || Retryable(err) {
		t.Errorf("401: %v", err)
	}
	if _, err := c.Open(ctx); !Retryable(err) {
		t.Errorf("503: %v", err)
	}
	if _, err := c.State(ctx, "0123456789abcdef01234567"); Retryable(err) || Code(err) != "GAME_NOT_FOUND" {
		t.Errorf("404: %v", err)
	}
	if _, err := c.State(ctx, "../etc/passwd"); err == nil || Status(err) != 0 {
		t.Errorf("bad ref: %v", err)
	}
	s, err := c.Events(ctx, "0123456789abcdef01234567")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for {
		ev, err := s.Next()
		if err != nil {
			break
		}
		types = append(types, fmt.Sprint(ev.Comment, ev.Type))
	}
	s.Close()
	if strings.Join(types, ",") != "falseconnected,true,falseshutdown" {
		t.Errorf("events %v", types)
	}
	dead, _ := New(Config{URL: "http://127.0.0.1:1", Token: testToken, Timeout: time.Second})
	if _, err := dead.Active(ctx); !Retryable(err) {
		t.Errorf("refused connection: %v not retryable", err)
	}
	text := tr.String()
	if strings.Contains(text, testToken) || strings.Contains(text, testToken[20:]) {
		t.Errorf("the transcript holds the token:\n%s", text)
	}
	if strings.Count(text, `{"detail":"slow down"}`) != 1 || !strings.Contains(text, "(the same reply as before)") {
		t.Errorf("a repeated reply is written again:\n%s", text)
	}
	if !strings.Contains(text, "Authorization: Bearer ***") || !strings.Contains(text, `"api_token":"***"`) || !strings.Contains(text, "< 429") {
		t.Errorf("transcript:\n%s", text)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		if strings.HasPrefix(s, "POST /auth/bots/register") && strings.Contains(s, "Bearer") {
			t.Error("registration sent the token")
		}
		if strings.HasPrefix(s, "GET /game/mine/active") && !strings.HasSuffix(s, "Bearer "+testToken) {
			t.Errorf("no bearer token: %s", s)
		}
	}
}

// TestClientBounds: a huge reply and a slow server are bounded.
func TestClientBounds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(2 * time.Second):
			}
		}
		w.Write([]byte(`{"games":[`))
		chunk := bytes.Repeat([]byte(`{"game_id":"0123456789abcdef01234567","state":"active"},`), 1024)
		for n := 0; n < MaxBody+len(chunk); n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c, _ := New(Config{URL: srv.URL, Timeout: 300 * time.Millisecond})
	if _, err := c.Active(context.Background()); err == nil {
		t.Error("a reply over MaxBody was accepted")
	}
	if _, err := c.call(context.Background(), "GET", "/slow", nil, true); err == nil || !Retryable(err) {
		t.Errorf("slow server: %v", err)
	}
}

// TestClientPacing: whatever the caller does, requests go out at most at
// the configured rate after a burst of that many.
func TestClientPacing(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.WriteString(w, `{"games":[]}`)
	}))
	defer srv.Close()
	c, _ := New(Config{URL: srv.URL, Rate: 20})
	start := time.Now()
	for range 30 {
		if _, err := c.Active(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 400*time.Millisecond {
		t.Errorf("30 requests at 20/s (burst 20) took %v; want at least 0.5 s", took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 30 {
		c.Active(ctx) // a cancelled caller waits for nothing and sends nothing
	}
	if n.Load() != 30 {
		t.Errorf("%d requests reached the server, want 30", n.Load())
	}
}
