package bot

import (
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/internal/buildinfo"
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
	return &GameRecorder{r: newGameRecord(dir, name, g, us, seed, spec, now, map[string]any{"build": BuildID()})}
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

// Tracker follows one game of a session as the daemon does (track.go), for
// replaying a raw transcript: it takes the session's messages and our sent
// attempts, and gives back the events the player heard, in order.
type Tracker struct {
	t *tracker
}

// NewTracker starts following game g, played as us.
func NewTracker(g protocol.MyGameStartedDG, us chess.Color, now time.Time) *Tracker {
	return &Tracker{t: newTracker(g, us, now)}
}

// Message applies one session message the way Daemon.handle does for this
// game: moves, refusals, clocks, our turn, the result, referee text.
func (k *Tracker) Message(m protocol.Message, now time.Time) {
	t := k.t
	t.settle(now)
	switch m.Kind {
	case protocol.MsgText:
		items, refLike, _ := protocol.ParseAnnouncements(nil, []byte(m.Text))
		if refLike && len(items) > 0 && (items[0].Game == 0 || items[0].Game == t.number) {
			t.announce(items, m.Text, now)
		}
	case protocol.MsgDatagram:
		if m.DecodeErr != nil {
			return
		}
		switch v := m.DG.(type) {
		case protocol.MoveDG:
			if v.Game == t.number {
				t.move(v, now)
			}
		case protocol.IllegalMoveDG:
			if v.Game != t.number {
				return
			}
			switch v.Reason {
			case 4:
				t.setDesync("the server says it is not our move")
				t.ourTurn = false
				t.attempt = chess.NullMove
			case 10:
			default:
				t.illegal(now, true, v.Move)
			}
		case protocol.MsecDG:
			if v.Game == t.number {
				t.msec(v, now)
			}
		case protocol.MyTurnDG:
			if v.Game == t.number {
				t.myTurn(now)
			}
		case protocol.MyGameResultDG:
			if v.Game == t.number {
				t.end(v)
			}
		}
	}
}

// Sent tells the tracker we sent attempt m; the answer before it is closed
// (the daemon thinks only once it is).
func (k *Tracker) Sent(m chess.Move, now time.Time) {
	k.t.close()
	k.t.sent(m, now)
}

// Settle closes an answer that has been quiet since Settle before now.
func (k *Tracker) Settle(now time.Time) { k.t.settle(now) }

// Events returns the events for the player since the last call.
func (k *Tracker) Events() []players.Event { return k.t.takeEvents() }

// OurTurn says whether an attempt of ours is due.
func (k *Tracker) OurTurn() bool { return k.t.ourTurn }

// Over reports the result once the game ended.
func (k *Tracker) Over() (result, code, reason string, plies int, over bool) {
	t := k.t
	return t.result, t.code, t.reason, t.plies, t.over
}

// Desync says why the tracker's view disagreed with the server's, if it did.
func (k *Tracker) Desync() string { return k.t.desync }

// BuildID names the running program's build (buildinfo.ID): the hash of
// the sources that decide play, the toolchain and platform, the VCS revision
// and module version. Game records carry it so that a replay can say when it
// runs code that plays otherwise (buildinfo.SamePlay).
func BuildID() string { return buildinfo.ID() }
