package match

import (
	"fmt"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// SideRecord is game g of a match's JSON Lines file (kriegbot match
// -jsonl) as side us's player would have recorded it, in the one record
// schema (package record) that kriegbot replay reads and that -records
// writes during the match: its spec and seed as the match gave them, its
// attempts, and what the referee told it, rebuilt by playing the attempts
// through the umpire (Walk checks each recorded answer against the
// referee's). A match held to -nodes N replays exactly (every search runs N
// iterations, as in the match), and so does one on a clock whose attempt
// lines carry their searches' iterations; in an older file on a clock the
// searches run nodes iterations (then choices may differ, and the record
// says so: Approximate). name is for messages.
//
// It lives here, beside the writer of the match lines, so that replay
// reads records only and a match file of any age stays replayable.
func (g *Game) SideRecord(name string, us chess.Color, nodes int64) (*record.Record, error) {
	h, gl := &g.Header, &g.Result
	at := func(line int, format string, args ...any) error {
		return &record.LineError{Name: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	side := us.String()
	// The side's own budget (time odds) when the match gave it one.
	sideNodes := h.Nodes
	own := h.P2Budget
	if gl.P1 == side {
		own = h.P1Budget
	}
	if own != nil {
		sideNodes = own.Nodes
	}
	if sideNodes > 0 {
		nodes = sideNodes
	}
	counted := sideNodes > 0
	if !counted {
		counted = true
		for i := range g.Attempts {
			if a := &g.Attempts[i]; a.Side == side && a.Iterations == nil {
				counted = false
				break
			}
		}
	}
	if nodes < 1 && !counted {
		return nil, fmt.Errorf("%s: the match ran on a clock and its file does not hold the searches' iterations: give -nodes N for its searches", name)
	}
	rules, err := record.ParseRules(h.Rules, h.Variant)
	if err != nil {
		return nil, at(1, "%v", err)
	}
	rec := &record.Record{Name: name, Game: record.GameInfo{
		Line: g.ResultLine, Number: gl.Game, White: gl.White, Black: gl.Black, Us: us,
		Seed: SideSeed(gl.Seed, us), Player: gl.White, HiddenKing: h.HiddenKing, Rules: rules,
	}, Approximate: !counted}
	if us == chess.Black {
		rec.Game.Player = gl.Black
	}
	if gl.FEN != "" {
		start, err := g.Start()
		if err != nil {
			return nil, at(g.ResultLine, "%v", err)
		}
		rec.Game.Setup = &start
	}
	rec.Moves = []string{}
	err = g.Walk(name, func(i int, pos *chess.Position, m chess.Move, ans umpire.Answer) error {
		a, line := &g.Attempts[i], g.Lines[i]
		if pos.Side() == us {
			sr := &record.Search{Iterations: nodes}
			if sideNodes == 0 && a.Iterations != nil {
				sr = &record.Search{Iterations: *a.Iterations, Trees: a.Trees, Nodes: a.TreeNodes, Critical: a.Critical, Boards: a.Boards}
			}
			rec.Steps = append(rec.Steps, record.Step{Line: line, Kind: record.StepAttempt, Move: m, Search: sr})
		}
		if ans.Legal {
			rec.Moves = append(rec.Moves, record.SAN(pos, m))
		}
		if v := ans.For(us); v.Heard {
			mv := v.Move
			if v.Own {
				mv = m // a refusal's view does not repeat the attempt
			}
			rec.Steps = append(rec.Steps, record.Step{Line: line, Kind: record.StepAnswer, Move: mv, View: v, Words: v.Words()})
		}
		if pos.Side() == us && a.Ponder != nil {
			// It pondered from here until the opponent's move.
			rec.Steps = append(rec.Steps, record.Step{Line: line, Kind: record.StepPonder, Search: &record.Search{Iterations: *a.Ponder, Trees: a.PonderTrees}})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}
