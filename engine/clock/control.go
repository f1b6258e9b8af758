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

// ParseControl reads the PGN TimeControl form that records and match files
// keep, "BASE" or "BASE+INC" in seconds, fractions allowed ("60+1",
// "10+0.1", "180"); a number with units is a Go duration ("10m+5s"). People's
// input goes through ParseTC, where a bare 1+1 is a minute and a second.
func ParseControl(s string) (Control, error) {
	return parseControl(s, time.Second)
}

// ParseTC reads a time control as people write it and servers show it:
// "BASE+INC" with the base in minutes and the increment in seconds, as ICC's
// "1 1" and kriegbot tourney's -tc 1+1 (a minute and a second), fractions
// allowed (0.5+0.1 is 30 s and 0.1 s), or either part with units, a Go
// duration (10s+0.1s, 1m30s+2s). A bare "BASE" has no increment.
func ParseTC(s string) (Control, error) {
	return parseControl(s, time.Minute)
}

// parseControl reads BASE[+INC]: a bare base counts baseUnit, a bare
// increment seconds.
func parseControl(s string, baseUnit time.Duration) (Control, error) {
	c, _, err := parseParts(s, baseUnit)
	if err == nil && c.Base <= 0 {
		err = fmt.Errorf("clock: time control %q: base must be positive", s)
	}
	if err != nil {
		return Control{}, err
	}
	return c, nil
}

// ParseTCParts reads a time control in ParseTC's syntax without its rule
// that the base be positive, and says whether an increment was written: a
// server, whose games may be increment only (0+5) and whose clocks count
// whole minutes and seconds, checks the values itself.
func ParseTCParts(s string) (c Control, hasInc bool, err error) {
	return parseParts(s, time.Minute)
}

// parseParts is the one reader of the BASE[+INC] syntax.
func parseParts(s string, baseUnit time.Duration) (Control, bool, error) {
	base, inc, hasInc := strings.Cut(strings.TrimSpace(s), "+")
	var c Control
	var err error
	if c.Base, err = amount(base, baseUnit); err != nil {
		return Control{}, hasInc, fmt.Errorf("clock: time control %q: base: %v", s, err)
	}
	if hasInc {
		if c.Increment, err = amount(inc, time.Second); err != nil {
			return Control{}, hasInc, fmt.Errorf("clock: time control %q: increment: %v", s, err)
		}
	}
	return c, hasInc, nil
}

// amount reads one part of a time control: a number of units, or a Go
// duration.
func amount(s string, unit time.Duration) (time.Duration, error) {
	name := "seconds"
	if unit == time.Minute {
		name = "minutes"
	}
	if s == "" {
		return 0, fmt.Errorf("missing number of %s", name)
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == f {
		if f < 0 || f > float64(maxControl/unit) {
			return 0, fmt.Errorf("%q is out of range (0 to %v)", s, maxControl)
		}
		d = time.Duration(f * float64(unit))
	} else if d, err = time.ParseDuration(s); err != nil || strings.ContainsAny(s, "+-") {
		return 0, fmt.Errorf("%q is neither a number of %s nor a duration with units (1m, 1.5s)", s, name)
	}
	if d < 0 || d > maxControl {
		return 0, fmt.Errorf("%q is out of range (0 to %v)", s, maxControl)
	}
	return d, nil
}

// Text is c for people, with units, in the form ParseTC reads back:
// "1m+1s", "10s+100ms", "1h30m"; "untimed" when c has no clock.
func (c Control) Text() string {
	if !c.Timed() {
		return "untimed"
	}
	s := durationText(c.Base)
	if c.Increment > 0 {
		s += "+" + durationText(c.Increment)
	}
	return s
}

// durationText is d as time.Duration writes it, without its zero tails:
// 1m rather than 1m0s, 1h rather than 1h0m0s.
func durationText(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
