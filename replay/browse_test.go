package replay

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

// TestBrowse drives the step-through view with keys: next, next, previous,
// a jump, an unknown key, quit. Each screen shows one coloured frame.
func TestBrowse(t *testing.T) {
	rec := readFile(t, playRecorded(t, chess.White, 3, 14))
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Frames) < 4 {
		t.Fatalf("%d frames", len(res.Frames))
	}
	var out bytes.Buffer
	if err := Browse(strings.NewReader("\nn\np\n4\nzz\nq\n"), &out, res); err != nil {
		t.Fatal(err)
	}
	screens := strings.Split(out.String(), "\x1b[H\x1b[2J")[1:]
	want := []int{1, 2, 3, 2, 4, 4} // the attempt shown on each screen
	if len(screens) != len(want) {
		t.Fatalf("%d screens, want %d", len(screens), len(want))
	}
	for i, s := range screens {
		if n := strings.Count(s, "== attempt "); n != 1 {
			t.Fatalf("screen %d shows %d frames", i, n)
		}
		if !strings.Contains(s, "== attempt "+strconv.Itoa(res.Frames[want[i]-1].Attempt)+",") {
			t.Fatalf("screen %d: want attempt %d:\n%s", i, want[i], s)
		}
	}
	if !strings.Contains(out.String(), "\x1b[48;5;") {
		t.Error("no coloured heat cell")
	}
	if !strings.HasSuffix(out.String(), Summary(res)+"\n") {
		t.Error("no summary line at the end")
	}
	// End of input leaves the view and still prints the summary.
	out.Reset()
	if err := Browse(strings.NewReader("n\n"), &out, res); err != nil || !strings.HasSuffix(out.String(), Summary(res)+"\n") {
		t.Fatalf("at end of input: %v", err)
	}
}
