package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/clock"
)

// budgetKeys are the spec options that set a player's own budget in a match
// (time odds, as cutechess-cli allows): they are the match's, not the
// player's, and are taken out of the spec before the player reads it.
var budgetKeys = [...]string{"movetime", "tc", "nodes"}

// SplitBudget takes a player's own budget out of spec ("mcts:approach=c,
// movetime=400ms" gives "mcts:approach=c" and a 400 ms budget): movetime=D
// (a duration), tc=BASE+INC (seconds), nodes=N. Options it does not name
// stay in the spec. own is nil when spec names none; def is the match's
// budget, which own starts from (the overhead stays the match's).
func SplitBudget(spec string, def Limits) (rest string, own *Limits, err error) {
	kind, opts, hasOpts := strings.Cut(spec, ":")
	if !hasOpts {
		return spec, nil, nil
	}
	var keep []string
	for _, kv := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if !isBudgetKey(k) {
			keep = append(keep, kv)
			continue
		}
		if own == nil {
			l := Limits{Overhead: def.Overhead}
			own = &l
		}
		switch k {
		case "movetime":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return "", nil, fmt.Errorf("%s: movetime=%q: want a positive duration with a unit, e.g. movetime=400ms", spec, v)
			}
			own.MoveTime = d
		case "tc":
			c, err := clock.ParseControl(v)
			if err != nil {
				return "", nil, fmt.Errorf("%s: tc=%q: %v", spec, v, err)
			}
			own.Control = c
		case "nodes":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return "", nil, fmt.Errorf("%s: nodes=%q: want a positive whole number", spec, v)
			}
			own.Nodes = n
		}
	}
	if own != nil && own.MoveTime > 0 && own.Control.Timed() {
		return "", nil, fmt.Errorf("%s: movetime and tc exclude each other", spec)
	}
	rest = kind
	if len(keep) > 0 {
		rest += ":" + strings.Join(keep, ",")
	}
	return rest, own, nil
}

func isBudgetKey(k string) bool {
	for _, b := range budgetKeys {
		if k == b {
			return true
		}
	}
	return false
}
