package bot

import (
	"fmt"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/opponent"
)

// Per-opponent models: after each game the server reveals the whole move
// list; it is added to the opponent's file in the store, and the next game
// against that opponent is played with the default model blended with what
// we learnt (opponent.Store, weighted by the games seen).

// openStore opens the per-opponent store and the default counts, or returns
// nils when the configuration keeps no models or the store cannot be used
// (logged: the bot still plays with the default model).
func (d *Daemon) openStore() {
	dir := d.config().Engine.OpponentModels
	if dir == "" || d.store != nil {
		return
	}
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		d.opt.Log.Warn().Err(err).Msg("no default opponent model: per-opponent models off")
		return
	}
	st, err := opponent.OpenStore(dir, def.Horizon)
	if err != nil {
		d.opt.Log.Warn().Err(err).Str("dir", dir).Msg("cannot open the opponent store: per-opponent models off")
		return
	}
	d.store, d.defaults = st, def
}

// priorFor gives p the model of opponent handle, if p takes one and we have
// seen that opponent before; it returns the model's name for the record, or "".
func (d *Daemon) priorFor(p any, handle string) string {
	ps, ok := p.(players.PriorSetter)
	if !ok || d.store == nil {
		return ""
	}
	c, err := d.store.Counts(handle)
	if err != nil || c == nil || c.Games[0]+c.Games[1] == 0 {
		return "" // never met: the player keeps its default model
	}
	m, err := d.store.Model(handle, d.defaults)
	if err != nil {
		d.opt.Log.Warn().Err(err).Str("opponent", handle).Msg("opponent model unreadable: using the default")
		return ""
	}
	ps.SetPrior(m)
	name, _ := opponent.FileName(handle)
	return fmt.Sprintf("%s (%d games)", name, c.Games[0]+c.Games[1])
}

// learn adds a finished game's full move list to its opponent's model.
func (d *Daemon) learn(r *gameRecord, sans []string) {
	if d.store == nil {
		return
	}
	moves, err := replaySAN(sans)
	if err != nil {
		d.opt.Log.Warn().Err(err).Int("game", r.number).Msg("move list not replayable: not learnt")
		return
	}
	opp, oppColor := r.black, chess.Black
	if r.us == chess.Black {
		opp, oppColor = r.white, chess.White
	}
	if err := d.store.AddGame(opp, oppColor, moves); err != nil {
		d.opt.Log.Warn().Err(err).Str("opponent", opp).Msg("opponent model not updated")
		return
	}
	d.opt.Log.Info().Str("opponent", opp).Int("plies", len(moves)).Msg("opponent model updated")
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
