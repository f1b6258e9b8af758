package oppmodel

import (
	"math"
	"testing"

	"kriegbot/engine/chess"
)

// prior is a copy of the consumer interface engine/belief defines; *Model
// and blended models must keep satisfying it.
type prior interface {
	Occupancy(opp chess.Color, c Class, move int) (d *[64]float32, ok bool)
	Trend(opp chess.Color, c Class, move int) (d *[64]float32, ok bool)
	Params() Params
}

var _ prior = (*Model)(nil)

func sum64(d *[64]float32) float64 {
	s := 0.0
	for _, v := range d {
		s += float64(v)
	}
	return s
}

func TestOccupancyIsADistribution(t *testing.T) {
	m := NewModel(countsFrom(t, randomGames(5, 60, 400), 80))
	served := 0
	for col := chess.White; col <= chess.Black; col++ {
		if h := m.Horizon(col); h < 20 {
			t.Fatalf("%s horizon %d, want at least 20 with 60 games", col, h)
		}
		for cls := range NumClasses {
			for mv := 0; mv <= m.Horizon(col); mv++ {
				d, ok := m.Occupancy(col, cls, mv)
				if !ok {
					continue
				}
				served++
				if s := sum64(d); math.Abs(s-1) > 1e-4 {
					t.Fatalf("%s %s move %d sums to %v", col, cls, mv, s)
				}
				for sq, v := range d {
					if v < 0 || (cls == Pawn && (sq < 8 || sq >= 56) && v != 0) {
						t.Fatalf("%s %s move %d square %d: %v", col, cls, mv, sq, v)
					}
				}
				tr, ok := m.Trend(col, cls, mv)
				next, okNext := m.Occupancy(col, cls, mv+1)
				if ok != okNext {
					t.Fatalf("trend served %v, next occupancy %v", ok, okNext)
				}
				if ok {
					for sq := range 64 {
						if tr[sq] != next[sq]-d[sq] {
							t.Fatalf("trend %s %s move %d square %d: %v, want %v", col, cls, mv, sq, tr[sq], next[sq]-d[sq])
						}
					}
				}
			}
		}
	}
	if served < 100 {
		t.Fatalf("only %d distributions served", served)
	}
	for _, q := range []struct {
		col  chess.Color
		cls  Class
		move int
	}{{chess.White, King, -1}, {chess.White, King, m.Horizon(chess.White) + 1}, {2, King, 1}, {chess.Black, NumClasses, 1}} {
		if _, ok := m.Occupancy(q.col, q.cls, q.move); ok {
			t.Errorf("Occupancy%v served", q)
		}
		if _, ok := m.Trend(q.col, q.cls, q.move); ok {
			t.Errorf("Trend%v served", q)
		}
	}
}

func TestOccupancyValues(t *testing.T) {
	games := make([][]chess.Move, 40)
	for i := range games {
		games[i] = uciMoves(t, "e2e4", "e7e5", "g1f3")
	}
	m := NewModel(countsFrom(t, games, 10))
	d, ok := m.Occupancy(chess.White, Pawn, 0)
	if !ok || d[sq(t, "e2")] != 0.125 || d[sq(t, "e4")] != 0 {
		t.Fatalf("start: ok %v e2 %v e4 %v, want exactly 1/8 and 0", ok, d[sq(t, "e2")], d[sq(t, "e4")])
	}
	d, _ = m.Occupancy(chess.White, Pawn, 1)
	// 40 games put the pawn on e4 (move 1 pools nothing: its window may not
	// reach move 0); the blur keeps 4/16 of e4's share on e4 and spreads the
	// rest to its neighbours; the uniform part adds 1/48.
	if _, pooled := m.Coverage(chess.White, Pawn, 1); pooled != 40 {
		t.Fatalf("pooled %d games at move 1, want 40", pooled)
	}
	if _, pooled := m.Coverage(chess.White, Pawn, 2); pooled != 80 {
		t.Fatalf("pooled %d games at move 2, want 80 (moves 1, 2 and 3)", pooled)
	}
	want := (40*0.125 + BlurWeight*0.125*4/16 + UniformWeight/48.0) / (40 + BlurWeight + UniformWeight)
	if got := d[sq(t, "e4")]; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("after 1.e4: e4 %v, want %v", got, want)
	}
	if d[sq(t, "e2")] <= 0 || d[sq(t, "e2")] >= d[sq(t, "e4")] {
		t.Errorf("after 1.e4: e2 %v should be small but positive (blur)", d[sq(t, "e2")])
	}
	tr, _ := m.Trend(chess.White, Pawn, 0)
	if tr[sq(t, "e4")] <= 0 || tr[sq(t, "e2")] >= 0 {
		t.Errorf("trend after 1.e4: e4 %v e2 %v", tr[sq(t, "e4")], tr[sq(t, "e2")])
	}
	// White made 2 moves in each game, black 1: horizons follow.
	if m.Horizon(chess.White) != 2 || m.Horizon(chess.Black) != 1 {
		t.Errorf("horizons %d %d, want 2 and 1", m.Horizon(chess.White), m.Horizon(chess.Black))
	}
	if g, p := m.Coverage(chess.White, Piece, 2); g != 40 || p < g {
		t.Errorf("coverage white piece move 2: %d pooled %d", g, p)
	}
}

