package tourneycmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/engine/clock"
	"kriegbot/engine/umpire"
	"kriegbot/match"
	"kriegbot/tourney"
)

// A tournament in another variant than wild 16 (-rules berkeley_any) cannot
// run over the server: its games go through the telnet door, which speaks
// ICC's wild 16 only. It is played in-process instead, each game through
// the same runner as kriegbot match (the umpire, the driver, the players'
// clocks), paired and scored by package tourney as the TD pairs and scores
// an event: the same pairings, crosstable and tie-breaks, without the
// server, the TD and the daemons.

// variantOf returns the variant -rules names when it is one of the site's
// other than wild 16.
func variantOf(rules string) (umpire.Variant, bool) {
	v, err := umpire.ParseVariant(rules)
	return v, err == nil && !v.IsWild16()
}

// eventSystem is the tourney package's name of -format.
func eventSystem(s string) tourney.System {
	switch s {
	case "rr":
		return tourney.RoundRobin
	case "drr":
		return tourney.DoubleRoundRobin
	}
	return tourney.Swiss
}

// runVariant plays the event of opt in variant v in-process and writes its
// PGN, records, standings and crosstable into opt.out.
func runVariant(ctx context.Context, opt options, v umpire.Variant, stdout io.Writer) error {
	began := time.Now()
	if opt.out == "" {
		opt.out = "tourney-" + began.Format("20060102-150405")
	}
	if err := os.MkdirAll(opt.out, 0o755); err != nil {
		return err
	}
	ev := tourney.New(opt.name, eventSystem(opt.system), opt.rounds)
	ev.Site, ev.Date = "kriegbot tourney", began.UTC().Format("2006.01.02")
	for _, e := range opt.players {
		if err := ev.AddPlayer(e.handle, 0); err != nil {
			return err
		}
	}
	if err := ev.Start(); err != nil {
		return err
	}
	pgn, err := os.Create(filepath.Join(opt.out, "tourney.pgn"))
	if err != nil {
		return err
	}
	defer pgn.Close()
	var game bytes.Buffer // one game's PGN, before its tags are the event's
	byHandle := map[string]entrant{}
	for _, e := range opt.players {
		byHandle[e.handle] = e
	}
	ctl := clock.Control{Base: time.Duration(opt.minutes) * time.Minute, Increment: time.Duration(opt.inc) * time.Second}
	rules := umpire.Site(v).Bounded() // as the server's: no game runs for ever
	fmt.Fprintf(stdout, "kriegbot tourney: %s, %d players, %s at %d+%d in %s, played in-process (the server's doors play wild 16 only); writing to %s\n",
		opt.name, len(opt.players), systemName(opt), opt.minutes, opt.inc, v.Name, opt.out)
	for !ev.Done() {
		round, err := ev.PairNext()
		if err != nil {
			return err
		}
		for _, g := range round.Games {
			white, black := byHandle[ev.Players[g.White].Handle], byHandle[ev.Players[g.Black].Handle]
			c := match.Config{P1: white.spec, P2: black.spec, Games: 1, Concurrency: 1, Rules: rules,
				Limits: match.Limits{Control: ctl}, Seed: opt.seed ^ uint64(round.Number)<<16 ^ uint64(g.Board),
				Shards: 1, PGN: &game,
				// Each game is a match's game 0: a folder of its own keeps
				// the records of games begun in one second apart.
				Records:   filepath.Join(opt.out, "records", fmt.Sprintf("round%d-board%d", round.Number, g.Board)),
				PGNHeader: match.PGNHeader{Event: opt.name, Site: ev.Site, Date: ev.Date}}
			game.Reset()
			sum, err := match.Run(ctx, c)
			if err != nil {
				return fmt.Errorf("round %d board %d: %w", round.Number, g.Board, err)
			}
			if _, err := io.WriteString(pgn, eventTags(game.String(), fmt.Sprintf("%d.%d", round.Number, g.Board), white.handle, black.handle)); err != nil {
				return err
			}
			res := tourney.Draw
			switch {
			case sum.Tally.W == 1:
				res = tourney.WhiteWins
			case sum.Tally.L == 1:
				res = tourney.BlackWins
			}
			if err := ev.SetResult(round.Number, g.Board, res); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "round %d board %d: %s - %s %s\n", round.Number, g.Board, white.handle, black.handle, res.PGN())
		}
	}
	if err := writeVariantTables(opt.out, ev); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	return writeTables(stdout, ev)
}

// eventTags gives a game's PGN, as match wrote it, the event's Round
// ("2.1": round and board) and the players' handles for White and Black.
func eventTags(pgn, round, white, black string) string {
	lines := strings.Split(pgn, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "[Round "):
			lines[i] = pgnTag("Round", round)
		case strings.HasPrefix(l, "[White "):
			lines[i] = pgnTag("White", white)
		case strings.HasPrefix(l, "[Black "):
			lines[i] = pgnTag("Black", black)
		case l == "":
			return strings.Join(lines, "\n") // the tags end at the first blank line
		}
	}
	return strings.Join(lines, "\n")
}

// pgnTag is one tag pair; a handle needs no escaping (handle.Valid).
func pgnTag(name, value string) string { return "[" + name + " \"" + value + "\"]" }

// writeVariantTables writes the crosstable as text and HTML beside the PGN.
func writeVariantTables(dir string, ev *tourney.Event) error {
	txt, err := os.Create(filepath.Join(dir, "tourney.txt"))
	if err != nil {
		return err
	}
	if err := writeTables(txt, ev); err != nil {
		txt.Close()
		return err
	}
	if err := txt.Close(); err != nil {
		return err
	}
	html, err := os.Create(filepath.Join(dir, "tourney.html"))
	if err != nil {
		return err
	}
	if err := ev.WriteHTML(html, tourney.DefaultTieBreaks(ev.System)...); err != nil {
		html.Close()
		return err
	}
	return html.Close()
}
