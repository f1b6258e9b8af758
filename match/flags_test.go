package match

import (
	"strings"
	"testing"
	"time"

	"kriegbot/engine/clock"
	"kriegbot/engine/players"
)

// TestParsePlayer: a player's own budget and ponder key come out of its
// spec, read once; the other options stay, in order; bad values name the
// spec, the key and the accepted form.
func TestParsePlayer(t *testing.T) {
	def := Limits{Overhead: 7 * time.Millisecond}
	for _, c := range []struct {
		spec, player string
		ponder       bool
		own          *Limits
		err          string
	}{
		{"mcts", "mcts", false, nil, ""},
		{"mcts:approach=a", "mcts:approach=a", false, nil, ""},
		{"mcts:movetime=400ms", "mcts", false, &Limits{MoveTime: 400 * time.Millisecond, Overhead: def.Overhead}, ""},
		{"mcts:approach=c,tc=1+1,threads=2", "mcts:approach=c,threads=2", false, &Limits{Control: clock.Control{Base: time.Minute, Increment: time.Second}, Overhead: def.Overhead}, ""},
		{"mcts:nodes=5000", "mcts", false, &Limits{Nodes: 5000, Overhead: def.Overhead}, ""},
		{"mcts:ponder=on,c=0.5", "mcts:c=0.5", true, nil, ""},
		{"mcts:ponder=off,nodes=300", "mcts", false, &Limits{Nodes: 300, Overhead: def.Overhead}, ""},
		{"mcts:movetime=400", "", false, nil, `mcts:movetime=400: movetime="400": want a positive duration with a unit`},
		{"mcts:nodes=-3", "", false, nil, `mcts:nodes=-3: nodes="-3": want a positive whole number`},
		{"mcts:tc=60+", "", false, nil, `mcts:tc=60+: tc="60+": clock`},
		{"mcts:movetime=1s,tc=60", "", false, nil, "mcts:movetime=1s,tc=60: movetime and tc exclude each other"},
		{"mcts:ponder=yes", "", false, nil, `mcts:ponder=yes: ponder="yes": want on or off`},
		{"mcts:ponder=on,ponder=off", "", false, nil, `option "ponder" given twice`},
		{"mcts:nodes=1,nodes=2", "", false, nil, `option "nodes" given twice`}, // the last one won, silently
		{"heuristic:noise=x,ponder=on", "", false, nil, `players: spec "heuristic:noise=x,ponder=on": option noise:`},
		{"alphazero:ponder=on", "", false, nil, `unknown kind "alphazero"`},
	} {
		p, err := ParsePlayer(c.spec, def)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || p.Spec.String() != c.player || p.Ponder != c.ponder || (p.Limits == nil) != (c.own == nil) || p.Limits != nil && *p.Limits != *c.own {
			t.Errorf("%s: %q ponder %v %+v %v, want %q %v %+v", c.spec, p.Spec, p.Ponder, p.Limits, err, c.player, c.ponder, c.own)
		}
	}
}

// FuzzParsePlayer: any spec gives a player or an error; a player's spec
// holds none of the match's keys and reads back as the same player spec.
func FuzzParsePlayer(f *testing.F) {
	for _, s := range []string{"mcts", "mcts:ponder=on,movetime=400ms,c=0.5", "heuristic:nodes=5,noise=3", "random:tc=60+1", "mcts:ponder=on,ponder=on", ":", "mcts:,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePlayer(s, Limits{})
		if err != nil {
			return
		}
		text := p.Spec.String()
		for _, k := range matchKeys {
			if _, ok := p.Spec.Option(k); ok || strings.Contains(text, ":"+k+"=") || strings.Contains(text, ","+k+"=") {
				t.Fatalf("%q: the player's spec %q holds the match's key %s", s, text, k)
			}
		}
		again, err := players.Parse(text, players.Kinds())
		if err != nil || again.String() != text {
			t.Fatalf("%q: the player's spec %q does not read back: %v", s, text, err)
		}
	})
}