func TestPoolingLateInTheGame(t *testing.T) {
	c := countsFrom(t, randomGames(9, 30, 400), 100)
	m := NewModel(c)
	mv := m.Horizon(chess.White)
	games, pooled := m.Coverage(chess.White, King, mv)
	if games >= PoolTarget || pooled <= games {
		t.Errorf("move %d: %d games pooled to %d; thin data must be pooled", mv, games, pooled)
	}
	games, pooled = m.Coverage(chess.White, King, 1)
	if games != 30 || pooled < games {
		t.Errorf("move 1: %d games, %d pooled", games, pooled)
	}
}

func TestPawnChainAndMovers(t *testing.T) {
	m := NewModel(countsFrom(t, randomGames(13, 40, 300), 60))
	for col := chess.White; col <= chess.Black; col++ {
		pc := m.Pawn(col)
		home := pawnHomeRank(col)
		for s := 8; s < 56; s++ {
			total := 0.0
			for st := range NumPawnSteps {
				total += float64(pc.Step[st][s])
			}
			if math.Abs(total-1) > 1e-5 {
				t.Fatalf("%s pawn on %d: steps sum to %v", col, s, total)
			}
			if s>>3 != home && pc.Step[PawnDouble][s] != 0 {
				t.Errorf("%s double step from %d", col, s)
			}
			if s&7 == 0 && pc.Step[PawnCaptureWest][s] != 0 || s&7 == 7 && pc.Step[PawnCaptureEast][s] != 0 {
				t.Errorf("%s capture off the board from %d", col, s)
			}
		}
		if pc.Step[PawnStay][home*8+4] < 0.5 {
			t.Errorf("%s e-pawn stays with chance %v", col, pc.Step[PawnStay][home*8+4])
		}
		for p := range maxPawns + 1 {
			for q := range maxPieces + 1 {
				sh := m.MoverShares(col, p, q)
				if s := float64(sh[0] + sh[1] + sh[2]); math.Abs(s-1) > 1e-5 {
					t.Fatalf("mover shares %d/%d sum to %v", p, q, s)
				}
				if p == 0 && sh[Pawn] != 0 || q == 0 && sh[Piece] != 0 {
					t.Fatalf("mover shares %d/%d: %v", p, q, sh)
				}
				// One given unit's chance times the units of its class
				// is the class's share.
				u := m.UnitMoveChances(col, p, q)
				if math.Abs(u[King]+float64(p)*u[Pawn]+float64(q)*u[Piece]-1) > 1e-5 {
					t.Fatalf("unit move chances %d/%d: %v do not add up to 1 over the units", p, q, u)
				}
				if p == 0 && u[Pawn] != 0 || q == 0 && u[Piece] != 0 {
					t.Fatalf("unit move chances %d/%d: %v", p, q, u)
				}
			}
		}
	}
	// Without data the shares are the paper's rule.
	e := NewModel(NewCounts(5))
	if sh := e.MoverShares(chess.White, 8, 7); math.Abs(float64(sh[King])-1.0/16) > 1e-6 {
		t.Errorf("empty model king share %v, want 1/16", sh[King])
	}
}

func TestParamsFit(t *testing.T) {
	e := NewModel(NewCounts(5))
	if e.Params() != DefaultParams() {
		t.Errorf("empty model params %+v, want the defaults", e.Params())
	}
	for _, f := range e.ParamsFit() {
		if f.Fitted {
			t.Errorf("%s fitted from nothing", f.Event)
		}
	}
	// 40 games of 1.e4 d5 2.exd5 Qxd5: black always recaptures.
	games := make([][]chess.Move, 40)
	for i := range games {
		games[i] = uciMoves(t, "e2e4", "d7d5", "e4d5", "d8d5")
	}
	m := NewModel(countsFrom(t, games, 10))
	f := m.ParamsFit()[EventRecapture]
	if !f.Fitted || f.Value != 1 || m.Params().RecaptureFirst != 1 {
		t.Errorf("recapture fit %+v params %+v", f, m.Params())
	}
	if got := m.ParamsFit()[EventCheckerCaptured]; got.Fitted || m.Params().CheckerCaptured != DefaultParams().CheckerCaptured {
		t.Errorf("checker-captured without checks: %+v", got)
	}
	// Piece shares: both sides keep their 7 pieces in all 4 positions of each
	// game, so the fit is the paper's starting-set values exactly.
	mf := m.MaterialFit()
	if !mf.Fitted || mf.Positions != 40*4 || math.Abs(mf.LineFactor-3.0/7) > 1e-12 || math.Abs(mf.KnightFactor-2.0/7) > 1e-12 {
		t.Errorf("material fit %+v", mf)
	}
	if m.Params().LineFactor != mf.LineFactor || m.Params().KnightFactor != mf.KnightFactor {
		t.Errorf("params %+v do not carry the material fit %+v", m.Params(), mf)
	}
	if e.MaterialFit().Fitted || e.Params().LineFactor != DefaultParams().LineFactor {
		t.Errorf("empty model material fit %+v", e.MaterialFit())
	}
}

