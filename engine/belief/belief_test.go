package belief

import (
	"math/rand/v2"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// play drives an umpire and both beliefs through the given UCI attempts,
// failing the test on a refused parse; it returns the beliefs and the umpire.
func play(t testing.TB, moves ...string) (*[2]State, *umpire.Umpire) {
	t.Helper()
	u := umpire.New(umpire.ICC())
	bel := [2]State{New(chess.White, nil), New(chess.Black, nil)}
	for _, mv := range moves {
		m, err := chess.ParseUCI(mv)
		if err != nil {
			t.Fatal(err)
		}
		side := u.Side()
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		bel[side].Ours(m, a.For(side))
		if a.Legal {
			bel[side.Other()].Theirs(a.For(side.Other()))
		}
	}
	return &bel, u
}

// sound reports the first true opponent unit st gives no chance.
func sound(t *testing.T, st *State, pos chess.Position) {
	t.Helper()
	opp := st.Color().Other()
	for b := pos.ByColor(opp); b != 0; {
		sq := b.PopFirst()
		c := oppmodel.ClassOf(pos.PieceAt(sq).Type())
		if !st.Support(c).Has(sq) || st.Prob(c, sq) <= 0 {
			t.Errorf("%s's belief: true %s on %s has chance %g (position %s)", st.Color(), c, sq, st.Prob(c, sq), pos.FEN())
		}
	}
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		if st.Own(pt) != pos.Pieces(st.Color(), pt) {
			t.Errorf("%s's own %ss differ from the true board", st.Color(), pt)
		}
	}
}

func sq(s string) chess.Square {
	q, ok := chess.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}

func near(a, b float64) bool { return a-b < 1e-4 && b-a < 1e-4 }

func TestNewStartsFromTheInitialPosition(t *testing.T) {
	for _, c := range []chess.Color{chess.White, chess.Black} {
		s := New(c, nil)
		sound(t, &s, chess.StartPosition())
		if s.Support(oppmodel.King).Count() != 1 || s.Support(oppmodel.Pawn).Count() != 8 || s.Support(oppmodel.Piece).Count() != 7 {
			t.Errorf("%s: supports %d/%d/%d, want 1/8/7", c, s.Support(oppmodel.King).Count(), s.Support(oppmodel.Pawn).Count(), s.Support(oppmodel.Piece).Count())
		}
		if s.Units() != 15 {
			t.Errorf("%s: %d units", c, s.Units())
		}
	}
}

func TestOpponentMoveSpreadsAndKeepsCounts(t *testing.T) {
	bel, u := play(t, "e2e4", "e7e5")
	w := &bel[chess.White]
	sound(t, w, u.Position())
	// Black moved one unit; each pawn may have stepped one or two squares.
	for _, s := range []string{"e6", "e5", "a6", "a5", "h6"} {
		if w.Prob(oppmodel.Pawn, sq(s)) <= floor {
			t.Errorf("pawn chance on %s = %g, want > floor", s, w.Prob(oppmodel.Pawn, sq(s)))
		}
	}
	// Nothing can have reached the fourth rank yet.
	for b := chess.Rank4 &^ w.Own(0); b != 0; {
		s := b.PopFirst()
		if w.Support(oppmodel.Pawn).Has(s) || w.Support(oppmodel.Piece).Has(s) {
			t.Errorf("%s in a support after one black move", s)
		}
	}
	sum := func(c oppmodel.Class) float64 {
		t := 0.0
		for s := range 64 {
			t += w.Prob(c, chess.Square(s))
		}
		return t
	}
	if k, p, c := sum(oppmodel.King), sum(oppmodel.Pawn), sum(oppmodel.Piece); !near(k, 1) || !near(p+c, 15) {
		t.Errorf("sums king %g, pawns %g + pieces %g; want 1 and 15", k, p, c)
	}
	// The knights may have jumped, the king not (e7 was occupied, but the
	// support is only what the rules allow: e7 is now free).
	if w.Prob(oppmodel.Piece, sq("f6")) <= floor || w.Prob(oppmodel.Piece, sq("c6")) <= floor {
		t.Error("knight squares f6/c6 got no chance")
	}
	if w.Support(oppmodel.Piece).Has(sq("b4")) {
		t.Error("a piece may be on b4 after one move with the bishops shut in")
	}
}

