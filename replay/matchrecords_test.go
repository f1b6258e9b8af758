package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestMatchRecordsReplay: the records a match writes with -records, one
// per side and game in the daemon's record schema, replay exactly as the
// daemon's do: held to -nodes, and on a clock (their searches' sizes are
// in them), with a pondering player and one of two trees.
func TestMatchRecordsReplay(t *testing.T) {
	for _, limit := range [][]string{{"-nodes", "150"}, {"-movetime", "3ms"}} {
		dir := t.TempDir()
		args := append([]string{"-p1", "mcts:mem=8,ponder=on", "-p2", "mcts:mem=8,threads=2", "-games", "2", "-maxplies", "40",
			"-concurrency", "1", "-seed", "3", "-records", dir}, limit...)
		runMatch(t, args)
		files, err := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
		if err != nil || len(files) != 4 {
			t.Fatalf("%v: %d records (%v), want 4", limit, len(files), err)
		}
		for _, name := range files {
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := ReadRecord(f, name)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), rec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
				t.Errorf("%v: %s: %s, first at line %d", limit, filepath.Base(name), Summary(res), res.FirstDiffering)
			}
		}
	}
}
