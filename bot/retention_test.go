package bot

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
)

// lineWriter hands each log line to a channel.
type lineWriter chan map[string]any

func (w lineWriter) Write(p []byte) (int, error) {
	var m map[string]any
	if err := json.Unmarshal(p, &m); err != nil {
		return 0, err
	}
	w <- m
	return len(p), nil
}

// The daemon's record keeper passes at start, then at a tick only when a
// game has finished since (or an hour has gone by), logs one line per pass
// with what it did, and stops with its context.
func TestRecordKeeper(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	old := func(rel string, age time.Duration) string {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(`{"type":"game"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfg := config.Defaults()
	cfg.Logs.Dir = dir
	gone := old("games/20260101-000000-kriegbot-g1-sparring.jsonl", 40*24*time.Hour)
	zipped := old("server/game-2.jsonl", 5*24*time.Hour)
	whole := old("transcripts/kriegbot-20260531-000000.000.txt", 24*time.Hour)
	model := old("../data/opponents/sparring.kbm", 400*24*time.Hour)

	lines := make(lineWriter, 16)
	var finished atomic.Int64
	k := newRecordKeeper(cfg, zerolog.New(lines), func() int { return int(finished.Load()) })
	k.applier.Now = func() time.Time { return now }
	tick := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.run(ctx, tick) }()

	if l := <-lines; l["message"] != cfg.Retention.Summary(dir) {
		t.Errorf("first line %v, want the policy's summary", l)
	}
	l := <-lines
	if l["message"] != "retention pass" || l["removed"] != 1.0 || l["compressed"] != 1.0 || l["removed_by_age"] != 1.0 {
		t.Errorf("first pass logged %v: want one removed by age, one compressed", l)
	}
	for path, want := range map[string]bool{gone: false, zipped: false, zipped + ".gz": true, whole: true, model: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", path, err == nil, want)
		}
	}

	// No game finished and within the hour: a tick passes nothing.
	later := old("games/20260102-000000-kriegbot-g2-sparring.jsonl", 50*24*time.Hour)
	tick <- now
	// A game finished: the next tick passes.
	finished.Store(1)
	tick <- now
	if l := <-lines; l["removed"] != 1.0 {
		t.Errorf("the pass after a game logged %v, want one removed", l)
	}
	if _, err := os.Stat(later); err == nil {
		t.Errorf("%s was kept", later)
	}
	cancel()
	<-done
	select {
	case l := <-lines:
		t.Errorf("a line more than one per pass: %v", l)
	default:
	}
}