// pieceMover is the uniform prior of an opponent that only ever moves its
// pieces.
type pieceMover struct{ UniformPrior }

func (pieceMover) UnitMoveChances(_ chess.Color, _, pieces int) [oppmodel.NumClasses]float64 {
	return [oppmodel.NumClasses]float64{oppmodel.Piece: 1 / float64(max(pieces, 1))}
}

// TestMoverShares: the belief moves each class of the opponent's units as
// often as its prior says that class moves. An opponent that only moves
// pieces leaves its pawns and king where they stood; the paper's rule
// (PaperMovers over the same prior) moves every unit alike; PawnMovers takes
// the pawns' chance from the prior and moves the rest by the rule.
func TestMoverShares(t *testing.T) {
	after := func(pr Prior) *State {
		u := umpire.New(umpire.ICC())
		u.Reset(chess.StartPosition())
		bel := FromPosition(chess.White, chess.StartPosition(), pr)
		for _, mv := range []string{"g1f3", "g8f6"} {
			m, err := umpire.ParseMoveText(mv)
			if err != nil {
				t.Fatal(err)
			}
			a, err := u.Attempt(m)
			if err != nil || !a.Legal {
				t.Fatalf("%s: %v %v", mv, a, err)
			}
			if v := a.For(chess.White); v.Own {
				v.Move = m
				bel.Ours(m, v)
			} else {
				bel.Theirs(v)
			}
		}
		return &bel
	}
	pieces := after(pieceMover{})
	paper := after(PaperMovers{Prior: pieceMover{}})
	pawnsOnly := after(PawnMovers{Prior: pieceMover{}})
	for _, s := range []string{"a7", "e7", "h7"} {
		if p := pawnsOnly.Prob(oppmodel.Pawn, sq(s)); !near(p, 1) {
			t.Errorf("the pawns of a piece mover under PawnMovers: %g on %s, want 1", p, s)
		}
	}
	if p, q := pawnsOnly.Prob(oppmodel.Piece, sq("f6")), paper.Prob(oppmodel.Piece, sq("f6")); !near(p, q) {
		t.Errorf("PawnMovers moves the pieces as the paper's rule does: f6 %g, want %g", p, q)
	}
	for _, s := range []string{"a7", "e7", "h7"} {
		if p := pieces.Prob(oppmodel.Pawn, sq(s)); !near(p, 1) {
			t.Errorf("a piece mover's pawn on %s: %g, want 1", s, p)
		}
		if p := paper.Prob(oppmodel.Pawn, sq(s)); near(p, 1) {
			t.Errorf("the paper's rule left the pawn on %s: %g, want it moved with some chance", s, p)
		}
	}
	if p := pieces.Prob(oppmodel.King, sq("e8")); !near(p, 1) {
		t.Errorf("a piece mover's king on e8: %g, want 1", p)
	}
	if p := pieces.Prob(oppmodel.Piece, sq("f6")) + pieces.Prob(oppmodel.Piece, sq("c6")); p <= paper.Prob(oppmodel.Piece, sq("f6"))+paper.Prob(oppmodel.Piece, sq("c6")) {
		t.Errorf("a piece mover's knights reach f6 and c6 with %g, no more than under the paper's rule", p)
	}
}

func TestPawnTriesZeroProvesEmpty(t *testing.T) {
	// After 1.e4 d5 White hears 1 pawn try: d5 or f5 holds a man (only
	// pawns can be there after one move), not both.
	bel, u := play(t, "e2e4", "d7d5")
	w := &bel[chess.White]
	sound(t, w, u.Position())
	if ours, _ := w.PawnTries(); ours != 1 {
		t.Fatalf("tries %d", ours)
	}
	if p := w.occ(sq("d5")) + w.occ(sq("f5")); p < 0.98 || p > 1.02 {
		t.Errorf("d5 + f5 occupied with chance %g after 1 pawn try, want 1", p)
	}
	// After 1.e4 e5 White hears 0 tries: d5 and f5 hold nothing.
	bel, _ = play(t, "e2e4", "e7e5")
	w = &bel[chess.White]
	for _, s := range []string{"d5", "f5"} {
		if w.Support(oppmodel.Pawn).Has(sq(s)) || w.Support(oppmodel.Piece).Has(sq(s)) {
			t.Errorf("%s still possible after 0 pawn tries", s)
		}
	}
}

