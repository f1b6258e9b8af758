package iccserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// writeRecords writes game-<n>.pgn (SAN moves, referee messages and illegal
// attempts as comments, readable by ordinary PGN tools) and game-<n>.jsonl
// (one JSON object per attempt, then one for the result) into dir. Each file
// is written to a temporary name and renamed, so a crash never leaves half a
// record.
func writeRecords(dir string, g *game) error {
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
	var w []string
	switch a.Capture.Kind {
	case umpire.PawnCaptured:
		w = append(w, "Pawn at "+a.Capture.Square.String()+" captured")
	case umpire.PieceCaptured:
		w = append(w, "Piece at "+a.Capture.Square.String()+" captured")
	}
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			w = append(w, umpire.CheckWords(k))
		}
	}
	if a.PawnTries >= 0 && a.Ending == umpire.NotOver {
		w = append(w, umpire.TriesWords(a.PawnTries))
	}
	return w
}

func pgnTag(sb *strings.Builder, name, value string) {
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
	fmt.Fprintf(sb, "[%s \"%s\"]\n", name, value)
}

func gamePGN(g *game) string {
	var sb strings.Builder
	result := g.result
	if result == "aborted" {
		result = "*"
	}
	pgnTag(&sb, "Event", fmt.Sprintf("kriegbot serve w16 %d %d", g.minutes, g.inc))
	pgnTag(&sb, "Site", "kriegbot serve")
	pgnTag(&sb, "Date", g.started.UTC().Format("2006.01.02"))
	pgnTag(&sb, "Round", "-")
	pgnTag(&sb, "White", g.names[0])
	pgnTag(&sb, "Black", g.names[1])
	pgnTag(&sb, "Result", result)
	pgnTag(&sb, "Variant", "kriegspiel")
	pgnTag(&sb, "TimeControl", fmt.Sprintf("%d+%d", g.minutes*60, g.inc))
	pgnTag(&sb, "Termination", g.description)
	pgnTag(&sb, "GameId", fmt.Sprint(g.number))
	sb.WriteString("\n")
	var body []string
	var illegal []string
	leg := 0
	needNumber := true // a Black move after a comment repeats its number ("3...")
	for _, a := range g.answers {
		if !a.Legal {
			illegal = append(illegal, a.Attempt.String())
			continue
		}
		if len(illegal) > 0 {
			body = append(body, "{Illegal: "+strings.Join(illegal, " ")+"}")
			illegal = illegal[:0]
			needNumber = true
		}
		tok := ""
		switch {
		case a.Mover == chess.White:
			tok = fmt.Sprintf("%d. ", leg/2+1)
		case needNumber:
			tok = fmt.Sprintf("%d... ", leg/2+1)
		}
		body = append(body, tok+g.sans[leg])
		needNumber = false
		if w := refereeWords(a); len(w) > 0 {
			body = append(body, "{"+strings.Join(w, "; ")+"}")
			needNumber = true
		}
		leg++
	}
	if len(illegal) > 0 {
		body = append(body, "{Illegal: "+strings.Join(illegal, " ")+"}")
	}
	body = append(body, "{"+g.description+"}", result)
	// Wrap at 79 columns, as the PGN standard asks.
	col := 0
	for i, t := range body {
		if i > 0 {
			if col+1+len(t) > 79 {
				sb.WriteString("\n")
				col = 0
			} else {
				sb.WriteString(" ")
				col++
			}
		}
		sb.WriteString(t)
		col += len(t)
	}
	sb.WriteString("\n\n")
	return sb.String()
}

// jsonAttempt is one line of the JSON Lines record.
type jsonAttempt struct {
	Game     int      `json:"game"`
	Ply      int      `json:"ply"`
	Side     string   `json:"side"`
	Attempt  string   `json:"attempt"`
	Legal    bool     `json:"legal"`
	SAN      string   `json:"san,omitempty"`
	Referee  []string `json:"referee,omitempty"`
	AtMs     int64    `json:"at_ms"`
	WhiteMs  int64    `json:"white_ms"`
	BlackMs  int64    `json:"black_ms"`
	Ending   string   `json:"ending,omitempty"`
	Result   string   `json:"result,omitempty"`
	FENAfter string   `json:"fen_after,omitempty"`
}

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

func gameJSONL(g *game) []byte {
	var out []byte
	pos := chess.StartPosition()
	leg := 0
	for _, r := range g.attempt {
		a := r.Answer
		j := jsonAttempt{Game: g.number, Ply: r.Ply, Side: strings.ToLower(colorName(r.Side)), Attempt: a.Attempt.String(),
			Legal: a.Legal, AtMs: r.At.Milliseconds(), WhiteMs: r.ClockMs[0], BlackMs: r.ClockMs[1]}
		if a.Legal {
			j.SAN = g.sans[leg]
			j.Referee = refereeWords(a)
			pos.Make(a.Attempt)
			j.FENAfter = pos.FEN()
			if a.Ending != umpire.NotOver {
				j.Ending, j.Result = a.Ending.String(), a.Result
			}
			leg++
		}
		b, _ := json.Marshal(j)
		out = append(append(out, b...), '\n')
	}
	b, _ := json.Marshal(jsonResult{Game: g.number, White: g.names[0], Black: g.names[1], Result: g.result, Code: g.code,
		Description: g.description, Minutes: g.minutes, Increment: g.inc, Rated: g.rated, Plies: len(g.sans), Attempts: len(g.attempt)})
	return append(append(out, b...), '\n')
}
