package bot

import (
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// Resynchronisation: when our view of a game and the server's disagree (a
// lost burst of output, a reconnection), the server's move list rebuilds
// the player; after a game, the revealed move list completes its record.

// moveList rebuilds a game from the server's move list when we joined it
// late (a reconnection) or lost track (an overflow or a desync); after a
// game's end it completes the game's record and teaches its opponent model.
func (d *Daemon) moveList(v protocol.MoveListDG) {
	d.answered(v.Game)
	g := d.games[v.Game]
	if g == nil {
		if sans := revealed(v); sans != nil {
			if r := d.findRecord(v.Game, sans); r != nil {
				d.completeRecord(r, sans)
			}
		}
		return
	}
	if !g.stale.IsZero() {
		d.staleList(g, v)
		return
	}
	if g.resumed != nil {
		if g = d.resumedList(g, v); g == nil {
			return
		}
	}
	asked := g.resyncAsked
	g.resyncAsked = false
	if len(v.Moves) == g.t.Plies() && !asked {
		return // the list at game start, or a poll that found nothing new
	}
	if g.t.Agrees(len(v.Moves)) {
		return // asked, but we agree with the server after all
	}
	d.resync(g, v)
}

// revealed returns the SAN moves of a move list the server reveals after
// the game, or nil when it hides moves (not revealed yet).
func revealed(v protocol.MoveListDG) []string {
	sans := make([]string, 0, len(v.Moves))
	for _, m := range v.Moves {
		if m.Hidden || m.SAN == "" {
			return nil
		}
		sans = append(sans, m.SAN)
	}
	return sans
}

// resync replays the server's move list into a fresh player: our own moves
// as accepted, the opponent's as hidden moves with their capture squares. The
// checks and pawn tries of past moves are not in the list; the current turn's
// are asked for again by the next moves.
func (d *Daemon) resync(g *gameRun, v protocol.MoveListDG) {
	why := g.resyncWhy
	if why == "" {
		why = g.t.TakeDesync()
	}
	if why == "" {
		why = "the server's move list differs from ours"
	}
	now := d.opt.Now()
	d.opt.Log.Warn().Int("game", g.t.Number()).Str("why", why).Int("plies", len(v.Moves)).Msg("resyncing from the server's move list")
	us := g.t.Us()
	views := make([]umpire.View, 0, len(v.Moves))
	for i, mv := range v.Moves {
		mover := chess.Color(i % 2)
		view := umpire.View{Heard: true, Own: mover == us, PawnTries: -1}
		if mv.Hidden {
			if mv.CaptureSquare != chess.NoSquare {
				view.Capture = umpire.Capture{Square: mv.CaptureSquare, Kind: umpire.PieceCaptured}
			}
		} else if m, err := chess.ParseUCI(strings.ToLower(mv.Smith)); err == nil {
			view.Move = m
		}
		views = append(views, view)
	}
	if err := g.drv.Rebuild(views, why, now); err != nil {
		d.opt.Log.Error().Err(err).Int("game", g.t.Number()).Msg("the player could not be rebuilt")
		return
	}
	g.t.Rebuilt(len(v.Moves), now)
}
