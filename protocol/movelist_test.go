package protocol

import (
	"testing"

	"kriegbot/protocol/handle"
)

// TestParseMoveListLines: the header and the result line of our server's
// move list, and lines that look alike but are not (the end of a game as
// it happens names its game; a result must be one).
func TestParseMoveListLines(t *testing.T) {
	for _, c := range []struct {
		line string
		h    MoveListHeader
		ok   bool
	}{
		{"Movelist for game 12: kriegbot vs. sparring, wild 16, 1 0", MoveListHeader{12, "kriegbot", "sparring", 1, 0}, true},
		{"Movelist for game 3: a vs. b", MoveListHeader{Game: 3, White: "a", Black: "b"}, true},
		{"Movelist for game 3: a vs. b, wild 16, x 2", MoveListHeader{Game: 3, White: "a", Black: "b"}, true},
		{"Movelist for game x: a vs. b, wild 16", MoveListHeader{}, false},
		{"Movelist for game -1: a vs. b", MoveListHeader{}, false},
		{"Movelist for game 3: a and b", MoveListHeader{}, false},
		{"Movelist for game 3:  vs. b", MoveListHeader{}, false},
		{"Game 3: a vs. b", MoveListHeader{}, false},
	} {
		h, ok := ParseMoveListHeader(c.line)
		if h != c.h || ok != c.ok {
			t.Errorf("ParseMoveListHeader(%q) = %+v %v", c.line, h, ok)
		}
	}
	for _, c := range []struct {
		line, why, result string
		ok                bool
	}{
		{"{Game drawn by repetition} 1/2-1/2", "Game drawn by repetition", "1/2-1/2", true},
		{"{sparring resigns} 1-0", "sparring resigns", "1-0", true},
		{"{Game aborted: the server is shutting down} aborted", "Game aborted: the server is shutting down", "aborted", true},
		{"{Game 5 (a vs. b) Game drawn by repetition} 1/2-1/2", "", "", false},
		{"{sparring resigns} 2-0", "", "", false},
		{"sparring resigns 1-0", "", "", false},
	} {
		why, result, ok := ParseMoveListResult(c.line)
		if why != c.why || result != c.result || ok != c.ok {
			t.Errorf("ParseMoveListResult(%q) = %q %q %v", c.line, why, result, ok)
		}
	}
}

// FuzzMoveListLines: whatever the line, the parsers neither panic nor
// accept what they cannot give back; whatever a server may write (valid
// handles, any numbers, any reason without the game-end form), the parser
// reads it back as it was.
func FuzzMoveListLines(f *testing.F) {
	f.Add(12, "kriegbot", "sparring", 1, 0, "sparring resigns", "Movelist for game 12: kriegbot vs. sparring, wild 16, 1 0")
	f.Add(0, "Guest0001", "kb", 0, 12, "Game drawn by repetition", "{Game 5 (a vs. b) Game drawn} 1/2-1/2")
	f.Fuzz(func(t *testing.T, game int, white, black string, mins, inc int, why, line string) {
		if h, ok := ParseMoveListHeader(line); ok {
			if h.Game < 0 || h.White == "" || h.Black == "" {
				t.Fatalf("%q read as %+v", line, h)
			}
		}
		if why, result, ok := ParseMoveListResult(line); ok {
			if w2, r2, ok2 := ParseMoveListResult(MoveListResult(why, result)); !ok2 || w2 != why || r2 != result {
				t.Fatalf("%q read as %q %q, which does not read back", line, why, result)
			}
		}
		if game < 0 || mins < 0 || inc < 0 || !handle.Valid(white) || !handle.Valid(black) {
			return
		}
		h := MoveListHeader{game, white, black, mins, inc}
		if got, ok := ParseMoveListHeader(h.String()); !ok || got != h {
			t.Fatalf("%+v wrote %q, read back as %+v %v", h, h.String(), got, ok)
		}
		for _, result := range []string{"1-0", "0-1", "1/2-1/2", "aborted", "*"} {
			w, r, ok := ParseMoveListResult(MoveListResult(why, result))
			gameEnd := len(why) > 5 && why[:5] == "Game " // "{Game N (A vs. B) ...}" is refused on purpose
			if !gameEnd && (!ok || w != why || r != result) {
				t.Fatalf("%q %q read back as %q %q %v", why, result, w, r, ok)
			}
		}
	})
}
