package httpdoor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/server"
)

// registerBot registers name at base from any goroutine (no t.Fatal):
// the status, or an error.
func registerBot(base, name string) (int, error) {
	body, _ := json.Marshal(map[string]any{"username": name, "display_name": name + " bot",
		"owner_email": "owner@example.org", "supported_rule_variants": []string{"wild16"}})
	hc := &http.Client{Timeout: wait}
	resp, err := hc.Post(base+"/auth/bots/register", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// heldWrites holds up the bots file's writes: each write signals entered
// and waits for release, then writes for real.
type heldWrites struct {
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	n       int
}

func holdBotWrites(s *house) *heldWrites {
	h := &heldWrites{entered: make(chan struct{}, 100), release: make(chan struct{})}
	s.Lock()
	s.door.saver.write = func(name string, data []byte) error {
		h.mu.Lock()
		h.n++
		h.mu.Unlock()
		h.entered <- struct{}{}
		<-h.release
		return writeFileAtomic(name, data)
	}
	s.Unlock()
	return h
}

func (h *heldWrites) writes() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// TestBotsFileWrittenOffTheLock: while the bots file is being written
// (held up here, as a slow disk or a large file would), the server's lock
// is free: telnet players and other requests go on. The file used to be
// rewritten whole under the lock at every registration.
func TestBotsFileWrittenOffTheLock(t *testing.T) {
	s, _, base := startHTTP(t, server.Config{}, Config{TokenFile: t.TempDir() + "/bots.jsonl"})
	h := holdBotWrites(s)
	done := make(chan error, 1)
	go func() {
		st, err := registerBot(base, "kilo")
		if err == nil && st != 201 {
			err = fmt.Errorf("status %d", st)
		}
		done <- err
	}()
	<-h.entered
	free := make(chan struct{})
	go func() { s.Lock(); _ = s.GamesFinished(); s.Unlock(); close(free) }() // the table's lock
	select {
	case <-free:
	case <-time.After(wait):
		close(h.release)
		t.Fatal("the server's lock is held while the bots file is written")
	}
	select {
	case err := <-done:
		t.Fatalf("the registration answered (%v) before its bot was in the file", err)
	default:
	}
	close(h.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestBotsFileCoalesces: the registrations made while a write is under
// way share the next write, and every one of them is in the file when
// its answer comes.
func TestBotsFileCoalesces(t *testing.T) {
	file := t.TempDir() + "/bots.jsonl"
	s, _, base := startHTTP(t, server.Config{}, Config{TokenFile: file})
	h := holdBotWrites(s)
	const n = 10
	errs := make(chan error, n)
	reg := func(i int) {
		st, err := registerBot(base, fmt.Sprintf("bot%02d", i))
		if err == nil && st != 201 {
			err = fmt.Errorf("bot%02d: status %d", i, st)
		}
		errs <- err
	}
	go reg(0)
	<-h.entered // the first write is under way
	for i := 1; i < n; i++ {
		go reg(i)
	}
	asked := func() uint64 { s.Lock(); defer s.Unlock(); return s.door.saver.asked }
	for deadline := time.Now().Add(wait); asked() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d saves asked for, want %d", asked(), n)
		}
	}
	close(h.release)
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if w := h.writes(); w != 2 {
		t.Errorf("%d writes for %d registrations, want 2 (one under way, one for the rest)", w, n)
	}
	data, _ := os.ReadFile(file)
	for i := range n {
		if !strings.Contains(string(data), fmt.Sprintf(`"username":"bot%02d"`, i)) {
			t.Errorf("bot%02d is not in the file:\n%s", i, data)
		}
	}
}

// TestBotsFileAtClose: every registration, a profile change and the
// bots' last requests are in the file once Close returns, and a new
// server reads it back whole.
func TestBotsFileAtClose(t *testing.T) {
	file := t.TempDir() + "/bots.jsonl"
	s, _, base := startHTTP(t, server.Config{}, Config{TokenFile: file})
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, err := registerBot(base, fmt.Sprintf("bot%02d", i)); err != nil || st != 201 {
				errs <- fmt.Errorf("bot%02d: %d %v", i, st, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c := newAPIClient(t, base)
	c.register("kilo")
	c.call("POST", "/bots/profile", map[string]any{"supported_rule_variants": []string{"wild16", "cincinnati"}}, 200, nil)
	s.Close()
	s2, _, _ := startHTTP(t, server.Config{}, Config{TokenFile: file})
	s2.Lock()
	defer s2.Unlock()
	if len(s2.door.bots) != n+1 {
		t.Errorf("%d bots read back, want %d", len(s2.door.bots), n+1)
	}
	k := s2.door.bots["kilo"]
	if k == nil || strings.Join(k.Variants, ",") != "wild16,cincinnati" || k.LastSeen.IsZero() {
		t.Errorf("kilo read back as %+v", k)
	}
}
