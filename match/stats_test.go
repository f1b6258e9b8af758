package match

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestElo checks the Elo difference and the 95 % margin against values
// computed independently (cutechess-cli's formulas, evaluated in Python).
func TestElo(t *testing.T) {
	tests := []struct {
		t           Tally
		elo, margin float64
	}{
		{Tally{W: 30, L: 10, D: 10}, 147.19071411783776, 95.13895425816685},
		{Tally{W: 100, L: 80, D: 20}, 34.86007028756008, 46.16251134130957},
		{Tally{W: 60, L: 50, D: 90}, 17.386277512436145, 35.845551624634254},
	}
	for _, tc := range tests {
		elo, margin := tc.t.Elo()
		if !near(elo, tc.elo, 1e-9) || !near(margin, tc.margin, 1e-9) {
			t.Errorf("%+v: Elo %v ± %v, want %v ± %v", tc.t, elo, margin, tc.elo, tc.margin)
		}
	}
	if elo, m := (Tally{W: 5}).Elo(); !math.IsInf(elo, 1) || !math.IsInf(m, 1) {
		t.Errorf("perfect score: Elo %v ± %v, want +Inf ± Inf", elo, m)
	}
	if elo, _ := (Tally{D: 10}).Elo(); elo != 0 {
		t.Errorf("all draws: Elo %v, want 0", elo)
	}
	if !near(EloOf(ScoreOf(123)), 123, 1e-9) || !near(ScoreOf(0), 0.5, 0) {
		t.Error("EloOf and ScoreOf are not inverses")
	}
}

// TestSPRT checks the trinomial GLR against a brute-force maximization of the
// constrained likelihood over the one free probability (Python, ternary
// search), and Wald's bounds for α = β = 0.05.
func TestSPRT(t *testing.T) {
	tests := []struct {
		t          Tally
		elo0, elo1 float64
		llr        float64
	}{
		{Tally{W: 30, L: 10, D: 10}, 0, 100, 4.711054229435405},
		{Tally{W: 100, L: 80, D: 20}, 0, 10, 0.5476631684791187},
		{Tally{W: 60, L: 50, D: 90}, -5, 5, 0.5232375591412506},
		{Tally{W: 5}, 0, 50, 0.6679385251741126},
		{Tally{L: 7, D: 3}, 0, 50, -1.5420774997306328},
		{Tally{W: 1000, L: 1000, D: 1000}, 0, 5, -0.46595899536850993},
	}
	for _, tc := range tests {
		p := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05}
		if got := p.LLR(tc.t); !near(got, tc.llr, 1e-6) {
			t.Errorf("%+v, [%v, %v]: LLR %v, want %v", tc.t, tc.elo0, tc.elo1, got, tc.llr)
		}
	}
	p := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	lo, hi := p.Bounds()
	if !near(lo, -2.9444389791664403, 1e-12) || !near(hi, 2.9444389791664403, 1e-12) {
		t.Errorf("bounds %v, %v", lo, hi)
	}
	if d := p.Decide(Tally{W: 30, L: 10, D: 10}); d != 1 {
		t.Errorf("+30 -10 =10 for [0, 100]: decision %d, want H1 (+1)", d)
	}
	if d := p.Decide(Tally{W: 10, L: 30, D: 10}); d != -1 {
		t.Errorf("+10 -30 =10 for [0, 100]: decision %d, want H0 (-1)", d)
	}
	if d := p.Decide(Tally{W: 3, L: 2, D: 1}); d != 0 {
		t.Errorf("+3 -2 =1: decision %d, want to go on", d)
	}
	if p.LLR(Tally{}) != 0 {
		t.Error("empty tally has nonzero LLR")
	}
}

// TestEloText pins the summary's Elo text: no negative zero, no inf, a bound
// instead of an infinite estimate for a clean sweep. The figures were
// computed independently (the same formulas, evaluated in Python).
func TestEloText(t *testing.T) {
	for _, tc := range []struct {
		t    Tally
		want string
	}{
		{Tally{W: 30, L: 10, D: 10}, "Elo +147.2 ± 95.1"},
		{Tally{W: 10, L: 30, D: 10}, "Elo -147.2 ± 95.1"},
		{Tally{W: 2, L: 2, D: 16}, "Elo 0.0 ± 69.0"}, // EloOf(0.5) is -0
		{Tally{W: 100, L: 80, D: 20}, "Elo +34.9 ± 46.2"},
		{Tally{W: 9, D: 1}, "Elo +511.5 (95 %: > +311.1)"},
		{Tally{L: 9, D: 1}, "Elo -511.5 (95 %: < -311.1)"},
		{Tally{W: 18, L: 1, D: 1}, "Elo +436.4 (95 %: > +264.0)"},
		{Tally{W: 1, L: 1}, "Elo 0.0 (too few games for an interval)"},
		{Tally{W: 200}, "Elo > +692.0 (no losses)"},
		{Tally{W: 5}, "Elo > -15.2 (no losses)"}, // five wins prove little
		{Tally{L: 200}, "Elo < -692.0 (no wins)"},
		{Tally{D: 10}, "Elo 0.0 (all draws, no interval)"},
		{Tally{}, "Elo n/a (no games)"},
	} {
		got := tc.t.EloText()
		if got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.t, got, tc.want)
		}
		if strings.Contains(got, "inf") || strings.Contains(got, "NaN") || strings.Contains(got, "-0.0") {
			t.Errorf("%+v: %q has inf, NaN or -0.0", tc.t, got)
		}
	}
}

// TestSummaryLineElo checks the summary's last line for the cases a user met:
// all draws printed "Elo -0.0 ± 0.0", a clean sweep "Elo +inf ± inf".
func TestSummaryLineElo(t *testing.T) {
	for _, tc := range []struct {
		t    Tally
		want string
	}{
		{Tally{D: 4}, "a vs b: +0 -0 =4, score 50.0%, Elo 0.0 (all draws, no interval)"},
		{Tally{W: 16}, "a vs b: +16 -0 =0, score 100.0%, Elo > +234.5 (no losses)"},
		{Tally{W: 923, L: 10, D: 67}, "a vs b: +923 -10 =67, score 95.7%, Elo +536.9 ± 41.5"},
		{Tally{}, "a vs b: +0 -0 =0, score 0.0%, Elo n/a (no games)"},
	} {
		s := Summary{P1: "a", P2: "b", Tally: tc.t}
		if got := s.Line(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.t, got, tc.want)
		}
		var b strings.Builder
		if err := s.Write(&b); err != nil || !strings.HasSuffix(b.String(), "\n"+tc.want+"\n") {
			t.Errorf("%+v: Write gave %q, %v", tc.t, b.String(), err)
		}
	}
}
