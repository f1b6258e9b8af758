package tourney

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxLine is the longest results-file line ParseGameLine accepts.
const MaxLine = 512

// ParseResult reads a result as written by String, or a common variant:
// "1-0", "0-1", "1/2-1/2", "½-½", "=", "1/2", "+:-", "+/-", "-:+", "-/+",
// "-:-", "-/-", "*".
func ParseResult(s string) (Result, error) {
	switch strings.TrimSpace(s) {
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2", "½-½", "=", "1/2", "0.5-0.5":
		return Draw, nil
	case "+:-", "+/-", "+-", "1F-0F":
		return WhiteForfeitWin, nil
	case "-:+", "-/+", "-+", "0F-1F":
		return BlackForfeitWin, nil
	case "-:-", "-/-", "--", "0F-0F":
		return DoubleForfeit, nil
	case "*":
		return Pending, nil
	}
	return Pending, fmt.Errorf("tourney: unknown result %q", s)
}

// GameLine is one line of a results file: "ROUND WHITE BLACK RESULT",
// for example "3 alice bob 1-0". Blank lines and lines starting with '#'
// are comments (ParseResults skips them).
type GameLine struct {
	Round  int
	White  string
	Black  string
	Result Result
}

// String formats the line so that ParseGameLine reads it back.
func (g GameLine) String() string {
	return fmt.Sprintf("%d %s %s %s", g.Round, g.White, g.Black, g.Result)
}

// ParseGameLine reads one results-file line.
func ParseGameLine(line string) (GameLine, error) {
	if len(line) > MaxLine {
		return GameLine{}, fmt.Errorf("tourney: line longer than %d bytes", MaxLine)
	}
	if strings.ContainsAny(line, "\n") {
		return GameLine{}, fmt.Errorf("tourney: one line at a time")
	}
	f := strings.Fields(line)
	if len(f) != 4 {
		return GameLine{}, fmt.Errorf("tourney: want \"ROUND WHITE BLACK RESULT\", got %d fields", len(f))
	}
	r, err := strconv.Atoi(f[0])
	if err != nil || r < 1 || r > 1000 {
		return GameLine{}, fmt.Errorf("tourney: bad round %q", f[0])
	}
	res, err := ParseResult(f[3])
	if err != nil {
		return GameLine{}, err
	}
	if strings.EqualFold(f[1], f[2]) {
		return GameLine{}, fmt.Errorf("tourney: %s cannot play itself", f[1])
	}
	return GameLine{Round: r, White: f[1], Black: f[2], Result: res}, nil
}

// ParseResults reads a results file (one GameLine a line); errors name the
// line number.
func ParseResults(text string) ([]GameLine, error) {
	var out []GameLine
	for i, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		g, err := ParseGameLine(t)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// Apply records a results-file line in the event.
func (e *Event) Apply(g GameLine) error {
	return e.Record(g.Round, g.White, g.Black, g.Result)
}
