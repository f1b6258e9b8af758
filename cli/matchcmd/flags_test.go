package matchcmd

import (
	"math"
	"strings"
	"testing"

	"kriegbot/engine/umpire"
	"kriegbot/match"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"0/1", 0, 1, true},
		{"3/8", 3, 8, true},
		{"7/8", 7, 8, true},
		{"8/8", 0, 0, false},
		{"-1/8", 0, 0, false},
		{"0/0", 0, 0, false},
		{"1", 0, 0, false},
		{"a/b", 0, 0, false},
		{"1/2/3", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tc := range tests {
		i, n, err := parseShard(tc.in)
		if (err == nil) != tc.ok || i != tc.i || n != tc.n {
			t.Errorf("parseShard(%q) = %d, %d, %v", tc.in, i, n, err)
		}
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in          string
		alpha, beta float64
		e0, e1      float64
		ok          bool
	}{
		{"0,50", 0.05, 0.05, 0, 50, true},
		{"-5, 5", 0.05, 0.1, -5, 5, true},
		{"0,0", 0.05, 0.05, 0, 0, false},
		{"5,0", 0.05, 0.05, 0, 0, false},
		{"0", 0.05, 0.05, 0, 0, false},
		{"NaN,5", 0.05, 0.05, 0, 0, false},
		{"0,Inf", 0.05, 0.05, 0, 0, false},
		{"0,50", 0, 0.05, 0, 0, false},
		{"0,50", 0.05, 0.5, 0, 0, false},
	}
	for _, tc := range tests {
		s, err := parseSPRT(tc.in, tc.alpha, tc.beta)
		if (err == nil) != tc.ok || (err == nil && (s.Elo0 != tc.e0 || s.Elo1 != tc.e1)) {
			t.Errorf("parseSPRT(%q, %v, %v) = %+v, %v", tc.in, tc.alpha, tc.beta, s, err)
		}
	}
}

func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "0,50", "-5,5", "1e308,1e309", "/", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if i, n, err := parseShard(s); err == nil && (n < 1 || i < 0 || i >= n) {
			t.Fatalf("parseShard(%q) = %d/%d", s, i, n)
		}
		if p, err := parseSPRT(s, 0.05, 0.05); err == nil {
			if !(p.Elo0 < p.Elo1) || math.IsNaN(p.LLR(match.Tally{W: 3, L: 1, D: 2})) {
				t.Fatalf("parseSPRT(%q) = %+v", s, p)
			}
		}
	})
}

// TestParseRules: -rules takes the rule sets as before, and each variant
// of the site, played under the site's rules.
func TestParseRules(t *testing.T) {
	for _, name := range []string{"icc", "olympiad", "ks"} {
		r, err := parseRules(name)
		if err != nil || r.Name != name || !r.Variant.IsWild16() {
			t.Errorf("%s: %+v, %v", name, r, err)
		}
	}
	for _, name := range umpire.VariantNames() {
		r, err := parseRules(name)
		if err != nil || r.Name != "ks" || r.Variant.Name != name {
			t.Errorf("%s: %+v, %v", name, r, err)
		}
	}
	if _, err := parseRules("wild17"); err == nil || !strings.Contains(err.Error(), "berkeley_any") {
		t.Errorf("wild17: %v, want an error naming the variants", err)
	}
}
