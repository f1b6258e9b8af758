package replay

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/match"
)

// FromMatch turns one game of a match's JSON Lines file (kriegbot match
// -jsonl) into a record of side us's player: its spec and seed as the match
// gave them, its attempts, and what the referee told it, rebuilt by playing
// the attempts through the umpire. A match held to -nodes N replays exactly
// (every search runs N iterations, as in the match); one on a clock has no
// iteration counts, and its searches run nodes iterations (then choices may
// differ). name is for messages.
func FromMatch(g *match.Game, name string, us chess.Color, nodes int64) (*Record, error) {
	h, gl := &g.Header, &g.Result
	at := func(line int, format string, args ...any) error {
		return &LineError{Name: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	if h.Nodes > 0 {
		nodes = h.Nodes
	}
	if nodes < 1 {
		return nil, fmt.Errorf("%s: the match ran on a clock: give -nodes N for its searches", name)
	}
	rules, err := umpire.ParseRules(h.Rules)
	if err != nil {
		return nil, at(1, "%v", err)
	}
	rec := &Record{Name: name, Game: GameInfo{
		Line: g.ResultLine, Number: gl.Game, White: gl.White, Black: gl.Black, Us: us,
		Seed: match.SideSeed(gl.Seed, us), Player: gl.White, HiddenKing: h.HiddenKing, Rules: rules,
	}}
	if us == chess.Black {
		rec.Game.Player = gl.Black
	}
	start := chess.StartPosition()
	if gl.FEN != "" {
		start, err = chess.ParseFEN(gl.FEN)
		if err != nil {
			return nil, at(g.ResultLine, "%v", err)
		}
		rec.Game.Setup = &start
	}
	u := umpire.New(rules)
	u.Reset(start)
	rec.Moves = []string{}
	for i := range g.Attempts {
		a, line := &g.Attempts[i], g.Lines[i]
		if u.Ending() != umpire.NotOver {
			return nil, at(line, "attempt after the game ended")
		}
		m, err := chess.ParseUCI(a.Attempt)
		if err != nil {
			return nil, at(line, "%v", err)
		}
		side := u.Side()
		if a.Side != side.String() {
			return nil, at(line, "%s attempts, but %s is to move", a.Side, side)
		}
		if side == us {
			rec.Steps = append(rec.Steps, Step{Line: line, Kind: StepAttempt, Move: m, Search: &Search{Iterations: nodes}})
		}
		pos := u.Position()
		ans, err := u.Attempt(m)
		if err != nil {
			return nil, at(line, "%v", err)
		}
		if ans.Legal != a.Legal {
			return nil, at(line, "the umpire says legal=%v, the file %v", ans.Legal, a.Legal)
		}
		if ans.Legal {
			rec.Moves = append(rec.Moves, pos.SAN(m))
		}
		if v := ans.For(us); v.Heard {
			rec.Steps = append(rec.Steps, Step{Line: line, Kind: StepAnswer, Move: v.Move, View: v, Words: v.Words()})
		}
	}
	return rec, nil
}
