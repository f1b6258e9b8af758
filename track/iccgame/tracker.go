package iccgame

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// Tracker follows one game on the wire and turns what the server says into
// what the player hears. It is pure (no I/O, no goroutines, no clock of its
// own): the daemon feeds it messages with their arrival time and reads back
// the player events, whether it is our turn, and any desync it noticed.
//
// Referee answers are assembled from several messages: DG 24 (our move, or the
// opponent's hidden "?"/"?x<sq>"), then the referee's lines (capture kind,
// checks, pawn tries). Where ICC puts those lines is not known for certain
// (docs/icc-protocol.md, open question 1), so an answer is closed lazily: by the
// next move, DG 42, DG 139, the result, or a quiet period (Settle), never by
// a level-1 unit end alone.
type Tracker struct {
	number int
	us     chess.Color
	white  string
	black  string
	rated  bool
	base   time.Duration
	inc    time.Duration

	pending    *umpire.View // answer being assembled
	pendingAt  time.Time
	pendingSAN string
	turnStart  time.Time  // when our turn began
	attempt    chess.Move // our attempt sent and not yet answered
	sentAt     time.Time
	ourTurn    bool
	plies      int // legal moves so far
	refused    int // refusals this turn
	over       bool
	result     string
	reason     string
	code       string

	clocks  [2]time.Duration // as of clockAt
	running int              // -1 none, else the colour whose clock runs
	clockAt time.Time

	lag       time.Duration // smoothed time from sending an attempt to its answer
	lastOpp   time.Time     // when the opponent last moved (or the game started)
	lastHeard time.Time     // when the server last said anything about this game

	events []players.Event // to hand to the player, in order
	log    []answerRecord  // everything heard, for the game record
	desync string          // why our view disagrees with the server's, once
	byDG   bool            // the server reports refusals by DG 42
}

// answerRecord is one referee answer as we heard it, with timing.
type answerRecord struct {
	At      time.Time
	View    umpire.View
	Attempt chess.Move // our attempt (own answers)
	SAN     string     // our move's SAN from DG 24
	Clocks  [2]time.Duration
}

// Settle is how long an answer stays open for late referee lines when no
// later message closes it.
const Settle = 300 * time.Millisecond

func newTracker(g protocol.MyGameStartedDG, us chess.Color, now time.Time) *Tracker {
	t := &Tracker{
		number: g.Game, us: us, white: g.White, black: g.Black, rated: g.Rated,
		base: time.Duration(g.WhiteInitial) * time.Minute, inc: time.Duration(g.WhiteIncrement) * time.Second,
		running: -1, clockAt: now, lastOpp: now, lastHeard: now,
	}
	if us == chess.Black {
		t.base, t.inc = time.Duration(g.BlackInitial)*time.Minute, time.Duration(g.BlackIncrement)*time.Second
	}
	t.clocks = [2]time.Duration{time.Duration(g.WhiteInitial) * time.Minute, time.Duration(g.BlackInitial) * time.Minute}
	t.ourTurn = us == chess.White
	t.turnStart = now
	return t
}

func (t *Tracker) opponent() string {
	if t.us == chess.White {
		return t.black
	}
	return t.white
}

// clock returns side's clock at now.
func (t *Tracker) clock(side chess.Color, now time.Time) time.Duration {
	c := t.clocks[side]
	if t.running == int(side) {
		c -= now.Sub(t.clockAt)
	}
	return c
}

// close finishes the pending answer and hands it to the player.
func (t *Tracker) close() {
	if t.pending == nil {
		return
	}
	v := *t.pending
	t.pending = nil
	t.events = append(t.events, players.Event{Kind: players.Answer, View: v})
	rec := answerRecord{At: t.pendingAt, View: v, Clocks: t.clocks}
	if v.Own {
		rec.Attempt, rec.SAN = v.Move, t.pendingSAN
	}
	t.log = append(t.log, rec)
	if !v.Own && !t.ourTurn {
		t.ourTurn = true
		t.turnStart = t.pendingAt
		t.refused = 0
	}
}

// settle closes a pending answer that has been quiet for Settle.
func (t *Tracker) settle(now time.Time) {
	if t.pending != nil && now.Sub(t.pendingAt) >= Settle {
		t.close()
	}
}

// sent records our attempt as sent at now.
func (t *Tracker) sent(m chess.Move, now time.Time) {
	t.attempt = m
	t.sentAt = now
}

func (t *Tracker) noteLag(now time.Time) {
	if t.sentAt.IsZero() {
		return
	}
	t.lag = clock.SmoothLag(t.lag, now.Sub(t.sentAt))
	t.sentAt = time.Time{}
}

func (t *Tracker) setDesync(format string, args ...any) {
	if t.desync == "" {
		t.desync = fmt.Sprintf(format, args...)
	}
}

