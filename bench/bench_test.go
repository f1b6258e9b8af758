package bench

import (
	"testing"
	"time"
)

// TestFigures: each figure is named as listed and measures some speed; the
// umpire has one figure per site variant beside wild 16's.
func TestFigures(t *testing.T) {
	ran := map[string]bool{}
	for _, b := range All() {
		if b.Name != "umpire" && b.Name != "umpire-rand" && b.Name != "perft" {
			continue // the search and belief figures take seconds even at 1 ms
		}
		f, err := b.Run(time.Millisecond)
		if err != nil || f.Name != b.Name || !(f.Value > 0) || f.Unit == "" {
			t.Errorf("%s: %+v, %v", b.Name, f, err)
		}
		ran[b.Name] = true
	}
	if len(ran) != 3 {
		t.Errorf("figures run: %v, want perft, umpire and umpire-rand", ran)
	}
	if n := len(All()); n != 8+6 {
		t.Errorf("%d figures, want 8 and one umpire figure for each of the site's 6 other variants", n)
	}
}
