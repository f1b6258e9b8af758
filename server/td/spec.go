package td

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/server/timecontrol"
	"kriegbot/tourney"
)

// EventSpec is what a TD event is opened with: by a serve flag
// (-tourney) or by a manager's "tell TD open ...". ParseEventSpec reads
// its text form, String writes it back.
type EventSpec struct {
	Name    string         // 1-32 of [A-Za-z0-9_.+-]: it is the tag of the tourney-set line
	System  tourney.System // Swiss, RoundRobin or DoubleRoundRobin
	Rounds  int            // Swiss rounds (a round robin computes its own)
	Minutes int            // the games' time control
	Inc     int
	Style   string // "icc" or "fics": how pairings and TD messages reach players
	// Start says when the event starts: at StartPlayers entrants, or
	// StartAfter after it opened (with at least two), or, with both zero,
	// when a manager says "start".
	StartPlayers int
	StartAfter   time.Duration
	MaxPlayers   int // at most 64, the tourney package's bound
}

// maxSpec bounds the text of a spec: nothing longer is a spec.
const maxSpec = 512

// ParseEventSpec reads "key=value" pairs separated by commas or blanks:
//
//	name=KS1 system=swiss|rr|drr rounds=5 tc=1+1 style=icc|fics
//	start=manual|<players>|<duration> max=<players>
//
// Unknown or repeated keys and bad values are errors naming the key.
// Missing keys take defaults: a Swiss of 5 rounds at 2+12, the style
// defStyle (which may be "", for the caller to fill in), a manual start,
// at most 64 players; the name is left empty for the TD to fill in.
func ParseEventSpec(text, defStyle string) (EventSpec, error) {
	sp := EventSpec{System: tourney.Swiss, Rounds: 5, Minutes: 2, Inc: 12, Style: defStyle, MaxPlayers: 64}
	if len(text) > maxSpec {
		return EventSpec{}, fmt.Errorf("event spec longer than %d bytes", maxSpec)
	}
	seen := map[string]bool{}
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		k = strings.ToLower(k)
		if !ok || v == "" {
			return EventSpec{}, fmt.Errorf("%q: want key=value (keys: name, system, rounds, tc, style, start, max)", w)
		}
		if seen[k] {
			return EventSpec{}, fmt.Errorf("%s given twice", k)
		}
		seen[k] = true
		switch k {
		case "name":
			if !specName(v) {
				return EventSpec{}, fmt.Errorf("name %q: want 1 to 32 letters, digits or _.+-", v)
			}
			sp.Name = v
		case "system":
			switch strings.ToLower(v) {
			case "swiss":
				sp.System = tourney.Swiss
			case "rr", "roundrobin", "round-robin":
				sp.System = tourney.RoundRobin
			case "drr", "double", "double-round-robin":
				sp.System = tourney.DoubleRoundRobin
			default:
				return EventSpec{}, fmt.Errorf("system %q: want swiss, rr or drr", v)
			}
		case "rounds":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 99 {
				return EventSpec{}, fmt.Errorf("rounds %q: want 1 to 99", v)
			}
			sp.Rounds = n
		case "tc":
			m, i, err := timecontrol.Parse(v)
			if err != nil {
				return EventSpec{}, fmt.Errorf("tc %q: %v", v, err)
			}
			sp.Minutes, sp.Inc = m, i
		case "style":
			switch s := strings.ToLower(v); s {
			case "icc", "fics":
				sp.Style = s
			default:
				return EventSpec{}, fmt.Errorf("style %q: want icc or fics", v)
			}
		case "start":
			if strings.EqualFold(v, "manual") {
				sp.StartPlayers, sp.StartAfter = 0, 0
				break
			}
			if n, err := strconv.Atoi(v); err == nil {
				if n < 2 || n > 64 {
					return EventSpec{}, fmt.Errorf("start %q: want 2 to 64 players", v)
				}
				sp.StartPlayers = n
				break
			}
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 || d > 7*24*time.Hour {
				return EventSpec{}, fmt.Errorf("start %q: want manual, a number of players or a duration (10m)", v)
			}
			sp.StartAfter = d
		case "max":
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 || n > 64 {
				return EventSpec{}, fmt.Errorf("max %q: want 2 to 64 players", v)
			}
			sp.MaxPlayers = n
		default:
			return EventSpec{}, fmt.Errorf("unknown key %q (keys: name, system, rounds, tc, style, start, max)", k)
		}
	}
	if sp.Style != "icc" && sp.Style != "fics" && sp.Style != "" {
		return EventSpec{}, fmt.Errorf("style %q: want icc or fics", sp.Style)
	}
	if sp.StartPlayers > sp.MaxPlayers {
		return EventSpec{}, fmt.Errorf("start=%d is more than max=%d players", sp.StartPlayers, sp.MaxPlayers)
	}
	return sp, nil
}

// specName reports whether s can name an event: it must be one word
// without quotes, since it is the tag in the tourney-set line.
func specName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.+-", c) >= 0) {
			return false
		}
	}
	return true
}

// String writes the spec in the form ParseEventSpec reads.
func (sp EventSpec) String() string {
	sys := "swiss"
	switch sp.System {
	case tourney.RoundRobin:
		sys = "rr"
	case tourney.DoubleRoundRobin:
		sys = "drr"
	}
	start := "manual"
	switch {
	case sp.StartPlayers > 0:
		start = strconv.Itoa(sp.StartPlayers)
	case sp.StartAfter > 0:
		start = sp.StartAfter.String()
	}
	f := []string{}
	if sp.Name != "" {
		f = append(f, "name="+sp.Name)
	}
	f = append(f, "system="+sys)
	if sp.System == tourney.Swiss {
		f = append(f, "rounds="+strconv.Itoa(sp.Rounds))
	}
	f = append(f, fmt.Sprintf("tc=%d+%d", sp.Minutes, sp.Inc), "style="+sp.Style, "start="+start, "max="+strconv.Itoa(sp.MaxPlayers))
	return strings.Join(f, ",")
}

// TypeColumn is the event's "type" as mamer lists it: time, increment,
// r or u, the variant, the style and (Swiss) the rounds, e.g.
// "1 1 u wild 16 SS\5".
func (sp EventSpec) TypeColumn() string {
	style := `SS\` + strconv.Itoa(sp.Rounds)
	switch sp.System {
	case tourney.RoundRobin:
		style = "rr"
	case tourney.DoubleRoundRobin:
		style = "drr"
	}
	return fmt.Sprintf("%d %d u wild 16 %s", sp.Minutes, sp.Inc, style)
}
