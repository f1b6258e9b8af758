package testenv

import "testing"

// fatal records a Fatalf instead of ending the test.
type fatal struct {
	testing.TB
	failed string
}

func (f *fatal) Helper() {}
func (f *fatal) Fatalf(format string, args ...any) {
	f.failed = format
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		value string
		want  int
		fails bool
	}{
		{"", 8, false}, {"3", 3, false}, {"0", 0, true}, {"-2", 0, true}, {"x", 0, true}, {"1.5", 0, true},
	} {
		t.Setenv("KRIEGBOT_TESTENV_COUNT", c.value)
		f := &fatal{TB: t}
		got := Count(f, "KRIEGBOT_TESTENV_COUNT", 8)
		if (f.failed != "") != c.fails || !c.fails && got != c.want {
			t.Errorf("%q: %d, failed %v", c.value, got, f.failed != "")
		}
	}
}
