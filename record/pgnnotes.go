package record

import (
	"strconv"
	"strings"

	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
)

// TurnNotes words, for a PGN comment, what a turn of a variant game said
// before its move, in order: runs of refused attempts by their word
// ("Illegal: e2e5 d1h5", "Nonsense: a1a8", "Impossible to ask: b2c3"), the
// "Any?" question with its answer ("any: Has pawn captures"), and runs of
// refusals whose attempt we were not told ("2 attempts refused": the
// opponent's, made public). The zero value is empty. Wild 16's comments
// are written as they always were, without it.
type TurnNotes struct {
	parts []string
	// The run being gathered: its word and moves, or its count of
	// attempts not named.
	run    string
	moves  []string
	hidden int
}

// Add notes one answer that played no move, as the side v was told it:
// move is the attempt ("" when not known).
func (n *TurnNotes) Add(v umpire.View, move string) {
	switch {
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		n.flush()
		n.parts = append(n.parts, AskAny+": "+strings.Join(v.Words(), ", "))
	case move == "":
		if n.run != "" {
			n.flush()
		}
		n.hidden++
	default:
		word := "Illegal"
		if !v.Illegal {
			word = strings.Join(v.Words(), ", ") // Impossible to ask, Nonsense
		}
		if n.run != word || n.hidden > 0 {
			n.flush()
		}
		n.run = word
		n.moves = append(n.moves, move)
	}
}

func (n *TurnNotes) flush() {
	switch {
	case n.hidden == 1:
		n.parts = append(n.parts, "1 attempt refused")
	case n.hidden > 1:
		n.parts = append(n.parts, strconv.Itoa(n.hidden)+" attempts refused")
	case n.run != "":
		n.parts = append(n.parts, n.run+": "+strings.Join(n.moves, " "))
	}
	n.run, n.moves, n.hidden = "", n.moves[:0], 0
}

// Take returns the notes (nil when there are none) and empties n.
func (n *TurnNotes) Take() []string {
	n.flush()
	p := n.parts
	n.parts = nil
	return p
}

// VariantMoves writes the answers of a game of another variant than
// wild 16 into a PGN's movetext, as every PGN of ours does (match, serve's
// records): a turn's refusals and "Any?" in the variant's words before the
// move that ends it (TurnNotes), the referee's words after it, and a
// crazykrieg game from its first drop on inside one comment (DropsNote),
// since PGN knows no drops. The zero value is ready.
type VariantMoves struct{ notes TurnNotes }

// Refused notes an answer that played no move.
func (m *VariantMoves) Refused(a *umpire.Answer) {
	m.notes.Add(a.For(a.Mover), MoveText(a.Attempt))
}

// Moved writes the legal move a, ply ply with SAN san, and its comment: the
// turn's notes, the referee's words as the mover heard them, the ending if
// the move ended the game, then extra (a clock).
func (m *VariantMoves) Moved(p *pgnout.Writer, ply int, san string, a *umpire.Answer, extra ...string) {
	if umpire.IsDrop(a.Attempt) {
		p.Divert(DropsNote)
	}
	p.Move(ply, san)
	v := a.For(a.Mover)
	c := append(m.notes.Take(), v.Words()...)
	if a.Ending != umpire.NotOver {
		c = append(c, a.Ending.String())
	}
	p.Comment(strings.Join(append(c, extra...), "; "))
}

// End closes the diverted part of the movetext and returns the notes of
// the last turn, which no move ended (nil when none).
func (m *VariantMoves) End(p *pgnout.Writer) []string {
	p.Undivert()
	return m.notes.Take()
}
