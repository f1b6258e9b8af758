package match

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// Start returns the game's start position: the standard one, or its FEN.
func (g *Game) Start() (chess.Position, error) {
	if g.Result.FEN == "" {
		return chess.StartPosition(), nil
	}
	return chess.ParseFEN(g.Result.FEN)
}

// Walk plays the game's attempts through a referee of the match's rules
// from its start, checks each against the file (the side to move, the
// answer recorded, nothing after the end) and hands visit each one: its
// index in g.Attempts, the position before it, the move and the referee's
// answer. Errors, visit's too, name the file (name) and line. It is the one
// reading of a match game's moves, for kriegbot replay and match stats.
func (g *Game) Walk(name string, visit func(i int, before *chess.Position, m chess.Move, ans umpire.Answer) error) error {
	at := func(line int, err error) error { return fmt.Errorf("%s:%d: %w", name, line, err) }
	rules, err := record.ParseRules(g.Header.Rules, g.Header.Variant)
	if err != nil {
		return at(1, err)
	}
	rules.MaxPlies = g.Header.MaxPlies // the match's referee ended games at its cap
	start, err := g.Start()
	if err != nil {
		return at(g.ResultLine, err)
	}
	u := umpire.New(rules)
	u.Reset(start)
	for i := range g.Attempts {
		a, line := &g.Attempts[i], g.Lines[i]
		if u.Ending() != umpire.NotOver {
			return at(line, fmt.Errorf("attempt after the game ended"))
		}
		m, err := record.ParseAttempt(a.Attempt)
		if err != nil {
			return at(line, err)
		}
		if mover := u.Side(); a.Side != mover.String() {
			return at(line, fmt.Errorf("%s attempts, but %s is to move", a.Side, mover))
		}
		pos := u.Position()
		ans, err := attempt(u, m)
		if err != nil {
			return at(line, err)
		}
		if ans.Legal != a.Legal {
			return at(line, fmt.Errorf("the umpire says legal=%v, the file %v", ans.Legal, a.Legal))
		}
		if err := a.CheckAnswer(ans); err != nil {
			return at(line, err)
		}
		if err := visit(i, &pos, m, ans); err != nil {
			return at(line, err)
		}
	}
	return nil
}
