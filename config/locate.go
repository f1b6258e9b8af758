package config

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// keyLines maps every key of a TOML text (in toml.Key.String form, e.g.
// "policy.max_games") to the 1-based line where it is first mentioned.
// BurntSushi/toml keeps key positions private, so errors found after decoding
// (unknown keys, bad values) are placed with this small scanner instead.
type keyLines map[string]int

// line returns the line of key, else of its nearest mentioned parent
// ("policy" for "policy.max_games"), else 0.
func (kl keyLines) line(key ...string) int {
	for n := len(key); n > 0; n-- {
		if l, ok := kl[toml.Key(key[:n]).String()]; ok {
			return l
		}
	}
	return 0
}

// place returns the line of key if it is in the file, else of the first of
// also (dotted keys) that is, else of key's nearest parent, else 0.
func (kl keyLines) place(key []string, also []string) int {
	if l, ok := kl[toml.Key(key).String()]; ok {
		return l
	}
	for _, a := range also {
		if l, ok := kl[toml.Key(strings.Split(a, ".")).String()]; ok {
			return l
		}
	}
	return kl.line(key...)
}

// maxNesting bounds the scanner's recursion into arrays and inline tables;
// deeper values are skipped byte by byte (their keys are never ours).
const maxNesting = 64

// locateKeys scans text, which should be valid TOML, and records where each
// key is mentioned: table headers ([a.b], [[a]]), dotted and quoted keys, and
// keys of inline tables. It skips over strings (all four kinds, multi-line
// ones counting their lines), arrays spanning lines and comments. On invalid
// TOML it still terminates and never panics; its answers are then best effort.
func locateKeys(text []byte) keyLines {
	sc := scanner{s: text, line: 1, out: keyLines{}}
	// Skip a byte order mark, as the TOML library does.
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if sc.has(bom) {
			sc.i = len(bom)
			break
		}
	}
	var table []string
	for sc.i < len(sc.s) {
		start := sc.i
		sc.skipBlank()
		if sc.i >= len(sc.s) {
			break
		}
		if sc.s[sc.i] == '[' {
			sc.i++
			if sc.i < len(sc.s) && sc.s[sc.i] == '[' {
				sc.i++
			}
			line := sc.line
			if key, ok := sc.key(); ok {
				table = key
				sc.record(table, line)
			}
			sc.skipLine()
		} else {
			line := sc.line
			key, ok := sc.key()
			if ok && sc.eat('=') {
				full := append(append([]string(nil), table...), key...)
				sc.record(full, line)
				sc.value(full, 0)
			}
			sc.skipLine()
		}
		if sc.i == start {
			sc.i++
		}
	}
	return sc.out
}

type scanner struct {
	s    []byte
	i    int
	line int
	out  keyLines
}

func (sc *scanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func (sc *scanner) has(prefix string) bool {
	return len(sc.s)-sc.i >= len(prefix) && string(sc.s[sc.i:sc.i+len(prefix)]) == prefix
}

// record notes the line of key and of each of its parents not yet seen.
// A recorded key always has its parents recorded, so the walk up stops at
// the first key already known.
func (sc *scanner) record(key []string, line int) {
	for n := len(key); n > 0; n-- {
		k := toml.Key(key[:n]).String()
		if _, ok := sc.out[k]; ok {
			return
		}
		sc.out[k] = line
	}
}

// skipInline skips spaces and tabs.
func (sc *scanner) skipInline() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// skipBlank skips white space, line ends and comments.
func (sc *scanner) skipBlank() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\r':
			sc.i++
		case '\n':
			sc.i++
			sc.line++
		case '#':
			sc.skipLine()
		default:
			return
		}
	}
}

// skipLine moves to the end of the current line (not past its '\n').
func (sc *scanner) skipLine() {
	for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
		sc.i++
	}
}

func (sc *scanner) eat(c byte) bool {
	sc.skipInline()
	if sc.peek() == c {
		sc.i++
		return true
	}
	return false
}

