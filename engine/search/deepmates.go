package search

import "math"

// Mates below the root. The root counts, on boards drawn from its belief,
// each attempt's chances of mating and of leaving the opponent a mate in one
// (threat.go); the rest of the tree knew mate only against a bare king, so
// a longer search, however deep, saw no more mates than a short one, while
// most games between two searches end in mate. With Config.DeepMates set, a
// decision node below the root that reaches that many visits gets the same
// count for its attempts on deepBoards boards drawn from its own belief, once,
// and its attempts are valued with them (childValue). The longer the search,
// the more nodes are counted, and the deeper: the mates a line leads to come
// into its value. The count draws on the tree's generator at a point fixed
// by the iterations, so a search stays exact from its counts.

// deepBoards is the number of boards a counted decision node draws: half
// the root's, as each costs about 50 µs over the attempts of a middlegame.
const deepBoards = 16

// countDeep counts the mates of decision node i's attempts (see above) and
// marks it counted.
func (t *tree) countDeep(cfg *Config, i int32) {
	n := &t.nodes[i]
	n.flags |= fCounted
	bel := &t.states[n.state].bel
	t.sampleBoards(bel, deepBoards)
	if len(t.boards) == 0 {
		return
	}
	own := cfg.OwnMates && bel.Units() > 0 // a bare king: the answers know mate
	for c := n.first; c < n.first+int32(n.nchild); c++ {
		ch := &t.nodes[c]
		k := t.countMove(ch.move, cfg.MateThreat > 0)
		var lost, won float64
		if k.legal > 0 {
			lost = cfg.MateThreat * float64(k.mated) / float64(k.legal)
		}
		if own {
			won = float64(k.won) / float64(len(t.boards))
		}
		ch.threat, ch.mates = chance255(lost), chance255(won)
	}
}

// chance255 is p in 255ths, rounded.
func chance255(p float64) uint8 {
	return uint8(math.Round(min(max(p, 0), 1) * 255))
}
