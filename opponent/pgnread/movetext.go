package pgnread

import (
	"bytes"
	"fmt"
	"io"
)

// tokenKind is what a token of a game's text is.
type tokenKind int

const (
	tagPair    tokenKind = iota // [Name "value"]
	sanMove                     // a move of the main line, as written
	gameResult                  // 1-0, 0-1, 1/2-1/2 or *
)

// token is one meaningful piece of a game's text. Everything else (move
// numbers, comments, NAGs, annotation marks, variations) is skipped by the
// tokenizer.
type token struct {
	kind  tokenKind
	line  int
	name  string // tagPair: the tag's name
	value string // tagPair: the unescaped value; sanMove, gameResult: the text
}

// tokenizer splits one game's text (PGN export or import format) into
// tokens. It keeps no more than its position, so its work and memory are
// linear in the text whatever the nesting.
type tokenizer struct {
	text  []byte
	pos   int
	line  int // line of text[pos]
	depth int // open (variations)
}

func newTokenizer(text []byte, firstLine int) *tokenizer {
	t := &tokenizer{text: text, line: firstLine}
	if bytes.HasPrefix(text, []byte("\xef\xbb\xbf")) {
		t.pos = 3 // a byte order mark
	}
	return t
}

func (t *tokenizer) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// next returns the next token, io.EOF at the end of the text, or an error
// naming the line.
func (t *tokenizer) next() (token, error) {
	for t.pos < len(t.text) {
		c := t.text[t.pos]
		switch {
		case c == '\n':
			t.line++
			t.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			t.pos++
		case c == '%' && (t.pos == 0 || t.text[t.pos-1] == '\n'):
			t.skipLine() // an escape line
		case c == ';':
			t.skipLine() // a rest-of-line comment
		case c == '{':
			end := bytes.IndexByte(t.text[t.pos:], '}')
			if end < 0 {
				return token{}, t.errorf(t.line, "comment not closed by '}'")
			}
			t.line += bytes.Count(t.text[t.pos:t.pos+end], []byte("\n"))
			t.pos += end + 1
		case c == '(':
			t.depth++
			t.pos++
		case c == ')':
			if t.depth == 0 {
				return token{}, t.errorf(t.line, "')' without a '('")
			}
			t.depth--
			t.pos++
		case c == '$':
			t.pos++
			if t.skipWhile(isDigit) == 0 {
				return token{}, t.errorf(t.line, "'$' without a number")
			}
		case c == '!' || c == '?' || c == '.':
			t.pos++ // annotation marks and the periods after move numbers
		case c == '*':
			t.pos++
			if t.depth == 0 {
				return token{kind: gameResult, line: t.line, value: "*"}, nil
			}
		case c == '[':
			if t.depth > 0 {
				return token{}, t.errorf(t.line, "tag pair inside a variation")
			}
			return t.tag()
		case isLetter(c) || isDigit(c):
			start := t.pos
			t.skipWhile(isSymbol)
			s := string(t.text[start:t.pos])
			switch {
			case t.depth > 0:
			case s == "1-0" || s == "0-1" || s == "1/2-1/2":
				return token{kind: gameResult, line: t.line, value: s}, nil
			case allDigits(s):
				// a move number
			default:
				return token{kind: sanMove, line: t.line, value: s}, nil
			}
		default:
			return token{}, t.errorf(t.line, "unexpected character %q", c)
		}
	}
	if t.depth > 0 {
		return token{}, t.errorf(t.line, "%d variations not closed by ')'", t.depth)
	}
	return token{}, io.EOF
}

// tag reads a tag pair: '[', a name, a quoted value and ']', on one line.
func (t *tokenizer) tag() (token, error) {
	line := t.line
	t.pos++ // '['
	t.skipWhile(isBlank)
	start := t.pos
	if t.skipWhile(isNameByte) == 0 {
		return token{}, t.errorf(line, "tag pair without a name")
	}
	name := string(t.text[start:t.pos])
	t.skipWhile(isBlank)
	if t.pos >= len(t.text) || t.text[t.pos] != '"' {
		return token{}, t.errorf(line, "tag %s: value not in quotes", name)
	}
	t.pos++
	var value []byte
	for {
		if t.pos >= len(t.text) || t.text[t.pos] == '\n' {
			return token{}, t.errorf(line, "tag %s: value not closed by '\"' on its line", name)
		}
		c := t.text[t.pos]
		t.pos++
		if c == '"' {
			break
		}
		if c == '\\' && t.pos < len(t.text) && (t.text[t.pos] == '"' || t.text[t.pos] == '\\') {
			c = t.text[t.pos]
			t.pos++
		}
		value = append(value, c)
	}
	t.skipWhile(isBlank)
	if t.pos >= len(t.text) || t.text[t.pos] != ']' {
		return token{}, t.errorf(line, "tag %s: no ']' after the value", name)
	}
	t.pos++
	return token{kind: tagPair, line: line, name: name, value: string(value)}, nil
}

// skipLine moves to the end of the line (not past its newline).
func (t *tokenizer) skipLine() {
	if i := bytes.IndexByte(t.text[t.pos:], '\n'); i >= 0 {
		t.pos += i
	} else {
		t.pos = len(t.text)
	}
}

// skipWhile moves past the bytes that satisfy ok and returns how many.
func (t *tokenizer) skipWhile(ok func(byte) bool) int {
	start := t.pos
	for t.pos < len(t.text) && ok(t.text[t.pos]) {
		t.pos++
	}
	return t.pos - start
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isBlank(c byte) bool  { return c == ' ' || c == '\t' || c == '\r' }

// isNameByte is a byte of a tag name.
func isNameByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }

// isSymbol is a byte of a PGN symbol: a move, a move number or a result.
func isSymbol(c byte) bool {
	return isNameByte(c) || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' || c == '/'
}

func allDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
