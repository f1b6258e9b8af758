package bot

import (
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/opponent"
	"kriegbot/protocol/handle"
)

// Per-opponent models: after each game the server reveals the whole move
// list; it is added to the opponent's file in the store, and the next game
// against that opponent is played with the default model blended with what
// we learnt (opponent.Store, weighted by the games seen).

// learner keeps the per-opponent store; the zero value learns nothing.
type learner struct {
	store    *opponent.Store
	defaults *oppmodel.Counts
}

// open opens the store in dir and the default counts; with dir "" or a
// store that cannot be used (logged) the bot plays with the default model.
func (l *learner) open(dir string, log zerolog.Logger) {
	if dir == "" || l.store != nil {
		return
	}
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		log.Warn().Err(err).Msg("no default opponent model: per-opponent models off")
		return
	}
	st, err := opponent.OpenStore(dir, def.Horizon)
	if err != nil {
		log.Warn().Err(err).Str("dir", dir).Msg("cannot open the opponent store: per-opponent models off")
		return
	}
	l.store, l.defaults = st, def
}

// prior is the per-opponent model a player was given: its name for the
// record, and the counts it was blended from, which the record keeps so
// that a replay gives the player the same model.
type prior struct {
	name   string
	counts []byte
}

// priorFor gives p the model of opponent handle, if p takes one and we have
// seen that opponent before (never a guest); it returns what the record
// keeps of it (zero when the player keeps its default model).
func (l *learner) priorFor(p any, name string, log zerolog.Logger) prior {
	ps, ok := p.(players.PriorSetter)
	if !ok || l.store == nil || handle.IsGuest(name) {
		return prior{}
	}
	c, err := l.store.Counts(name)
	if err != nil || c == nil || c.Games[0]+c.Games[1] == 0 {
		return prior{} // never met: the player keeps its default model
	}
	// The model is built from these very counts (not re-read), so the
	// counts the record keeps are exactly what the player got.
	ps.SetPrior(opponent.ModelFrom(l.defaults, c))
	file, _ := opponent.FileName(name)
	return prior{name: fmt.Sprintf("%s (%d games)", file, c.Games[0]+c.Games[1]), counts: c.AppendFile(nil)}
}

// learn adds a finished game's full move list to its opponent's model.
func (l *learner) learn(opp string, oppColor chess.Color, sans []string, log zerolog.Logger) {
	if l.store == nil {
		return
	}
	if handle.IsGuest(opp) {
		log.Info().Str("opponent", opp).Msg("a guest: nothing learnt (the next guest of that name is someone else)")
		return
	}
	moves, err := replaySAN(sans)
	if err != nil {
		log.Warn().Err(err).Str("opponent", opp).Msg("move list not replayable: not learnt")
		return
	}
	if err := l.store.AddGame(opp, oppColor, moves); err != nil {
		log.Warn().Err(err).Str("opponent", opp).Msg("opponent model not updated")
		return
	}
	log.Info().Str("opponent", opp).Int("plies", len(moves)).Msg("opponent model updated")
}

// replaySAN turns a game's SAN moves into moves from the start position.
func replaySAN(sans []string) ([]chess.Move, error) {
	pos := chess.StartPosition()
	out := make([]chess.Move, 0, len(sans))
	for i, s := range sans {
		m, err := pos.ParseSAN(strings.TrimRight(s, "+#!?"))
		if err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", i+1, s, err)
		}
		pos.Make(m)
		out = append(out, m)
	}
	return out, nil
}