func TestIllegalPawnPushProvesBlocker(t *testing.T) {
	// 1.e4 e5: White's e4-e5 is refused, so e5 is occupied (no pin, no check).
	bel, u := play(t, "e2e4", "e7e5", "e4e5")
	w := &bel[chess.White]
	sound(t, w, u.Position())
	if o := w.occ(sq("e5")); o < 0.99 {
		t.Errorf("e5 occupied with chance %g after e4-e5 was refused", o)
	}
}

func TestCheckPlacesTheEnemyKing(t *testing.T) {
	// Fool's mate setup: 1.f3 e5 2.g4 Qh4 is mate; stop at 1.e4 f6 2.Qh5+.
	bel, u := play(t, "e2e4", "f7f6", "d1h5")
	w := &bel[chess.White]
	sound(t, w, u.Position())
	// Short-diagonal check from h5: the king is on the h5-e8 diagonal.
	for b := w.Support(oppmodel.King); b != 0; {
		s := b.PopFirst()
		if k := chess.ClassifyCheck(s, sq("h5")); k == chess.NoCheck || !chess.BishopAttacks(sq("h5"), 0).Has(s) {
			t.Errorf("king may stand on %s, which h5 does not check diagonally", s)
		}
	}
	if !w.Support(oppmodel.King).Has(sq("e8")) {
		t.Error("e8 ruled out")
	}
	// Black hears a check on its king and learns the checker's line.
	b := &bel[chess.Black]
	if b.Checks()[0] == chess.NoCheck {
		t.Fatal("black heard no check")
	}
	if p := b.Prob(oppmodel.Piece, sq("h5")); p < 0.3 {
		t.Errorf("black gives the checker on h5 chance %g", p)
	}
	// Only the h5-e8 ray can hold the checker, so f7 (between the king and
	// the nearest possible checker square) is proven empty.
	for c := oppmodel.King; c < oppmodel.NumClasses; c++ {
		if b.Support(c).Has(sq("f7")) {
			t.Errorf("f7 still possible for the %s", c)
		}
	}
	// Any non-king move that does not block or capture on the diagonal is
	// (nearly) certainly illegal.
	m, _ := chess.ParseUCI("a7a6")
	if pl := b.ProbLegal(m); pl > 0.01 {
		t.Errorf("ProbLegal(a7a6) in check = %g", pl)
	}
	m, _ = chess.ParseUCI("g7g6")
	if pl := b.ProbLegal(m); pl < 0.3 {
		t.Errorf("ProbLegal(g7g6) blocking the check = %g", pl)
	}
}

func TestOpponentCaptureLocatesTheCapturer(t *testing.T) {
	bel, u := play(t, "e2e4", "d7d5", "e4d5", "d8d5")
	b := &bel[chess.Black]
	w := &bel[chess.White]
	sound(t, b, u.Position())
	sound(t, w, u.Position())
	if b.Units() != 14 {
		t.Errorf("black counts %d white men", b.Units())
	}
	if p, _ := b.Pawns(); !near(p, 7) {
		t.Errorf("black expects %g white pawns", p)
	}
	// White lost its pawn on d5: a black unit stands there for sure, the
	// queen (a piece) more likely than anything else.
	if o := w.occ(sq("d5")); o < 0.99 {
		t.Errorf("d5 occupied with chance %g", o)
	}
	if w.Own(chess.Pawn).Has(sq("d5")) {
		t.Error("captured pawn still on white's board")
	}
}

func TestEnPassantBothWays(t *testing.T) {
	// White takes en passant; then Black's pawn on d5 is gone.
	bel, u := play(t, "e2e4", "a7a6", "e4e5", "d7d5", "e5d6")
	for c := range bel {
		sound(t, &bel[c], u.Position())
	}
	if bel[chess.White].Units() != 14 {
		t.Error("white did not count the en passant capture")
	}
	// Black takes en passant.
	bel, u = play(t, "a2a3", "e7e5", "a3a4", "e5e4", "d2d4", "e4d3")
	for c := range bel {
		sound(t, &bel[c], u.Position())
	}
	if !bel[chess.White].Support(oppmodel.Pawn).Has(sq("d3")) {
		t.Error("white rules out the en passant capturer on d3")
	}
}

