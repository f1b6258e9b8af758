package match

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// TestRecords: with Records, each side of each game is written in the one
// record schema, and what each record says the side heard is what the
// match's referee told it, attempt for attempt; a set-up start, its hidden
// king and the clock are on the game line.
func TestRecords(t *testing.T) {
	c := config(t, "heuristic", "random", 2)
	c.Limits.Control = clock.Control{Base: 10 * time.Minute, Increment: 100 * time.Millisecond}
	pos, err := chess.ParseFEN("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	c.Positions, c.HiddenKing = []chess.Position{pos}, true
	c.Records = t.TempDir()
	_, _, jsonl := run(t, c)
	_, games, err := ReadGames("m.jsonl", strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(c.Records, "games", "*.jsonl"))
	if err != nil || len(files) != 4 {
		t.Fatalf("%d records (%v), want 2 games x 2 sides", len(files), err)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Read(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		g := games[rec.Game.Number]
		us := rec.Game.Us
		if rec.Game.Version != record.Version || rec.Game.Control != c.Limits.Control || rec.Game.Setup == nil ||
			rec.Game.Setup.FEN() != pos.FEN() || !rec.Game.HiddenKing || rec.Game.Seed != SideSeed(g.Result.Seed, us) {
			t.Fatalf("%s: game line read as %+v", name, rec.Game)
		}
		var heard []umpire.View
		var ours []chess.Move
		err = g.Walk("m.jsonl", func(_ int, before *chess.Position, m chess.Move, ans umpire.Answer) error {
			if before.Side() == us {
				ours = append(ours, m)
			}
			if v := ans.For(us); v.Heard {
				v.Result = "" // the record's result line says it
				heard = append(heard, v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var gotHeard []umpire.View
		var gotOurs []chess.Move
		for _, s := range rec.Steps {
			switch s.Kind {
			case record.StepAnswer:
				gotHeard = append(gotHeard, s.View)
			case record.StepAttempt:
				gotOurs = append(gotOurs, s.Move)
			}
		}
		if len(gotHeard) != len(heard) || len(gotOurs) != len(ours) {
			t.Fatalf("%s: %d answers and %d attempts, the match has %d and %d", name, len(gotHeard), len(gotOurs), len(heard), len(ours))
		}
		for i := range heard {
			if gotHeard[i] != heard[i] {
				t.Fatalf("%s: answer %d read as %+v, the referee said %+v", name, i, gotHeard[i], heard[i])
			}
		}
		for i := range ours {
			if gotOurs[i] != ours[i] {
				t.Fatalf("%s: attempt %d is %v, the match's %v", name, i, gotOurs[i], ours[i])
			}
		}
		if rec.Result == nil || rec.Result.Result != g.Result.Result || len(rec.Moves) != g.Result.Plies {
			t.Fatalf("%s: result %+v, %d moves; the match's %s in %d plies", name, rec.Result, len(rec.Moves), g.Result.Result, g.Result.Plies)
		}
	}
}
