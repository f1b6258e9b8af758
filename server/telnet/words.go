package telnet

import (
	"fmt"
	"strconv"
	"strings"

	"kriegbot/engine/chess"
)

// The words of the telnet door's commands: the terms of a seek or a
// match, and a move in coordinate form.

// Terms are the words of a seek or match, as ParseTerms reads them.
type Terms struct {
	Rated            bool
	Color            string // "", "white" or "black"
	Manual, Formula  bool   // "m": accept each taker by hand; "f": formula screen
	MinR, MaxR       int    // the takers' rating range
	Minutes, Inc     int    // the time control (increment in seconds)
	numbers          int    // how many numbers (time, increment) were given
	badWild, unknown string // a wild other than 16; a word not understood
}

// ParseTerms reads the words of a seek or match: numbers (minutes, then
// the increment), r/u, white/black, a/m, f, a rating range lo-hi and
// wild 16's names. Unset terms are 2 12 unrated, any colour; one number
// alone is the minutes with no increment. Problem tells what is wrong.
func ParseTerms(args []string) Terms {
	t := Terms{Minutes: 2, Inc: 12, MaxR: 9999}
	for _, a := range args {
		la := strings.ToLower(a)
		switch {
		case la == "r" || la == "rated":
			t.Rated = true
		case la == "u" || la == "unrated":
			t.Rated = false
		case la == "white" || la == "black":
			t.Color = la
		case la == "a":
			t.Manual = false
		case la == "m":
			t.Manual = true
		case la == "f":
			t.Formula = true
		case la == "w16" || la == "wild16" || la == "kriegspiel" || la == "16" && t.numbers >= 2:
		case strings.HasPrefix(la, "w") && len(la) > 1 && la[1] >= '0' && la[1] <= '9':
			t.badWild = a
		case strings.Contains(la, "-"):
			lo, hi, _ := strings.Cut(la, "-")
			l, e1 := strconv.Atoi(lo)
			h, e2 := strconv.Atoi(hi)
			if e1 != nil || e2 != nil || l < 0 || h < l {
				t.unknown = a
			} else {
				t.MinR, t.MaxR = l, h
			}
		default:
			n, err := strconv.Atoi(la)
			if err != nil || n < 0 || n > 999 || t.numbers >= 2 {
				t.unknown = a
				continue
			}
			if t.numbers == 0 {
				t.Minutes = n
			} else {
				t.Inc = n
			}
			t.numbers++
		}
	}
	if t.numbers == 1 {
		t.Inc = 0
	}
	return t
}

// Problem is what the player is told when the terms cannot be played
// ("" when they can): another wild, a word not understood (the last one),
// an untimed game.
func (t Terms) Problem() string {
	if t.badWild != "" {
		return fmt.Sprintf("This server plays only wild 16 (Kriegspiel), not %s.", t.badWild)
	}
	if t.unknown != "" {
		return fmt.Sprintf("I do not understand %q.", t.unknown)
	}
	if t.Minutes == 0 && t.Inc == 0 {
		return "Untimed games are not offered: give a time or an increment."
	}
	return ""
}

// ParseMove recognises a move in coordinate form, as wild 16 requires:
// e2e4, e7e8q, e7e8Q, e7e8=Q.
func ParseMove(word string) (chess.Move, bool) {
	if len(word) < 4 || len(word) > 6 {
		return chess.NullMove, false
	}
	t := strings.ToLower(strings.Replace(word, "=", "", 1))
	if len(t) > 5 {
		return chess.NullMove, false
	}
	m, err := chess.ParseUCI(t)
	if err != nil {
		return chess.NullMove, false
	}
	return m, true
}
