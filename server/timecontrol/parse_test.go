package timecontrol

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in       string
		min, inc int
		ok       bool
	}{
		{"25+10", 25, 10, true},
		{"rapid", 25, 10, true},
		{"1+0", 1, 0, true},
		{"0+5", 0, 5, true},
		{"0+0", 0, 0, false},
		{"25", 0, 0, false},
		{"-1+5", 0, 0, false},
		{"1000+0", 0, 0, false},
		{"a+b", 0, 0, false},
		{"", 0, 0, false},
		{"25m+10s", 25, 10, true},
		{"1m+0s", 1, 0, true},
		{"0m+5s", 0, 5, true},
		{"2h+0", 120, 0, true},
		{"10+1m", 10, 60, true},
		{"1m30s+0", 0, 0, false}, // the server's clocks count whole minutes
		{"1+500ms", 0, 0, false},
		{"1000m+0", 0, 0, false},
		{"-1m+0", 0, 0, false},
		{"0m+0s", 0, 0, false},
		{"1m+", 0, 0, false},
	} {
		m, i, err := Parse(tc.in)
		if (err == nil) != tc.ok || m != tc.min || i != tc.inc {
			t.Errorf("%q: got %d %d %v", tc.in, m, i, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"25+10", "rapid", "1+0", "0+0", "+", "9999999999999999999+1", "10m+5s", "1m30s+0", "1+500ms", "-0m+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, i, err := Parse(s)
		if err == nil && (m < 0 || i < 0 || m > 999 || i > 999 || m == 0 && i == 0) {
			t.Fatalf("%q: %d+%d", s, m, i)
		}
	})
}
