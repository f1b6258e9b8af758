package belief

import (
	"math/rand/v2"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// playVariant plays attempts ("any" for the question, "P@e6" for a drop)
// under the site's rules for variant and feeds both beliefs what each side
// hears; it fails the test on a surprise or an unsound belief.
func playVariant(t *testing.T, variant string, moves ...string) (*[2]State, *umpire.Umpire) {
	t.Helper()
	v, err := umpire.ParseVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	u := umpire.New(umpire.Site(v))
	bel := [2]State{New(chess.White, nil), New(chess.Black, nil)}
	bel[0].SetVariant(v)
	bel[1].SetVariant(v)
	for _, mv := range moves {
		side := u.Side()
		var a umpire.Answer
		if mv == "any" {
			a, err = u.AskAny()
		} else {
			m, perr := umpire.ParseMoveText(mv)
			if perr != nil {
				t.Fatal(perr)
			}
			a, err = u.Attempt(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		bel[side].Ours(a.Attempt, a.For(side))
		if o := a.For(side.Other()); o.Heard {
			bel[side.Other()].Theirs(o)
		}
		for c := range bel {
			if n := bel[c].Surprises(); n != 0 {
				t.Fatalf("after %s: %s's belief has %d surprises", mv, chess.Color(c), n)
			}
			sound(t, &bel[c], u.Position())
		}
	}
	return &bel, u
}

func TestUntypedCaptureCountsAManNotAPawn(t *testing.T) {
	bel, _ := playVariant(t, "berkeley", "e2e4", "d7d5", "e4d5")
	w := &bel[chess.White]
	if w.Units() != 14 {
		t.Errorf("units %d, want 14", w.Units())
	}
	if _, max := w.Pawns(); max != 8 {
		t.Errorf("pawn bound %d, want 8: the capture was not said to be a pawn", max)
	}
}

func TestOurNoAnyProvesTheCaptureSquaresEmpty(t *testing.T) {
	bel, _ := playVariant(t, "berkeley_any", "e2e4", "h7h6")
	w := &bel[chess.White]
	if !w.Support(oppmodel.Pawn).Has(sq("d5")) {
		t.Fatal("d5 should be possible before the question")
	}
	bel, _ = playVariant(t, "berkeley_any", "e2e4", "h7h6", "any")
	w = &bel[chess.White]
	for _, s := range []string{"d5", "f5"} {
		if w.Support(oppmodel.Pawn).Has(sq(s)) || w.Support(oppmodel.Piece).Has(sq(s)) {
			t.Errorf("%s still possible after \"no pawn captures\"", s)
		}
	}
	if w.OpponentMoves() != 1 || !w.OurTurn() {
		t.Errorf("the question is no move: opponent moves %d, our turn %v", w.OpponentMoves(), w.OurTurn())
	}
}

func TestOurHasAnyRaisesTheCaptureSquares(t *testing.T) {
	before, _ := playVariant(t, "berkeley_any", "e2e4", "d7d5")
	after, _ := playVariant(t, "berkeley_any", "e2e4", "d7d5", "any")
	p0 := before[chess.White].Prob(oppmodel.Pawn, sq("d5")) + before[chess.White].Prob(oppmodel.Pawn, sq("f5"))
	p1 := after[chess.White].Prob(oppmodel.Pawn, sq("d5")) + after[chess.White].Prob(oppmodel.Pawn, sq("f5"))
	if p1 <= p0 || p1 < 0.9 {
		t.Errorf("pawn chance on d5+f5 %g before, %g after \"has pawn captures\"", p0, p1)
	}
}

func TestTheirAnyAnswers(t *testing.T) {
	bel, _ := playVariant(t, "english", "e2e4", "h7h6", "g1f3", "any")
	w := &bel[chess.White]
	for _, s := range []string{"d5", "f5"} {
		if w.Support(oppmodel.Pawn).Has(sq(s)) {
			t.Errorf("a black pawn on %s would take e4, yet Black heard \"no\"", s)
		}
	}
	if w.OpponentMoves() != 1 {
		t.Errorf("opponent moves %d, want 1", w.OpponentMoves())
	}
	bel, _ = playVariant(t, "english", "e2e4", "d7d5", "g1f3", "any")
	if p := bel[chess.White].Prob(oppmodel.Pawn, sq("d5")) + bel[chess.White].Prob(oppmodel.Pawn, sq("f5")); p < 0.9 {
		t.Errorf("pawn chance on d5+f5 %g after Black's \"has pawn captures\"", p)
	}
}

func TestCincinnatiNoPawnCapture(t *testing.T) {
	bel, _ := playVariant(t, "cincinnati", "e2e4", "h7h6")
	w := &bel[chess.White]
	if w.Support(oppmodel.Pawn).Has(sq("d5")) || w.Support(oppmodel.Pawn).Has(sq("f5")) {
		t.Error("d5 or f5 still possible after \"no pawn captures\"")
	}
	if ours, _ := w.PawnTries(); ours != 0 {
		t.Errorf("our pawn-try count %d after \"no pawn captures\", want 0 (Sample checks it)", ours)
	}
}

func TestRandTrySquares(t *testing.T) {
	bel, _ := playVariant(t, "rand", "e2e4", "d7d5", "g1f3")
	w := &bel[chess.White]
	// Black was told its pawn on d5 may capture: so are we.
	if !w.Full().Has(sq("d5")) || w.Prob(oppmodel.Pawn, sq("d5")) < 0.999 {
		t.Errorf("d5: proven %v, pawn chance %g; want a pawn for sure", w.Full().Has(sq("d5")), w.Prob(oppmodel.Pawn, sq("d5")))
	}
	// Our e4 pawn was named: d5 or f5 holds a man.
	if p := w.Prob(oppmodel.Pawn, sq("d5")) + w.Prob(oppmodel.Pawn, sq("f5")); p < 0.9 {
		t.Errorf("pawn chance on d5+f5 %g", p)
	}
}

func TestAnnouncedEnPassant(t *testing.T) {
	bel, u := playVariant(t, "english", "e2e4", "a7a6", "e4e5", "f7f5", "e5f6")
	pos := u.Position()
	if pos.PieceAt(sq("f5")) != chess.NoPiece {
		t.Fatal("the en passant capture was not played")
	}
	if bel[chess.White].Units() != 14 {
		t.Errorf("White counts %d black men, want 14", bel[chess.White].Units())
	}
}

func TestRandPromotionLowersThePawnBound(t *testing.T) {
	var s State = New(chess.White, nil)
	s.ourTurn = false
	_, before := s.Pawns()
	s.Theirs(umpire.View{Heard: true, Promotion: true, PawnTries: -1, PawnNews: umpire.PawnSquares})
	if _, after := s.Pawns(); after != before-1 {
		t.Errorf("pawn bound %d after an announced promotion, want %d", after, before-1)
	}
}

func TestCrazykriegDrops(t *testing.T) {
	bel, _ := playVariant(t, "crazykrieg", "e2e4", "d7d5", "e4d5", "d8d5", "P@d5", "P@e6")
	w, b := &bel[chess.White], &bel[chess.Black]
	if !w.Own(chess.Pawn).Has(sq("e6")) {
		t.Error("our dropped pawn is not on e6")
	}
	if b.Units() != 15 {
		t.Errorf("Black counts %d white men, want 15 after the drop", b.Units())
	}
	if _, max := b.Pawns(); max != 8 {
		t.Errorf("Black bounds White's pawns by %d, want 8 (7 + the drop)", max)
	}
}

// TestImaginedCapturesFillOurPocket: in crazykrieg a capture of an
// unnamed kind (a search's, the referee names every one) still goes to our
// pocket, a pawn as a pawn, a piece as one of unknown type; elsewhere
// nothing is pocketed.
func TestImaginedCapturesFillOurPocket(t *testing.T) {
	for _, c := range []struct {
		variant        string
		kind           umpire.CaptureKind
		pawns, unknown int
	}{
		{"crazykrieg", umpire.PawnCaptured, 1, 0},
		{"crazykrieg", umpire.PieceCaptured, 0, 1},
		{"cincinnati", umpire.PieceCaptured, 0, 0},
	} {
		bel, _ := playVariant(t, c.variant, "e2e4", "d7d5")
		w := bel[chess.White]
		take := chess.NewMove(sq("e4"), sq("d5"), chess.NoPieceType)
		w.Ours(take, umpire.View{Heard: true, Own: true, Move: take, Capture: umpire.Capture{Square: sq("d5"), Kind: c.kind}})
		if got := int(w.OurPocket()[chess.Pawn]); got != c.pawns || w.OurPocketPieces() != c.unknown {
			t.Errorf("%s, %v: pocket pawns %d, unknown pieces %d; want %d, %d", c.variant, c.kind, got, w.OurPocketPieces(), c.pawns, c.unknown)
		}
	}
}

func TestRefusedDropOutOfCheckProvesTheSquare(t *testing.T) {
	bel, _ := playVariant(t, "crazykrieg", "e2e4", "d7d5", "e4d5", "d8d5", "P@d5")
	if !bel[chess.White].Full().Has(sq("d5")) {
		t.Error("a drop refused out of check proves its square occupied")
	}
}

func TestRefusedAttemptThroughOurOwnMen(t *testing.T) {
	// english answers an attempt off the list "Illegal move", like wild 16.
	bel, _ := playVariant(t, "english", "a1a3")
	w := bel[chess.White]
	fresh := New(chess.White, nil)
	if w.p != fresh.p || w.full != fresh.full {
		t.Error("a refusal our own men explain taught something of the opponent")
	}
}

func TestTheirPublicRefusalChangesNothing(t *testing.T) {
	before, _ := playVariant(t, "berkeley", "e2e4")
	after, _ := playVariant(t, "berkeley", "e2e4", "d7e6")
	if before[chess.White] != after[chess.White] {
		t.Error("the opponent's refused attempt (its move untold) changed our belief")
	}
}

func TestVariantUpdatesAllocateNothing(t *testing.T) {
	for _, v := range umpire.Variants() {
		r := RecordUpdatesFor(umpire.Site(v), 3, 2, 60)
		if r.Len() == 0 {
			t.Fatalf("%s: empty stream", v.Name)
		}
		if n := testing.AllocsPerRun(3, func() { r.Replay(); r.ReplayOurs() }); n != 0 {
			t.Errorf("%s: %g allocations per replay", v.Name, n)
		}
	}
}

// BenchmarkVariantUpdates times both updates per variant over random games.
func BenchmarkVariantUpdates(b *testing.B) {
	for _, v := range umpire.Variants() {
		r := RecordUpdatesFor(umpire.Site(v), 7, 10, 200)
		b.Run(v.Name+"/theirs", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Replay()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*r.Len()), "ns/update")
		})
		b.Run(v.Name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.ReplayOurs()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(r.ourStates)), "ns/update")
		})
	}
}

