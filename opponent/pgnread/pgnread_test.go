package pgnread

import (
	"errors"
	"io"
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

// readAll returns the games read and the skips, failing on a fatal error.
func readAll(t testing.TB, text string, lim Limits) ([]*Game, []*SkipError) {
	t.Helper()
	r := NewReader(strings.NewReader(text), "t.pgn", lim)
	var games []*Game
	var skips []*SkipError
	for {
		g, err := r.Next()
		var se *SkipError
		switch {
		case err == nil:
			games = append(games, g)
		case errors.As(err, &se):
			skips = append(skips, se)
		case errors.Is(err, io.EOF):
			return games, skips
		default:
			t.Fatalf("fatal error: %v", err)
		}
	}
}

// iccSample is the ICC wild 16 export of protocol/testdata/transcripts, with the
// elided middle replaced by a short legal line.
const iccSample = `[Event "ICC w16 1 0"]
[Site "Internet Chess Club"]
[Date "1999.12.12"]
[White "dyscr33t"]
[Black "Tortoise"]
[Result "0-1"]
[ICCResult "White checkmated"]
[WhiteElo "1977"]
[BlackElo "1653"]
[Time "23:59:56"]

1. g4 Nh6 2. g5 g6 3. gxh6 Bxh6 4. Nc3 Bg7 5. f3 Bxc3 6. dxc3 e5 7. e4 Qh4#
{White checkmated}
0-1
`

const specialMoves = `[Event "special"]
[White "a"]
[Black "b"]
[Result "*"]

1. e4 d5 2. e5 f5 3. exf6 {en passant} gxf6 4. Nf3 Bh6 5. Bc4 Nc6 6. O-O Qd6
7. d4 Bd7 8. Nc3 O-O-O 9. a4 ( 9. a3 a6 ) 9... e5 $1 10. a5 e4 11. a6 exf3
12. axb7+ Kxb7 *

[Event "promotion"]
[Result "*"]

1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Bd7 5. bxa8=Q *
`

func TestReadGood(t *testing.T) {
	games, skips := readAll(t, iccSample+"\n"+specialMoves, Limits{})
	if len(skips) != 0 || len(games) != 3 {
		t.Fatalf("games %d skips %v", len(games), skips)
	}
	g := games[0]
	if g.Line != 1 || g.White != "dyscr33t" || g.Black != "Tortoise" || g.Result != "0-1" || len(g.Moves) != 14 {
		t.Errorf("first game: line %d %q %q %q %d plies", g.Line, g.White, g.Black, g.Result, len(g.Moves))
	}
	h := games[1]
	if h.Line != 16 || len(h.Moves) != 24 {
		t.Fatalf("second game: line %d, %d plies (want line 16, 24 plies)", h.Line, len(h.Moves))
	}
	if p := games[2].Moves; len(p) != 9 || p[8].String() != "b7a8q" {
		t.Errorf("promotion game: %v", p)
	}
	// The main line is kept, the variation dropped; castling, en passant and
	// promotion come through as our moves.
	want := map[int]string{4: "e5f6", 10: "e1g1", 15: "e8c8", 16: "a2a4", 22: "a6b7"}
	for ply, uci := range want {
		if got := h.Moves[ply].String(); got != uci {
			t.Errorf("ply %d: %s, want %s", ply, got, uci)
		}
	}
	pos := chess.StartPosition()
	for _, m := range h.Moves {
		if !pos.IsLegal(m) {
			t.Fatalf("%s not legal", m)
		}
		pos.Make(m)
	}
}

func TestReadSkips(t *testing.T) {
	good := "[Event \"ok\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n"
	tests := []struct {
		name  string
		game  string
		want  string // substring of the skip reason
		lines int    // lines the broken game takes
	}{
		{"illegal move", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n", "PGN", 5},
		{"garbage movetext", "[Event \"x\"]\n[Result \"*\"]\n\n1. zz9 ?? 2. @@ *\n\n", "PGN", 5},
		{"broken header", "[Event \"x\n[Result \"*\"]\n\n1. e4 *\n\n", "PGN", 5},
		{"set-up position", "[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[Result \"*\"]\n\n1. Rh2 *\n\n", "set-up position", 6},
		{"no moves", "[Event \"x\"]\n[Result \"*\"]\n\n*\n\n", "no moves", 5},
		{"variations too deep", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 " + strings.Repeat("( 1. d4 ", 40) + strings.Repeat(")", 40) + " e5 *\n\n", "nested 40 deep, more than 32", 5},
		{"too long", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {" + strings.Repeat("x", 5000) + "} e5 *\n\n", "longer than", 5},
		{"too long line without newline breaks", "[Event \"x\"]\n[Result \"*\"]\n\n" + strings.Repeat("1. e4 e5 ", 20000) + "*\n\n", "longer than", 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := good + tc.game + good
			games, skips := readAll(t, text, Limits{MaxGameBytes: 4096})
			if len(games) != 2 || len(skips) != 1 {
				t.Fatalf("games %d skips %v, want 2 games and 1 skip", len(games), skips)
			}
			if !strings.Contains(skips[0].Reason, tc.want) || skips[0].Line != 6 {
				t.Errorf("skip %v, want line 6 and %q", skips[0], tc.want)
			}
			if !strings.HasPrefix(skips[0].Error(), "t.pgn:6: game skipped: ") {
				t.Errorf("message %q does not name the place", skips[0].Error())
			}
			if games[1].Line != 6+tc.lines {
				t.Errorf("game after the broken one starts at line %d, want %d", games[1].Line, 6+tc.lines)
			}
		})
	}
}

func TestReadPlyLimit(t *testing.T) {
	games, skips := readAll(t, specialMoves, Limits{MaxPlies: 10})
	if len(games) != 1 || len(skips) != 1 || !strings.Contains(skips[0].Reason, "24 plies, more than 10") {
		t.Fatalf("games %d skips %v", len(games), skips)
	}
}

func TestReadOddLayouts(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		games int
		skips int
	}{
		{"empty", "", 0, 0},
		{"blank lines", "\n\n  \n", 0, 0},
		{"crlf", strings.ReplaceAll(iccSample, "\n", "\r\n"), 1, 0},
		{"no tags", "1. e4 e5 2. Nf3 Nc6 *\n", 1, 0},
		{"no final newline", strings.TrimRight(iccSample, "\n"), 1, 0},
		{"tag-like line inside a comment", "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {a comment\n[not a tag]\n} e5 *\n", 1, 0},
		{"escape line", "% produced by a tool\n" + iccSample, 1, 0},
		{"standard start as FEN tag", "[Event \"a\"]\n[FEN \"" + chess.StartFEN + "\"]\n[Result \"*\"]\n\n1. e4 *\n", 1, 0},
		{"rest-of-line comment with brace", "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 ; {unclosed\ne5 *\n\n" + iccSample, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games, skips := readAll(t, tc.text, Limits{})
			if len(games) != tc.games || len(skips) != tc.skips {
				t.Fatalf("games %d skips %v, want %d games", len(games), skips, tc.games)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	_, err := NewReader(failingReader{}, "x.pgn", Limits{}).Next()
	if err == nil || !strings.Contains(err.Error(), "x.pgn:1: disk on fire") {
		t.Fatalf("error %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add(iccSample)
	f.Add(specialMoves)
	f.Add("[Event \"x\n1. e4 {")
	f.Add("1. e4 e5 2. Ke3 *\n[Event \"y\"]\n1. d4 *")
	f.Add("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. Rh2 *")
	f.Add("((((( 1. e4 ))) $$ ;;; }{ *")
	f.Fuzz(func(t *testing.T, text string) {
		// Odd lengths go through the parallel pipeline.
		r := NewReader(strings.NewReader(text), "f.pgn", Limits{MaxGameBytes: 1 << 12, Workers: 1 + len(text)%2, SetUp: len(text)%3 == 0})
		defer r.Close()
		for range len(text) + 2 { // each call consumes at least one line
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var se *SkipError
			if err != nil && !errors.As(err, &se) {
				t.Fatalf("fatal error on string input: %v", err)
			}
			if g != nil {
				pos := chess.StartPosition()
				if fen, ok := g.Tags["FEN"]; ok {
					var err error
					if pos, err = chess.ParseFEN(fen); err != nil {
						t.Fatalf("game at line %d read from a bad FEN %q: %v", g.Line, fen, err)
					}
				}
				for _, m := range g.Moves {
					if !pos.IsLegal(m) {
						t.Fatalf("game at line %d: %s not legal", g.Line, m)
					}
					pos.Make(m)
				}
			}
		}
		t.Fatal("reader did not reach the end")
	})
}

// TestParallelSameAsSequential reads a mix of good and broken games with
// one and with several workers: the same games and skips, in the same order.
func TestParallelSameAsSequential(t *testing.T) {
	var sb strings.Builder
	broken := []string{
		"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n",
		"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {" + strings.Repeat("x", 5000) + "} e5 *\n\n",
		"[Event \"x\"]\n[Result \"*\"]\n\n*\n\n",
	}
	for i := range 60 {
		sb.WriteString(iccSample + "\n")
		if i%7 == 0 {
			sb.WriteString(broken[i%len(broken)])
		}
		if i%5 == 0 {
			sb.WriteString(specialMoves + "\n")
		}
	}
	text := sb.String()
	seqGames, seqSkips := readAll(t, text, Limits{MaxGameBytes: 4096})
	for _, w := range []int{2, 3, 8} {
		games, skips := readAll(t, text, Limits{MaxGameBytes: 4096, Workers: w})
		if len(games) != len(seqGames) || len(skips) != len(seqSkips) {
			t.Fatalf("workers %d: %d games %d skips, sequential %d and %d", w, len(games), len(skips), len(seqGames), len(seqSkips))
		}
		for i := range games {
			if games[i].Line != seqGames[i].Line || len(games[i].Moves) != len(seqGames[i].Moves) {
				t.Fatalf("workers %d: game %d differs", w, i)
			}
		}
		for i := range skips {
			if *skips[i] != *seqSkips[i] {
				t.Fatalf("workers %d: skip %d: %v, sequential %v", w, i, skips[i], seqSkips[i])
			}
		}
	}
	if len(seqSkips) == 0 || len(seqGames) < 60 {
		t.Fatalf("test input too tame: %d games %d skips", len(seqGames), len(seqSkips))
	}
	// Abandoning a parallel reader early and closing it does not hang.
	r := NewReader(strings.NewReader(text), "t.pgn", Limits{Workers: 2})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	r.Close()
	// After the end, Next keeps answering io.EOF.
	r = NewReader(strings.NewReader(iccSample), "t.pgn", Limits{Workers: 2})
	r.Next()
	for range 2 {
		if _, err := r.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the end: %v", err)
		}
	}
}
