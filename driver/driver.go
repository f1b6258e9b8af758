package driver

import (
	"context"
	"errors"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/think"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// Settings are the driver's part of the configuration: time management and
// the value-based decisions.
type Settings struct {
	// Overhead is paid on every attempt (lag and wake-up); the measured lag
	// is added to it.
	Overhead time.Duration
	// MinThink is the least thinking time outside an emergency; Emergency
	// the clock level below which the answer is instant.
	MinThink, Emergency time.Duration
	// Resign on value: after ResignMoves consecutive turns valued below
	// ResignBelow (the player's value, -1..+1).
	Resign      bool
	ResignBelow float64
	ResignMoves int
	// AcceptDraw accepts an offered draw when the value is below DrawBelow.
	AcceptDraw bool
	DrawBelow  float64
	// Ponder lets a player that can (players.Ponderer) think during the
	// opponent's turns, from our accepted move until the next event.
	Ponder bool
	// Untimed, when set, is what an attempt of a game without a clock asks
	// of the time policy (a match's -movetime, or nothing: a node budget
	// alone); nil asks the daemon's clock.UntimedMoveTime.
	Untimed *clock.Ask
	// Nodes, when set, bounds every search to that many iterations, and
	// every ponder too, which then runs them out before the opponent's move
	// is heard (a match's -nodes: the game replays exactly).
	Nodes int64
}

// ActionKind says what a backend must send.
type ActionKind uint8

// Actions.
const (
	// Attempt: send Action.Move.
	Attempt ActionKind = iota + 1
	// Resign the game.
	Resign
	// AcceptDraw accepts the opponent's draw offer.
	AcceptDraw
	// OfferDraw offers a draw: we cannot win (players.DrawSeeker).
	OfferDraw
)

// Action is one thing to send.
type Action struct {
	Kind ActionKind
	Move chess.Move
	// Value is the player's value behind a resignation, a draw or an
	// attempt (-1 lost .. +1 won).
	Value float64
	// Err is why the player had no attempt (Kind Resign after a failure).
	Err error
	// For an Attempt: how long the search took, its iterations, and the
	// player's value (-1..+1) when it reports one (HasValue).
	Elapsed    time.Duration
	Iterations int64
	HasValue   bool
	// Candidates are the search's most visited attempts (at most five),
	// for the operator's page.
	Candidates []players.Candidate
}

// Thought is a finished search, delivered on the backend's channel.
type Thought struct {
	// Game is the game that searched: a backend looks it up among its games
	// (a game replaced after a reconnection no longer matches).
	Game *Game
	seq  int
	move chess.Move
	err  error
}

// Situation is what the backend knows of the clock when an attempt is due.
type Situation struct {
	// Since is when our turn began (the clock runs during refusals).
	Since time.Time
	// Clock is our clock now; Lag the measured answer lag.
	Clock, Lag time.Duration
	// MoveNumber is the full move being played.
	MoveNumber int
	// Ask, when set, is this attempt's own ask of the time policy in place
	// of the game's control or Settings.Untimed (a KEP go line's clocks or
	// movetime); the driver adds the time spent this turn to a clock's.
	Ask *clock.Ask
	// Nodes, when > 0, bounds this attempt's search in place of
	// Settings.Nodes (a KEP go line's nodes).
	Nodes int64
}

// Setup is what a new game needs.
type Setup struct {
	// Spec builds the player (again after a rebuild).
	Spec players.Spec
	// Player, when set, is the player, built by the caller (a match): the
	// game gives it the game instead of building one from Spec.
	Player players.Player
	// Game is the player's view of the game: colour, rules, control, seed.
	Game players.Game
	// Prepare, when set, is called with each new player before its NewGame
	// (a per-opponent prior).
	Prepare func(players.Player)
	// Record is the game's record writer, nil for none.
	Record *record.Writer
	// Settings are the time and value decisions.
	Settings Settings
}

// Game is one game being played.
type Game struct {
	setup      Setup
	p          players.Player
	turn       *clock.Turn
	done       chan<- Thought
	seq        int
	thinking   bool
	started    time.Time       // when the search in flight began
	search     *think.Search   // the search in flight, nil when none
	queued     []players.Event // heard while the player was thinking
	over       bool            // the player was told GameOver
	low        int             // consecutive turns valued below the resign line
	sinceOffer int             // attempts since our last draw offer
	offered    bool            // the opponent offers a draw
	resigned   bool
	// theirTurn: our last move was accepted and the opponent's is not yet
	// heard (when a ponder may run).
	theirTurn bool
	ponder    *think.Ponder // the ponder in flight, nil when none
	// pondered is what the last ponder did, until Pondered takes it.
	pondered *players.PonderReport
}

// New starts a game: it builds the player and gives it the game. Finished
// searches are sent on done, which the backend reads.
func New(s Setup, done chan<- Thought) (*Game, error) {
	g := &Game{setup: s, done: done, turn: clock.NewTurn(s.Settings.Policy().Manager(0))}
	p := s.Player
	if p == nil {
		p = g.setup.Spec.New()
	}
	if err := g.prepare(p); err != nil {
		return nil, err
	}
	g.p = p
	return g, nil
}

func (g *Game) newPlayer() (players.Player, error) {
	p := g.setup.Spec.New()
	return p, g.prepare(p)
}

// prepare gives player p the game.
func (g *Game) prepare(p players.Player) error {
	if g.setup.Prepare != nil {
		g.setup.Prepare(p)
	}
	return p.NewGame(g.setup.Game)
}

// SetOverhead changes the move overhead of the attempts to come (KEP's
// MoveOverhead option, which may change during a game).
func (g *Game) SetOverhead(d time.Duration) { g.setup.Settings.Overhead = d }

// Policy is the time policy of the settings (engine/clock's one policy).
func (s Settings) Policy() clock.Policy {
	return clock.Policy{Overhead: s.Overhead, MinThink: s.MinThink, Emergency: s.Emergency}
}

// Spec is the spec the game's player was built from (the zero Spec when
// the caller built it: a match).
func (g *Game) Spec() players.Spec { return g.setup.Spec }

// Player is the game's player (for inspection: belief, last search).
func (g *Game) Player() players.Player { return g.p }

// Game is the game the player was given: colour, rules (its variant),
// control, seed.
func (g *Game) Game() players.Game { return g.setup.Game }

// Record is the game's record writer, nil for none.
func (g *Game) Record() *record.Writer { return g.setup.Record }

// SetRecord gives the game its record writer (made once the player is
// built, so that the game line can name the player's model).
func (g *Game) SetRecord(w *record.Writer) { g.setup.Record = w }

// Thinking reports a search in flight.
func (g *Game) Thinking() bool { return g.thinking }

// Hear hands events to the player in order, recording each; while the
// player searches they wait, and go first once it is done.
func (g *Game) Hear(ev []players.Event, now time.Time) {
	if g.thinking {
		g.queued = append(g.queued, ev...)
		return
	}
	ev = append(g.queued, ev...)
	g.queued = nil
	if len(ev) > 0 {
		g.stopPonder(now) // the player hears nothing while it ponders
	}
	for _, e := range ev {
		if e.Kind == players.Answer && players.Moved(e.View) {
			// No ponder after a move that ended the game.
			g.theirTurn = e.View.Own && e.View.Ending == umpire.NotOver
		}
		if e.Kind == players.Answer && e.View.Own {
			if players.Moved(e.View) {
				g.turn.Moved()
			} else {
				g.turn.Refused() // an answer to "Any?" too: the turn goes on
			}
		}
		if r := g.setup.Record; r != nil {
			r.Event(e, now)
		}
		g.p.Hear(e)
	}
	g.startPonder()
}

// startPonder starts the player's ponder when it is the opponent's turn
// after our move, pondering is on and none runs.
func (g *Game) startPonder() {
	pp, ok := g.p.(players.Ponderer)
	if !ok || !g.setup.Settings.Ponder || !g.theirTurn || g.ponder != nil || g.thinking || g.over || g.resigned {
		return
	}
	g.ponder = think.StartPonder(context.Background(), pp, g.setup.Settings.Nodes)
}

// stopPonder ends the ponder in flight, if any, and records what it did:
// the ponder returns within one iteration of the cancel, so an event is
// never held back for long. A player that panicked while pondering panics
// the driver, as it did when the ponder was the driver's own goroutine.
func (g *Game) stopPonder(now time.Time) {
	pr := g.ponder
	if pr == nil {
		return
	}
	g.ponder = nil
	end := pr.Stop
	if g.setup.Settings.Nodes > 0 {
		end = pr.Finish // a node count does not depend on when the move came
	}
	rep, err := end()
	if err != nil {
		panic(err)
	}
	g.notePonder(rep, now)
}

// notePonder keeps what an ended ponder did for Pondered and records it.
func (g *Game) notePonder(rep players.PonderReport, now time.Time) {
	g.pondered = nil
	if rep.Iterations > 0 {
		g.pondered = &rep
	}
	if r := g.setup.Record; r != nil && rep.Iterations > 0 {
		r.Ponder(rep, now)
	}
}

// Pondered returns what the last ponder did once it ended (nil when it did
// nothing, or when already taken), for a harness that reports it (a
// match's attempt lines).
func (g *Game) Pondered() *players.PonderReport {
	rep := g.pondered
	g.pondered = nil
	return rep
}

// Ponder starts the player's ponder now, held to nodes iterations when
// nodes > 0, for a harness that says itself when to ponder (KEP's go
// ponder) instead of Settings.Ponder: it reports whether one started (not
// for a player that cannot ponder, nor while a search or ponder runs or
// after the game). Whatever reaches the player next ends it, as it ends
// the driver's own; StopPonder ends it at once.
func (g *Game) Ponder(nodes int64) bool {
	pp, ok := g.p.(players.Ponderer)
	if !ok || g.ponder != nil || g.thinking || g.over || g.resigned {
		return false
	}
	g.ponder = think.StartPonder(context.Background(), pp, nodes)
	return true
}

// StopPonder ends the ponder in flight, if any, waits for the player and
// records what it did, like the driver's own stop, but returns the error
// of a player that failed while pondering instead of panicking: a harness
// that outlives a failed player (KEP) logs it.
func (g *Game) StopPonder(now time.Time) error {
	pr := g.ponder
	if pr == nil {
		return nil
	}
	g.ponder = nil
	rep, err := pr.Stop()
	if err != nil {
		return err
	}
	g.notePonder(rep, now)
	return nil
}

// Pondering reports a ponder in flight.
func (g *Game) Pondering() bool { return g.ponder != nil }

// PonderTrees repeats a recorded ponder on the caller's goroutine (a replay:
// tree i runs exactly trees[i] iterations) and records it, as a live ponder
// is recorded.
func (g *Game) PonderTrees(trees []int64, now time.Time) {
	pp, ok := g.p.(players.Ponderer)
	if !ok {
		return
	}
	g.Hear(nil, now) // what was queued goes first
	rep := pp.PonderTrees(trees)
	if r := g.setup.Record; r != nil && rep.Iterations > 0 {
		r.Ponder(rep, now)
	}
}

// Offered tells the driver whether the opponent offers a draw.
func (g *Game) Offered(on bool) { g.offered = on }

// Act is called when an attempt of ours is due and no search runs: it
// decides on a draw or resignation by value, and otherwise starts the
// search, whose Thought arrives on the done channel. It returns what to
// send now.
func (g *Game) Act(now time.Time, s Situation) []Action {
	if g.thinking || g.over || g.resigned {
		return nil
	}
	g.stopPonder(now)
	acts, resign := g.decide()
	if resign {
		g.resigned = true
		return acts
	}
	b, hard := g.setup.Settings.Plan(g.turn, g.setup.Game.Control, now, s)
	g.started = now
	g.think(b, hard)
	return acts
}

// Plan is the player's budget and the hard limit (clock.NoLimit for none)
// of the attempt due at now in situation s, in a game with control ctl
// whose turns t keeps, under the settings' one time policy: Act and Think
// plan through it with their game's turn.
func (st Settings) Plan(t *clock.Turn, ctl clock.Control, now time.Time, s Situation) (players.Budget, time.Duration) {
	t.Begin(s.Since)
	ask := clock.Ask{MoveTime: clock.UntimedMoveTime}
	if st.Untimed != nil {
		ask = *st.Untimed
	}
	if ctl.Base != 0 || ctl.Increment != 0 {
		ask = clock.Ask{Clock: true, Remaining: s.Clock, Increment: ctl.Increment, MoveNumber: s.MoveNumber,
			Spent: t.SpentAt(now), Lag: s.Lag}
	}
	if s.Ask != nil {
		ask = *s.Ask
		if ask.Clock {
			ask.Spent = t.SpentAt(now)
		}
	}
	nodes := st.Nodes
	if s.Nodes > 0 {
		nodes = s.Nodes
	}
	plan := st.Policy().Plan(t, ask)
	return think.Budget(plan, nodes), plan.Hard
}

// Think is Act's synchronous twin, for a harness that waits for the
// search (kriegbot match): the same plan under the same time policy, the
// search on the caller's goroutine until it ends or ctx does, and the
// attempt recorded as Done records it; no value-based decisions. It
// returns the attempt, or a resignation with the player's error.
func (g *Game) Think(ctx context.Context, now time.Time, s Situation) Action {
	if g.thinking || g.over || g.resigned {
		return Action{Kind: Resign, Err: errors.New("driver: no attempt is due")}
	}
	g.stopPonder(now)
	b, hard := g.setup.Settings.Plan(g.turn, g.setup.Game.Control, now, s)
	r := think.Run(ctx, g.p, b, hard)
	if r.Err != nil {
		return Action{Kind: Resign, Err: r.Err, Elapsed: r.Elapsed}
	}
	act := Action{Kind: Attempt, Move: r.Move, Elapsed: r.Elapsed}
	if rep := g.recordAttempt(r.Move, time.Now()); rep != nil {
		act.Iterations = rep.Iterations
	}
	return act
}

// decide applies the value-based policies before a search.
func (g *Game) decide() ([]Action, bool) {
	vp, ok := g.p.(players.Valuer)
	if !ok {
		return nil, false
	}
	v, ok := vp.Value()
	if !ok {
		return nil, false
	}
	st := g.setup.Settings
	var acts []Action
	g.sinceOffer++
	if ds, ok := g.p.(players.DrawSeeker); ok && g.sinceOffer >= offerEvery && ds.CannotWin() {
		acts = append(acts, Action{Kind: OfferDraw, Value: v})
		g.sinceOffer = 0
	}
	if g.offered && st.AcceptDraw && v < st.DrawBelow {
		acts = append(acts, Action{Kind: AcceptDraw, Value: v})
		g.offered = false
	}
	if v < st.ResignBelow {
		g.low++
	} else {
		g.low = 0
	}
	if st.Resign && g.low >= st.ResignMoves {
		return append(acts, Action{Kind: Resign, Value: v}), true
	}
	return acts, false
}

// offerEvery is how many attempts pass between two draw offers of ours, so
// that an opponent who declines is not pestered.
const offerEvery = 20

// LowTurns is how many consecutive turns were valued below the resign line.
func (g *Game) LowTurns() int { return g.low }

// think starts the search on its own goroutine (engine/think), whose
// Thought arrives on the backend's channel.
func (g *Game) think(b players.Budget, hard time.Duration) {
	g.seq++
	seq := g.seq
	g.thinking = true
	done := g.done
	g.search = think.Start(g.p, b, hard, func(r think.Result) {
		done <- Thought{Game: g, seq: seq, move: r.Move, err: r.Err}
	})
}

// Decide has the player choose the next attempt at once, on the caller's
// goroutine, with search (a replay re-runs each search with its recorded
// size: iterations, or each tree's), and records it as a live attempt is
// recorded. Hear and Decide are the path of a live game without the clock
// and the goroutine.
func (g *Game) Decide(now time.Time, search func(players.Player) (chess.Move, error)) (chess.Move, error) {
	if g.thinking {
		return chess.NullMove, errors.New("driver: a search is already running")
	}
	g.Hear(nil, now) // what was queued goes first
	m, err := search(g.p)
	if err != nil {
		return m, err
	}
	g.recordAttempt(m, now)
	return m, nil
}

// recordAttempt writes attempt m with the player's last search into the
// record, and returns that search (nil for players without one).
func (g *Game) recordAttempt(m chess.Move, now time.Time) *players.SearchReport {
	var rep *players.SearchReport
	if in, ok := g.p.(players.Inspector); ok {
		s := in.LastSearch()
		rep = &s
	}
	if rec := g.setup.Record; rec != nil {
		rec.Attempt(m, now, rep)
	}
	return rep
}

// Override tells the player that m, not its own choice, was sent (a replay
// follows the record where the re-run chose otherwise), when the player
// can be told (players.Overrider).
func (g *Game) Override(m chess.Move) {
	if o, ok := g.p.(players.Overrider); ok {
		o.Override(m)
	}
}

// Done takes a finished search. wanted says whether an attempt is still
// due (the game on, our turn, nothing outstanding, the connection ours):
// if not, or if the search is stale, nothing is sent. Otherwise it records
// the attempt and returns it, or a resignation when the player has none.
func (g *Game) Done(r Thought, wanted bool, now time.Time) []Action {
	if r.Game != g || r.seq != g.seq || !g.thinking {
		return nil
	}
	g.thinking = false
	g.search = nil
	if !wanted || g.over {
		return nil
	}
	if r.err != nil {
		g.resigned = true
		return []Action{{Kind: Resign, Err: r.err}}
	}
	act := Action{Kind: Attempt, Move: r.move, Elapsed: now.Sub(g.started)}
	if rep := g.recordAttempt(r.move, now); rep != nil {
		act.Iterations = rep.Iterations
		act.Candidates = rep.Candidates[:min(len(rep.Candidates), 5)]
	}
	if vp, ok := g.p.(players.Valuer); ok {
		act.Value, act.HasValue = vp.Value()
	}
	return []Action{act}
}

// Stop cancels a search in flight, whose Thought still arrives and is
// dropped, and ends a ponder.
func (g *Game) Stop() {
	if g.search != nil {
		g.search.Cancel()
	}
	g.stopPonder(time.Now())
}

// Drop forgets the search in flight (cancelled, its result unwanted) and
// what was queued for the player: the game goes on from a rebuilt player.
func (g *Game) drop() {
	g.Stop()
	g.seq++
	g.thinking = false
	g.search = nil
	g.queued = nil
}

// Rebuild replaces the player by a fresh one fed the game so far, as the
// server lists it (views: our moves as accepted, the opponent's hidden
// moves with their captures), after our view of the game was lost. The
// record notes it; what follows is not replayable.
func (g *Game) Rebuild(views []umpire.View, why string, now time.Time) error {
	g.drop()
	if r := g.setup.Record; r != nil {
		r.Resync(len(views), why, now)
	}
	p, err := g.newPlayer()
	if err != nil {
		return err
	}
	g.theirTurn = false
	for _, v := range views {
		p.Hear(players.Event{Kind: players.Answer, View: v})
		if players.Moved(v) {
			g.theirTurn = v.Own
		}
	}
	g.p = p
	g.turn.ForgetStart() // the backend's Situation.Since says it anew
	return nil
}

// End tells the player the game is over (once) and records the result.
func (g *Game) End(o players.Outcome, res record.ResultLine, now time.Time) {
	if g.search != nil {
		g.search.Cancel()
	}
	g.stopPonder(now)
	if g.over {
		return
	}
	g.over = true
	g.p.GameOver(o)
	if r := g.setup.Record; r != nil {
		res.Result, res.Reason = o.Result, o.Reason
		r.Result(res, now)
	}
}