func TestBlend(t *testing.T) {
	def := countsFrom(t, randomGames(21, 60, 200), 30)
	// The opponent always opens 1.a4 as White.
	opp := NewCounts(30)
	for range 30 {
		if err := opp.AddGame(uciMoves(t, "a2a4", "e7e5", "a4a5", "d7d5"), [2]bool{true, false}); err != nil {
			t.Fatal(err)
		}
	}
	base := NewModel(def)
	bl := Blend(def, opp, BlendGames)
	var _ prior = bl
	a4 := sq(t, "a4")
	d0, _ := base.Occupancy(chess.White, Pawn, 1)
	do := NewModel(opp)
	dop, _ := do.Occupancy(chess.White, Pawn, 1)
	db, ok := bl.Occupancy(chess.White, Pawn, 1)
	lambda := 30.0 / (30 + BlendGames)
	want := (1-lambda)*float64(d0[a4]) + lambda*float64(dop[a4])
	if !ok || math.Abs(float64(db[a4])-want) > 1e-6 {
		t.Fatalf("blended a4 %v, want %v", db[a4], want)
	}
	if s := sum64(db); math.Abs(s-1) > 1e-4 {
		t.Errorf("blended distribution sums to %v", s)
	}
	// Black was not recorded for the opponent: black's D is the default's.
	bb, _ := bl.Occupancy(chess.Black, Pawn, 1)
	b0, _ := base.Occupancy(chess.Black, Pawn, 1)
	if *bb != *b0 {
		t.Error("blending changed the colour the opponent was not seen with")
	}
	// Trend of the blend is the difference of the blended D.
	tr, _ := bl.Trend(chess.White, Pawn, 1)
	d2, _ := bl.Occupancy(chess.White, Pawn, 2)
	if tr[a4] != d2[a4]-db[a4] {
		t.Error("blended trend is not the difference of blended occupancies")
	}
	// An opponent never seen changes nothing.
	same := Blend(def, NewCounts(30), BlendGames)
	if same.Params() != base.Params() || *mustOcc(t, same, chess.White, Piece, 5) != *mustOcc(t, base, chess.White, Piece, 5) {
		t.Error("blending with no games changed the model")
	}
	// Counts of another horizon are brought to the default's.
	if other := Blend(def, opp.WithHorizon(12), BlendGames); other.Horizon(chess.White) != bl.Horizon(chess.White) {
		t.Errorf("horizon after re-horizoned blend %d, want %d", other.Horizon(chess.White), bl.Horizon(chess.White))
	}
}

func mustOcc(t *testing.T, m *Model, c chess.Color, cls Class, mv int) *[64]float32 {
	t.Helper()
	d, ok := m.Occupancy(c, cls, mv)
	if !ok {
		t.Fatalf("occupancy %s %s %d not served", c, cls, mv)
	}
	return d
}

func TestAccessorsDoNotAllocate(t *testing.T) {
	m := NewModel(countsFrom(t, randomGames(5, 10, 100), 20))
	allocs := testing.AllocsPerRun(100, func() {
		m.Occupancy(chess.Black, Piece, 3)
		m.Trend(chess.White, King, 4)
		m.Params()
		m.MoverShares(chess.White, 5, 5)
		m.UnitMoveChances(chess.Black, 5, 5)
		m.Pawn(chess.Black)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per call set, want 0", allocs)
	}
}

func BenchmarkOccupancyTrend(b *testing.B) {
	m := NewModel(countsFrom(b, randomGames(5, 10, 100), 20))
	b.ReportAllocs()
	var s float32
	for i := 0; b.Loop(); i++ {
		d, _ := m.Occupancy(chess.Color(i&1), Class(i%3), i%10)
		tr, _ := m.Trend(chess.Color(i&1), Class(i%3), i%10)
		s += d[i&63] + tr[i&63]
	}
	_ = s
}

func BenchmarkNewModel(b *testing.B) {
	c := countsFrom(b, randomGames(5, 10, 100), DefaultHorizon)
	b.ReportAllocs()
	for b.Loop() {
		NewModel(c)
	}
}
