package iccgame

import (
	"fmt"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/protocol"
)

// New starts following game g, played as us, at now.
func New(g protocol.MyGameStartedDG, us chess.Color, now time.Time) *Tracker {
	return newTracker(g, us, now)
}

// GameOf returns the game number a game datagram is about (0 for none):
// the datagrams Tracker.Datagram takes.
func GameOf(dg protocol.DG) int {
	switch v := dg.(type) {
	case protocol.MoveDG:
		return v.Game
	case protocol.IllegalMoveDG:
		return v.Game
	case protocol.MsecDG:
		return v.Game
	case protocol.MyTurnDG:
		return v.Game
	case protocol.MyGameResultDG:
		return v.Game
	}
	return 0
}

// Datagram applies one of this game's datagrams (DG 24 moves, DG 42
// refusals, DG 56 clocks, DG 139 our turn, DG 16 the result); it reports
// false for a datagram of another kind or another game.
func (t *Tracker) Datagram(dg protocol.DG, now time.Time) bool {
	if GameOf(dg) != t.number {
		return false
	}
	switch v := dg.(type) {
	case protocol.MoveDG:
		t.move(v, now)
	case protocol.IllegalMoveDG:
		switch v.Reason {
		case reasonNotYourMove:
			t.setDesync("the server says it is not our move")
			t.ourTurn = false
			t.attempt = chess.NullMove
		case reasonFlagged:
			// lost on time before the attempt: DG 16 follows
		default:
			t.illegal(now, true, v.Move)
		}
	case protocol.MsecDG:
		t.msec(v, now)
	case protocol.MyTurnDG:
		t.myTurn(now)
	case protocol.MyGameResultDG:
		t.end(v)
	}
	return true
}

// DG 42 reasons that are not a refusal of our attempt by the referee
// (formats.txt: 4 "it is not your move", 10 "you ran out of time").
const (
	reasonNotYourMove = 4
	reasonFlagged     = 10
)

// Announce applies the referee items of one text line (parsed by
// protocol.ParseAnnouncements) to this game; items of other games are
// skipped. Route says which games an unprefixed line belongs to.
func (t *Tracker) Announce(items []protocol.Announcement, line string, now time.Time) {
	t.announce(items, line, now)
}

