package stoprule

import (
	"testing"
	"time"
)

func TestTimeUp(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name          string
		el, soft, max time.Duration
		r             Root
		want          bool
	}{
		{"fixed time, before", 50 * ms, 100 * ms, 0, Root{Best: 900, Second: 1, Open: 20, Iterations: 1000}, false},
		{"fixed time, at", 100 * ms, 100 * ms, 0, Root{Open: 20}, true},
		{"one attempt open", ms, 100 * ms, 200 * ms, Root{Best: 3, Open: 1, Iterations: 3}, true},
		{"too early to judge a lead", 20 * ms, 100 * ms, 200 * ms, Root{Best: 1000, Second: 1, Open: 20, Iterations: 1001}, false},
		{"a lead the rest cannot close", 80 * ms, 100 * ms, 200 * ms, Root{Best: 900, Second: 50, Open: 20, Iterations: 1000}, true},
		{"a lead the rest can close", 80 * ms, 100 * ms, 200 * ms, Root{Best: 500, Second: 300, Open: 20, Iterations: 1000}, false},
		{"soft budget spent, choice made", 100 * ms, 100 * ms, 200 * ms, Root{Best: 500, Second: 250, Open: 20, Iterations: 1000}, true},
		{"soft budget spent, choice open", 100 * ms, 100 * ms, 200 * ms, Root{Best: 500, Second: 251, Open: 20, Iterations: 1000}, false},
		{"maximum spent", 200 * ms, 100 * ms, 200 * ms, Root{Best: 500, Second: 499, Open: 20, Iterations: 1000}, true},
	} {
		if got := TimeUp(c.el, c.soft, c.max, c.r); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
