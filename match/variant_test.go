package match

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestVariantMatch: a crazykrieg match names its variant on the match and
// game lines, writes "Any?" and drops as attempts that its reader walks
// through the umpire again (every answer checked), and its PGN shows them.
func TestVariantMatch(t *testing.T) {
	v, err := umpire.ParseVariant("crazykrieg")
	if err != nil {
		t.Fatal(err)
	}
	c := config(t, "heuristic", "random", 4)
	c.Rules = umpire.Site(v)
	c.Rules.MaxPlies = 200
	sum, pgn, jsonl := run(t, c)
	if sum.Tally.N() != 4 {
		t.Fatalf("%d games", sum.Tally.N())
	}
	h, games, err := ReadGames("m.jsonl", strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	if h.Variant != "crazykrieg" || h.Rules != "ks" {
		t.Fatalf("match line: rules %q variant %q", h.Rules, h.Variant)
	}
	var asks, drops int
	for _, g := range games {
		if g.Result.Variant != "crazykrieg" {
			t.Fatalf("game %d: variant %q", g.Result.Game, g.Result.Variant)
		}
		err := g.Walk("m.jsonl", func(_ int, _ *chess.Position, m chess.Move, a umpire.Answer) error {
			switch {
			case m == chess.NullMove:
				asks++
			case umpire.IsDrop(m) && a.Legal:
				drops++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if asks == 0 || drops == 0 {
		t.Fatalf("%d asks, %d drops walked: the variant was not played", asks, drops)
	}
	if !strings.Contains(pgn, "any:") || !strings.Contains(pgn, "@") {
		t.Errorf("the PGN shows no Any? or drop:\n%.600s", pgn)
	}
	// A game line that disagrees with the match line is refused.
	bad := strings.Replace(jsonl, `"variant":"crazykrieg","end_fen"`, `"variant":"rand","end_fen"`, 1)
	if _, _, err := ReadGames("m.jsonl", strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "variant") {
		t.Errorf("a game line of another variant: %v", err)
	}
}
