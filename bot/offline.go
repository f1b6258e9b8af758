package bot

import (
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/protocol"
)

// Offline entry points: the daemon's game records and game tracking for
// drivers without a live session (kriegbot replay, and tests that need the
// daemon's own records rather than an imitation of them).

// GameRecorder writes one game's JSON Lines record and PGN exactly as the
// daemon does (records.go).
type GameRecorder struct {
	r *gameRecord
}

// NewGameRecorder starts the record of game g under dir/games, played as us
// by the player built from spec with seed.
func NewGameRecorder(dir, name string, g protocol.MyGameStartedDG, us chess.Color, seed uint64, spec string, now time.Time) *GameRecorder {
	return &GameRecorder{r: newGameRecord(dir, name, g, us, seed, spec, now)}
}

// Attempt records the attempt p has just chosen, with p's last search.
func (g *GameRecorder) Attempt(m chess.Move, now time.Time, p players.Player) { g.r.attempt(m, now, p) }

// Event records what the player was told.
func (g *GameRecorder) Event(e players.Event, now time.Time) { g.r.event(e, now) }

// Finish records the result after plies legal moves.
func (g *GameRecorder) Finish(result, code, reason string, plies int, now time.Time) {
	t := &tracker{result: result, code: code, reason: reason, plies: plies}
	for _, v := range g.r.heard {
		t.log = append(t.log, answerRecord{View: v})
	}
	g.r.finish(t, now)
}

// Moves records the whole game, revealed after its end, and writes the PGN;
// it closes the record.
func (g *GameRecorder) Moves(sans []string) {
	v := protocol.MoveListDG{Game: g.r.number}
	for _, s := range sans {
		v.Moves = append(v.Moves, protocol.MoveDG{Game: g.r.number, SAN: s, CaptureSquare: chess.NoSquare})
	}
	g.r.fullMoves(v)
}

// Path is the JSON Lines record's file name ("" if it could not be made).
func (g *GameRecorder) Path() string {
	if g.r.base == "" {
		return ""
	}
	return g.r.base + ".jsonl"
}

// Err is the first error writing the record.
func (g *GameRecorder) Err() error { return g.r.err }