func TestTheirHasAnyMakesTheCaptureAPawns(t *testing.T) {
	// Black's "has pawn captures" binds it to try them: its first move after
	// it, with no refusal between, took on e4 with a pawn (not the f6 knight).
	bel, _ := playVariant(t, "english", "e2e4", "d7d5", "g1f3", "any", "d5e4")
	w := &bel[chess.White]
	if w.Support(oppmodel.Piece).Has(sq("e4")) || w.Prob(oppmodel.Pawn, sq("e4")) < 0.999 {
		t.Errorf("e4: piece possible %v, pawn chance %g; want a pawn for sure", w.Support(oppmodel.Piece).Has(sq("e4")), w.Prob(oppmodel.Pawn, sq("e4")))
	}
	// Without the question a knight from f6 may have taken.
	bel, _ = playVariant(t, "english", "e2e4", "g8f6", "g1f3", "f6e4")
	if !bel[chess.White].Support(oppmodel.Piece).Has(sq("e4")) {
		t.Error("a knight on e4 should be possible")
	}
}

func TestTheirNoPawnCaptureExcludesAPawnCapturer(t *testing.T) {
	// cincinnati: after 2.Nf3 Black hears "no pawn captures".
	bel, _ := playVariant(t, "cincinnati", "e2e4", "g8f6", "g1f3")
	if bel[chess.White].theirNoPawnFrom != ^chess.Bitboard(0) {
		t.Fatalf("no pawn may take: excluded %v", bel[chess.White].theirNoPawnFrom)
	}
	// Then a capture on e4 is not by a pawn, though d5 may hold one whose
	// capture of e4 we could not prove legal.
	bel, _ = playVariant(t, "berkeley", "e2e4", "d7d5", "g1f3")
	take := umpire.View{Heard: true, Capture: umpire.Capture{Square: sq("e4"), Kind: umpire.ManCaptured}, PawnTries: -1}
	free := bel[chess.White]
	free.Theirs(take)
	if !free.Support(oppmodel.Pawn).Has(sq("e4")) {
		t.Fatal("a pawn on e4 should be possible without the news")
	}
	barred := bel[chess.White]
	barred.theirNoPawnFrom = ^chess.Bitboard(0)
	barred.Theirs(take)
	if barred.Support(oppmodel.Pawn).Has(sq("e4")) {
		t.Error("a pawn on e4 should be impossible after \"no pawn captures\"")
	}
}

