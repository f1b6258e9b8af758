package bot

import "testing"

// TestParseListLines: the header and the result line of our server's
// move list, and lines that look alike but are not (the end of a game as
// it happens names its game; a result must be one).
func TestParseListLines(t *testing.T) {
	for _, c := range []struct {
		line         string
		n            int
		white, black string
		ok           bool
	}{
		{"Movelist for game 12: kriegbot vs. sparring, wild 16, 1 0", 12, "kriegbot", "sparring", true},
		{"Movelist for game 3: a vs. b", 3, "a", "b", true},
		{"Movelist for game x: a vs. b, wild 16", 0, "", "", false},
		{"Movelist for game 3: a and b", 0, "", "", false},
		{"Game 3: a vs. b", 0, "", "", false},
	} {
		n, w, b, ok := parseListHeader(c.line)
		if n != c.n || w != c.white || b != c.black || ok != c.ok {
			t.Errorf("parseListHeader(%q) = %d %q %q %v", c.line, n, w, b, ok)
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
		why, result, ok := parseListResult(c.line)
		if why != c.why || result != c.result || ok != c.ok {
			t.Errorf("parseListResult(%q) = %q %q %v", c.line, why, result, ok)
		}
	}
}
