package match

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"kriegbot/opponent/pgnread"
)

func TestParsePositions(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // FENs
		err      string
	}{
		{"fen", "8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1\n", []string{"8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1"}, ""},
		{"epd with ops", `8/8/8/3k4/8/7P/5K2/8 w - - id "kpk #7"; bm Kg3;` + "\n", []string{"8/8/8/3k4/8/7P/5K2/8 w - - 0 1"}, ""},
		{"fen counters kept", "8/8/8/3Q4/6k1/8/5K2/8 b - - 12 40", []string{"8/8/8/3Q4/6k1/8/5K2/8 b - - 12 40"}, ""},
		{"comments and blanks", "# drills\n\n  \n8/8/8/3Q4/6k1/8/5K2/8 w - - # KQK\n\t# end\n", []string{"8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1"}, ""},
		{"crlf", "8/8/8/3Q4/6k1/8/5K2/8 w - -\r\nQ7/8/8/2K5/8/2k5/8/8 w - -\r\n", []string{"8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1", "Q7/8/8/2K5/8/2k5/8/8 w - - 0 1"}, ""},
		{"empty", "# nothing\n\n", nil, "f.epd: no positions"},
		{"few fields", "8/8/8/3Q4/6k1/8/5K2/8 w\n", nil, "f.epd:1: want a FEN"},
		{"bad board", "# x\n8/8/8/3Q4/6k1/8/5K2 w - -\n", nil, "f.epd:2:"},
		{"one counter", "8/8/8/3Q4/6k1/8/5K2/8 w - - 0\n", nil, "f.epd:1: a FEN has both move counters"},
		{"trailing", "8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1 x\n", nil, `f.epd:1: unexpected "x"`},
		{"no king", "8/8/8/3Q4/8/8/5K2/8 w - -\n", nil, "f.epd:1:"},
		{"side not to move in check", "8/8/8/3Q4/3k4/8/5K2/8 w - -\n", nil, "f.epd:1:"},
		{"stalemate", "k7/8/1Q6/8/8/8/8/K7 b - -\n", nil, "f.epd:1: k7/8/1Q6/8/8/8/8/K7 b - - 0 1: the side to move has no legal move"},
		{"bare kings", "k7/8/8/8/8/8/8/K7 w - -\n", nil, "f.epd:1: k7/8/8/8/8/8/8/K7 w - - 0 1: neither side can mate"},
		{"long line", strings.Repeat("x", maxPositionLine+10), nil, "f.epd:1: line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := ParsePositions("f.epd", strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want one starting %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range pos {
				got = append(got, pos[i].FEN())
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParsePositions(f *testing.F) {
	f.Add("8/8/8/3Q4/6k1/8/5K2/8 w - - 0 1\n")
	f.Add(`8/8/8/3k4/8/7P/5K2/8 w - - id "kpk #7";` + "\n# c\n")
	f.Add("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	f.Add("k7/8/1Q6/8/8/8/8/K7 b - -")
	f.Add("8/8/8 w - - 1")
	f.Fuzz(func(t *testing.T, in string) {
		pos, err := ParsePositions("fuzz", strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error %q does not name the place", err)
			}
			return
		}
		// Every position read is one a game can start from, and its FEN
		// reads back to the same position.
		for i := range pos {
			if !pos[i].HasLegalMove() {
				t.Fatalf("position %d has no move", i)
			}
			back, err := ParsePositions("again", strings.NewReader(pos[i].FEN()))
			if err != nil || back[0].FEN() != pos[i].FEN() {
				t.Fatalf("%s does not read back: %v", pos[i].FEN(), err)
			}
		}
	})
}

// TestMatchFromPositions plays drills: each position once with each colour
// assignment, the records carry the start position, and the PGN reads back.
func TestMatchFromPositions(t *testing.T) {
	pos, err := ParsePositions("t", strings.NewReader("8/8/8/3Q4/6k1/8/5K2/8 w - -\n8/8/8/3k4/8/7P/5K2/8 b - - 0 30\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := config(t, "heuristic", "random", 4)
	c.Rules.MaxPlies = 60
	c.Positions = pos
	_, pgn, jsonl := run(t, c)
	sh, err := ReadShard("t.jsonl", strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	if sh.Header.Positions != 2 {
		t.Errorf("header positions %d, want 2", sh.Header.Positions)
	}
	for i, g := range sh.Games {
		if want := pos[i/2].FEN(); g.FEN != want {
			t.Errorf("game %d: FEN %q, want %q", i, g.FEN, want)
		}
	}
	if sh.Games[0].P1 != "white" || sh.Games[1].P1 != "black" {
		t.Errorf("colours do not alternate: %s, %s", sh.Games[0].P1, sh.Games[1].P1)
	}
	rd := pgnread.NewReader(strings.NewReader(pgn), "t.pgn", pgnread.Limits{SetUp: true})
	n := 0
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("game %d: %v", n, err)
		}
		if g.Tags["SetUp"] != "1" || g.Tags["FEN"] != pos[n/2].FEN() {
			t.Errorf("game %d: SetUp %q FEN %q", n, g.Tags["SetUp"], g.Tags["FEN"])
		}
		if len(g.Moves) != sh.Games[n].Plies {
			t.Errorf("game %d: PGN has %d moves, want %d", n, len(g.Moves), sh.Games[n].Plies)
		}
		n++
	}
	if n != 4 {
		t.Fatalf("read %d games back, want 4", n)
	}
}
