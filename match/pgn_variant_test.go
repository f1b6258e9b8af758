package match

import (
	"errors"
	"io"
	"strings"
	"testing"

	"kriegbot/engine/clock"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/pgnread"
)

// TestVariantPGNIsPlainPGN: in every variant the match's PGN names the
// variant (Event and RuleVariant, never wild 16), and an ordinary PGN
// reader that knows nothing of Kriegspiel (our own, as pgn-extract) reads
// every game through: "Any?" and the refusals are comments, and a
// crazykrieg game's moves from its first drop on are one comment.
func TestVariantPGNIsPlainPGN(t *testing.T) {
	for _, v := range umpire.Variants() {
		if v.IsWild16() {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			c := config(t, "heuristic", "random", 2)
			c.Rules = umpire.Site(v)
			c.Rules.MaxPlies = 120
			c.Concurrency = 1
			c.PGNHeader.Event = EventName(clock.Control{}, v.Name)
			_, pgn, _ := run(t, c)
			r := pgnread.NewReader(strings.NewReader(pgn), v.Name+".pgn", pgnread.Limits{})
			games := 0
			for {
				g, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%v\n%.1500s", err, pgn)
				}
				games++
				if g.Tags["Event"] != "kriegbot "+v.Name || g.Tags["Variant"] != "Kriegspiel" || g.Tags["RuleVariant"] != v.Name {
					t.Errorf("tags %v", g.Tags)
				}
			}
			if games != 2 {
				t.Fatalf("%d games read", games)
			}
			if strings.Contains(pgn, "w16") || strings.Contains(pgn, "wild") {
				t.Errorf("a %s PGN says wild 16:\n%.600s", v.Name, pgn)
			}
			if v.AskAny && !strings.Contains(pgn, "any: ") {
				t.Errorf("no Any? in the PGN:\n%.600s", pgn)
			}
		})
	}
}

// TestEventName: wild 16 keeps ICC's style, another variant is named.
func TestEventName(t *testing.T) {
	c := clock.Control{Base: 60e9, Increment: 1e9}
	for _, tc := range []struct{ variant, want string }{
		{"", "kriegbot w16 1 1"}, {"wild16", "kriegbot w16 1 1"}, {"berkeley_any", "kriegbot berkeley_any 1 1"},
	} {
		if got := EventName(c, tc.variant); got != tc.want {
			t.Errorf("EventName(%q) = %q, want %q", tc.variant, got, tc.want)
		}
	}
	if got := EventName(clock.Control{}, "rand"); got != "kriegbot rand" {
		t.Errorf("untimed rand: %q", got)
	}
}
