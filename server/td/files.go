package td

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// EventFile is the file in dir where the TD keeps event id: ext "json"
// its state (written atomically after every change, read back at a
// restart), "pgn", "txt" and "html" its games and crosstables. A program
// that follows an event (kriegbot tourney) reads them there.
func EventFile(dir string, id int, ext string) string {
	return filepath.Join(dir, fmt.Sprintf("tourney-%d.%s", id, ext))
}

// FileID reads the event number of a file named tourney-N.json, as
// EventFile names an event's state.
func FileID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "tourney-")
	digits, ok2 := strings.CutSuffix(rest, ".json")
	if !ok || !ok2 || digits == "" || len(digits) > 6 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// ParseNumber reads an event number as players type it, "3" or "#3".
func ParseNumber(w string) (int, bool) {
	w = strings.TrimPrefix(w, "#")
	if w == "" || len(w) > 6 || strings.Trim(w, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n > 0
}

// MeantAsNumber reports whether a player's word w was meant as an event
// number, good or bad: "#" alone, or after an optional '#' a digit,
// maybe behind a sign or a point ("0", "-5", "1.5", "99999999"; not
// "-j"). A word ParseNumber does not take but this does is refused as a
// bad number, not read as no number at all.
func MeantAsNumber(w string) bool {
	w, hash := strings.CutPrefix(w, "#")
	if hash && w == "" {
		return true
	}
	w = strings.TrimLeft(w, "+-")
	w = strings.TrimPrefix(w, ".")
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// ParsePagePath reads the HTTP door's event pages: /tourney/N (the
// HTML crosstable), /tourney/N.txt (text) and /tourney/N.pgn (the games).
func ParsePagePath(path string) (id int, ext string, ok bool) {
	rest, found := strings.CutPrefix(path, "/tourney/")
	if !found || len(rest) > 16 {
		return 0, "", false
	}
	num, ext := rest, "html"
	if i := strings.IndexByte(rest, '.'); i >= 0 {
		num, ext = rest[:i], rest[i+1:]
		if ext != "txt" && ext != "pgn" && ext != "html" {
			return 0, "", false
		}
	}
	id, ok = ParseNumber(num)
	if !ok || strings.HasPrefix(num, "#") {
		return 0, "", false
	}
	return id, ext, true
}
