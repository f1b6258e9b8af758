package tourney

import (
	"strings"
	"testing"
)

func TestParseResult(t *testing.T) {
	for in, want := range map[string]Result{
		"1-0": WhiteWins, "0-1": BlackWins, "1/2-1/2": Draw, "½-½": Draw, "=": Draw,
		"+:-": WhiteForfeitWin, "-/+": BlackForfeitWin, "-:-": DoubleForfeit, "*": Pending, " 1-0 ": WhiteWins,
	} {
		got, err := ParseResult(in)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "1-1", "2-0", "win"} {
		if _, err := ParseResult(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for r := Pending; r <= DoubleForfeit; r++ {
		if got, err := ParseResult(r.String()); err != nil || got != r {
			t.Errorf("%v does not round-trip: %v %v", r, got, err)
		}
	}
}

func TestParseResultsAndApply(t *testing.T) {
	e := sixPlayerEvent(t)
	text := `# round 3 corrected
3 p6 p2 1/2-1/2

3  P1 p3   0-1
`
	lines, err := ParseResults(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := e.Apply(l); err != nil {
			t.Fatal(err)
		}
	}
	if r := e.Played[2].Games[0].Result; r != Draw {
		t.Errorf("6-2: %v", r)
	}
	if r := e.Played[2].Games[1].Result; r != BlackWins {
		t.Errorf("1-3: %v", r)
	}
	if err := e.Apply(GameLine{Round: 3, White: "p2", Black: "p6", Result: Draw}); err == nil {
		t.Error("colours reversed accepted")
	}
	_, err = ParseResults("1 a b 1-0\n2 a a 1-0\n")
	if err == nil || !strings.HasPrefix(err.Error(), "line 2:") {
		t.Errorf("error %v should name line 2", err)
	}
	for _, bad := range []string{"1 a b", "x a b 1-0", "0 a b 1-0", "1 a b 3-0", "1 a b 1-0 extra", strings.Repeat("a", MaxLine+1)} {
		if _, err := ParseGameLine(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseGameLine: no input panics; what parses formats back to a line
// that parses to the same value.
func FuzzParseGameLine(f *testing.F) {
	for _, s := range []string{"3 alice bob 1-0", "1 a b 1/2-1/2", "12 x y +:-", "", "0 a b *", "1 a b ½-½", "\t2\tp\tq\t-:-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGameLine(s)
		if err != nil {
			return
		}
		back, err := ParseGameLine(g.String())
		if err != nil || back != g {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, g, g.String(), back, err)
		}
		if _, err := ParseResults(s + "\n# x\n" + s); err != nil {
			t.Fatalf("ParseResults refused a valid line: %v", err)
		}
	})
}

// FuzzParseResult: no panics; results round-trip through String.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"1-0", "0-1", "=", "+/-", "*", "½-½", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseResult(s)
		if err != nil {
			return
		}
		if back, err := ParseResult(r.String()); err != nil || back != r {
			t.Fatalf("%q -> %v -> %v %v", s, r, back, err)
		}
	})
}
