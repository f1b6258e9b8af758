package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
	"kriegbot/record"
)

// writeRecords writes game-<n>.pgn (SAN moves, referee messages and illegal
// attempts as comments, readable by ordinary PGN tools) and game-<n>.jsonl
// (one JSON object per attempt, then one for the result) into dir. Each file
// is written to a temporary name and renamed, so a crash never leaves half a
// record.
func writeRecords(dir string, g *Game) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("game-%d", g.number))
	if err := writeAtomic(base+".pgn", []byte(gamePGN(g))); err != nil {
		return err
	}
	return writeAtomic(base+".jsonl", gameJSONL(g))
}

func writeAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// refereeWords renders what both players heard of a legal move.
func refereeWords(a umpire.Answer) []string {
	v := a.For(a.Mover)
	return v.Words()
}

func gamePGN(g *Game) string {
	var w pgnout.Writer
	result := g.result
	if result == "aborted" {
		result = "*"
	}
	if g.tdTags != nil {
		// A TD game: the event's Seven Tag Roster, board and ratings.
		for _, t := range g.tdTags {
			w.Tag(t.Name, t.Value)
		}
	} else {
		w.Tag("Event", fmt.Sprintf("kriegbot serve w16 %d %d", g.minutes, g.inc))
		w.Tag("Site", "kriegbot serve")
		w.Tag("Date", g.started.UTC().Format("2006.01.02"))
		w.Tag("Round", "-")
		w.Tag("White", g.names[0])
		w.Tag("Black", g.names[1])
		w.Tag("Result", result)
	}
	w.Tag("Variant", pgnout.Variant)
	w.Tag("TimeControl", fmt.Sprintf("%d+%d", g.minutes*60, g.inc))
	w.Tag("Termination", g.description)
	w.Tag("GameId", fmt.Sprint(g.number))
	var illegal []string
	leg := 0
	for _, a := range g.answers {
		if !a.Legal {
			illegal = append(illegal, a.Attempt.String())
			continue
		}
		if len(illegal) > 0 {
			w.Comment("Illegal: " + strings.Join(illegal, " "))
			illegal = illegal[:0]
		}
		w.Move(leg, g.sans[leg])
		w.Comment(strings.Join(refereeWords(a), "; "))
		leg++
	}
	if len(illegal) > 0 {
		w.Comment("Illegal: " + strings.Join(illegal, " "))
	}
	w.Comment(g.description)
	return w.Finish(result)
}

// The JSON Lines record is one record.RefereeLine per attempt (with
// record.ServerClock), then a jsonResult.

type jsonResult struct {
	Game        int    `json:"game"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Result      string `json:"result"`
	Code        string `json:"code"`
	Description string `json:"description"`
	Minutes     int    `json:"minutes"`
	Increment   int    `json:"increment"`
	Rated       bool   `json:"rated"`
	Plies       int    `json:"plies"`
	Attempts    int    `json:"attempts"`
}

func gameJSONL(g *Game) []byte {
	var out []byte
	pos := chess.StartPosition()
	leg := 0
	for _, r := range g.attempt {
		a := r.Answer
		j := record.NewRefereeLine(g.number, r.Ply, a)
		j.ServerClock = &record.ServerClock{AtMs: r.At.Milliseconds(), WhiteMs: r.ClockMs[0], BlackMs: r.ClockMs[1]}
		if a.Legal {
			j.SAN = g.sans[leg]
			pos.Make(a.Attempt)
			j.FENAfter = pos.FEN()
			j.Result = a.Result
			leg++
		}
		out = record.AppendRefereeLine(out, j)
	}
	b, _ := json.Marshal(jsonResult{Game: g.number, White: g.names[0], Black: g.names[1], Result: g.result, Code: g.endCode,
		Description: g.description, Minutes: g.minutes, Increment: g.inc, Rated: g.rated, Plies: len(g.sans), Attempts: len(g.attempt)})
	return append(append(out, b...), '\n')
}
