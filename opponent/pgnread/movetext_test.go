package pgnread

import (
	"errors"
	"io"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/internal/pgnout"
)

// tokens renders every token of text as "tag Name=value", "move SAN@line"
// or "result R", and the error that ends it, if any.
func tokens(text string) (out []string, err error) {
	t := newTokenizer([]byte(text), 1)
	for range len(text) + 1 { // each token consumes at least one byte
		tok, err := t.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch tok.kind {
		case tagPair:
			out = append(out, "tag "+tok.name+"="+tok.value)
		case sanMove:
			out = append(out, "move "+tok.value+"@"+itoa(tok.line))
		case gameResult:
			out = append(out, "result "+tok.value)
		}
	}
	return out, errors.New("tokenizer does not reach the end")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestTokenizer(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // tokens joined by " | "
	}{
		{"tags and moves", "[Event \"a b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0", "tag Event=a b | tag Result=1-0 | move e4@4 | move e5@4 | result 1-0"},
		{"escapes in a tag value", `[White "a \"quoted\" \\ name"]`, `tag White=a "quoted" \ name`},
		{"blanks inside a tag", "[ White\t \"x\" ]", "tag White=x"},
		{"move numbers without spaces", "1.e4 e5 2.Nf3 2...Nc6 *", "move e4@1 | move e5@1 | move Nf3@1 | move Nc6@1 | result *"},
		{"comments and NAGs", "1. e4 {best by test\nsays Fischer} $1 e5 ; {not a comment\n2. Nf3!? *", "move e4@1 | move e5@2 | move Nf3@3 | result *"},
		{"variations skipped, nested", "1. e4 (1. d4 d5 (1... Nf6 {(}) 2. c4) e5 (1... c5 *) 0-1", "move e4@1 | move e5@1 | result 0-1"},
		{"castling, promotion, checks", "1. O-O 0-0-0 2. e8=Q+ bxa1N# 1/2-1/2", "move O-O@1 | move 0-0-0@1 | move e8=Q+@1 | move bxa1N#@1 | result 1/2-1/2"},
		{"escape line and CRLF", "% tool output\r\n[Event \"x\"]\r\n1. e4 *\r\n", "tag Event=x | move e4@3 | result *"},
		{"byte order mark", "\xef\xbb\xbf[Event \"x\"] *", "tag Event=x | result *"},
		{"empty", "", ""},
		{"only blanks", " \t\r\n\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tokens(tc.text)
			if err != nil {
				t.Fatalf("error %v after %v", err, got)
			}
			if s := strings.Join(got, " | "); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

func TestTokenizerErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"1. e4 {unclosed", "line 1: comment not closed by '}'"},
		{"1. e4\n2. d4 ) *", "line 2: ')' without a '('"},
		{"1. e4 (1. d4\n(1. c4 *", "line 2: 2 variations not closed by ')'"},
		{"1. e4 $ e5", "line 1: '$' without a number"},
		{"1. e4 @ e5", "line 1: unexpected character '@'"},
		{"1. e4 <reserved>", "line 1: unexpected character '<'"},
		{"1. e4 (1. d4 [Event \"x\"]) *", "line 1: tag pair inside a variation"},
		{"[\"x\"]", "line 1: tag pair without a name"},
		{"[Event x]", "line 1: tag Event: value not in quotes"},
		{"\n[Event \"x\n[Result \"*\"]", "line 2: tag Event: value not closed by '\"' on its line"},
		{"[Event \"x\"", "line 1: tag Event: no ']' after the value"},
		{"[Event \"x\\\"]", "line 1: tag Event: value not closed by '\"' on its line"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			_, err := tokens(tc.text)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

func TestParseGame(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		setUp bool
		moves string // UCI, space-separated
		err   string
	}{
		{"standard", "[White \"w\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", false, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", ""},
		{"from a FEN tag", "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *", true, "e1g1 e8d7", ""},
		{"FEN tag refused", "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *", false, "", errSetUp.Error()},
		{"FEN tag refused without moves", "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]", false, "", errSetUp.Error()},
		{"bad FEN tag", "[FEN \"4k3/8 w\"]\n\n1. O-O *", true, "", "FEN tag: "},
		{"illegal move names the line and move", "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *", false, "", `line 4: move 2: chess: san "Ke3": no legal move matches in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2`},
		{"under-disambiguated move", "[FEN \"4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1\"]\n1. Ne2 *", true, "", `line 2: move 1: chess: san "Ne2": no legal move matches`},
		{"text after the result", "1. e4 * 1. d4", false, "", `line 1: "d4" after the result`},
		{"tag after the movetext", "1. e4 [Event \"x\"] *", false, "", "line 1: tag Event after the movetext began"},
		{"no moves", "[Event \"x\"]\n\n*", false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := parseGame([]byte(tc.text), 1, tc.setUp)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var uci []string
			for _, m := range g.Moves {
				uci = append(uci, m.String())
			}
			if got := strings.Join(uci, " "); got != tc.moves {
				t.Errorf("moves %q, want %q", got, tc.moves)
			}
		})
	}
}

// TestSkipNamesTheLine checks that a skip reason gives the line of the
// fault in the whole input, escape lines and blank lines counted.
func TestSkipNamesTheLine(t *testing.T) {
	text := "% header\n\n[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n% note\n\n1. e4 e5\n% note\n2. Ke3 *\n"
	games, skips := readAll(t, text, Limits{})
	if len(games) != 1 || len(skips) != 1 {
		t.Fatalf("games %d skips %v", len(games), skips)
	}
	if games[0].Line != 3 || skips[0].Line != 7 || !strings.HasPrefix(skips[0].Reason, `PGN: line 12: move 2: chess: san "Ke3"`) {
		t.Errorf("game at line %d, skip %v", games[0].Line, skips[0])
	}
}

// TestReadsOwnWild16PGN reads back a game as our PGN writers write it
// (internal/pgnout: comments after every move, "3..." after a comment,
// lines wrapped at 79 columns).
func TestReadsOwnWild16PGN(t *testing.T) {
	text := `[Event "kriegbot match"]
[Site "local"]
[Date "2026.12.04"]
[Round "1"]
[White "a"]
[Black "b"]
[Result "0-1"]
[Variant "Kriegspiel"]
[ICCResult "White checkmated"]

1. f3 {0 pawn tries} 1... e5 {Illegal: e5e4; 0 pawn tries} 2. g4 {Illegal:
g4g5; 0 pawn tries; [%clk 0:00:58]} 2... Qh4# {Checkmate} 0-1

`
	games, skips := readAll(t, text, Limits{})
	if len(games) != 1 || len(skips) != 0 {
		t.Fatalf("games %d skips %v", len(games), skips)
	}
	g := games[0]
	if g.Result != "0-1" || g.Tags["Variant"] != "Kriegspiel" || len(g.Moves) != 4 || g.Moves[3].String() != "d8h4" {
		t.Errorf("got %+v", g)
	}
}

func FuzzTokenizer(f *testing.F) {
	f.Add("[Event \"x\"]\n[FEN \"" + chess.StartFEN + "\"]\n\n1. e4 {c} e5 (1... c5 $2) 2. Nf3 ; rest\n1-0")
	f.Add("1.e4 e5 2.O-O-O?! 0-0 e8=Q+ 1/2-1/2")
	f.Add("[Event \"a \\\"b\\\" \\\\\"]\n% escape\n*")
	f.Add("((((1. e4)))) {{}}} ))) $ $12 [ [x \"")
	f.Add("\xef\xbb\xbf[Event \"\xff\"] 1. \x00")
	f.Fuzz(func(t *testing.T, text string) {
		tz := newTokenizer([]byte(text), 1)
		lastPos, lastLine := -1, 1
		for range len(text) + 1 {
			tok, err := tz.next()
			if err != nil {
				if !errors.Is(err, io.EOF) && !strings.HasPrefix(err.Error(), "line ") {
					t.Fatalf("error %q does not name the line", err)
				}
				// The game reader must not panic on whatever the tokens are.
				parseGame([]byte(text), 1, true)
				return
			}
			if tz.pos <= lastPos || tok.line < lastLine || tok.line > 1+strings.Count(text, "\n") {
				t.Fatalf("token %+v at byte %d after byte %d, line %d", tok, tz.pos, lastPos, lastLine)
			}
			if tok.kind != tagPair && tok.value == "" {
				t.Fatalf("empty %v token", tok.kind)
			}
			lastPos, lastLine = tz.pos, tok.line
		}
		t.Fatal("tokenizer does not reach the end")
	})
}

// TestPgnoutRoundTrip writes a long game with internal/pgnout, comments
// after every move as our records have them, and reads it back.
func TestPgnoutRoundTrip(t *testing.T) {
	pos := chess.StartPosition()
	var w pgnout.Writer
	w.Tag("Event", `kriegbot w16 "1" \ 0`)
	w.Tag("Result", "*")
	w.Tag("Variant", pgnout.Variant)
	var want []chess.Move
	for ply := 0; ply < 300; ply++ {
		var l chess.MoveList
		pos.GenerateLegal(&l)
		if l.N == 0 {
			break
		}
		m := l.Moves[(ply*7+3)%l.N]
		w.Move(ply, pos.SAN(m))
		w.Comment("Illegal: a1a2; {Pawn} at d5 captured; 2 pawn tries; [%clk 0:00:58]")
		pos.Make(m)
		want = append(want, m)
	}
	if len(want) < 100 {
		t.Fatalf("only %d plies written", len(want))
	}
	g, err := ParseGame([]byte(w.Finish("*")))
	if err != nil {
		t.Fatal(err)
	}
	if g.Tags["Event"] != `kriegbot w16 "1" \ 0` || g.Result != "*" || len(g.Moves) != len(want) {
		t.Fatalf("read back %q %q and %d moves, want %d", g.Tags["Event"], g.Result, len(g.Moves), len(want))
	}
	for i := range want {
		if g.Moves[i] != want[i] {
			t.Fatalf("ply %d: %s, want %s", i, g.Moves[i], want[i])
		}
	}
}
