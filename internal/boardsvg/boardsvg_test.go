package boardsvg

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

// TestOrientation: a board seen by White has a1 bottom-left, seen by Black
// top-right; every square is drawn once.
func TestOrientation(t *testing.T) {
	for _, c := range []struct {
		us   chess.Color
		x, y int // where a1 is drawn
	}{{chess.White, 14, 7 * Cell}, {chess.Black, 14 + 7*Cell, 0}} {
		var sb strings.Builder
		seen := map[chess.Square]int{}
		Board(&sb, "cap <b>", c.us, func(sq chess.Square, x, y int) {
			seen[sq]++
			if sq == chess.NewSquare(0, 0) && (x != c.x || y != c.y) {
				t.Errorf("%v: a1 drawn at %d,%d, want %d,%d", c.us, x, y, c.x, c.y)
			}
		})
		if len(seen) != 64 {
			t.Errorf("%v: %d squares drawn", c.us, len(seen))
		}
		if !strings.Contains(sb.String(), "cap &lt;b&gt;") {
			t.Errorf("caption not escaped: %s", sb.String())
		}
	}
}

// TestHeatCell: below half a percent nothing is drawn; from 5 % the
// percentage is written.
func TestHeatCell(t *testing.T) {
	var sb strings.Builder
	HeatCell(&sb, 0.004, 0, 0)
	if sb.Len() != 0 {
		t.Fatalf("0.4 %% drew %q", sb.String())
	}
	HeatCell(&sb, 0.03, 0, 0)
	if !strings.Contains(sb.String(), "<rect") || strings.Contains(sb.String(), "<text") {
		t.Fatalf("3 %%: %q", sb.String())
	}
	sb.Reset()
	HeatCell(&sb, 0.42, 0, 0)
	if !strings.Contains(sb.String(), ">42<") {
		t.Fatalf("42 %%: %q", sb.String())
	}
}
