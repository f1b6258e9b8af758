package pgnout

import (
	"strings"
	"testing"
)

func TestWriter(t *testing.T) {
	var w Writer
	w.Tag("Event", `a "quoted" \ event`)
	w.Tag("Result", "1-0")
	w.Move(0, "e4")
	w.Comment("0 pawn tries")
	w.Move(1, "d5")
	w.Move(2, "exd5")
	w.Comment("Pawn at d5 captured; {sneaky}")
	w.Comment("Illegal: d8d5")
	w.Move(3, "Qxd5")
	got := w.Finish("1-0")
	want := `[Event "a \"quoted\" \\ event"]
[Result "1-0"]

1. e4 {0 pawn tries} 1... d5 2. exd5 {Pawn at d5 captured; (sneaky)} {Illegal:
d8d5} 2... Qxd5 1-0

`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWrapsAt79(t *testing.T) {
	var w Writer
	for i := 0; i < 200; i++ {
		w.Move(i, "Nf3")
		if i%7 == 0 {
			w.Comment(strings.Repeat("word ", 30))
		}
	}
	out := w.Finish("*")
	for _, line := range strings.Split(out, "\n") {
		if len(line) > Width {
			t.Fatalf("line of %d: %q", len(line), line)
		}
	}
	if !strings.HasPrefix(out, "\n1. Nf3") {
		t.Fatalf("start %q", out[:20])
	}
}

// TestDivert: the moves after Divert are one comment, in the same
// notation, before the result; the movetext before it is untouched.
func TestDivert(t *testing.T) {
	var w Writer
	w.Move(0, "e4")
	w.Comment("silent")
	w.Divert("Drops:")
	w.Divert("ignored")
	w.Move(1, "N@e5")
	w.Comment("Drop of a knight")
	w.Move(2, "d4")
	got := w.Finish("1-0")
	want := "\n1. e4 {silent} {Drops: 1... N@e5 (Drop of a knight) 2. d4} 1-0\n\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
