package match

import (
	"strings"
	"testing"
)

// gameLines returns a match file's game lines, in order.
func gameLines(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, `{"type":"game"`) {
			out = append(out, l)
		}
	}
	return out
}

func gameLinesBytes(t *testing.T, b []byte) []byte {
	return []byte(strings.Join(gameLines(t, b), "\n"))
}

func TestResumeEnd(t *testing.T) {
	game := `{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":12,"p1_score":1}`
	attempt := `{"type":"attempt","game":1,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3}`
	tests := []struct {
		name  string
		in    string
		end   int
		games int
		err   string
	}{
		{"empty", "", 0, 0, "no match line"},
		{"header cut", header[:20], 0, 0, "no match line"},
		{"header", header + "\n", len(header) + 1, 0, ""},
		{"one game", header + "\n" + game + "\n", len(header) + len(game) + 2, 1, ""},
		{"game cut", header + "\n" + game, len(header) + 1, 0, ""},
		{"attempts after", header + "\n" + game + "\n" + attempt + "\n" + attempt[:9], len(header) + len(game) + 2, 1, ""},
		{"bad kept line", header + "\n" + "nonsense\n" + game + "\n", 0, 0, "f.jsonl:2: not a JSON object"},
		{"long dropped line", header + "\n" + strings.Repeat("x", 3*maxLine), len(header) + 1, 0, ""},
	}
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	for _, tc := range tests {
		g, end, err := readResume("f.jsonl", strings.NewReader(tc.in), h)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
			}
		case err != nil || end != int64(tc.end) || len(g) != tc.games:
			t.Errorf("%s: %d games up to byte %d, %v; want %d up to %d", tc.name, len(g), end, err, tc.games, tc.end)
		}
	}
}

func FuzzReadResume(f *testing.F) {
	f.Add(header + "\n")
	f.Add(header + "\n" + `{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":12,"p1_score":1}` + "\n{\"type\":\"att")
	f.Add("{\"type\":\"game\"\n\x00")
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	f.Fuzz(func(t *testing.T, in string) {
		g, end, err := readResume("fuzz", strings.NewReader(in), h)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if end <= 0 || end > int64(len(in)) || in[end-1] != '\n' {
			t.Fatalf("end %d of %d bytes is not past a line", end, len(in))
		}
		if _, err := ReadShard("fuzz", strings.NewReader(in[:end])); err != nil || len(g) > strings.Count(in, "\n") {
			t.Fatalf("kept part does not read back: %v", err)
		}
	})
}

// TestSameMatch: players' own budgets are compared by value (two shards
// read from two files hold two pointers to equal budgets).
func TestSameMatch(t *testing.T) {
	a := MatchLine{Type: "match", P1: "mcts", P2: "mcts", Games: 4, P1Budget: &Budget{TimeControl: "-", Nodes: 8000}}
	b := a
	b.P1Budget = &Budget{TimeControl: "-", Nodes: 8000}
	if d := matchDiff(a, b); d != "" {
		t.Fatalf("equal budgets behind two pointers: not the same match (%s)", d)
	}
	b.P1Budget = &Budget{TimeControl: "-", Nodes: 2000}
	c := a
	c.P1Budget = nil
	d := a
	d.Seed = 9
	for i, x := range []MatchLine{b, c, d} {
		want := []string{`p1_budget {"tc":"-","nodes":8000} against {"tc":"-","nodes":2000}`,
			`p1_budget {"tc":"-","nodes":8000} against none`, `seed "0" against "9"`}[i]
		if got := matchDiff(a, x); got != want {
			t.Errorf("case %d: difference %q, want %q", i, got, want)
		}
	}
}