// Route returns the games a referee text line belongs to: the game its
// "Game N" prefix names; for an unprefixed line, the one game whose answer
// is pending (an attempt of ours unanswered, or an answer being assembled),
// or the only game in progress. With two or more candidates it returns
// none and ambiguous = true: the caller asks for their move lists.
func Route(items []protocol.Announcement, games []*Tracker) (to []*Tracker, ambiguous bool) {
	if len(items) == 0 {
		return nil, false
	}
	if n := items[0].Game; n != 0 {
		for _, t := range games {
			if t.number == n {
				return []*Tracker{t}, false
			}
		}
		return nil, false
	}
	if len(games) == 1 {
		return games, false
	}
	var waiting []*Tracker
	for _, t := range games {
		if !t.over && (t.attempt != chess.NullMove || t.pending != nil) {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) == 1 {
		return waiting, false
	}
	return nil, len(waiting) > 1
}

// Number is the server's game number.
func (t *Tracker) Number() int { return t.number }

// Us is our colour.
func (t *Tracker) Us() chess.Color { return t.us }

// Opponent is the opponent's handle.
func (t *Tracker) Opponent() string { return t.opponent() }

// Control is our time control.
func (t *Tracker) Control() clock.Control { return clock.Control{Base: t.base, Increment: t.inc} }

// Plies is the number of legal moves played.
func (t *Tracker) Plies() int { return t.plies }

// Clock returns side's clock at now.
func (t *Tracker) Clock(side chess.Color, now time.Time) time.Duration { return t.clock(side, now) }

// Lag is the smoothed time from sending an attempt to its answer.
func (t *Tracker) Lag() time.Duration { return t.lag }

// TurnStart is when our current turn began.
func (t *Tracker) TurnStart() time.Time { return t.turnStart }

// Due reports whether an attempt of ours is due: our turn, no attempt of
// ours unanswered, no answer being assembled, the game on.
func (t *Tracker) Due() bool {
	return !t.over && t.ourTurn && t.attempt == chess.NullMove && t.pending == nil
}

// Wants reports whether a finished search's attempt is still wanted: the
// game on, our turn, no attempt of ours unanswered.
func (t *Tracker) Wants() bool { return !t.over && t.ourTurn && t.attempt == chess.NullMove }

// SetDesync notes why our view disagrees with the server's (the first
// reason is kept until taken).
func (t *Tracker) SetDesync(why string) { t.setDesync("%s", why) }

// Unanswered reports whether an attempt of ours waits for its answer.
func (t *Tracker) Unanswered() bool { return t.attempt != chess.NullMove }

// Agrees reports whether our view of the game matches a server move list
// of plies moves: the same count, nothing outstanding, and the turn right.
func (t *Tracker) Agrees(plies int) bool {
	return plies == t.plies && t.pending == nil && t.attempt == chess.NullMove && t.ourTurn == (plies%2 == int(t.us))
}

// Sent tells the tracker we sent attempt m at now.
func (t *Tracker) Sent(m chess.Move, now time.Time) { t.sent(m, now) }

// SentAfterClose is Sent for a driver that thinks only once the previous
// answer is closed (a transcript replay): it closes the answer first.
func (t *Tracker) SentAfterClose(m chess.Move, now time.Time) {
	t.close()
	t.sent(m, now)
}

// Resigned ends our turn: we resigned, nothing more is due.
func (t *Tracker) Resigned() { t.ourTurn = false }

// Settle closes an answer that has been quiet for Settle before now.
func (t *Tracker) Settle(now time.Time) { t.settle(now) }

// TakeEvents returns the events for the player since the last call.
func (t *Tracker) TakeEvents() []players.Event { return t.takeEvents() }

// TakeDesync returns why our view disagreed with the server's, once, or "".
func (t *Tracker) TakeDesync() string {
	d := t.desync
	t.desync = ""
	return d
}

// Desync says why the view disagrees with the server's, without taking it.
func (t *Tracker) Desync() string { return t.desync }

// Rebuilt resets the turn after the player was rebuilt from the server's
// move list of plies moves at now.
func (t *Tracker) Rebuilt(plies int, now time.Time) {
	t.plies = plies
	t.pending = nil
	t.attempt = chess.NullMove
	t.ourTurn = plies%2 == int(t.us)
	t.turnStart = now
	t.desync = ""
}

// Over reports the result once the game ended.
func (t *Tracker) Over() (result, code, reason string, over bool) {
	return t.result, t.code, t.reason, t.over
}

// Ended ends the game with a result we did not hear as DG 16: one the
// server told us afterwards (a game that ended while we were away), or "*"
// when it could not say. The daemon never makes a result up.
func (t *Tracker) Ended(result, code, reason string) {
	t.close()
	t.over, t.result, t.reason, t.code = true, result, reason, code
	t.ourTurn = false
	t.attempt = chess.NullMove
}

// Illegal counts our refused attempts heard so far.
func (t *Tracker) Illegal() int {
	n := 0
	for _, a := range t.log {
		if a.View.Illegal {
			n++
		}
	}
	return n
}

// Stalled says why the game looks stuck for a reason we cannot see (output
// lost to an overflow or a broken link), or "": our clock runs but we wait,
// or our attempt got no answer, or nothing came for longer than quiet.
// routine is true when the only sign is silence while the opponent's clock
// runs: most likely a long think, worth a quiet look at the move list but
// not a warning (the sparring daemon warned 31 times in one 2+12 game).
func (t *Tracker) Stalled(now time.Time, quiet time.Duration) (why string, routine bool) {
	switch {
	case t.over:
		return "", false
	case t.running == int(t.us) && !t.ourTurn && t.pending == nil && t.attempt == chess.NullMove && now.Sub(t.clockAt) > 2*time.Second:
		return "our clock runs but we are waiting", false
	case t.attempt != chess.NullMove && now.Sub(t.sentAt) > 5*time.Second+4*t.lag:
		return "no answer to our attempt", false
	case !t.ourTurn && now.Sub(t.lastHeard) > quiet:
		return "nothing heard for a while", t.opponentThinking(now)
	}
	return "", false
}

// opponentThinking reports that the opponent's clock runs and has not
// fallen (with a margin for lag): silence then is a long think, not a fault.
func (t *Tracker) opponentThinking(now time.Time) bool {
	them := 1 - t.us
	return t.running == int(them) && t.clock(them, now) > -2*time.Second-4*t.lag
}

// FirstMoveOverdue reports that the opponent has not made their first move
// for longer than after (the game may be aborted); it restarts the wait so
// the caller acts once per period.
func (t *Tracker) FirstMoveOverdue(now time.Time, after time.Duration) bool {
	if t.over || t.ourTurn || after <= 0 {
		return false
	}
	theirFirst := t.us == chess.White && t.plies == 1 || t.us == chess.Black && t.plies == 0
	if theirFirst && now.Sub(t.lastOpp) > after {
		t.lastOpp = now
		return true
	}
	return false
}

// String describes the game for owner status lines.
func (t *Tracker) String() string {
	return fmt.Sprintf("game %d vs %s, ply %d", t.number, t.opponent(), t.plies)
}

// OurTurn reports whether the wire says it is our turn (an attempt may be
// outstanding).
func (t *Tracker) OurTurn() bool { return t.ourTurn }

// Feed applies one session message to this game alone, through the same
// dispatch as a session with many games (Datagram, Route): a transcript
// replay follows one game this way.
func (t *Tracker) Feed(m protocol.Message, now time.Time) {
	t.settle(now)
	switch m.Kind {
	case protocol.MsgText:
		items, refLike, _ := protocol.ParseAnnouncements(nil, []byte(m.Text))
		if !refLike {
			return
		}
		if to, _ := Route(items, []*Tracker{t}); len(to) == 1 {
			t.announce(items, m.Text, now)
		}
	case protocol.MsgDatagram:
		if m.DecodeErr == nil {
			t.Datagram(m.DG, now)
		}
	}
}