func TestOpponentCastlesAndPromotes(t *testing.T) {
	bel, u := play(t, "a2a3", "e7e5", "a3a4", "g8f6", "b2b3", "f8e7", "b3b4", "e8g8")
	sound(t, &bel[chess.White], u.Position())
	// Promotion: a black pawn running to a1 (captures included) must stay possible.
	bel, u = play(t, "g1f3", "h7h5", "f3e5", "h5h4", "e5g6", "h4h3", "g6h8", "h3g2", "a2a3", "g2f1q")
	for c := range bel {
		sound(t, &bel[c], u.Position())
	}
}

func TestSampleRespectsBelief(t *testing.T) {
	bel, _ := play(t, "e2e4", "d7d5", "e4d5", "d8d5", "b1c3")
	b := &bel[chess.Black]
	rng := rand.New(rand.NewPCG(1, 2))
	var first chess.Position
	for i := range 50 {
		var p chess.Position
		if !b.Sample(rng, &p) {
			t.Fatal("no board sampled")
		}
		if i == 0 {
			first = p
		}
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			if p.Pieces(chess.Black, pt) != b.Own(pt) {
				t.Fatalf("sample %d changed our %ss: %s", i, pt, p.FEN())
			}
		}
		if n := p.ByColor(chess.White).Count() - 1; n != b.Units() {
			t.Fatalf("sample %d has %d white men, want %d", i, n, b.Units())
		}
		for bb := p.ByColor(chess.White); bb != 0; {
			s := bb.PopFirst()
			if !b.Support(oppmodel.ClassOf(p.PieceAt(s).Type())).Has(s) {
				t.Fatalf("sample %d puts a man on %s outside the support: %s", i, s, p.FEN())
			}
		}
		if chess.KingAttacks(p.KingSquare(chess.White)).Has(p.KingSquare(chess.Black)) {
			t.Fatalf("kings adjacent: %s", p.FEN())
		}
	}
	// Same seed, same board.
	var again chess.Position
	b.Sample(rand.New(rand.NewPCG(1, 2)), &again)
	if again.FEN() != first.FEN() {
		t.Errorf("seeded samples differ: %s vs %s", first.FEN(), again.FEN())
	}
}