// move handles DG 24 for this game.
func (t *Tracker) move(d protocol.MoveDG, now time.Time) {
	t.close()
	t.lastHeard = now
	t.plies++
	mover := chess.Color((t.plies - 1) % 2)
	if d.Clock != 0 || d.TimeUsed != 0 {
		t.clocks[mover] = time.Duration(d.Clock) * time.Second
		t.clockAt = now
		t.running = int(1 - mover)
	}
	if d.Hidden {
		if mover == t.us {
			t.setDesync("ply %d: a hidden move on our turn", t.plies)
		}
		v := umpire.View{Heard: true, PawnTries: -1}
		if d.CaptureSquare != chess.NoSquare {
			v.Capture = umpire.Capture{Square: d.CaptureSquare, Kind: umpire.PieceCaptured}
		}
		t.pending, t.pendingAt = &v, now
		t.lastOpp = now
		return
	}
	// Our own move, as the server accepted it.
	m, err := chess.ParseUCI(strings.ToLower(strings.Replace(d.Smith, "=", "", 1)))
	if err != nil && len(d.Smith) > 4 {
		m, err = chess.ParseUCI(strings.ToLower(d.Smith[:4])) // smith with a capture letter: f6e5n
	}
	if mover != t.us {
		t.setDesync("ply %d: the server shows %s as our move on the opponent's turn", t.plies, d.Smith)
	}
	if t.attempt == chess.NullMove || err != nil || m.From() != t.attempt.From() || m.To() != t.attempt.To() {
		t.setDesync("ply %d: the server played %q, our attempt was %v", t.plies, d.Smith, t.attempt)
		if err == nil {
			t.attempt = m
		}
	}
	t.noteLag(now)
	v := umpire.View{Heard: true, Own: true, Move: t.attempt, PawnTries: -1}
	t.pending, t.pendingAt = &v, now
	t.attempt = chess.NullMove
	t.ourTurn = false
	t.refused = 0
	t.pendingSAN = d.SAN
}

// illegal handles a refusal of our attempt: DG 42 reason 2 or 3 (fromDG),
// or the "Illegal move" text. move is the refused move as the server wrote
// it ("" when the text names none).
//
// A server that sends DG 42 also sends the text ("I get the text message
// anyway", formats.txt), and the player may have sent its next attempt before
// the echo is read: so once a DG 42 has been seen the texts are ignored, and a
// refusal naming another move than our outstanding attempt is a late echo.
func (t *Tracker) illegal(now time.Time, fromDG bool, move string) {
	t.lastHeard = now
	if fromDG {
		t.byDG = true
	} else if t.byDG {
		return
	}
	if t.attempt == chess.NullMove {
		return // nothing outstanding: an echo of a refusal already counted
	}
	if move != "" && normalMove(move) != t.attempt.String() {
		return // the refusal of an earlier attempt, read late
	}
	t.close()
	t.noteLag(now)
	v := umpire.View{Heard: true, Own: true, Illegal: true, Move: t.attempt, PawnTries: -1}
	t.events = append(t.events, players.Event{Kind: players.Answer, View: v})
	t.log = append(t.log, answerRecord{At: now, View: v, Attempt: t.attempt, Clocks: t.clocks})
	t.attempt = chess.NullMove
	t.refused++
}

// normalMove writes a move as our attempts' UCI form: e7e8=Q -> e7e8q.
func normalMove(s string) string {
	return strings.ToLower(strings.Replace(strings.TrimSpace(s), "=", "", 1))
}

// refusedMove finds the move an "Illegal move (e2e5)." line names, or "".
func refusedMove(line string) string {
	i := strings.Index(strings.ToLower(line), "illegal move")
	if i < 0 {
		return ""
	}
	rest := line[i+len("illegal move"):]
	open, close := strings.IndexByte(rest, '('), strings.IndexByte(rest, ')')
	if open < 0 || close < open || close-open > 8 {
		return ""
	}
	m := normalMove(rest[open+1 : close])
	if _, err := chess.ParseUCI(m); err != nil {
		return ""
	}
	return m
}

// announce applies the referee items of one text line to the pending answer.
func (t *Tracker) announce(items []protocol.Announcement, line string, now time.Time) {
	for _, a := range items {
		if a.Game != 0 && a.Game != t.number {
			continue
		}
		switch a.Kind {
		case protocol.AnnIllegal:
			t.illegal(now, false, refusedMove(line))
			continue
		case protocol.AnnWhiteToMove, protocol.AnnBlackToMove:
			continue
		}
		if t.pending == nil {
			t.setDesync("ply %d: referee line %v with no move to belong to", t.plies, a.Kind)
			continue
		}
		p := t.pending
		switch a.Kind {
		case protocol.AnnCapture:
			if !p.Own && p.Capture.Square != chess.NoSquare && p.Capture.Kind != umpire.NoCapture && p.Capture.Square != a.Capture.Square {
				t.setDesync("ply %d: capture on %v announced, DG 24 said %v", t.plies, a.Capture.Square, p.Capture.Square)
			}
			p.Capture = a.Capture
		case protocol.AnnCheck:
			if p.Checks[0] == chess.NoCheck {
				p.Checks[0] = a.Check
			} else {
				p.Checks[1] = a.Check
			}
		case protocol.AnnPawnTries:
			p.PawnTries = a.Tries
		}
		t.pendingAt = now
	}
}

// msec handles DG 56.
func (t *Tracker) msec(d protocol.MsecDG, now time.Time) {
	t.lastHeard = now
	t.clocks[d.Color] = time.Duration(d.Msec) * time.Millisecond
	t.clockAt = now
	if d.Running {
		t.running = int(d.Color)
	} else if t.running == int(d.Color) {
		t.running = -1
	}
	t.events = append(t.events, players.Event{Kind: players.ClockUpdate,
		Clock: players.Clocks{Ours: t.clock(t.us, now), Theirs: t.clock(1-t.us, now)}})
}

// myTurn handles DG 139.
func (t *Tracker) myTurn(now time.Time) {
	t.close()
	if !t.ourTurn && t.attempt == chess.NullMove {
		t.setDesync("ply %d: the server says it is our turn, we thought not", t.plies)
	}
	if !t.ourTurn {
		t.turnStart = now
	}
	t.ourTurn = true
}

// end handles DG 16.
func (t *Tracker) end(d protocol.MyGameResultDG) {
	t.close()
	t.over = true
	t.result, t.code, t.reason = d.Score, d.Code, d.Description
	t.ourTurn = false
	t.attempt = chess.NullMove
}

// takeEvents returns the events for the player and forgets them.
func (t *Tracker) takeEvents() []players.Event {
	e := t.events
	t.events = nil
	return e
}
