package search

import (
	"sort"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// Candidate is one root attempt as the last search saw it, for logs and
// replays (never for the opponent's eyes).
type Candidate struct {
	Move chess.Move
	// Visits over all trees; Value is the visit-weighted mean in pawns.
	Visits int64
	Value  float64
	// The referee's answer as the tree's chance node predicted it: the
	// probability that the attempt is refused, that it captures, that it
	// checks (from the first tree, which holds them all alike).
	PIllegal, PCapture, PCheck float64
	// The root's own chances, besides the tree's value, that decided
	// between the attempts (rootValue): it mates at once (PMate), it
	// leaves the opponent a mate in one that it finds (PMated), it draws
	// by repetition (PRepeat). Zero where the search did not look.
	PMate, PMated, PRepeat float64
}

// Candidates appends the root's attempts of the current decision, most
// visited first, to out. It is empty before the first search of a decision.
func (s *Searcher) Candidates(out []Candidate) []Candidate {
	if !s.rooted || len(s.trees) == 0 {
		return out
	}
	start := len(out)
	index := map[chess.Move]int{}
	for ti, t := range s.trees {
		r := &t.nodes[0]
		for c := r.first; r.first >= 0 && c < r.first+int32(r.nchild); c++ {
			a := &t.nodes[c]
			i, ok := index[a.move]
			if !ok {
				i = len(out)
				index[a.move] = i
				out = append(out, Candidate{Move: a.move})
			}
			cd := &out[i]
			cd.Value = (cd.Value*float64(cd.Visits) + float64(a.value)*float64(a.visits)) / float64(max(cd.Visits+int64(a.visits), 1))
			cd.Visits += int64(a.visits)
			if ti > 0 {
				continue
			}
			t.rootChances(c, cd)
			for j := a.first; a.first >= 0 && j < a.first+int32(a.nchild); j++ {
				ch := &t.nodes[j]
				p := float64(ch.prob)
				switch {
				case ch.illegal:
					cd.PIllegal += p
				default:
					if ch.capture != umpire.NoCapture {
						cd.PCapture += p
					}
					if ch.check != chess.NoCheck {
						cd.PCheck += p
					}
				}
			}
		}
	}
	sort.SliceStable(out[start:], func(i, j int) bool { return out[start+i].Visits > out[start+j].Visits })
	return out
}

// rootChances sets cd's root chances from root child c's (the counts are
// merged over the trees, so the first tree holds them all).
func (t *tree) rootChances(c int32, cd *Candidate) {
	j := int(c - t.nodes[0].first)
	if j < len(t.mates) {
		cd.PMate, cd.PMated = float64(t.mates[j]), float64(t.threat[j])
	}
	if j < len(t.repeat) {
		cd.PRepeat = float64(t.repeat[j])
	}
}

// SetParams replaces the opponent model's behavioural constants, for a
// new game against an opponent whose own model is known.
func (s *Searcher) SetParams(p oppmodel.Params) { s.params = p }
