package backoff

import (
	"math/rand/v2"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestGrow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max time.Duration
		raise    time.Duration // before the first Grow
		want     []time.Duration
	}{
		{"doubles from min to max", 100 * ms, 1000 * ms, 0, []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms, 1000 * ms}},
		{"min equals max", 300 * ms, 300 * ms, 0, []time.Duration{300 * ms, 300 * ms}},
		{"max below min is max", 500 * ms, 200 * ms, 0, []time.Duration{200 * ms, 200 * ms}},
		{"raised by a retry-after", 100 * ms, 10000 * ms, 3000 * ms, []time.Duration{6000 * ms, 10000 * ms}},
		{"raise beyond max is capped at the next grow", 100 * ms, 1000 * ms, 5000 * ms, []time.Duration{1000 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(tc.min, tc.max, rand.New(rand.NewPCG(1, 2)))
			b.Raise(tc.raise)
			for i, want := range tc.want {
				if got := b.Grow(); got != want {
					t.Fatalf("grow %d: %v, want %v", i+1, got, want)
				}
			}
		})
	}
}

func TestJitterInUpperHalf(t *testing.T) {
	b := New(0, 0, rand.New(rand.NewPCG(7, 7)))
	for _, d := range []time.Duration{0, 1, 2, 100 * ms, 30 * time.Second} {
		for range 200 {
			got := b.Jitter(d)
			if got < d/2 || got > d {
				t.Fatalf("Jitter(%v) = %v, outside [%v, %v]", d, got, d/2, d)
			}
		}
	}
}

func TestSeededIsReproducible(t *testing.T) {
	waits := func() []time.Duration {
		b := New(100*ms, 10*time.Second, rand.New(rand.NewPCG(42, 0x6b73)))
		var out []time.Duration
		for range 8 {
			out = append(out, b.Next())
		}
		return out
	}
	a, c := waits(), waits()
	differ := false
	for i := range a {
		if a[i] != c[i] {
			t.Fatalf("wait %d: %v then %v from the same seed", i, a[i], c[i])
		}
		if i > 0 && a[i] != a[i-1] {
			differ = true
		}
	}
	if !differ {
		t.Fatalf("waits %v never change", a)
	}
}

func TestResetAndLasted(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		lasted time.Duration
		reset  bool
		next   time.Duration // Grow after Lasted
	}{
		{"short session keeps growing", 300 * ms, false, 800 * ms},
		{"just under stable", time.Minute - ms, false, 800 * ms},
		{"exactly stable resets", time.Minute, true, 100 * ms},
		{"long session resets", time.Hour, true, 100 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(100*ms, 10*time.Second, rand.New(rand.NewPCG(1, 1)))
			b.Grow()
			b.Grow()
			b.Grow() // 400 ms
			if got := b.Lasted(t0, t0.Add(tc.lasted), time.Minute); got != tc.reset {
				t.Fatalf("Lasted = %v, want %v", got, tc.reset)
			}
			if got := b.Grow(); got != tc.next {
				t.Fatalf("next delay %v, want %v", got, tc.next)
			}
		})
	}
	b := New(100*ms, 10*time.Second, rand.New(rand.NewPCG(1, 1)))
	b.Grow()
	b.Grow()
	b.Reset()
	if got := b.Grow(); got != 100*ms {
		t.Fatalf("after Reset: %v, want %v", got, 100*ms)
	}
}
