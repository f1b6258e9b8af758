package handle

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"", false},
		{"g", true},
		{"KriegBot", true},
		{"fan-01_x", true},
		{strings.Repeat("a", MaxLen), true},
		{strings.Repeat("a", MaxLen+1), false},
		{"a b", false},
		{"x;quit", false},
		{"bot\n", false},
		{"été", false},
		{"a\x00", false},
	} {
		if got := Valid(c.s); got != c.want {
			t.Errorf("Valid(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// FuzzValid checks Valid against the rule spelled out character by
// character: a valid handle is short and holds no byte that could end a
// word or a line.
func FuzzValid(f *testing.F) {
	for _, s := range []string{"", "g", "KriegBot", "a b", "x;quit", "été", strings.Repeat("z", 21)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := len(s) >= 1 && len(s) <= MaxLen
		for _, r := range s {
			if !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", r) {
				want = false
			}
		}
		if got := Valid(s); got != want {
			t.Fatalf("Valid(%q) = %v, want %v", s, got, want)
		}
	})
}

func TestIsGuest(t *testing.T) {
	for s, want := range map[string]bool{
		"g": true, "G": true, "guest": true, "Guest": true, "guest1234": true, "Guest0001": true, "GUEST12": true,
		"guesthouse": false, "guest12a": false, "sparring": false, "": false, "gue": false, "kriegbot": false, "xguest1": false,
	} {
		if got := IsGuest(s); got != want {
			t.Errorf("IsGuest(%q) = %v, want %v", s, got, want)
		}
	}
}
