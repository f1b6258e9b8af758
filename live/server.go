package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Server serves the page. The zero value is not usable; use New.
type Server struct {
	mu   sync.Mutex
	snap Snapshot
	// gamesDir holds the game records (logs/games); replay pages are made
	// there, next to their record, on the first request.
	gamesDir string
	render   func(record string) ([]byte, error)
	busy     map[string]bool // replay pages being made
	// unkept are the replay pages made with an error, served for this run
	// only: not written beside the record, so that a later run makes them
	// again rather than serve a wrong page for good.
	unkept map[string][]byte
	hosts  []string // Host names served besides the listened address's
}

// New makes a server. render turns a record file into its replay page (nil:
// no replay pages); an error with a page means the page is not the game's
// replay (its re-run chose otherwise): it is shown but not kept. gamesDir is
// where the records are.
func New(gamesDir string, render func(record string) ([]byte, error)) *Server {
	return &Server{gamesDir: gamesDir, render: render, busy: map[string]bool{}, unkept: map[string][]byte{}}
}

// AllowHosts adds Host names (without a port) the page answers to besides
// the address it listens on, e.g. the public name given with -http-public.
// Call it before Serve.
func (s *Server) AllowHosts(names ...string) {
	s.mu.Lock()
	s.hosts = append(s.hosts, names...)
	s.mu.Unlock()
}

// Publish replaces the snapshot the page shows.
func (s *Server) Publish(snap Snapshot) {
	s.mu.Lock()
	s.snap = snap
	s.mu.Unlock()
}

// Snapshot returns the snapshot shown now.
func (s *Server) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// CheckAddr refuses an address that is not on loopback unless public: the
// page shows our games in progress, which an opponent must not see.
func CheckAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:8080 (%v)", err)
	}
	if public {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address: the page shows the games in progress, which an opponent must not see", host)
	}
	return nil
}

// ListenAndServe serves on addr until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends, only to requests that name ln's
// address (or a name given to AllowHosts) in their Host header; others get
// 421 Misdirected Request.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	names := s.hosts
	s.mu.Unlock()
	hs := &http.Server{Handler: newHostCheck(ln.Addr(), names, s.Handler()), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler is the page's routes: / (the page), /fragment (what it redraws),
// /state.json (the snapshot), /replay/NAME.html (a finished game's replay).
// Read-only: anything but GET and HEAD is refused.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.page)
	mux.HandleFunc("/fragment", s.fragment)
	mux.HandleFunc("/state.json", s.state)
	mux.HandleFunc("/replay/", s.replay)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	snap := s.Snapshot()
	w.Write([]byte(pageHTML(&snap)))
}

func (s *Server) fragment(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	snap := s.Snapshot()
	w.Write([]byte(fragmentHTML(&snap)))
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	snap := s.Snapshot()
	json.NewEncoder(w).Encode(&snap)
}

// replay serves a finished game's replay page, made on the first request
// (in the background: a replay re-runs every search of the game) and kept
// next to the record when it was made without an error. Only the records of
// finished games listed in the snapshot can be asked for.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/replay/"), ".html")
	record := ""
	for _, f := range s.Snapshot().Finished {
		if f.Record != "" && strings.TrimSuffix(f.Record, ".jsonl") == name {
			record = f.Record
		}
	}
	if record == "" || s.render == nil || strings.ContainsAny(name, `/\`) {
		http.NotFound(w, r)
		return
	}
	page := filepath.Join(s.gamesDir, name+".html")
	if data, err := os.ReadFile(page); err == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(data)
		return
	}
	s.mu.Lock()
	data, made := s.unkept[name]
	started := !made && !s.busy[name]
	if started {
		s.busy[name] = true
	}
	s.mu.Unlock()
	if made {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(data)
		return
	}
	if started {
		go func() {
			data, err := s.render(filepath.Join(s.gamesDir, record))
			if err == nil {
				os.WriteFile(page+".tmp", data, 0o644)
				os.Rename(page+".tmp", page)
			} else if data == nil {
				data = []byte("<!doctype html><title>replay</title><p>The replay could not be made: " + htmlEscape(err.Error()) + "</p>")
			}
			s.mu.Lock()
			if err != nil {
				s.keepUnkept(name, data)
			}
			delete(s.busy, name)
			s.mu.Unlock()
		}()
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Refresh", "3")
	fmt.Fprintf(w, "<!doctype html><title>replay %s</title><p>Making the replay of %s (every search is re-run): this page reloads itself.</p>", htmlEscape(name), htmlEscape(name))
}

// keepUnkept holds a page made with an error for this run, dropping those
// of games no longer listed (the list is bounded, so is this). s.mu is held.
func (s *Server) keepUnkept(name string, page []byte) {
	listed := map[string]bool{}
	for _, f := range s.snap.Finished {
		listed[strings.TrimSuffix(f.Record, ".jsonl")] = true
	}
	for n := range s.unkept {
		if !listed[n] {
			delete(s.unkept, n)
		}
	}
	s.unkept[name] = page
}
