package protocol

import (
	"bytes"
	"strconv"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// AnnouncementKind is the kind of one Kriegspiel referee announcement.
type AnnouncementKind uint8

// Announcement kinds (docs/icc-protocol.md (c), K4 and K5).
const (
	AnnIllegal     AnnouncementKind = iota + 1 // "Illegal move", possibly followed by text
	AnnCapture                                 // "Pawn at e4 captured", "Piece at e4 captured"
	AnnCheck                                   // "Rank check", "Long-diagonal check", ...
	AnnPawnTries                               // "3 pawn tries", "1 pawn try", "no pawn tries"
	AnnWhiteToMove                             // "White's move"
	AnnBlackToMove                             // "Black's move"
)

var annKindNames = [...]string{"none", "illegal", "capture", "check", "pawn_tries", "white_to_move", "black_to_move"}

// String returns a short name such as "capture".
func (k AnnouncementKind) String() string {
	if int(k) < len(annKindNames) {
		return annKindNames[k]
	}
	return "unknown"
}

// Announcement is one referee announcement. Only the field that belongs to
// Kind is set: Capture for AnnCapture, Check for AnnCheck, Tries for
// AnnPawnTries. Game is the number from a "Game N" prefix, or 0.
type Announcement struct {
	Kind    AnnouncementKind
	Capture umpire.Capture
	Check   chess.CheckKind
	Tries   int
	Game    int
}

// RefereeLines are the referee's words for a legal move a, one per line,
// as our server tells both players: "Game 12: Pawn at d5 captured", "Game
// 12: File check", "Game 12: 2 pawn tries" (the words are the umpire's,
// umpire.View.Words). ParseAnnouncements reads each back.
func RefereeLines(game int, a umpire.Answer) []string {
	v := a.For(a.Mover)
	words := v.Words()
	prefix := "Game " + strconv.Itoa(game) + ": "
	for i, w := range words {
		words[i] = prefix + w
	}
	return words
}

// IllegalLine is the text our server tells the mover of a refused
// attempt: "Illegal move (e2e5).".
func IllegalLine(attempt string) string { return "Illegal move (" + attempt + ")." }

// maxTries bounds an announced pawn-tries count; larger numbers are not
// referee text (at most 16 pawn captures can exist, with en passant).
const maxTries = 99

// ParseAnnouncements appends the referee announcements found in one text line
// (ISO-8859-1, without the line end) to dst and returns the extended slice.
//
// The line may carry surrounding whitespace, a leading or trailing "aics%"
// prompt and a "Game N" or "Game N:" prefix. After that it must consist
// entirely of announcements, separated by blanks, commas, periods, semicolons,
// colons or '!'. Matching is case-insensitive; "Long-diagonal",
// "Long diagonal" and "Longdiagonal" are all accepted, as are "try"/"tries"
// with any count and "no" for zero. "Illegal move" swallows whatever follows
// it up to the next '.' or ';' outside parentheses, e.g. "Illegal move (e2e5).".
//
// Whole-line rule: if any word of the line is not part of an announcement,
// no items are appended at all (dst is returned unchanged), so chatter such as
// "I gave him a rank check" never yields a check. Game notices in braces
// ("{Game 959 (A vs. B) Black checkmated} 1-0", and a move list's last line
// "{Black checkmated} 1-0") are not referee text. Lines containing
// "tells you", "says:", "shouts", "whispers" or "kibitzes" are treated as
// chat and never as referee text.
//
// refereeLike reports that items were found or that the line mentions a
// referee word ("check", "captured", "pawn tr", "illegal"). unknown reports
// that the line mentions such a word but could not be parsed completely; the
// caller should log it. unknown implies refereeLike.
//
// ParseAnnouncements never panics, runs in time linear in len(line) and
// allocates only when appending to dst needs to grow it.
func ParseAnnouncements(dst []Announcement, line []byte) (items []Announcement, refereeLike, unknown bool) {
	start := len(dst)
	out, ok := parseItems(dst, line)
	if ok && len(out) > start {
		// A line made entirely of announcements is referee text: chat and
		// game notices always hold words that are not announcements.
		return out, true, false
	}
	// Lower-case short lines once, on the stack, so the keyword scans are
	// plain (vectorised) substring searches; longer lines, which are never
	// referee text, take the slower case-folding scan.
	var buf [256]byte
	f := folded{line: line}
	if len(line) <= len(buf) {
		for i, c := range line {
			buf[i] = lower(c)
		}
		f.low = buf[:len(line)]
	}
	if f.isChat() || isGameNotice(line) {
		return dst[:start], false, false
	}
	keyword := f.hasRefereeWord()
	if !ok {
		return dst[:start], keyword, keyword
	}
	return out, keyword, false
}

// folded is a line with, when short enough, its lower-case copy.
type folded struct {
	line, low []byte
}

// has reports whether the line contains the lower-case pattern p, ignoring case.
func (f *folded) has(p string) bool {
	if f.low != nil {
		return bytes.Contains(f.low, []byte(p))
	}
	return containsFold(f.line, p)
}

// isGameNotice reports a game-status line in braces, such as
// "{Game 959 (A vs. B) Black checkmated} 1-0" or "{Game 12 (A vs. B) Creating
// unrated wild match.}": server notices, never referee announcements, though
// "checkmated" contains "check".
func isGameNotice(line []byte) bool {
	t := trimLine(line)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	if hasPrefixFold(t[1:], "game ") {
		return true
	}
	// The end of a move list: "{Black checkmated} 1-0".
	end := bytes.LastIndexByte(t, '}')
	if end < 0 {
		return false
	}
	switch string(bytes.TrimSpace(t[end+1:])) {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// isChat reports whether the line is a tell, say, shout, whisper or kibitz.
func (f *folded) isChat() bool {
	return f.has("tells you") || f.has("says:") || f.has("shouts") || f.has("kibitzes") || f.has("whispers")
}

func (f *folded) hasRefereeWord() bool {
	return f.has("check") || f.has("captured") || f.has("pawn tr") || f.has("illegal")
}

// containsFold reports whether s contains the lower-case ASCII pattern p,
// ignoring ASCII case. Its cost is O(len(s)*len(p)) with a short constant p.
func containsFold(s []byte, p string) bool {
	for i := 0; i+len(p) <= len(s); i++ {
		if hasPrefixFold(s[i:], p) {
			return true
		}
	}
	return false
}

func hasPrefixFold(s []byte, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if lower(s[j]) != p[j] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// eqFold reports whether word equals the lower-case ASCII string p, ignoring case.
func eqFold(word []byte, p string) bool {
	return len(word) == len(p) && hasPrefixFold(word, p)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

// isSep reports a byte that may separate words and items. Control bytes (BEL,
// CR, LF, tab) count as blanks.
func isSep(c byte) bool {
	switch c {
	case ',', '.', ';', ':', '!', '-':
		return true
	}
	return c <= ' '
}

// scanner walks the words of a line. A byte that is neither a word byte nor a
// separator makes the line unparsable.
type scanner struct {
	s   []byte
	pos int
	bad bool
}

// next returns the next word, or nil at the end of the line or on a bad byte.
func (sc *scanner) next() []byte {
	for sc.pos < len(sc.s) && isSep(sc.s[sc.pos]) {
		sc.pos++
	}
	if sc.pos >= len(sc.s) {
		return nil
	}
	if !isWordByte(sc.s[sc.pos]) {
		sc.bad = true
		return nil
	}
	b := sc.pos
	for sc.pos < len(sc.s) && isWordByte(sc.s[sc.pos]) {
		sc.pos++
	}
	return sc.s[b:sc.pos]
}

// peek returns the next word without consuming it.
func (sc *scanner) peek() []byte {
	save, bad := sc.pos, sc.bad
	w := sc.next()
	sc.pos, sc.bad = save, bad
	return w
}

// skipIllegalTail skips the text after "Illegal move" up to (not past) the
// next '.' or ';' outside parentheses.
func (sc *scanner) skipIllegalTail() {
	depth := 0
	for ; sc.pos < len(sc.s); sc.pos++ {
		switch sc.s[sc.pos] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case '.', ';':
			if depth == 0 {
				return
			}
		}
	}
}

// trimLine removes surrounding blanks and a leading or trailing "aics%" prompt.
func trimLine(s []byte) []byte {
	for {
		n := len(s)
		for len(s) > 0 && s[0] <= ' ' {
			s = s[1:]
		}
		for len(s) > 0 && s[len(s)-1] <= ' ' {
			s = s[:len(s)-1]
		}
		if hasPrefixFold(s, "aics%") {
			s = s[5:]
		}
		if len(s) >= 5 && hasPrefixFold(s[len(s)-5:], "aics%") {
			s = s[:len(s)-5]
		}
		if len(s) == n {
			return s
		}
	}
}

// parseNumber reads a decimal word of at most max digits.
func parseNumber(w []byte, maxDigits int) (int, bool) {
	if len(w) == 0 || len(w) > maxDigits {
		return 0, false
	}
	n := 0
	for _, c := range w {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func parseSquare(w []byte) (chess.Square, bool) {
	if len(w) != 2 {
		return chess.NoSquare, false
	}
	f, r := lower(w[0]), w[1]
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return chess.NoSquare, false
	}
	return chess.NewSquare(int(f-'a'), int(r-'1')), true
}

// parseItems parses the whole line; ok is false if any part is not an
// announcement (out is then meaningless).
func parseItems(dst []Announcement, line []byte) (out []Announcement, ok bool) {
	sc := scanner{s: trimLine(line)}
	game := 0
	if w := sc.peek(); w != nil && eqFold(w, "game") {
		sc.next()
		n, ok := parseNumber(sc.next(), 9)
		if !ok {
			return dst, false
		}
		game = n
	}
	for {
		w := sc.next()
		if w == nil {
			return dst, !sc.bad
		}
		a := Announcement{Game: game}
		switch {
		case eqFold(w, "illegal"):
			if !eqFold(sc.next(), "move") {
				return dst, false
			}
			sc.skipIllegalTail()
			a.Kind = AnnIllegal
		case eqFold(w, "white's") || eqFold(w, "whites"):
			if !eqFold(sc.next(), "move") {
				return dst, false
			}
			a.Kind = AnnWhiteToMove
		case eqFold(w, "black's") || eqFold(w, "blacks"):
			if !eqFold(sc.next(), "move") {
				return dst, false
			}
			a.Kind = AnnBlackToMove
		case eqFold(w, "pawn") || eqFold(w, "piece"):
			a.Kind = AnnCapture
			a.Capture.Kind = umpire.PieceCaptured
			if eqFold(w, "pawn") {
				a.Capture.Kind = umpire.PawnCaptured
			}
			if !eqFold(sc.next(), "at") {
				return dst, false
			}
			sq, ok := parseSquare(sc.next())
			if !ok || !eqFold(sc.next(), "captured") {
				return dst, false
			}
			a.Capture.Square = sq
		case eqFold(w, "rank"), eqFold(w, "file"), eqFold(w, "knight"),
			eqFold(w, "long"), eqFold(w, "short"), eqFold(w, "longdiagonal"), eqFold(w, "shortdiagonal"):
			a.Kind = AnnCheck
			switch {
			case eqFold(w, "rank"):
				a.Check = chess.CheckRank
			case eqFold(w, "file"):
				a.Check = chess.CheckFile
			case eqFold(w, "knight"):
				a.Check = chess.CheckKnight
			case eqFold(w, "long"), eqFold(w, "longdiagonal"):
				a.Check = chess.CheckLongDiagonal
			default:
				a.Check = chess.CheckShortDiagonal
			}
			if (eqFold(w, "long") || eqFold(w, "short")) && !eqFold(sc.next(), "diagonal") {
				return dst, false
			}
			if !eqFold(sc.next(), "check") {
				return dst, false
			}
		default:
			n, ok := parseNumber(w, 2)
			if eqFold(w, "no") {
				n, ok = 0, true
			}
			if !ok || n > maxTries || !eqFold(sc.next(), "pawn") {
				return dst, false
			}
			if t := sc.next(); !eqFold(t, "try") && !eqFold(t, "tries") {
				return dst, false
			}
			a.Kind = AnnPawnTries
			a.Tries = n
		}
		dst = append(dst, a)
	}
}
