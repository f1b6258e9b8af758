package umpire

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

func site(t testing.TB, name string) Rules {
	t.Helper()
	v, err := ParseVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return Site(v)
}

func TestParseVariant(t *testing.T) {
	names := VariantNames()
	want := []string{"berkeley", "berkeley_any", "cincinnati", "english", "rand", "crazykrieg", "wild16"}
	if len(names) != len(want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for i, n := range want {
		if names[i] != n {
			t.Fatalf("names %v, want %v", names, want)
		}
		v, err := ParseVariant(n)
		if err != nil || v.Name != n {
			t.Fatalf("ParseVariant(%q) = %+v, %v", n, v, err)
		}
		if v.IsWild16() != (n == "wild16") {
			t.Errorf("%s: IsWild16 %v", n, v.IsWild16())
		}
	}
	if !(Variant{}).IsWild16() || !ICC().Variant.IsWild16() || !KS().Variant.IsWild16() {
		t.Error("the zero Variant, ICC's and KS's must be wild 16")
	}
	if _, err := ParseVariant("wild17"); err == nil {
		t.Error("ParseVariant accepted wild17")
	}
	if v, err := ParseVariant("Berkeley_Any"); err != nil || v.Name != "berkeley_any" {
		t.Errorf("ParseVariant is case-blind: %+v, %v", v, err)
	}
}

// TestVariantAnswers checks one attempt per case: the verdict in the
// variant's word, who hears it, and the news of a legal move.
func TestVariantAnswers(t *testing.T) {
	const start = chess.StartFEN
	cases := []struct {
		variant, name, fen, move string
		verdict                  Verdict
		public                   bool
		capture                  string // "" none, else kind@square
		enPassant, promotion     bool
		result                   string
		check                    func(a Answer) bool
	}{
		{"berkeley", "off the list", start, "g1g3", ImpossibleToAsk, false, "", false, false, "", nil},
		{"berkeley", "pawn try refused, heard", start, "e2d3", IllegalMove, true, "", false, false, "", nil},
		{"berkeley", "untyped capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", MoveDone, true, "man@d5", false, false, "", nil},
		{"cincinnati", "nonsense", start, "g1g3", NonsenseMove, false, "", false, false, "", nil},
		{"cincinnati", "pawn try off the list without a capture", start, "e2d3", NonsenseMove, false, "", false, false, "", nil},
		{"cincinnati", "typed capture, has a pawn capture next", "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", MoveDone, true, "pawn@d5", false, false, "",
			func(a Answer) bool { return a.HasPawnCapture && a.PawnTries == -1 }},
		{"english", "off the list is illegal, heard", start, "g1g3", IllegalMove, true, "", false, false, "", nil},
		{"english", "en passant on the destination", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", MoveDone, true, "man@d6", true, false, "", nil},
		{"berkeley", "en passant on the pawn's square", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", MoveDone, true, "man@d5", false, false, "", nil},
		{"rand", "promotion announced", "4k3/P7/8/8/8/8/8/4K2R w - - 0 1", "a7a8r", MoveDone, true, "", false, true, "", nil},
		{"rand", "try squares", "4k3/8/8/2p1p3/3P4/8/8/4K3 b - - 0 1", "e8d8", MoveDone, true, "", false, false, "",
			func(a Answer) bool { return a.TrySquares == chess.NewSquare(3, 3).Bit() }},
		{"rand", "stalemate loses", "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "b5b6", MoveDone, true, "", false, false, "1-0", nil},
		{"wild16", "stalemate draws", "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "b5b6", MoveDone, true, "", false, false, "1/2-1/2", nil},
		{"wild16", "illegal is private", start, "e2d3", IllegalMove, false, "", false, false, "", nil},
		{"wild16", "nonsense is illegal", start, "g1g3", IllegalMove, false, "", false, false, "", nil},
		{"crazykrieg", "exact capture", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", MoveDone, true, "knight@d5", false, false, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.variant+"/"+tc.name, func(t *testing.T) {
			u := fromFEN(t, tc.fen, site(t, tc.variant))
			mover := u.Side()
			a, err := u.Attempt(move(t, tc.move))
			if err != nil {
				t.Fatal(err)
			}
			capture := ""
			if a.Capture.Kind != NoCapture {
				capture = a.Capture.Kind.String() + "@" + a.Capture.Square.String()
			}
			if a.Verdict != tc.verdict || a.Public != tc.public || a.Legal != (tc.verdict == MoveDone) || capture != tc.capture ||
				a.EnPassant != tc.enPassant || a.Promotion != tc.promotion || a.Result != tc.result {
				t.Fatalf("answer %s: %+v", a.String(), a)
			}
			if tc.check != nil && !tc.check(a) {
				t.Errorf("news of %s: %+v", a.String(), a)
			}
			opp := a.For(mover.Other())
			if opp.Heard != tc.public || (tc.verdict == IllegalMove && opp.Illegal != tc.public) || opp.Own {
				t.Errorf("opponent's view %+v", opp)
			}
			if own := a.For(mover); !own.Heard || !own.Own || own.Illegal != (tc.verdict == IllegalMove) {
				t.Errorf("mover's view %+v", own)
			}
		})
	}
}

// TestAskAny follows one turn of each ask-any rule: the answer, the
// obligation, the askable list and the release.
func TestAskAny(t *testing.T) {
	// White's e4 pawn can take d5 but not f5 (empty); c2 has no target.
	const fen = "4k3/8/8/3p4/4P3/8/2P5/4K3 w - - 0 1"
	count := func(u *Umpire) int {
		var l chess.MoveList
		u.Askable(&l)
		return l.N
	}
	t.Run("berkeley_any holds the obligation", func(t *testing.T) {
		u := fromFEN(t, fen, site(t, "berkeley_any"))
		all := count(u)
		if !u.CanAskAny() {
			t.Fatal("Any? not askable")
		}
		if a, _ := u.AskAny(); a.Verdict != HasAny || !a.Public || !u.MustTryPawns() || u.CanAskAny() {
			t.Fatalf("AskAny %+v, must %v", a, u.MustTryPawns())
		}
		if n := count(u); n != 4 { // e4d5 e4f5 c2b3 c2d3
			t.Fatalf("askable under the obligation: %d (of %d)", n, all)
		}
		if a, _ := u.Attempt(move(t, "e1d1")); a.Verdict != ImpossibleToAsk || a.Public {
			t.Fatalf("a king move under the obligation: %+v", a)
		}
		if a, _ := u.Attempt(move(t, "e4f5")); a.Verdict != IllegalMove || !u.MustTryPawns() || count(u) != 3 {
			t.Fatalf("failed try: %+v, must %v, askable %d", a, u.MustTryPawns(), count(u))
		}
		if a, _ := u.AskAny(); a.Verdict != ImpossibleToAsk {
			t.Fatalf("Any? twice: %+v", a)
		}
		if a, _ := u.Attempt(move(t, "e4d5")); a.Verdict != MoveDone || u.MustTryPawns() {
			t.Fatalf("the capture: %+v", a)
		}
		if !u.CanAskAny() {
			t.Fatal("Any? not askable in the next turn")
		}
	})
	t.Run("english releases after a failed try", func(t *testing.T) {
		u := fromFEN(t, fen, site(t, "english"))
		all := count(u)
		if a, _ := u.Attempt(move(t, "c2d3")); a.Verdict != IllegalMove {
			t.Fatalf("c2d3: %+v", a)
		}
		u.AskAny()
		if a, _ := u.Attempt(move(t, "e4f5")); a.Verdict != IllegalMove || u.MustTryPawns() || u.CanAskAny() {
			t.Fatalf("failed try: %+v, must %v", a, u.MustTryPawns())
		}
		// The list is rebuilt: c2d3, refused before the question, is back.
		if n := count(u); n != all-1 {
			t.Fatalf("askable after the release: %d, want %d", n, all-1)
		}
		if a, _ := u.Attempt(move(t, "e1d1")); a.Verdict != MoveDone {
			t.Fatalf("a free move after the release: %+v", a)
		}
	})
	t.Run("no pawn captures", func(t *testing.T) {
		u := fromFEN(t, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", site(t, "crazykrieg"))
		all := count(u)
		if a, _ := u.AskAny(); a.Verdict != NoAny || u.MustTryPawns() || u.CanAskAny() {
			t.Fatalf("AskAny %+v", a)
		}
		if n := count(u); n != all-2 {
			t.Fatalf("askable after no: %d, want %d", n, all-2)
		}
		if a, _ := u.Attempt(move(t, "e4d5")); a.Verdict != NonsenseMove || a.Public {
			t.Fatalf("a pawn try after no: %+v", a)
		}
	})
	t.Run("not in the variant", func(t *testing.T) {
		u := fromFEN(t, fen, site(t, "berkeley"))
		if a, _ := u.AskAny(); a.Verdict != ImpossibleToAsk || a.Public || u.CanAskAny() {
			t.Fatalf("AskAny %+v", a)
		}
	})
}

// TestRandAskableFollowsTrySquares: only the announced pawns may try.
func TestRandAskableFollowsTrySquares(t *testing.T) {
	u := fromFEN(t, "4k3/8/8/3p4/4P3/8/2P5/4K3 w - - 0 1", site(t, "rand"))
	if u.TrySquares() != chess.NewSquare(4, 3).Bit() {
		t.Fatalf("try squares %v", u.TrySquares())
	}
	var l chess.MoveList
	u.Askable(&l)
	if !l.Contains(move(t, "e4f5")) || l.Contains(move(t, "c2d3")) {
		t.Fatalf("askable %v", l.Slice())
	}
}

// TestVariantAttemptsAllocateNothing: every variant's referee allocates
// nothing per attempt, crazykrieg's drops included (chess.Position.Drop).
func TestVariantAttemptsAllocateNothing(t *testing.T) {
	for _, name := range VariantNames() {
		s := RandomStreamFor(site(t, name), 3, 4, 200)
		u := New(site(t, name))
		s.Replay(u) // grow the buffers
		if n := testing.AllocsPerRun(3, func() { s.Replay(u) }); n != 0 {
			t.Errorf("%s: %.0f allocations per replay", name, n)
		}
	}
}

func BenchmarkVariants(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			s := RandomStreamFor(Site(v), 1, 50, 300)
			u := New(Site(v))
			b.ReportAllocs()
			var total int
			for b.Loop() {
				n, _ := s.Replay(u)
				total += n
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "attempts/s")
		})
	}
}

// TestVariantWords: the plain words of the answers wild 16 does not have.
func TestVariantWords(t *testing.T) {
	cases := []struct {
		variant, fen string
		act          string // a move, or "any"
		words        string // what the opponent hears, joined by "|"
		text         string // Answer.String
	}{
		{"berkeley_any", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "any", "Has pawn captures", "any: Has pawn captures"},
		{"berkeley_any", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "any", "No pawn captures", "any: No pawn captures"},
		{"berkeley", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "Capture at d5", "e4d5: legal; Capture at d5"},
		{"english", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "En passant capture at d6", "e5d6: legal; En passant capture at d6"},
		{"rand", "4k3/P7/8/8/8/8/8/4K2R w - - 0 1", "a7a8r", "Promotion|Rank check|No pawn captures", "a7a8r: legal; Promotion; Rank check; No pawn captures"},
		{"rand", "4k3/8/8/2p1p3/3P4/8/8/4K3 b - - 0 1", "e8d8", "Pawn tries from d4", "e8d8: legal; Pawn tries from d4"},
		{"rand", "4k3/8/8/2p5/3P4/8/8/4K3 b - - 0 1", "c5c4", "No pawn captures", "c5c4: legal; No pawn captures"},
		{"berkeley", "4k3/8/8/2p5/3P4/8/8/4K3 b - - 0 1", "c5c4", "", "c5c4: legal"},
		{"cincinnati", "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "Pawn at d5 captured|Has pawn capture", "e4d5: legal; Pawn at d5 captured; Has pawn capture"},
		{"crazykrieg", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", "Knight at d5 captured", "e4d5: legal; Knight at d5 captured"},
		{"cincinnati", chess.StartFEN, "g1g3", "", "g1g3: Nonsense"},
		{"berkeley", chess.StartFEN, "e2d3", "Illegal move", "e2d3: Illegal move"},
	}
	for _, c := range cases {
		u := fromFEN(t, c.fen, site(t, c.variant))
		var a Answer
		if c.act == "any" {
			a, _ = u.AskAny()
		} else {
			a, _ = u.Attempt(move(t, c.act))
		}
		v := a.For(a.Mover.Other())
		if w := v.Words(); strings.Join(w, "|") != c.words || a.String() != c.text {
			t.Errorf("%s %s %s: words %q, text %q; want %q, %q", c.variant, c.fen, c.act, w, a.String(), c.words, c.text)
		}
	}
	p := Pockets{}
	p[chess.White][chess.Queen], p[chess.White][chess.Pawn], p[chess.Black][chess.Pawn] = 1, 2, 1
	if p.String() != "QPPp" || p.Empty() || !(Pockets{}).Empty() {
		t.Errorf("pockets %q", p.String())
	}
}

// TestExactInvertsCaptureKind: an exact announcement names back the type
// it was made from; the other kinds name none.
func TestExactInvertsCaptureKind(t *testing.T) {
	for _, pt := range []chess.PieceType{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen} {
		if got, ok := captureKind(CaptureExact, pt).Exact(); !ok || got != pt {
			t.Errorf("%v: Exact gives %v %v", pt, got, ok)
		}
	}
	for _, k := range []CaptureKind{NoCapture, PieceCaptured, ManCaptured} {
		if pt, ok := k.Exact(); ok || pt != chess.NoPieceType {
			t.Errorf("%v: Exact gives %v %v", k, pt, ok)
		}
	}
}
