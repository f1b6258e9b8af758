package match

import (
	"errors"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// sideRecords are each side's record of one game in the one record schema
// (package record: the daemon's per-game record), written as the game
// goes by the same writer and driver the daemon uses (driver.Game records
// what the side heard, its attempts with their searches, its ponders and
// the result; finish adds the moves).
// kriegbot replay reads them as it reads the daemon's. The zero value
// writes nothing (no -records).
type sideRecords [2]*record.Writer

// openRecords starts both sides' records of game rec under dir/games; a
// side's file is named by its colour and the opponent's spec.
func openRecords(dir string, rec *Record, rules umpire.Rules, lims [2]Limits, now time.Time) sideRecords {
	var out sideRecords
	if dir == "" {
		return out
	}
	for c := range out {
		us := chess.Color(c)
		g := record.GameLine{Game: rec.Game, White: rec.White, Black: rec.Black, Wild: 16,
			Seed: record.Seed(SideSeed(rec.Seed, us)), Player: rec.specOf(us), HiddenKing: rec.HiddenKing}
		g.SetRules(rules)
		if lims[c].Control.Timed() {
			g.TC = lims[c].Control.String()
		}
		if rec.Start != nil {
			g.FEN = rec.Start.FEN()
		}
		out[c] = record.Create(dir, us.String(), g, us, now)
	}
	return out
}

// finish records the moves of a finished game, closes the
// records and returns the first error either writer met.
func (r sideRecords) finish(rec *Record) error {
	var sans []string
	for _, a := range rec.Attempts {
		if a.Answer.Legal {
			sans = append(sans, a.SAN)
		}
	}
	var errs []error
	for _, w := range r {
		if w == nil {
			continue
		}
		w.Moves(sans) // the result line was the driver's (driver.Game.End)
		w.Close()
		errs = append(errs, w.Err())
	}
	return errors.Join(errs...)
}

// close closes the records of a game cut short (no result).
func (r sideRecords) close() {
	for _, w := range r {
		if w != nil {
			w.Close()
		}
	}
}
