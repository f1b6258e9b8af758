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
// (a duration), tc=MIN+SEC (a minute and a second for 1+1, as -tc and
// kriegbot tourney read it; units allowed: tc=10s+0.1s), nodes=N. Options it does not name
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
			c, err := clock.ParseTC(v)
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

// DefaultNodes is the search of every attempt when a match names no budget
// (no -nodes, -movetime or -tc): a real search (past about a thousand
// iterations more buys little, docs/strength.md), reproducible on any
// machine, not the emergency answer a player gives without a budget.
const DefaultNodes = 2000

// Text is the budget for people: "2000 nodes an attempt", "movetime 100ms
// an attempt", "tc 1m+1s a side", or "no budget" (each player's least
// search).
func (l Limits) Text() string {
	switch {
	case l.Control.Timed():
		return "tc " + l.Control.Text() + " a side"
	case l.MoveTime > 0:
		return "movetime " + l.MoveTime.String() + " an attempt"
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes an attempt", l.Nodes)
	}
	return "no budget"
}

// limits is the budget a match file keeps, read back (its tc is in
// seconds, PGN's form).
func (b Budget) limits() Limits {
	l := Limits{MoveTime: time.Duration(b.MoveTimeMs) * time.Millisecond, Nodes: b.Nodes}
	if c, err := clock.ParseControl(b.TimeControl); err == nil {
		l.Control = c
	}
	return l
}

// BudgetText is the budget the players of the match h heads searched
// with: the match's, or each side's own where its spec gave one.
func (h MatchLine) BudgetText() string {
	def := Budget{TimeControl: h.TimeControl, MoveTimeMs: h.MoveTimeMs, Nodes: h.Nodes}.limits().Text()
	if h.P1Budget == nil && h.P2Budget == nil {
		return def
	}
	side := func(b *Budget) string {
		if b == nil {
			return def
		}
		return b.limits().Text()
	}
	return "p1 " + side(h.P1Budget) + ", p2 " + side(h.P2Budget)
}
