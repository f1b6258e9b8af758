package bot

import (
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/opponent"
	"kriegbot/protocol/handle"
	"kriegbot/record"
)

// The models a game is played with: its variant's base model (a file
// `kriegbot model build` wrote into engine.variant_models, else the
// embedded default), and per-opponent models: after each game the server
// reveals the whole move list; it is added to the opponent's file in the
// store, and the next game against that opponent is played with the base
// model blended with what we learnt (opponent.Store, weighted by the games
// seen).

// learner keeps the per-opponent store and the variants' base models; the
// zero value learns nothing and plays every variant with the default.
type learner struct {
	store    *opponent.Store
	defaults *oppmodel.Counts
	// bases are read from the models folder at the first game; basesDir
	// is the folder they were read from.
	bases    *opponent.Bases
	basesDir string
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

// base is the model variant's games start from, the bases read from
// modelsDir once (each logged: which file, or why a file is not used).
func (l *learner) base(modelsDir, variant string, log zerolog.Logger) opponent.Base {
	if l.bases == nil || l.basesDir != modelsDir {
		b, err := opponent.LoadBases(modelsDir, umpire.VariantNames())
		if err != nil {
			log.Warn().Err(err).Msg("no default opponent model")
			return opponent.Base{Variant: variant}
		}
		l.bases, l.basesDir = b, modelsDir
		for _, v := range umpire.VariantNames() {
			switch base := b.For(v); {
			case base.Unused != nil:
				log.Warn().Err(base.Unused).Str("variant", v).Msg("variant model not used: the embedded default instead")
			case base.Path != "":
				log.Info().Str("variant", v).Str("model", base.Name()).Msg("variant model")
			}
		}
	}
	return l.bases.For(variant)
}

// prior is the model a player was given beyond its own default: its names
// for the record, and the files it was built from, which the record keeps
// so that a replay gives the player the same model.
type prior struct {
	name     string // the per-opponent model, "" for none
	baseName string // the variant's model file, "" for the embedded default
	files    record.Models
}

// priorFor gives p the model for a game of variant against opponent name,
// if p takes one: the variant's base model, blended with what we learnt of
// the opponent when learn is set and we have met it (never a guest). It
// returns what the record keeps of it (zero when the player keeps the
// embedded default).
func (l *learner) priorFor(p any, name, variant, modelsDir string, learn bool, log zerolog.Logger) prior {
	ps, ok := p.(players.PriorSetter)
	if !ok {
		return prior{}
	}
	base := l.base(modelsDir, variant, log)
	var pr prior
	if base.Path != "" {
		pr.baseName, pr.files.Base = base.Name(), base.File
	}
	var c *oppmodel.Counts
	if learn && l.store != nil && !handle.IsGuest(name) {
		if got, err := l.store.Counts(name); err == nil && got != nil && got.Games[0]+got.Games[1] > 0 {
			c = got
		}
	}
	switch {
	case c != nil:
		// The model is built from these very counts (not re-read), so the
		// counts the record keeps are exactly what the player got.
		ps.SetPrior(opponent.ModelFrom(base.Counts, c))
		file, _ := opponent.FileName(name)
		pr.name, pr.files.Opponent = fmt.Sprintf("%s (%d games)", file, c.Games[0]+c.Games[1]), c.AppendFile(nil)
	case base.Path != "":
		ps.SetPrior(base.Model)
	}
	return pr
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
