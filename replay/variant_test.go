package replay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestVariantMatchesReplay: in every variant of the site, a match's
// records (-records) and its file (-jsonl, through Game.SideRecord) replay
// with no differing choice, and the answers a side's record holds are,
// view for view, what the umpire told it (the record's fields round-trip
// every announcement: Any? and its answer, public refusals, drops, the
// pawn news).
func TestVariantMatchesReplay(t *testing.T) {
	for _, v := range umpire.Variants() {
		if v.IsWild16() {
			continue // the other tests' matches
		}
		t.Run(v.Name, func(t *testing.T) {
			dir := t.TempDir()
			jsonl := filepath.Join(dir, "m.jsonl")
			p1, p2 := "heuristic", "random"
			if v.Name == "english" || v.Name == "crazykrieg" {
				p1, p2 = "mcts:mem=8", "heuristic"
			}
			args := []string{"-p1", p1, "-p2", p2, "-games", "2", "-nodes", "60", "-maxplies", "60", "-concurrency", "1",
				"-seed", "5", "-rules", v.Name, "-records", dir, "-jsonl", jsonl}
			runMatch(t, args)
			for game := range 2 {
				g := readMatchGame(t, jsonl, game)
				if g.Header.Variant != v.Name || g.Result.Variant != v.Name {
					t.Fatalf("match file names variant %q (game line %q), want %q", g.Header.Variant, g.Result.Variant, v.Name)
				}
				for _, us := range []chess.Color{chess.White, chess.Black} {
					side, err := g.SideRecord(jsonl, us, 0)
					if err != nil {
						t.Fatal(err)
					}
					files, err := filepath.Glob(filepath.Join(dir, "games", fmt.Sprintf("*-%s-g%d-*.jsonl", us, game)))
					if err != nil || len(files) != 1 {
						t.Fatalf("game %d %v: records %v (%v)", game, us, files, err)
					}
					f, err := os.Open(files[0])
					if err != nil {
						t.Fatal(err)
					}
					rec, err := ReadRecord(f, files[0])
					f.Close()
					if err != nil {
						t.Fatal(err)
					}
					if rec.Game.Rules.Variant != v {
						t.Fatalf("%s: variant %+v, want %+v", files[0], rec.Game.Rules.Variant, v)
					}
					got, want := answers(rec), answers(side)
					if len(got) != len(want) {
						t.Fatalf("%s: %d answers read back, the umpire gave %d", files[0], len(got), len(want))
					}
					for i := range got {
						if !reflect.DeepEqual(got[i], want[i]) {
							t.Fatalf("%s: answer %d read back as %+v, the umpire's %+v", files[0], i, got[i], want[i])
						}
					}
					for _, r := range []*Record{rec, side} {
						res, err := Run(context.Background(), r, Options{})
						if err != nil {
							t.Fatal(err)
						}
						if res.Attempts == 0 || res.Differing != 0 {
							t.Errorf("game %d %v (%s): %s", game, us, r.Name, Summary(res))
						}
					}
				}
			}
		})
	}
}

// answers are the views of a record's answer steps, without the result
// (a record's result line holds it).
func answers(r *Record) []umpire.View {
	var out []umpire.View
	for _, s := range r.Steps {
		if s.Kind == StepAnswer {
			v := s.View
			v.Result = ""
			out = append(out, v)
		}
	}
	return out
}
