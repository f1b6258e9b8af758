package servecmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the command's goroutine and the
// test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeStopsWhenClosed (issue 45, item 7): serve returns on SIGTERM
// only once the server is closed: its last words written and the bots
// file saved. It used to return as soon as the listener closed, while the
// server was still closing, so that the process could exit before a
// player was told its game was aborted, or before the bots file held the
// bots' last requests.
func TestServeStopsWhenClosed(t *testing.T) {
	bots := filepath.Join(t.TempDir(), "bots.jsonl")
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Command([]string{"-addr", "127.0.0.1:0", "-http", "127.0.0.1:0", "-http-bots", bots, "-q"}, &out, &errb)
	}()
	addr := func(prefix string) string {
		deadline := time.Now().Add(30 * time.Second)
		for {
			for _, l := range strings.Split(out.String(), "\n") {
				if _, rest, ok := strings.Cut(l, prefix); ok {
					return strings.Fields(rest)[0]
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %q in %q (stderr %q)", prefix, out.String(), errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	telnet, api := addr("wild 16 server on "), addr("bot API on ")
	// The telnet door answering means the command is past its signal
	// handler's setup: SIGTERM is then caught, not fatal to the test.
	nc, err := net.DialTimeout("tcp", telnet, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(nc)
	for line := ""; !strings.Contains(line, "login:"); {
		b, err := r.ReadByte()
		if err != nil {
			t.Fatalf("no login prompt: %v", err)
		}
		line += string(b)
	}
	body := `{"username":"kilo","display_name":"Kilo","owner_email":"k@example.org","supported_rule_variants":["wild16"]}`
	resp, err := http.Post(api+"/api/auth/bots/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		Token string `json:"api_token"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	req, _ := http.NewRequest("GET", api+"/api/game/mine/active", nil)
	req.Header.Set("Authorization", "Bearer "+reg.Token)
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("an authenticated request: %v %v", resp, err)
	}
	resp.Body.Close()
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	data, _ := os.ReadFile(bots)
	if !strings.Contains(string(data), `"username":"kilo"`) || strings.Contains(string(data), `"last_seen":"0001-01-01T00:00:00Z"`) {
		t.Fatalf("when serve returned, the bots file held %q: want kilo and its last request", data)
	}
}
