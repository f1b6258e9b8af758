package boardtree

import (
	"math"

	"kriegbot/engine/search/replymodel"
)

// onode is a node of the opponent's tree: what it heard of our move (the
// root's children and a move node's), or a move of its (a heard node's).
type onode struct {
	visits      int32
	child, next int32
	sum         float32 // for us: the opponent prefers the least
	key         uint64  // heard: our capture, checks and its pawn tries; move: the move
}

func (n *onode) mean() float64 {
	if n.visits == 0 {
		return 0
	}
	return float64(n.sum) / float64(n.visits)
}

// newONode takes a fresh node of the opponent's tree, or -1 when its pool
// is full.
func (s *Searcher) newONode(key uint64) int32 {
	var ok bool
	if s.onodes, ok = grow(s.onodes, int(s.onn), int(s.onn)+1, s.maxONodes); !ok {
		return -1
	}
	i := s.onn
	s.onn++
	s.onodes[i] = onode{child: -1, next: -1, key: key}
	return i
}

// onodeChild returns node p's child keyed key, made if new (fresh), or -1
// when the pool is full.
func (s *Searcher) onodeChild(p int32, key uint64) (int32, bool) {
	last := int32(-1)
	for c := s.onodes[p].child; c >= 0; c = s.onodes[c].next {
		if s.onodes[c].key == key {
			return c, false
		}
		last = c
	}
	c := s.newONode(key)
	if c < 0 {
		return -1, false
	}
	if last < 0 {
		s.onodes[p].child = c
	} else {
		s.onodes[last].next = c
	}
	return c, true
}

// opponentChooses returns the index in s.replies of the opponent's reply
// where its tree holds the line (s.ocur), heard its public answer to our
// move. A node new to its tree, or a full pool, ends its tree for the
// line: the reply is then drawn from the policy. Else it chooses by PUCT:
// its mean value (the least for us) plus OpponentC × the policy's chance ×
// √visits / (1 + the reply's visits); a reply it has not tried takes the
// node's own mean. Ties go to a random reply.
func (s *Searcher) opponentChooses(heard uint64) int {
	h, fresh := s.onodeChild(s.ocur, heard)
	if h < 0 {
		s.ocur = -1
		return s.pickReply()
	}
	s.opath = append(s.opath, h)
	if fresh {
		s.ocur = -1
		return s.pickReply()
	}
	w, sum := s.policy()
	hn := &s.onodes[h]
	root := math.Sqrt(float64(hn.visits)) / sum
	fpu := -hn.mean()
	n := len(s.replies)
	best, bestScore := 0, math.Inf(-1)
	start := s.rng.IntN(n)
	for k := range n {
		i := (start + k) % n
		key := uint64(s.list.Moves[i])
		q, visits := fpu, int32(0)
		for c := hn.child; c >= 0; c = s.onodes[c].next {
			if s.onodes[c].key == key {
				if v := s.onodes[c].visits; v > 0 {
					q, visits = -s.onodes[c].mean(), v
				}
				break
			}
		}
		if u := q + s.cfg.OpponentC*w[i]*root/float64(1+visits); u > bestScore {
			best, bestScore = i, u
		}
	}
	c, fresh := s.onodeChild(h, uint64(s.list.Moves[best]))
	if c < 0 {
		s.ocur = -1
		return best
	}
	s.opath = append(s.opath, c)
	s.ocur = c
	if fresh {
		s.ocur = -1
	}
	return best
}

// policy sets s.weights to the policy's weight of each of s.replies, in
// proportion to its chance, and returns them with their sum.
func (s *Searcher) policy() ([]float64, float64) {
	w := s.weights[:len(s.replies)]
	for i := range s.replies {
		w[i] = s.cfg.Weights.Score(&s.replies[i])
	}
	return w, replymodel.Exps(w)
}

// pickReply draws the opponent's reply from the policy over s.replies.
func (s *Searcher) pickReply() int {
	w, sum := s.policy()
	x := s.rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x <= 0 {
			return i
		}
	}
	return len(w) - 1
}
