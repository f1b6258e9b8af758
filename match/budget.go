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

// SplitPonder takes the ponder key out of spec: "mcts:ponder=on" gives
// "mcts" and true. ponder=on makes the match let that player think during
// the opponent's turns (players.Ponderer); off, the default, does not. It
// is the match's key, not the player's: a player ponders only when its
// driver runs it between turns.
func SplitPonder(spec string) (rest string, ponder bool, err error) {
	kind, opts, hasOpts := strings.Cut(spec, ":")
	if !hasOpts {
		return spec, false, nil
	}
	var keep []string
	seen := false
	for _, kv := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k != "ponder" {
			keep = append(keep, kv)
			continue
		}
		if seen {
			return "", false, fmt.Errorf("%s: ponder given twice", spec)
		}
		seen = true
		switch v {
		case "on":
			ponder = true
		case "off":
		default:
			return "", false, fmt.Errorf("%s: ponder=%q: want on or off", spec, v)
		}
	}
	rest = kind
	if len(keep) > 0 {
		rest += ":" + strings.Join(keep, ",")
	}
	return rest, ponder, nil
}

func isBudgetKey(k string) bool {
	for _, b := range budgetKeys {
		if k == b {
			return true
		}
	}
	return false
}