// key reads a possibly dotted key: bare, "basic" or 'literal' parts.
func (sc *scanner) key() ([]string, bool) {
	var parts []string
	for {
		sc.skipInline()
		var part string
		switch sc.peek() {
		case '"':
			s, ok := sc.basicString()
			if !ok {
				return nil, false
			}
			part = s
		case '\'':
			s, ok := sc.literalString()
			if !ok {
				return nil, false
			}
			part = s
		default:
			start := sc.i
			for sc.i < len(sc.s) && isBare(sc.s[sc.i]) {
				sc.i++
			}
			if sc.i == start {
				return nil, false
			}
			part = string(sc.s[start:sc.i])
		}
		parts = append(parts, part)
		sc.skipInline()
		if sc.peek() != '.' {
			return parts, true
		}
		sc.i++
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// basicString reads a one-line "..." string at sc.i and returns its value.
func (sc *scanner) basicString() (string, bool) {
	sc.i++ // opening quote
	var out []byte
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch {
		case c == '"':
			sc.i++
			return string(out), true
		case c == '\n':
			return "", false
		case c == '\\' && sc.i+1 < len(sc.s):
			out = sc.escape(out)
		default:
			out = append(out, c)
			sc.i++
		}
	}
	return "", false
}

// escape decodes the escape sequence at sc.i (a backslash) onto out.
func (sc *scanner) escape(out []byte) []byte {
	sc.i++
	c := sc.s[sc.i]
	sc.i++
	switch c {
	case 'b':
		return append(out, '\b')
	case 't':
		return append(out, '\t')
	case 'n':
		return append(out, '\n')
	case 'f':
		return append(out, '\f')
	case 'r':
		return append(out, '\r')
	case 'e':
		return append(out, 0x1b)
	case 'u', 'U', 'x':
		n := 4
		switch c {
		case 'U':
			n = 8
		case 'x':
			n = 2
		}
		if len(sc.s)-sc.i >= n {
			if v, err := strconv.ParseUint(string(sc.s[sc.i:sc.i+n]), 16, 32); err == nil {
				sc.i += n
				return utf8.AppendRune(out, rune(v))
			}
		}
		return append(out, '\\', c)
	default: // '"', '\\' and anything a newer TOML may add
		return append(out, c)
	}
}

// literalString reads a one-line '...' string at sc.i.
func (sc *scanner) literalString() (string, bool) {
	sc.i++
	start := sc.i
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\'':
			s := string(sc.s[start:sc.i])
			sc.i++
			return s, true
		case '\n':
			return "", false
		}
		sc.i++
	}
	return "", false
}

// skipMultiline skips a multi-line string (delim is three double or three
// single quotes) whose opening delimiter is at sc.i, counting its lines. Up
// to two quotes may touch the closing delimiter: 5 quotes end "a" with "".
func (sc *scanner) skipMultiline(delim string, escapes bool) {
	sc.i += 3
	for sc.i < len(sc.s) {
		switch {
		case escapes && sc.s[sc.i] == '\\':
			sc.i++
			if sc.i < len(sc.s) {
				if sc.s[sc.i] == '\n' {
					sc.line++
				}
				sc.i++
			}
		case sc.has(delim):
			sc.i += 3
			for extra := 0; extra < 2 && sc.peek() == delim[0]; extra++ {
				sc.i++
			}
			return
		case sc.s[sc.i] == '\n':
			sc.line++
			sc.i++
		default:
			sc.i++
		}
	}
}

// value skips the value at sc.i. Keys of inline tables are recorded under
// prefix; a nil prefix (values inside arrays) records nothing.
func (sc *scanner) value(prefix []string, depth int) {
	sc.skipInline()
	if depth > maxNesting {
		if sc.i < len(sc.s) {
			sc.i++
		}
		return
	}
	switch sc.peek() {
	case '"':
		if sc.has(`"""`) {
			sc.skipMultiline(`"""`, true)
		} else {
			sc.basicString()
		}
	case '\'':
		if sc.has(`'''`) {
			sc.skipMultiline(`'''`, false)
		} else {
			sc.literalString()
		}
	case '[':
		sc.i++
		for sc.i < len(sc.s) {
			start := sc.i
			sc.skipBlank()
			switch sc.peek() {
			case ']':
				sc.i++
				return
			case ',':
				sc.i++
			default:
				sc.value(nil, depth+1)
			}
			if sc.i == start {
				sc.i++
			}
		}
	case '{':
		sc.i++
		for sc.i < len(sc.s) {
			start := sc.i
			sc.skipBlank() // TOML 1.1 allows line breaks in inline tables
			switch sc.peek() {
			case '}':
				sc.i++
				return
			case ',':
				sc.i++
			default:
				line := sc.line
				key, ok := sc.key()
				if !ok || !sc.eat('=') {
					sc.skipLine()
					return
				}
				var full []string
				if prefix != nil {
					full = append(append([]string(nil), prefix...), key...)
					sc.record(full, line)
				}
				sc.value(full, depth+1)
			}
			if sc.i == start {
				sc.i++
			}
		}
	default: // number, boolean, date-time: up to a delimiter
		for sc.i < len(sc.s) {
			switch sc.s[sc.i] {
			case ' ', '\t', '\r', '\n', ',', ']', '}', '#':
				return
			}
			sc.i++
		}
	}
}
