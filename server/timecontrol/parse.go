package timecontrol

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Parse reads an ICC-style time control, whole minutes plus whole
// increment seconds: "M+S" ("25+10", "1+0"), the same with units as
// `kriegbot match -tc` takes them ("25m+10s", "1m+0s"), or "rapid" (25+10).
// It is the one reader of the server's clocks: the HTTP door's flag, a TD
// event's tc and `kriegbot tourney -tc`.
func Parse(s string) (minutes, inc int, err error) {
	if strings.EqualFold(s, "rapid") {
		return 25, 10, nil
	}
	m, i, found := strings.Cut(s, "+")
	if !found {
		return 0, 0, fmt.Errorf("time control %q: want minutes+increment, e.g. 25+10 or 25m+10s", s)
	}
	minutes, err = wholeUnits(m, time.Minute, "minutes")
	if err == nil {
		inc, err = wholeUnits(i, time.Second, "seconds")
	}
	if err != nil {
		return 0, 0, fmt.Errorf("time control %q: %w", s, err) // one line: the first part that is wrong
	}
	if minutes > 999 || inc > 999 || minutes == 0 && inc == 0 {
		return 0, 0, fmt.Errorf("time control %q: want minutes+increment, each 0 to 999, not both 0", s)
	}
	return minutes, inc, nil
}

// wholeUnits reads a bare count of unit, or a Go duration ("10m", "5s")
// that is a whole number of them.
func wholeUnits(s string, unit time.Duration, name string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("%q: negative %s", s, name)
		}
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || strings.ContainsAny(s, "+-") {
		return 0, fmt.Errorf("%q: want a number of %s or a duration (10m, 5s)", s, name)
	}
	if d%unit != 0 || d/unit > 999 {
		return 0, fmt.Errorf("%q: want whole %s, 0 to 999 (the server's clocks count no finer)", s, name)
	}
	return int(d / unit), nil
}