// TestSampleTypesPieces: the pieces' types are not dealt blindly. At the
// start every piece the opponent has stands at home; most draws give each
// its own type there (a uniform deal gives the knight on b8 its type 2
// times in 7), and two bishops share a square colour only by a promotion,
// which a draw all but never assumes.
func TestSampleTypesPieces(t *testing.T) {
	b := New(chess.White, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 400
	home, twins := 0, 0
	for range n {
		var p chess.Position
		if !b.Sample(rng, &p) {
			t.Fatal("no board sampled")
		}
		if pc := p.PieceAt(chess.B8); pc == chess.MakePiece(chess.Black, chess.Knight) {
			home++
		}
		bishops := p.Pieces(chess.Black, chess.Bishop)
		if (bishops & chess.LightSquares).More() || (bishops & chess.DarkSquares).More() {
			twins++
		}
	}
	if home < n*3/5 {
		t.Errorf("the piece on b8 is a knight in %d of %d draws, want most", home, n)
	}
	if twins > n/50 {
		t.Errorf("%d of %d draws have two bishops on one colour", twins, n)
	}
}

func TestOutcomesAreADistribution(t *testing.T) {
	bel, u := play(t, "e2e4", "d7d5", "g1f3", "c8g4")
	w := &bel[chess.White]
	var l chess.MoveList
	u.Askable(&l)
	for _, m := range l.Slice() {
		o := w.Outcomes(m)
		sum := o.Illegal + o.Quiet + o.CapturePawn + o.CapturePiece
		checks := 0.0
		for _, c := range o.Check {
			checks += c
		}
		if !near(sum, 1) || !near(checks, o.Legal()) || o.Illegal < 0 || o.Quiet < 0 {
			t.Errorf("%s: %+v (sum %g, checks %g)", m, o, sum, checks)
		}
	}
	// e4xd5 or e4xf5 captures (1 pawn try), most likely a pawn.
	m, _ := chess.ParseUCI("e4d5")
	m2, _ := chess.ParseUCI("e4f5")
	o, o2 := w.Outcomes(m), w.Outcomes(m2)
	if l := o.Legal() + o2.Legal(); l < 0.9 || l > 1.1 || o.CapturePawn < o.CapturePiece {
		t.Errorf("e4xd5: %+v\ne4xf5: %+v", o, o2)
	}
}

func TestUpdatesDoNotAllocate(t *testing.T) {
	bel, _ := play(t, "e2e4", "d7d5")
	w := bel[chess.White]
	m, _ := chess.ParseUCI("e4d5")
	v := umpire.View{Heard: true, Own: true, Capture: umpire.Capture{Square: sq("d5"), Kind: umpire.PawnCaptured}, PawnTries: 0}
	them := umpire.View{Heard: true, PawnTries: 1}
	n := testing.AllocsPerRun(100, func() {
		s := w
		s.Ours(m, v)
		s.Theirs(them)
		_ = s.Outcomes(m)
	})
	if n != 0 {
		t.Errorf("%g allocations per update", n)
	}
}

func TestReplyCaptureRisk(t *testing.T) {
	// 1.e4 d5 2.exd5: White's pawn on d5 is exposed to the recapture.
	bel, _ := play(t, "e2e4", "d7d5", "e4d5")
	w := &bel[chess.White]
	var risk [64]float32
	w.ReplyCaptureRisk(&risk)
	if got, want := float64(risk[sq("d5")]), w.params.RecaptureFirst; !near(got, want) {
		t.Errorf("recapture risk on d5 = %g, want RecaptureFirst %g", got, want)
	}
	if risk[sq("e1")] != 0 {
		t.Error("the king has a capture risk")
	}
	total := 0.0
	for s, r := range risk {
		if s != int(sq("d5")) {
			total += float64(r)
		}
	}
	if !near(total, w.params.CaptureOnMove) {
		t.Errorf("other risks sum to %g, want CaptureOnMove %g", total, w.params.CaptureOnMove)
	}
}

func TestProbControl(t *testing.T) {
	// 1.e4 f6 2.Qh5+: Black, in check, knows a piece attacks along the h5-e8
	// diagonal; a6 is far from anything White could have brought out.
	bel, _ := play(t, "e2e4", "f7f6", "d1h5")
	b := &bel[chess.Black]
	if c := b.ProbControl(sq("f7")); c < 0.2 {
		t.Errorf("ProbControl(f7) = %g, next to the checker's line", c)
	}
	if p := b.ProbAttacked(sq("a6")); p > 0.2 {
		t.Errorf("ProbAttacked(a6) = %g", p)
	}
}

func TestSampleMatchesWhatWasHeard(t *testing.T) {
	// Black, in check from h5, samples boards with that very check and with
	// its pawn-try count.
	bel, _ := play(t, "e2e4", "f7f6", "d1h5")
	b := &bel[chess.Black]
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 20 {
		var p chess.Position
		if !b.Sample(rng, &p) {
			t.Fatal("no board sampled")
		}
		k1, k2 := p.CheckKinds()
		if !sameChecks(k1, k2, b.Checks()) {
			t.Fatalf("sample %d: checks %s/%s, heard %v: %s", i, k1, k2, b.Checks(), p.FEN())
		}
		if p.Side() != chess.Black {
			t.Fatalf("sample %d: %s to move", i, p.Side())
		}
	}
}

func TestExchangeChain(t *testing.T) {
	// 1.e4 d5 2.Nc3 Nf6 3.exd5 Nxd5 4.Nxd5: our first capture is taken back
	// with RecaptureFirst; 4.Nxd5 continues the exchange and is judged by
	// Prob_control instead. A quiet move in between ends the exchange.
	bel, _ := play(t, "e2e4", "d7d5", "b1c3", "g8f6", "e4d5", "f6d5", "g1f3", "e7e5")
	if w := &bel[chess.White]; w.chain != 0 {
		t.Errorf("chain %d after a quiet move", w.chain)
	}
	bel, _ = play(t, "e2e4", "d7d5", "b1c3", "g8f6", "e4d5", "f6d5", "c3d5")
	w := &bel[chess.White]
	if w.chain != 2 || w.lastCapture != sq("d5") {
		t.Fatalf("chain %d on %s, want 2 on d5", w.chain, w.lastCapture)
	}
	var risk [64]float32
	w.ReplyCaptureRisk(&risk)
	if want := min(w.ProbControl(sq("d5")), 1); !near(float64(risk[sq("d5")]), want) {
		t.Errorf("second capture's risk %g, want Prob_control %g", risk[sq("d5")], want)
	}
}

func TestNonsenseAttemptTellsNothing(t *testing.T) {
	// A rook "move" a1-c3 is refused whatever stands on b2 (our pawn moved
	// away first so the geometry is the only reason): no square is proven.
	bel, _ := play(t, "b2b4", "e7e5")
	w := bel[chess.White]
	before := w
	m, _ := chess.ParseUCI("a1c3")
	w.Ours(m, umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1})
	if w.Full() != before.Full() || w.p != before.p {
		t.Error("a nonsense attempt changed the belief")
	}
	if o := w.Outcomes(m); o.Illegal != 1 {
		t.Errorf("nonsense attempt outcomes %+v", o)
	}
}

