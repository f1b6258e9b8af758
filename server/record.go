package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
	"kriegbot/record"
)

// writeRecords writes game-<n>.pgn (SAN moves, referee messages and illegal
// attempts as comments, readable by ordinary PGN tools) and game-<n>.jsonl
// (one JSON object per attempt, then one for the result) into dir, and
// returns the name they were given (without extension). A record is never
// overwritten: the names are claimed with O_EXCL first, and where a file
// of the name stands already (a folder shared or edited by hand) the game
// goes under game-<n>-<k>. Each file is then written to a temporary name
// and renamed over its claim, so a crash never leaves half a record.
func writeRecords(dir string, g *Game) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for k := 1; k <= maxRecordTries; k++ {
		name := fmt.Sprintf("game-%d", g.number)
		if k > 1 {
			name = fmt.Sprintf("game-%d-%d", g.number, k)
		}
		base := filepath.Join(dir, name)
		ok, err := claim(base+".jsonl", base+".pgn")
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		if err := writeAtomic(base+".pgn", []byte(gamePGN(g))); err != nil {
			return name, err
		}
		return name, writeAtomic(base+".jsonl", gameJSONL(g))
	}
	return "", fmt.Errorf("game-%d: %d names taken in %s", g.number, maxRecordTries, dir)
}

// maxRecordTries bounds the names writeRecords tries for one game.
const maxRecordTries = 100

// claim creates each named file empty, all or none: false (and nothing
// left behind) when one of them exists already.
func claim(names ...string) (bool, error) {
	for i, n := range names {
		f, err := os.OpenFile(n, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			for _, made := range names[:i] {
				os.Remove(made)
			}
			if errors.Is(err, fs.ErrExist) {
				return false, nil
			}
			return false, err
		}
	}
	return true, nil
}

func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// highestRecord is the highest game number among the records in dir
// (game-<n>.pgn, .jsonl, gzipped or not, and game-<n>-<k>.*), 0 for none:
// a restarted server numbers its games on from there, so a new game never
// takes an earlier game's name.
func highestRecord(dir string) (int, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	high := 0
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "game-")
		if !ok {
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if end <= 0 || rest[end] != '.' && rest[end] != '-' {
			continue
		}
		if n, err := strconv.Atoi(rest[:end]); err == nil {
			high = max(high, n)
		}
	}
	return high, nil
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
		event := "w16"
		if v := ruleVariant(g); v != "" {
			event = v
		}
		w.Tag("Event", fmt.Sprintf("kriegbot serve %s %d %d", event, g.minutes, g.inc))
		w.Tag("Site", "kriegbot serve")
		w.Tag("Date", g.started.UTC().Format("2006.01.02"))
		w.Tag("Round", "-")
		w.Tag("White", g.names[0])
		w.Tag("Black", g.names[1])
		w.Tag("Result", result)
	}
	w.Tag("Variant", pgnout.Variant)
	if v := ruleVariant(g); v != "" {
		w.Tag("RuleVariant", v) // the site's identifier
	}
	w.Tag("TimeControl", fmt.Sprintf("%d+%d", g.minutes*60, g.inc))
	w.Tag("Termination", g.description)
	w.Tag("GameId", fmt.Sprint(g.number))
	if ruleVariant(g) != "" {
		variantMovetext(&w, g)
		return w.Finish(result)
	}
	var illegal []string
	leg := 0
	for _, a := range g.answers {
		if a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny {
			// "Any?" is no attempt: its answer is a comment of its own.
			if len(illegal) > 0 {
				w.Comment("Illegal: " + strings.Join(illegal, " "))
				illegal = illegal[:0]
			}
			w.Comment(a.String())
			continue
		}
		if !a.Legal {
			illegal = append(illegal, umpire.MoveText(a.Attempt))
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

// variantMovetext writes the moves of a game of another variant than
// wild 16 as every PGN of ours does (record.VariantMoves), then how it
// ended.
func variantMovetext(w *pgnout.Writer, g *Game) {
	var moves record.VariantMoves
	leg := 0
	for _, a := range g.answers {
		if !a.Legal {
			moves.Refused(&a)
			continue
		}
		moves.Moved(w, leg, g.sans[leg], &a)
		leg++
	}
	if n := moves.End(w); n != nil {
		w.Comment(strings.Join(n, "; "))
	}
	w.Comment(g.description)
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
	// RuleVariant is the game's variant, the site's identifier; absent for
	// wild 16, whose records are what they always were.
	RuleVariant string `json:"rule_variant,omitempty"`
}

func gameJSONL(g *Game) []byte {
	var out []byte
	leg := 0
	for _, r := range g.attempt {
		a := r.Answer
		j := record.NewRefereeLine(g.number, r.Ply, a)
		j.ServerClock = &record.ServerClock{AtMs: r.At.Milliseconds(), WhiteMs: r.ClockMs[0], BlackMs: r.ClockMs[1]}
		if a.Legal {
			j.SAN = g.sans[leg]
			j.FENAfter = r.FEN
			j.Result = a.Result
			leg++
		}
		out = record.AppendRefereeLine(out, j)
	}
	b, _ := json.Marshal(jsonResult{Game: g.number, White: g.names[0], Black: g.names[1], Result: g.result, Code: g.endCode,
		Description: g.description, Minutes: g.minutes, Increment: g.inc, Rated: g.rated, Plies: len(g.sans), Attempts: len(g.attempt),
		RuleVariant: ruleVariant(g)})
	return append(append(out, b...), '\n')
}

// ruleVariant is g's variant as its result line names it: "" for wild 16.
func ruleVariant(g *Game) string {
	if g.ump == nil || g.ump.Rules().Variant.IsWild16() {
		return ""
	}
	return g.ump.Rules().Variant.Name
}