func TestObligationAfterARefusedPawnTry(t *testing.T) {
	// berkeley_any keeps Black bound to pawn captures after its refused
	// c7b6: d5xe4 is a pawn's for sure. english releases it: a knight from
	// f6 may have taken.
	moves := []string{"e2e4", "d7d5", "g1f3", "any", "c7b6", "d5e4"}
	bel, _ := playVariant(t, "berkeley_any", moves...)
	if bel[chess.White].Support(oppmodel.Piece).Has(sq("e4")) {
		t.Error("berkeley_any: a piece on e4 should be impossible")
	}
	bel, _ = playVariant(t, "english", moves...)
	if !bel[chess.White].Support(oppmodel.Piece).Has(sq("e4")) {
		t.Error("english: a piece on e4 should be possible")
	}
}

func TestPockets(t *testing.T) {
	bel, u := playVariant(t, "crazykrieg", "e2e4", "d7d5", "e4d5", "d8d5", "P@d5", "P@e6")
	p := u.Pockets()
	for c := range bel {
		me := chess.Color(c)
		if bel[c].OurPocket() != p[me] || bel[c].TheirPocket() != p[me.Other()] {
			t.Errorf("%s: pockets ours %v theirs %v, the umpire's %v", me, bel[c].OurPocket(), bel[c].TheirPocket(), p)
		}
	}
}

func TestSampleOnVariantBeliefs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, v := range umpire.Variants() {
		r := RecordUpdatesFor(umpire.Site(v), 11, 3, 200)
		drawn := 0
		for i := 0; i < len(r.states); i += 7 {
			s := &r.states[i]
			var pos chess.Position
			if !s.Sample(rng, &pos) {
				continue
			}
			drawn++
			if pos.ByColor(s.Color()) != s.Own(chess.NoPieceType) {
				t.Fatalf("%s: a sampled board moved our men", v.Name)
			}
		}
		if drawn == 0 {
			t.Errorf("%s: no board drawn", v.Name)
		}
	}
}