func TestCheckLineProvesEmptySquares(t *testing.T) {
	// Black king on e8, its e-pawn gone; White's only straight-moving piece
	// may stand on e4, a knight may stand on e6. A file check must come from
	// e4 along an empty e7-e5: e6 is proven empty, e4 proven occupied.
	s := New(chess.Black, nil)
	s.removeOwn(sq("e7"))
	s.zero(piece, s.supp[piece])
	s.moves[jumper] = sq("e6").Bit()
	s.moves[straight] = sq("e4").Bit()
	s.supp[piece] = s.moves[jumper] | s.moves[straight]
	s.p[piece][sq("e6")], s.p[piece][sq("e4")] = 0.5, 0.5
	s.locateChecker([2]chess.CheckKind{chess.CheckFile})
	if s.Support(oppmodel.Piece).Has(sq("e6")) {
		t.Error("e6 still possible between the king and the only checker square")
	}
	if !s.Full().Has(sq("e4")) {
		t.Error("the lone checker square e4 is not proven occupied")
	}
	if s.checker[sq("e4")] < 0.99 {
		t.Errorf("checker on e4 with chance %g", s.checker[sq("e4")])
	}
}

// hiddenKing returns White's belief in the public position fen with the
// opponent's king hidden (HideKing), and the position.
func hiddenKing(t *testing.T, fen string) (State, chess.Position) {
	t.Helper()
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	st := FromPosition(chess.White, pos, nil)
	st.HideKing()
	return st, pos
}

// TestHideKing checks that a hidden king may stand on every square a king
// could legally occupy with White to move (and only there), each as likely.
func TestHideKing(t *testing.T) {
	st, pos := hiddenKing(t, "3k4/8/6Q1/4K3/8/8/8/8 w - - 0 1")
	var want chess.Bitboard
	white := pos.ByColor(chess.White)
	for sq := chess.Square(0); sq < 64; sq++ {
		if !white.Has(sq) && pos.AttackersTo(sq, white)&white == 0 {
			want |= sq.Bit()
		}
	}
	if want.Count() != 64-2-26 {
		t.Fatalf("test set-up: %d free squares", want.Count())
	}
	if got := st.Support(oppmodel.King); got != want {
		t.Fatalf("support %v, want %v", got, want)
	}
	n := float64(want.Count())
	for b := want; b != 0; {
		sq := b.PopFirst()
		if p := st.Prob(oppmodel.King, sq); p < 1/n-1e-6 || p > 1/n+1e-6 {
			t.Fatalf("P(king on %v) = %v, want %v", sq, p, 1/n)
		}
	}
}

