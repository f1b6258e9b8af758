package telnet

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

func TestParseTerms(t *testing.T) {
	tests := []struct {
		words   string
		want    Terms // compared on the exported fields
		problem string
	}{
		{"", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, ""},
		{"5", Terms{Minutes: 5, MaxR: 9999}, ""},
		{"3 0 u white", Terms{Minutes: 3, Color: "white", MaxR: 9999}, ""},
		{"15 5 r black m f 1400-1800", Terms{Rated: true, Color: "black", Manual: true, Formula: true, Minutes: 15, Inc: 5, MinR: 1400, MaxR: 1800}, ""},
		{"2 12 w16", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, ""},
		{"2 12 wild16 kriegspiel 16", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, ""},
		{"RATED 1 1 A", Terms{Rated: true, Minutes: 1, Inc: 1, MaxR: 9999}, ""},
		{"0 0", Terms{MaxR: 9999}, "Untimed games are not offered: give a time or an increment."},
		{"0 3", Terms{Inc: 3, MaxR: 9999}, ""},
		{"2 12 w17", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, "This server plays only wild 16 (Kriegspiel), not w17."},
		{"2 12 zebra", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, `I do not understand "zebra".`},
		{"1 2 3", Terms{Minutes: 1, Inc: 2, MaxR: 9999}, `I do not understand "3".`},
		{"1000", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, `I do not understand "1000".`},
		{"1800-1400", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, `I do not understand "1800-1400".`},
		{"-5", Terms{Minutes: 2, Inc: 12, MaxR: 9999}, `I do not understand "-5".`},
	}
	for _, tc := range tests {
		got := ParseTerms(strings.Fields(tc.words))
		exported := got
		exported.numbers, exported.badWild, exported.unknown = 0, "", ""
		if exported != tc.want {
			t.Errorf("ParseTerms(%q) = %+v, want %+v", tc.words, exported, tc.want)
		}
		if p := got.Problem(); p != tc.problem {
			t.Errorf("ParseTerms(%q).Problem() = %q, want %q", tc.words, p, tc.problem)
		}
	}
}

func FuzzParseTerms(f *testing.F) {
	for _, s := range []string{"", "5", "3 0 u white", "15 5 r black m f 1400-1800", "0 0", "2 12 w17", "1-", "9-1", "w", "16"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := ParseTerms(strings.Fields(line))
		if got.Problem() != "" {
			return
		}
		// Terms a game is started with: a bounded, timed clock, a real
		// colour and rating range.
		if got.Minutes < 0 || got.Minutes > 999 || got.Inc < 0 || got.Inc > 999 || got.Minutes == 0 && got.Inc == 0 {
			t.Errorf("%q: time control %d %d", line, got.Minutes, got.Inc)
		}
		if got.Color != "" && got.Color != "white" && got.Color != "black" {
			t.Errorf("%q: colour %q", line, got.Color)
		}
		if got.MinR < 0 || got.MaxR < got.MinR {
			t.Errorf("%q: rating range %d-%d", line, got.MinR, got.MaxR)
		}
	})
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		word string
		want string // "" for not a move
	}{
		{"e2e4", "e2e4"},
		{"E2E4", "e2e4"},
		{"e7e8q", "e7e8q"},
		{"e7e8Q", "e7e8q"},
		{"e7e8=Q", "e7e8q"},
		{"a2a1=n", "a2a1n"},
		{"e2", ""},
		{"e2e4e5", ""},
		{"e2e4==", ""},
		{"e2e2", ""},
		{"e2e9", ""},
		{"e6e7q", ""},
		{"seek", ""},
		{"resign", ""},
	}
	for _, tc := range tests {
		m, ok := ParseMove(tc.word)
		got := ""
		if ok {
			got = m.String()
		}
		if got != strings.ToLower(tc.want) {
			t.Errorf("ParseMove(%q) = %q %v, want %q", tc.word, got, ok, tc.want)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8=Q", "a2a1n", "e2e2", "help", "e2e4e5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		m, ok := ParseMove(word)
		if !ok {
			if m != chess.NullMove {
				t.Errorf("%q: refused, yet %v", word, m)
			}
			return
		}
		// A move read is one coordinate move, read back the same.
		back, err := chess.ParseUCI(m.String())
		if err != nil || back != m {
			t.Errorf("%q: %v, which reads back as %v (%v)", word, m, back, err)
		}
	})
}
