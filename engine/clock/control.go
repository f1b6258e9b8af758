package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Control is a Fischer time control: Base for the game, Increment added after
// each legal move. The zero Control means untimed.
type Control struct {
	Base      time.Duration
	Increment time.Duration
}

// Timed reports whether c has a clock.
func (c Control) Timed() bool { return c.Base > 0 }

// String returns the PGN TimeControl form: "60+1" (seconds), "-" when untimed.
func (c Control) String() string {
	if !c.Timed() {
		return "-"
	}
	s := strconv.FormatFloat(c.Base.Seconds(), 'f', -1, 64)
	if c.Increment > 0 {
		s += "+" + strconv.FormatFloat(c.Increment.Seconds(), 'f', -1, 64)
	}
	return s
}

// maxControl bounds a parsed time control (a week) so that arithmetic on
// durations never overflows.
const maxControl = 7 * 24 * time.Hour

// ParseControl reads "BASE" or "BASE+INC": a bare number is seconds,
// fractions allowed ("60+1", "10+0.1", "180"), as in PGN's TimeControl tag;
// a number with units is a Go duration ("10m+5s", "1m30s+0.5s"), so that a
// server's "1 1" (a minute and a second) can be written as it means,
// 1m+1s, where "1+1" is a second and a second.
func ParseControl(s string) (Control, error) {
	base, inc, hasInc := strings.Cut(strings.TrimSpace(s), "+")
	var c Control
	var err error
	if c.Base, err = seconds(base); err != nil {
		return Control{}, fmt.Errorf("clock: time control %q: base: %v", s, err)
	}
	if c.Base <= 0 {
		return Control{}, fmt.Errorf("clock: time control %q: base must be positive", s)
	}
	if hasInc {
		if c.Increment, err = seconds(inc); err != nil {
			return Control{}, fmt.Errorf("clock: time control %q: increment: %v", s, err)
		}
	}
	return c, nil
}

// seconds reads one part of a time control: seconds, or a Go duration.
func seconds(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number of seconds")
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == f {
		if f < 0 || f > maxControl.Seconds() {
			return 0, fmt.Errorf("%q is out of range (0 to %v)", s, maxControl)
		}
		d = time.Duration(f * float64(time.Second))
	} else if d, err = time.ParseDuration(s); err != nil || strings.ContainsAny(s, "+-") {
		return 0, fmt.Errorf("%q is neither a number of seconds nor a duration with units (1m, 1.5s)", s)
	}
	if d < 0 || d > maxControl {
		return 0, fmt.Errorf("%q is out of range (0 to %v)", s, maxControl)
	}
	return d, nil
}
