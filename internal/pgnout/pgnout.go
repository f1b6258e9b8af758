package pgnout

import (
	"strconv"
	"strings"
)

// Width is the longest movetext line.
const Width = 79

// Variant is the Variant tag of every PGN we write (one spelling: PGN
// readers and databases match it as a string).
const Variant = "Kriegspiel"

// RuleVariantTag names the tag that gives, beside Variant, the rule variant
// of a game that is not wild 16, by kriegspiel.org's identifier
// ([RuleVariant "berkeley_any"]); a wild 16 game has none.
const RuleVariantTag = "RuleVariant"

// Writer builds one game's PGN. The zero Writer is ready: add the tags, then
// the moves and comments in order, then call Finish.
type Writer struct {
	b          strings.Builder
	col        int
	inMoves    bool
	needNumber bool // a Black move after a comment repeats its number ("3...")
	// aside, once Divert was called, takes the moves and comments that
	// follow; note introduces them.
	aside *Writer
	note  string
}

var tagEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ")

// Tag writes [Name "value"], escaping the value.
func (w *Writer) Tag(name, value string) {
	w.b.WriteString("[" + name + " \"" + tagEscaper.Replace(value) + "\"]\n")
}

func (w *Writer) startMoves() {
	if !w.inMoves {
		w.b.WriteByte('\n')
		w.inMoves = true
		w.needNumber = true
	}
}

// word writes one token, breaking the line before it if it would not fit.
func (w *Writer) word(s string) {
	w.startMoves()
	if w.col > 0 && w.col+1+len(s) > Width {
		w.b.WriteByte('\n')
		w.col = 0
	}
	if w.col > 0 {
		w.b.WriteByte(' ')
		w.col++
	}
	w.b.WriteString(s)
	w.col += len(s)
}

// Move writes the SAN move of ply (0 for White's first move) with its number
// where one is due: before every White move, and before a Black move that
// follows a comment or starts the movetext.
func (w *Writer) Move(ply int, san string) {
	if w.aside != nil {
		w.aside.Move(ply, san)
		return
	}
	w.startMoves()
	n := strconv.Itoa(ply/2 + 1)
	switch {
	case ply%2 == 0:
		w.word(n + ".")
	case w.needNumber:
		w.word(n + "...")
	}
	w.word(san)
	w.needNumber = false
}

// Comment writes {text}, breaking lines between its words; braces inside
// become parentheses. Empty text writes nothing.
func (w *Writer) Comment(text string) {
	if w.aside != nil {
		w.aside.Comment(text)
		return
	}
	words := strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(text))
	if len(words) == 0 {
		return
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, x := range words {
		w.word(x)
	}
	w.needNumber = true
}

// Divert ends the movetext a PGN reader plays through: the moves and
// comments that follow are written, in the same notation, inside one comment
// after note, before the result. It is for moves an ordinary reader cannot
// play (a crazykrieg drop, "N@e4"): the file stays ordinary PGN and the game
// whole. A second call changes nothing.
func (w *Writer) Divert(note string) {
	if w.aside == nil {
		w.aside, w.note = &Writer{}, note
	}
}

// Undivert writes the moves and comments diverted since Divert as that one
// comment; what follows is movetext again (a closing comment). Without a
// Divert it does nothing.
func (w *Writer) Undivert() {
	a := w.aside
	if a == nil {
		return
	}
	w.aside = nil
	// Its comments become parentheses inside the one comment.
	w.Comment(w.note + " " + strings.TrimSpace(a.b.String()))
}

// Finish writes the result token (after Undivert) and returns the whole
// game, ending in a blank line.
func (w *Writer) Finish(result string) string {
	w.Undivert()
	w.word(result)
	w.b.WriteString("\n\n")
	return w.b.String()
}
