package bench

import (
	"testing"
	"time"
)

// TestFigures: each figure is named as listed and measures some speed.
func TestFigures(t *testing.T) {
	for _, b := range All() {
		if b.Name != "umpire" && b.Name != "perft" {
			continue // the search and belief figures take seconds even at 1 ms
		}
		f, err := b.Run(time.Millisecond)
		if err != nil || f.Name != b.Name || !(f.Value > 0) || f.Unit == "" {
			t.Errorf("%s: %+v, %v", b.Name, f, err)
		}
	}
}
