package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// A move list as text (ICC's "moves" command without DG 24): a header, a
// line per full move, and, once the game is over, a result line. Each line
// has one formatter (used by our server's telnet door) and one parser
// (used by the daemon), so the two sides cannot drift apart.

// MoveListHeader is a move list's first line.
type MoveListHeader struct {
	Game         int
	White, Black string
	// Minutes and Inc are the time control (wild 16 games only).
	Minutes, Inc int
}

// String is the header as the server writes it: "Movelist for game 12:
// kriegbot vs. sparring, wild 16, 1 0".
func (h MoveListHeader) String() string {
	return fmt.Sprintf("Movelist for game %d: %s vs. %s, wild 16, %d %d", h.Game, h.White, h.Black, h.Minutes, h.Inc)
}

// ParseMoveListHeader reads a header line. The game number and the two
// names are required; the time control is read when the line ends in
// ", wild 16, MIN INC" and left 0 otherwise.
func ParseMoveListHeader(line string) (MoveListHeader, bool) {
	var h MoveListHeader
	rest, found := strings.CutPrefix(line, "Movelist for game ")
	if !found {
		return h, false
	}
	num, rest, found := strings.Cut(rest, ": ")
	if !found {
		return h, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return h, false
	}
	white, rest, found := strings.Cut(rest, " vs. ")
	if !found {
		return h, false
	}
	black, tail, _ := strings.Cut(rest, ",")
	h.Game, h.White, h.Black = n, strings.TrimSpace(white), strings.TrimSpace(black)
	if h.White == "" || h.Black == "" {
		return MoveListHeader{}, false
	}
	if tc, ok := strings.CutPrefix(tail, " wild 16, "); ok {
		m, i, ok := strings.Cut(tc, " ")
		mins, err1 := strconv.Atoi(m)
		inc, err2 := strconv.Atoi(i)
		if ok && err1 == nil && err2 == nil && mins >= 0 && inc >= 0 {
			h.Minutes, h.Inc = mins, inc
		}
	}
	return h, true
}

// MoveListResult is a finished game's last move-list line: "{WHY}
// RESULT".
func MoveListResult(why, result string) string { return "{" + why + "} " + result }

// ParseMoveListResult reads a move list's last line, "{WHY} RESULT". The
// end of a game as it happens ("{Game N (A vs. B) WHY} RESULT") is not one,
// and the result must be one of ours.
func ParseMoveListResult(line string) (why, result string, ok bool) {
	if !strings.HasPrefix(line, "{") {
		return "", "", false
	}
	i := strings.LastIndex(line, "} ")
	if i < 0 {
		return "", "", false
	}
	why, result = line[1:i], strings.TrimSpace(line[i+2:])
	switch result {
	case "1-0", "0-1", "1/2-1/2", "aborted", "*":
	default:
		return "", "", false
	}
	if rest, found := strings.CutPrefix(why, "Game "); found {
		if num, _, _ := strings.Cut(rest, " "); num != "" {
			if _, err := strconv.Atoi(num); err == nil && strings.Contains(rest, "(") {
				return "", "", false
			}
		}
	}
	return why, result, true
}
