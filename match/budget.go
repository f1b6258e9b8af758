package match

import (
	"fmt"
	"strconv"
	"time"

	"kriegbot/engine/clock"
	"kriegbot/engine/players"
)

// Player is one side of a match as its spec gives it: the player, and the
// match's own keys in the spec.
type Player struct {
	Spec players.Spec
	// Ponder: ponder=on lets the player think during the opponent's turns
	// (players.Ponderer); off, the default, does not. It is the match's
	// key, not the player's: a player ponders only when its driver runs it
	// between turns.
	Ponder bool
	// Limits is the player's own budget (time odds, as cutechess-cli
	// allows), nil when the spec names none: movetime=D (a duration),
	// tc=MIN+SEC (a minute and a second for 1+1, as -tc and kriegbot
	// tourney read it; units allowed: tc=10s+0.1s), nodes=N.
	Limits *Limits
}

// matchKeys are the keys of a player's spec that the match reads itself;
// the player never sees them.
var matchKeys = []string{"ponder", "movetime", "tc", "nodes"}

// ParsePlayer reads a player's spec once, where it comes in (-p1, -p2):
// "mcts:approach=c,ponder=on,movetime=400ms" is the player "mcts:approach=c",
// pondering, on its own budget of 400 ms per attempt. def is the match's
// budget, which the player's own starts from (the overhead stays the
// match's). Errors name the spec and the bad key.
func ParsePlayer(text string, def Limits) (Player, error) {
	sp, err := players.ParseWith(text, players.Kinds(), matchKeys...)
	if err != nil {
		return Player{}, err
	}
	p := Player{Spec: sp}
	if v, ok := sp.Harness("ponder"); ok {
		switch v {
		case "on":
			p.Ponder = true
		case "off":
		default:
			return Player{}, fmt.Errorf("%s: ponder=%q: want on or off", text, v)
		}
	}
	for _, k := range matchKeys[1:] {
		v, ok := sp.Harness(k)
		if !ok {
			continue
		}
		own := p.Limits
		if own == nil {
			own = &Limits{Overhead: def.Overhead}
			p.Limits = own
		}
		switch k {
		case "movetime":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return Player{}, fmt.Errorf("%s: movetime=%q: want a positive duration with a unit, e.g. movetime=400ms", text, v)
			}
			own.MoveTime = d
		case "tc":
			c, err := clock.ParseTC(v)
			if err != nil {
				return Player{}, fmt.Errorf("%s: tc=%q: %v", text, v, err)
			}
			own.Control = c
		case "nodes":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return Player{}, fmt.Errorf("%s: nodes=%q: want a positive whole number", text, v)
			}
			own.Nodes = n
		}
	}
	if p.Limits != nil && p.Limits.MoveTime > 0 && p.Limits.Control.Timed() {
		return Player{}, fmt.Errorf("%s: movetime and tc exclude each other", text)
	}
	return p, nil
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
