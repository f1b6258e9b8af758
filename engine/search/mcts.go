package search

import (
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// maxReplies bounds the captures of our men kept as the opponent's replies;
// the rest of the capture chance is folded into "nothing heard".
const maxReplies = 3

// minReply is the least chance of a reply capture kept as its own child.
const minReply = 0.02

// iterate runs one iteration of approach B or C: select down the tree,
// evaluate one new attempt (C: k = 1 weighted answers; B: a k-move
// simulation) and back the value up. It returns false when the pools are full.
func (t *tree) iterate(cfg *Config) bool {
	t.path = t.path[:0]
	i := int32(0)
	if k := len(t.prefix); k > 0 { // pondering: start below our accepted attempt
		t.path = append(t.path, t.prefix[:k-1]...)
		i = t.prefix[k-1]
	}
	var leaf float32
	for {
		t.path = append(t.path, i)
		n := &t.nodes[i]
		switch n.kind {
		case terminal:
			leaf = n.value
			t.backup(cfg, leaf)
			return true
		case answer:
			if n.first == noChild && !t.expandReplies(i) {
				return false
			}
			c := t.sample(i)
			if c < 0 {
				t.backup(cfg, n.value)
				return true
			}
			i = c
			continue
		}
		// decision node
		if n.state < 0 && !t.computeState(len(t.path)-1) {
			return false
		}
		n = &t.nodes[i]
		if n.kind == terminal { // an impossible reply (computeState)
			t.backup(cfg, n.value)
			return true
		}
		if n.first == noChild && !t.expandAttempts(i) {
			return false
		}
		n = &t.nodes[i]
		if n.nchild == 0 {
			t.backup(cfg, n.value)
			return true
		}
		c := int32(-1)
		if i == 0 && cfg.Widen > 0 {
			c = t.forcedAttempt(cfg.Widen)
		}
		if c < 0 {
			c = t.selectAttempt(i, t.explore, cfg.Approach)
		}
		if c < 0 {
			t.backup(cfg, n.value)
			return true
		}
		t.path = append(t.path, c)
		a := &t.nodes[c]
		if a.visits == 0 {
			e := &t.states[n.state]
			var m men
			m.fromBelief(&e.bel)
			if cfg.Approach == ApproachB {
				leaf = t.simulate(e, &m, a.move, cfg.K)
				a.value = leaf
			} else {
				var ans answers
				evalAttempt(e, &m, a.move, t.alt(i), t.eval, &ans)
				a.value = ans.mean()
				if cfg.Solver && ans.certainWin() {
					a.flags |= fSolved
				}
				if ans.sureRefusal() {
					a.flags |= fPruned
				}
				leaf = a.value
			}
			t.backup(cfg, leaf)
			return true
		}
		if a.first == noChild && !t.expandAnswers(i, c) {
			return false
		}
		ans := t.sample(c)
		if ans < 0 {
			t.backup(cfg, t.nodes[c].value)
			return true
		}
		i = ans
	}
}

// alt is the value of decision node i's turn should an attempt be refused:
// its best value so far (we would play another attempt), or its static value.
func (t *tree) alt(i int32) float32 {
	n := &t.nodes[i]
	if n.visits > 0 {
		return n.value
	}
	return t.states[n.state].static
}

// selectAttempt picks decision node i's child: the first not yet evaluated,
// else the best by UCT. Pruned and solved children are skipped.
func (t *tree) selectAttempt(i int32, c float64, ap Approach) int32 {
	n := &t.nodes[i]
	lnN := math.Log(float64(n.visits) + 1)
	best, bestScore := int32(-1), math.Inf(-1)
	for j := n.first; j < n.first+int32(n.nchild); j++ {
		ch := &t.nodes[j]
		if ch.flags&(fPruned|fSolved) != 0 {
			continue
		}
		if ch.visits == 0 {
			return j
		}
		score := float64(t.childValue(i, j)) + c*math.Sqrt(lnN/float64(ch.visits))
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	return best
}

// forcedAttempt returns the root's least visited attempt while it has fewer
// than widen·√N visits (N the root's), or -1: every root attempt is searched
// past its k = 1 value before the most promising takes the rest. A child
// searched deeper backs up the maximum of many values, which a sibling's one
// k = 1 value cannot match, so the first child to look better kept nearly
// every visit (6,301 of 6,346: a queen shuffling b1-a1 for 500 plies with a
// winning lead).
func (t *tree) forcedAttempt(widen float64) int32 {
	n := &t.nodes[0]
	need := int32(widen * math.Sqrt(float64(n.visits)))
	best := int32(-1)
	for j := n.first; j < n.first+int32(n.nchild); j++ {
		ch := &t.nodes[j]
		if ch.flags&(fPruned|fSolved) != 0 || ch.visits >= need {
			continue
		}
		if best < 0 || ch.visits < t.nodes[best].visits {
			best = j
		}
	}
	return best
}

// sample draws a child of chance node i by probability among the unsolved.
func (t *tree) sample(i int32) int32 {
	n := &t.nodes[i]
	var total float32
	for j := n.first; j < n.first+int32(n.nchild); j++ {
		if t.nodes[j].flags&fSolved == 0 {
			total += t.nodes[j].prob
		}
	}
	if total <= 0 {
		return -1
	}
	r := t.rng.Float32() * total
	last := int32(-1)
	for j := n.first; j < n.first+int32(n.nchild); j++ {
		if t.nodes[j].flags&fSolved != 0 {
			continue
		}
		last = j
		r -= t.nodes[j].prob
		if r < 0 {
			return j
		}
	}
	return last
}

// backup walks the path up: counts the visit and recomputes each node's
// value, the maximum at decision nodes and the expectation at chance nodes
// (approach C), or the running mean of leaf values (approaches A and B).
func (t *tree) backup(cfg *Config, leaf float32) {
	maxBackup := cfg.Approach == ApproachC
	for j := len(t.path) - 1; j >= 0; j-- {
		i := t.path[j]
		n := &t.nodes[i]
		n.visits++
		if !maxBackup {
			n.value += (leaf - n.value) / float32(n.visits)
			continue
		}
		if n.first == noChild || n.kind == terminal {
			continue
		}
		first, end := n.first, n.first+int32(n.nchild)
		if n.kind == decision {
			best := float32(math.Inf(-1))
			any, allSolved, proven, unvalued := false, true, false, false
			var sum, seen float32
			for c := first; c < end; c++ {
				ch := &t.nodes[c]
				if ch.flags&fPruned != 0 {
					continue
				}
				if ch.flags&fSolved == 0 {
					allSolved = false
					unvalued = unvalued || ch.visits == 0
				} else if ch.value >= winValue {
					proven = true
				}
				if ch.visits > 0 {
					v := t.childValue(i, c)
					sum += float32(ch.visits) * v
					seen += float32(ch.visits)
					if v > best {
						best, any = v, true
					}
				}
			}
			if mix := float32(cfg.Mix); any && mix > 0 && !proven {
				best += mix * (sum/seen - best)
			}
			if n.flags&fCollapsed != 0 {
				if unvalued && !proven {
					continue // keep the value found before the collapse
				}
				n.flags &^= fCollapsed
			}
			if any && j > 0 && !n.illegal && !proven && !allSolved {
				best = t.lessTempo(cfg, n, best)
			}
			if any {
				n.value = best
			}
			if cfg.Solver && any && (proven || allSolved) {
				n.flags |= fSolved
			}
			continue
		}
		var sum, w float32
		allSolved := true
		for c := first; c < end; c++ {
			ch := &t.nodes[c]
			sum += ch.prob * ch.value
			w += ch.prob
			if ch.flags&fSolved == 0 {
				allSolved = false
			}
		}
		if w > 0 {
			n.value = sum / w
		} else if n.kind == answer && t.nodes[first].kind == terminal {
			// Every reply is impossible: the game ended on our move
			// (computeState gave each the value of mate or stalemate).
			n.value = t.nodes[first].value
		}
		if cfg.Solver && allSolved {
			n.flags |= fSolved
		}
	}
}

// lessTempo is the value a decision node n below the root, reached by the
// opponent's reply, backs up when its best attempt is worth best: best less
// Config.Tempo, never below n's static value.
//
// Why: the tree gives us the choice of an attempt at each of our turns (a
// maximum over some forty k = 1 values, lucky captures among them) but the
// opponent only a chance of taking one of our men, so every turn of ours
// deeper in a line added what that choice is worth, about a pawn, and a
// subtree's value rose with its depth. The attempt searched deepest looked
// best, kept nearly every visit, and a longer search only deepened it:
// 8,000 iterations scored 41 % against 2,000 (docs/strength.md, round 9).
// Charging each of our turns the tempo keeps a line's value level as it
// deepens. The static value is the floor: the turn is worth at least
// standing still, and an unexpanded node is valued at it.
//
// Against a bare king at the root nothing is charged: there a turn's
// choice brings no lucky captures, only the king's room and our king's
// distance, worth a tenth of a pawn a square, so a tempo of a pawn
// flattened every line to its static value and the search looked no
// further than its next move but for a mate. With the charge the
// hidden-king drills at 1,000 nodes mated in 76 % of KR-K (310 plies on
// average) and 90 % of KQ-K (148 plies); without it 88 % (159) and 96 %
// (55) (docs/strength.md, round 12). The whole tree is then uncharged (the
// opponent's men never come back): exempting only the nodes below a
// capture of its last man made those lines look better than the charged
// rest (whole games against heuristic: 93.0 %, against 95.8 % before).
func (t *tree) lessTempo(cfg *Config, n *node, best float32) float32 {
	if cfg.Tempo == 0 || t.rootState().Units() == 0 {
		return best
	}
	best -= float32(cfg.Tempo)
	if n.state >= 0 {
		best = max(best, t.states[n.state].static)
	}
	return best
}

// expandAttempts gives decision node i its attempts: every attempt of our
// men not refused on the way here (an "Illegal move" chain of this turn).
func (t *tree) expandAttempts(i int32) bool {
	e := &t.states[t.nodes[i].state]
	var m men
	m.fromBelief(&e.bel)
	var refused [maxChildren]chess.Move
	nr := 0
	// Walk up through "Illegal move" answers of this turn.
	for j := len(t.path) - 1; j >= 2 && t.nodes[t.path[j]].illegal && nr < len(refused); j -= 2 {
		refused[nr] = t.nodes[t.path[j-1]].move
		nr++
	}
	m.attempts(refused[:nr], &t.moves)
	addDeepDrops(t.set.drops, &e.bel, &m, refused[:nr], &t.moves)
	return t.addAttempts(i, t.moves.Slice())
}

// addAttempts creates decision node i's children for moves.
func (t *tree) addAttempts(i int32, moves []chess.Move) bool {
	nm := min(len(moves), maxChildren)
	f := t.newNodes(nm)
	if f < 0 {
		return false
	}
	for j := range nm {
		c := &t.nodes[f+int32(j)]
		c.kind = attempt
		c.move = moves[j]
	}
	n := &t.nodes[i]
	n.first, n.nchild = f, uint8(nm)
	return true
}

// expandAnswers gives attempt c (child of decision node d) the referee's
// answers as children: "Illegal move" a decision node of the same turn, mate
// and stalemate terminal, the others answer nodes over the opponent's reply.
func (t *tree) expandAnswers(d, c int32) bool {
	e := &t.states[t.nodes[d].state]
	var m men
	m.fromBelief(&e.bel)
	var ans answers
	evalAttempt(e, &m, t.nodes[c].move, t.alt(d), t.eval, &ans)
	if ans.n == 0 {
		t.nodes[c].flags |= fSolved
		return true
	}
	f := t.newNodes(ans.n)
	if f < 0 {
		return false
	}
	for j := range ans.n {
		ch := &t.nodes[f+int32(j)]
		ch.prob, ch.value = ans.prob[j], ans.value[j]
		ch.capture, ch.check = ans.capture[j], ans.check[j]
		switch {
		case ans.illegal[j]:
			ch.kind, ch.illegal = decision, true
		case ans.term[j]:
			ch.kind, ch.flags = terminal, fSolved
		default:
			ch.kind = answer
		}
	}
	n := &t.nodes[c]
	n.first, n.nchild = f, uint8(ans.n)
	return true
}

// ourView is what we hear when the referee gives answer a to attempt mv.
func ourView(mv chess.Move, a *node) umpire.View {
	if a.illegal {
		return umpire.View{Heard: true, Own: true, Illegal: true}
	}
	v := umpire.View{Heard: true, Own: true, Move: mv, PawnTries: -1}
	v.Checks[0] = a.check
	if a.capture != umpire.NoCapture {
		v.Capture = umpire.Capture{Square: mv.To(), Kind: a.capture}
	}
	return v
}

// theirView is what we hear of the opponent's reply r.
func theirView(r *node) umpire.View {
	v := umpire.View{Heard: true, PawnTries: -1}
	v.Checks[0] = r.check
	if r.square != chess.NoSquare {
		v.Capture = umpire.Capture{Square: r.square, Kind: r.capture}
	}
	return v
}

// expandReplies gives answer node i the opponent's replies we may hear:
// nothing, or the capture of one of our most exposed men.
func (t *tree) expandReplies(i int32) bool {
	p := len(t.path) - 1 // t.path[p] == i
	at, dec := t.path[p-1], t.path[p-2]
	mv := t.nodes[at].move
	t.tmp = t.states[t.nodes[dec].state].bel
	t.tmp.Ours(mv, ourView(mv, &t.nodes[i]))
	t.tmp.ReplyCaptureRisk(&t.risk)
	if t.tmp.Units() <= fewUnits {
		kingTakes(&t.tmp, t.nodes[i].check != chess.NoCheck, &t.risk)
	}
	var sq [maxReplies]chess.Square
	var r [maxReplies]float32
	k := 0
	for s := range chess.Square(64) {
		if x := t.risk[s]; x >= minReply {
			k = keepLargest(sq[:], r[:], k, s, x)
		}
	}
	var kept float32
	for j := range k {
		kept += r[j]
	}
	var ck [maxCheckReplies]chess.CheckKind
	var cp [maxCheckReplies]float32
	nc := 0
	if t.set.replyChecks {
		nc = t.checkReplies(&ck, &cp)
		for j := range nc {
			kept += cp[j]
		}
	}
	f := t.newNodes(1 + k + nc)
	if f < 0 {
		return false
	}
	v := t.nodes[i].value
	q := &t.nodes[f]
	q.kind, q.prob, q.value = decision, max(1-kept, 0), v
	own := t.tmp.Own(chess.Pawn)
	for j := range k {
		ch := &t.nodes[f+1+int32(j)]
		ch.kind, ch.prob, ch.value, ch.square = decision, r[j], v, sq[j]
		ch.capture = umpire.PieceCaptured
		if own.Has(sq[j]) {
			ch.capture = umpire.PawnCaptured
		}
	}
	for j := range nc {
		ch := &t.nodes[f+1+int32(k+j)]
		ch.kind, ch.prob, ch.value, ch.square, ch.check = decision, cp[j], v, chess.NoSquare, ck[j]
	}
	n := &t.nodes[i]
	n.first, n.nchild = f, uint8(1+k+nc)
	return true
}

// maxCheckReplies bounds the checks on our king kept as the opponent's
// replies; minCheckReply is the least chance of one kept.
const (
	maxCheckReplies = 2
	minCheckReply   = 0.02
	checkFloor      = 0.015
	checkSpan       = 0.075
	checkKnee       = 0.012
)

// checkReplies fills kinds and probs with the likeliest checks the
// opponent's reply gives our king from t.tmp (the belief at its turn),
// most likely first, and returns how many. Without them the tree's
// opponent only took men: no line of ours ever met a check, so a king
// walked into the open cost nothing below the root.
func (t *tree) checkReplies(kinds *[maxCheckReplies]chess.CheckKind, probs *[maxCheckReplies]float32) int {
	var risk [chess.CheckKnight + 1]float64
	t.tmp.ReplyCheckRisk(&risk)
	var sum float64
	for _, x := range risk {
		sum += x
	}
	if sum <= 0 {
		return 0
	}
	// The model's spread moves men at random; real opponents check on
	// purpose. Calibrated on 15,474 replies of mcts self-play (2,000
	// nodes): predicted under 0.2 %, 1.5 % checked; 1-2 %, 7.7 %; over 2 %,
	// about 9 % (docs/strength.md, round 18).
	scale := (checkFloor + checkSpan*(1-math.Exp(-sum/checkKnee))) / sum
	n := 0
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		if x := float32(risk[k] * scale); x >= minCheckReply {
			n = keepLargest(kinds[:], probs[:], n, k, x)
		}
	}
	return n
}

// keepLargest adds key with chance x to keys[:n] and xs[:n], largest chance
// first, keeping the len(xs) largest; it returns the new count.
func keepLargest[K any](keys []K, xs []float32, n int, key K, x float32) int {
	j := n
	if n < len(xs) {
		n++
	} else if x <= xs[len(xs)-1] {
		return n
	} else {
		j = len(xs) - 1
	}
	for j > 0 && xs[j-1] < x {
		keys[j], xs[j] = keys[j-1], xs[j-1]
		j--
	}
	keys[j], xs[j] = key, x
	return n
}

// computeState gives the decision node at t.path[p] its belief, from the
// nearest decision node above it and what was heard on the way.
func (t *tree) computeState(p int) bool {
	i := t.path[p]
	n := &t.nodes[i]
	if n.illegal {
		at, dec := t.path[p-1], t.path[p-2]
		t.tmp = t.states[t.nodes[dec].state].bel
		t.tmp.Ours(t.nodes[at].move, ourView(t.nodes[at].move, n))
	} else {
		ans, at, dec := t.path[p-1], t.path[p-2], t.path[p-3]
		mv := t.nodes[at].move
		t.tmp = t.states[t.nodes[dec].state].bel
		t.tmp.Ours(mv, ourView(mv, &t.nodes[ans]))
		t.tmp.Theirs(theirView(n))
		if t.tmp.Support(oppmodel.King) == 0 {
			v := t.nodes[ans].value
			if t.firstReply(p) {
				v = t.eval.stalemate
				if t.nodes[ans].check != chess.NoCheck {
					v = winValue
				}
			}
			t.impossible(i, v)
			return true
		}
	}
	if !t.setState(i, &t.tmp) {
		return false
	}
	n = &t.nodes[i]
	if n.visits == 0 && !n.illegal {
		n.value = t.states[n.state].static
	}
	return true
}

// impossible turns reply node i into a terminal of no weight and value v:
// its belief left the opponent's king no square, so (the belief being
// sound) no world allows the reply. A king in check with no escape but to
// take one of our men could only take; with no move at all it was mated
// (checked) or stalemated: v is the value the node keeps for its answer
// should every reply prove impossible. Valued as beliefs, such nodes gave
// every attempt below them the same meaningless value (about 0.4 % of a
// late game's nodes).
func (t *tree) impossible(i int32, v float32) {
	n := &t.nodes[i]
	n.kind, n.flags, n.prob, n.value = terminal, n.flags|fSolved, 0, v
}

// firstReply reports whether the reply node at t.path[p] answers our first
// move below the root. Only there is a king without a square read as mate
// or stalemate: deeper, the beliefs rest on replies the tree made up
// (pawn tries unknown, captures folded), and an empty support there says
// more of them than of the position. Read as mate at any depth, a handful
// of such nodes (8 in 6,000 iterations) lifted a rook check on the eighth
// rank to 21 pawns against 13 for its twin, and the rook shuttled there
// while the opponent's pawns promoted (docs/strength.md, round 7); deeper
// ones now keep their answer's value.
func (t *tree) firstReply(p int) bool {
	for q := 1; q < p; q++ {
		if n := &t.nodes[t.path[q]]; n.kind == decision && !n.illegal {
			return false
		}
	}
	return true
}

// simulate is approach B's playout: k moves of referee messages drawn from
// the belief (our attempt's answer, the opponent's reply), our later attempts
// chosen by the usual human rules (take back where we were just taken, take
// announced pawn tries) or at random, extended while captures go on; the end
// is valued statically.
func (t *tree) simulate(e *stateEntry, m *men, mv chess.Move, k int) float32 {
	t.tmp = e.bel
	s := &t.tmp
	const maxRefusals, maxExtension = 8, 4
	ext := 0
	var cur men = *m
	for ply := 0; ply < k+ext; ply++ {
		captured := false
		for range maxRefusals {
			o := s.Outcomes(mv)
			r := t.rng.Float64()
			if r < o.Illegal {
				s.Ours(mv, umpire.View{Heard: true, Own: true, Illegal: true})
				cur.fromBelief(s)
				mv = t.randomAttempt(&cur, chess.NoSquare)
				if mv == chess.NullMove {
					return staticValue(s, &t.risk, t.eval)
				}
				continue
			}
			r -= o.Illegal
			v := umpire.View{Heard: true, Own: true, Move: mv, PawnTries: -1}
			switch {
			case r < o.CapturePawn:
				v.Capture = umpire.Capture{Square: mv.To(), Kind: umpire.PawnCaptured}
				captured = true
			case r < o.CapturePawn+o.CapturePiece:
				v.Capture = umpire.Capture{Square: mv.To(), Kind: umpire.PieceCaptured}
				captured = true
			}
			s.Ours(mv, v)
			break
		}
		if s.OurTurn() {
			break // every attempt refused: stop here
		}
		s.ReplyCaptureRisk(&t.risk)
		r := t.rng.Float32()
		w := umpire.View{Heard: true, PawnTries: -1}
		for sq := range chess.Square(64) {
			if r -= t.risk[sq]; r < 0 {
				kind := umpire.PieceCaptured
				if s.Own(chess.Pawn).Has(sq) {
					kind = umpire.PawnCaptured
				}
				w.Capture = umpire.Capture{Square: sq, Kind: kind}
				captured = true
				break
			}
		}
		s.Theirs(w)
		if captured && ply == k+ext-1 && ext < maxExtension {
			ext++ // quiescence: the chain of captures goes on
		}
		cur.fromBelief(s)
		mv = t.randomAttempt(&cur, w.Capture.Square)
		if mv == chess.NullMove {
			break
		}
	}
	return staticValue(s, &t.risk, t.eval)
}

// randomAttempt draws a simulated attempt: a recapture on the square where we
// were just taken if one of our men attacks it, else uniformly.
func (t *tree) randomAttempt(m *men, recapture chess.Square) chess.Move {
	m.attempts(nil, &t.moves)
	if t.moves.N == 0 {
		return chess.NullMove
	}
	if recapture != chess.NoSquare && recapture < 64 {
		for _, mv := range t.moves.Slice() {
			if mv.To() == recapture {
				return mv
			}
		}
	}
	return t.moves.Moves[t.rng.IntN(t.moves.N)]
}

// rootState is the belief at the root.
func (t *tree) rootState() *belief.State { return &t.states[t.nodes[0].state].bel }

// kingTakes raises risk[sq] for each undefended man of ours next to a square
// the opponent's king may stand on: with few men left the king takes what it
// bumps into, and a checked king takes the checker as one of its few ways out.
func kingTakes(s *belief.State, checked bool, risk *[64]float32) {
	var m men
	m.fromBelief(s)
	own := m.by[0]
	w := float32(hangQuiet)
	if checked {
		w = hangCheck
	}
	for b := own &^ m.by[chess.King]; b != 0; {
		sq := b.PopFirst()
		if defended(&m, sq, own) {
			continue
		}
		var p float32
		for k := chess.KingAttacks(sq) & s.Support(oppmodel.King); k != 0; {
			p += float32(s.Prob(oppmodel.King, k.PopFirst()))
		}
		risk[sq] = max(risk[sq], min(w*p, 1))
	}
	var total float32
	for _, r := range risk {
		total += r
	}
	if total > 1 {
		for sq := range risk {
			risk[sq] /= total
		}
	}
}
