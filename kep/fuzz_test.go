package kep

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// FuzzParseLine feeds arbitrary lines to the parser: it must not panic, and
// what it accepts must be well formed (a legal or opponent line's
// announcement survives being written and read again).
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"kep", "isready", "stop", "quit", "illegal", "newgame white", "newgame black",
		"go wtime 180000 btime 180000 winc 1000 binc 1000", "go movetime 100 nodes 500", "go nodes -3",
		"legal", "legal tries 1", "opponent capture e4 pawn", "legal capture d5 piece check file,knight tries 2",
		"opponent check long,short", "legal check ,", "legal capture i9 piece",
		"gameover 1-0 checkmate", "gameover 1/2-1/2", "setoption name Threads value 2",
		"setoption name ModelFile value a b  c", "setoption name value", "setoption\u00a0name x value y",
		"\x00\xff\xfe", "go wtime 99999999999999", "legal tries 99999999999999999999",
		"newgame white variant berkeley_any", "newgame black variant crazykrieg", "newgame white variant x",
		"illegal impossible", "illegal nonsense", "any yes", "any no", "opponent illegal", "opponent any yes",
		"opponent any no", "legal capture d6 man enpassant", "opponent capture c3 queen drop pawn",
		"legal promotion pawncapture", "opponent trysquares e4,g4,h7 check file", "legal trysquares ,",
		"opponent drop knight", "legal enpassant", "ponderhit",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseLine(line)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("error of %d bytes: %.80q", len(err.Error()), err)
			}
			return
		}
		if int(c.Kind) >= len(kindWords) {
			t.Fatalf("kind %d", c.Kind)
		}
		fields := strings.Fields(line)
		for _, w := range c.Extra {
			found := false
			for _, f := range fields {
				found = found || f == w
			}
			if !found {
				t.Fatalf("extra word %q is not a word of %q", w, line)
			}
		}
		switch c.Kind {
		case Legal, Opponent:
			a := c.Heard
			if a.Tries < 0 || a.Tries > maxTries {
				t.Fatalf("tries %d", a.Tries)
			}
			for _, k := range a.Checks {
				if k > chess.CheckKnight {
					t.Fatalf("check kind %d", k)
				}
			}
			if a.Capture.Kind != umpire.NoCapture && a.Capture.Square >= 64 {
				t.Fatalf("capture square %d", a.Capture.Square)
			}
			// A second check kind alone is not what the parser makes.
			if a.Checks[0] == chess.NoCheck && a.Checks[1] != chess.NoCheck {
				t.Fatalf("checks %v", a.Checks)
			}
			again, err := ParseLine(strings.TrimSpace("legal " + a.String()))
			if err != nil || again.Heard != a {
				t.Fatalf("%q: %+v written as %q reads back as %+v, %v", line, a, a.String(), again.Heard, err)
			}
		case Any, OpponentAny:
			if c.Verdict != umpire.HasAny && c.Verdict != umpire.NoAny {
				t.Fatalf("%q: any answer %v", line, c.Verdict)
			}
		case Illegal:
			if c.Verdict != umpire.IllegalMove && c.Verdict != umpire.ImpossibleToAsk && c.Verdict != umpire.NonsenseMove {
				t.Fatalf("%q: refusal %v", line, c.Verdict)
			}
		case NewGame:
			if v, err := umpire.ParseVariant(c.Variant.Name); c.Variant.Name != "" && (err != nil || v != c.Variant) {
				t.Fatalf("%q: variant %+v", line, c.Variant)
			}
		case SetOption:
			if c.Name == "" || strings.TrimSpace(c.Value) != c.Value || !strings.Contains(line, c.Value) {
				t.Fatalf("%q: name %q value %q", line, c.Name, c.Value)
			}
		case Go:
			for _, d := range c.Go.Clock {
				if d < 0 {
					t.Fatalf("negative clock %v", d)
				}
			}
			if c.Go.Nodes < 0 || c.Go.MoveTime < 0 {
				t.Fatalf("limits %+v", c.Go)
			}
		}
	})
}
