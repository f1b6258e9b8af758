package match

import (
	"kriegbot/engine/clock"
	"strings"
	"testing"
	"time"
)

// TestSplitBudget: a player's own budget comes out of its spec; the other
// options stay; bad values name the option and the accepted form.
func TestSplitBudget(t *testing.T) {
	def := Limits{Overhead: 7 * time.Millisecond}
	for _, c := range []struct {
		spec, rest string
		own        *Limits
		err        string
	}{
		{"mcts", "mcts", nil, ""},
		{"mcts:approach=a", "mcts:approach=a", nil, ""},
		{"mcts:movetime=400ms", "mcts", &Limits{MoveTime: 400 * time.Millisecond, Overhead: def.Overhead}, ""},
		{"mcts:approach=c,tc=1+1,threads=2", "mcts:approach=c,threads=2", &Limits{Control: clock.Control{Base: time.Minute, Increment: time.Second}, Overhead: def.Overhead}, ""},
		{"mcts:nodes=5000", "mcts", &Limits{Nodes: 5000, Overhead: def.Overhead}, ""},
		{"mcts:movetime=400", "", nil, "movetime=\"400\": want a positive duration with a unit"},
		{"mcts:nodes=-3", "", nil, "nodes=\"-3\""},
		{"mcts:movetime=1s,tc=60", "", nil, "exclude each other"},
	} {
		rest, own, err := SplitBudget(c.spec, def)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || rest != c.rest || (own == nil) != (c.own == nil) || own != nil && *own != *c.own {
			t.Errorf("%s: %q %+v %v, want %q %+v", c.spec, rest, own, err, c.rest, c.own)
		}
	}
}
