package timecontrol

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/engine/clock"
)

// maxUnits bounds each part: the server's clocks show at most 999 minutes
// and 999 seconds of increment.
const maxUnits = 999

// Parse reads an ICC-style time control, whole minutes plus whole
// increment seconds: "M+S" ("25+10", "1+0"), the same with units as
// `kriegbot match -tc` takes them ("25m+10s", "1m+0s"), or "rapid" (25+10).
// The syntax is engine/clock's (clock.ParseTCParts, the one reader of
// BASE+INC); this adds the server's rules: an increment written, whole
// units, each 0 to 999, not both 0.
func Parse(s string) (minutes, inc int, err error) {
	if strings.EqualFold(s, "rapid") {
		return 25, 10, nil
	}
	c, hasInc, err := clock.ParseTCParts(s)
	if err != nil {
		return 0, 0, err
	}
	if !hasInc {
		return 0, 0, fmt.Errorf("time control %q: want minutes+increment, e.g. 25+10 or 25m+10s", s)
	}
	if c.Base%time.Minute != 0 || c.Increment%time.Second != 0 {
		return 0, 0, fmt.Errorf("time control %q: want whole minutes and seconds (the server's clocks count no finer)", s)
	}
	minutes, inc = int(c.Base/time.Minute), int(c.Increment/time.Second)
	if minutes > maxUnits || inc > maxUnits || minutes == 0 && inc == 0 {
		return 0, 0, fmt.Errorf("time control %q: want minutes+increment, each 0 to %d, not both 0", s, maxUnits)
	}
	return minutes, inc, nil
}