// TestKingNotOnSweptLine checks that after the opponent's move its king is
// on no square our men attack through squares only its king may hold: a
// king cannot shield itself, so a hidden bare king is off the whole rank and
// file our queen sweeps (it used to keep the far end of each line).
func TestKingNotOnSweptLine(t *testing.T) {
	st, pos := hiddenKing(t, "7Q/8/2K5/8/8/8/8/6k1 b - - 0 1")
	u := umpire.New(umpire.ICC())
	u.Reset(pos)
	m, _ := chess.ParseUCI("g1g2")
	a, err := u.Attempt(m)
	if err != nil || !a.Legal {
		t.Fatalf("g1g2: %v %v", a, err)
	}
	st.Theirs(a.For(chess.White))
	white := pos.ByColor(chess.White)
	var attacked chess.Bitboard
	for b := white; b != 0; {
		sq := b.PopFirst()
		attacked |= chess.Attacks(chess.White, pos.PieceAt(sq).Type(), sq, white)
	}
	if bad := st.Support(oppmodel.King) & attacked; bad != 0 {
		t.Fatalf("king may stand on attacked squares %v", bad)
	}
	if g2, _ := chess.ParseSquare("g2"); !st.Support(oppmodel.King).Has(g2) {
		t.Fatal("the king's true square g2 is out of the support")
	}
}

// TestProbMenAttack: the chance that a man other than the opponent's king
// attacks a square (the king, next to it, does not count).
func TestProbMenAttack(t *testing.T) {
	tests := []struct {
		fen, square string
		min, max    float64
	}{
		{"8/8/8/8/8/8/6k1/K6N w - - 0 1", "h1", 0, 0},   // only the king touches h1
		{"4k3/8/8/8/8/8/6p1/K6Q w - - 0 1", "h1", 1, 1}, // a pawn takes on h1
		{"4k3/8/8/8/8/6n1/8/K6Q w - - 0 1", "h1", 0.01, 0.99},
		{"4k3/8/8/8/8/6n1/8/K6Q w - - 0 1", "a8", 0, 0},
	}
	for _, tc := range tests {
		pos, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := FromPosition(chess.White, pos, nil)
		if p := s.ProbMenAttack(sq(tc.square)); p < tc.min-1e-9 || p > tc.max+1e-9 {
			t.Errorf("%s, %s: %v, want in [%v, %v]", tc.fen, tc.square, p, tc.min, tc.max)
		}
	}
	pos, _ := chess.ParseFEN("8/8/8/8/8/8/6k1/K6N w - - 0 1")
	s := FromPosition(chess.White, pos, nil)
	if s.ProbAttacked(sq("h1")) == 0 {
		t.Error("ProbAttacked leaves out the king next to h1")
	}
}

func TestReplyCheckRisk(t *testing.T) {
	// Black to move, its men known; White's king on e1 (a rook, a knight or
	// nothing to check it with).
	tests := []struct {
		name, fen string
		some      []chess.CheckKind // kinds with a chance
	}{
		{"rook reaches the e-file and the first rank", "r6k/8/8/8/8/8/8/4K3 b - - 0 1", []chess.CheckKind{chess.CheckFile, chess.CheckRank}},
		{"knight jumps to d3 or c2", "7k/8/8/8/1n6/8/8/4K3 b - - 0 1", []chess.CheckKind{chess.CheckKnight}},
		{"bishop reaches b4 on the long diagonal", "5b1k/8/8/8/8/8/8/4K3 b - - 0 1", []chess.CheckKind{chess.CheckLongDiagonal}},
		{"bare king gives no check", "7k/8/8/8/8/8/8/4K2R b - - 0 1", nil},
		{"our pawns wall the king in", "r6k/8/8/8/8/8/3PPP2/3RKR2 b - - 0 1", nil},
	}
	for _, tc := range tests {
		pos, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := FromPosition(chess.White, pos, nil)
		var risk [chess.CheckKnight + 1]float64
		s.ReplyCheckRisk(&risk)
		want := map[chess.CheckKind]bool{}
		for _, k := range tc.some {
			want[k] = true
		}
		for k := chess.NoCheck; k <= chess.CheckKnight; k++ {
			t.Logf("%s: %s %.3f", tc.name, k, risk[k])
			if r := risk[k]; r < 0 || r > 1 || want[k] != (r > 0.001) {
				t.Errorf("%s: risk of a %s check %g", tc.name, k, r)
			}
		}
	}
}
