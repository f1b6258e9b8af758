package ksgame

import (
	"fmt"
	"kriegbot/protocol/ksclient"
	"math"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// Tracker follows one game: it turns states and our move replies into what
// the player hears, and says when an attempt is due and whether one may be
// sent. It is pure: no I/O, no goroutines, no clock of its own.
type Tracker struct {
	us chess.Color
	// variant is the game's rule variant (the zero Variant: wild 16).
	variant   umpire.Variant
	plies     int // completed moves the player has heard
	ourTurn   bool
	canMove   bool // "move" in possible_actions
	turnStart time.Time
	allowed   map[chess.Move]bool // this turn's allowed_moves, nil when unknown
	refused   map[chess.Move]bool // refused this turn: never sent again
	attempt   chess.Move          // sent, its answer not heard
	asking    bool                // "Any?" sent, its answer not heard
	resend    bool                // the attempt never reached the site
	sentAt    time.Time
	lag       time.Duration
	illegal   int // refusals heard, whole game

	over           bool
	result, reason string

	clocks    [2]time.Duration
	running   int // -1 none, else the colour whose clock runs
	clockAt   time.Time
	clockSeen bool

	events  []players.Event
	unknown []string
	desync  string
	// timeline is the last state's scoresheet read as views (for Rebuild).
	timeline []umpire.View
	// theirs counts the opponent's public refusals and "Any?" answers
	// heard (the variants but wild 16), theirsListed those the last
	// state's scoresheet lists.
	theirs, theirsListed int
}

// NewTracker follows a wild 16 game played as us, from its start.
func NewTracker(us chess.Color, now time.Time) *Tracker {
	return NewVariantTracker(us, umpire.Wild16(), now)
}

// NewVariantTracker follows a game of variant v played as us, from its
// start: the answers are read in v's terms (umpire.Variant), the
// opponent's public refusals and "Any?" answers are heard too, and our
// "Any?" is an attempt (SentAny, AnswerAny).
func NewVariantTracker(us chess.Color, v umpire.Variant, now time.Time) *Tracker {
	base := 1500 * time.Second
	return &Tracker{us: us, variant: v, running: -1, clocks: [2]time.Duration{base, base}, clockAt: now,
		turnStart: now, refused: map[chess.Move]bool{}}
}

// Variant is the game's rule variant.
func (t *Tracker) Variant() umpire.Variant { return t.variant }

// wild reports a wild 16 game, whose reading is the one it always was.
func (t *Tracker) wild() bool { return t.variant.IsWild16() }

// Us is our colour.
func (t *Tracker) Us() chess.Color { return t.us }

// Plies is the number of completed moves heard.
func (t *Tracker) Plies() int { return t.plies }

// Illegal is the number of our refused attempts heard.
func (t *Tracker) Illegal() int { return t.illegal }

// Over reports the end: result "1-0", "0-1", "1/2-1/2" or "*", and the
// site's reason, which is also its code (the site has no separate one).
func (t *Tracker) Over() (result, code, reason string, over bool) {
	return t.result, t.reason, t.reason, t.over
}

// OurTurn reports our turn as last heard.
func (t *Tracker) OurTurn() bool { return t.ourTurn && !t.over }

// TurnStart is when our turn began (as we learnt it).
func (t *Tracker) TurnStart() time.Time { return t.turnStart }

// Lag is the smoothed time from sending an attempt to its answer.
func (t *Tracker) Lag() time.Duration { return t.lag }

// Outstanding is the attempt sent whose answer was not heard (a lost
// reply), or NullMove.
func (t *Tracker) Outstanding() chess.Move { return t.attempt }

// Asking reports our "Any?" sent, its answer not heard.
func (t *Tracker) Asking() bool { return t.asking }

// Due reports that an attempt of ours is due: our turn, the game on,
// nothing outstanding.
func (t *Tracker) Due() bool {
	return t.ourTurn && t.canMove && !t.over && t.attempt == chess.NullMove && !t.asking
}

// Clock returns side's clock at now.
func (t *Tracker) Clock(side chess.Color, now time.Time) time.Duration {
	c := t.clocks[side]
	if t.running == int(side) {
		c -= now.Sub(t.clockAt)
	}
	return max(c, 0)
}

// TakeEvents returns the events for the player and forgets them.
func (t *Tracker) TakeEvents() []players.Event {
	e := t.events
	t.events = nil
	return e
}

// TakeUnknown returns the referee words not understood since the last call.
func (t *Tracker) TakeUnknown() []string {
	u := t.unknown
	t.unknown = nil
	return u
}

// TakeDesync returns why our view disagrees with the site's, once.
func (t *Tracker) TakeDesync() string {
	d := t.desync
	t.desync = ""
	return d
}

func (t *Tracker) setDesync(format string, a ...any) {
	if t.desync == "" {
		t.desync = fmt.Sprintf(format, a...)
	}
}

// Sendable says whether m may be sent now; if not, why. An attempt outside
// allowed_moves, or refused before this turn, is never sent: the caller
// tells the player it is refused (Refuse), as the site would answer
// ILLEGAL_MOVE.
func (t *Tracker) Sendable(m chess.Move) (bool, string) {
	switch {
	case t.over:
		return false, "the game is over"
	case !t.ourTurn:
		return false, "not our turn"
	case t.attempt != chess.NullMove || t.asking:
		return false, "an attempt is outstanding"
	case !t.wild():
		// The other variants' lists change within a turn (the obligation
		// of "has pawn captures", its release): the site judges, in the
		// variant's own words.
		return true, ""
	case t.refused[m]:
		return false, "refused before this turn"
	case t.allowed != nil && !t.allowed[m]:
		return false, "not in allowed_moves"
	}
	return true, ""
}

// Refuse tells the player that m, never sent, is refused: as the site
// refuses it in wild 16, or in the other variants as an attempt off the
// list (NONSENSE: nobody else hears it).
func (t *Tracker) Refuse(m chess.Move) {
	if !t.wild() {
		t.refuseAs(m, umpire.NonsenseMove)
		return
	}
	t.refuse(m)
}

// refuseAs hands the player our attempt m refused in word w: an "Illegal
// move" (public in the variants but wild 16), or a refusal off the list.
func (t *Tracker) refuseAs(m chess.Move, w umpire.Verdict) {
	if w == umpire.IllegalMove {
		t.refuse(m)
		return
	}
	t.refused[m] = true
	t.events = append(t.events, players.Event{Kind: players.Answer,
		View: umpire.View{Heard: true, Own: true, Verdict: w, Move: m, PawnTries: -1}})
}

func (t *Tracker) refuse(m chess.Move) {
	t.refused[m] = true
	if t.allowed != nil {
		delete(t.allowed, m)
	}
	t.illegal++
	t.events = append(t.events, players.Event{Kind: players.Answer,
		View: umpire.View{Heard: true, Own: true, Illegal: true, Move: m, PawnTries: -1}})
}

// Sent records that m was sent at now.
func (t *Tracker) Sent(m chess.Move, now time.Time) {
	t.attempt, t.sentAt, t.resend = m, now, false
}

// SentAny records that our "Any?" was sent at now.
func (t *Tracker) SentAny(now time.Time) {
	t.asking, t.sentAt, t.resend = true, now, false
}

// AnswerAny applies the site's reply to our "Any?": HAS_ANY or NO_ANY,
// heard by both sides; anything else (the question not available now)
// is taken as IMPOSSIBLE_TO_ASK, and "Any?" is not asked again this turn.
func (t *Tracker) AnswerAny(r ksclient.MoveResult, now time.Time) {
	if !t.asking {
		t.setDesync("an answer to \"Any?\", but none is outstanding")
	}
	t.noteLag(now)
	t.asking = false
	h, _ := ksclient.ReadReply(r, t.variant)
	t.unknown = append(t.unknown, h.Unknown...)
	t.heardAny(h.Verdict)
	t.clock(r.Clock, now, false)
}

// RefusedAny tells the player that our "Any?" cannot be asked now (the
// site refused the request).
func (t *Tracker) RefusedAny() {
	t.asking = false
	t.heardAny(umpire.ImpossibleToAsk)
}

// heardAny hands the player the answer to our "Any?".
func (t *Tracker) heardAny(w umpire.Verdict) {
	if w != umpire.HasAny && w != umpire.NoAny {
		w = umpire.ImpossibleToAsk
	}
	t.events = append(t.events, players.Event{Kind: players.Answer,
		View: umpire.View{Heard: true, Own: true, Verdict: w, PawnTries: -1}})
}

// TakeResend reports, once, that the outstanding attempt never reached the
// site (the last state neither played nor refused it, and still allows
// it): the caller sends it again.
func (t *Tracker) TakeResend() bool {
	r := t.resend && (t.attempt != chess.NullMove || t.asking) && !t.over && t.ourTurn
	t.resend = false
	return r
}

// Unsent forgets an attempt that certainly never reached the site (the
// request could not be made): it may be sent again.
func (t *Tracker) Unsent() { t.attempt, t.asking = chess.NullMove, false }

func (t *Tracker) noteLag(now time.Time) {
	if t.sentAt.IsZero() {
		return
	}
	t.lag = clock.SmoothLag(t.lag, now.Sub(t.sentAt))
	t.sentAt = time.Time{}
}

// Answer applies the site's reply to our outstanding attempt m.
func (t *Tracker) Answer(m chess.Move, r ksclient.MoveResult, now time.Time) {
	if t.attempt != m {
		t.setDesync("a reply to %v, but the attempt outstanding is %v", m, t.attempt)
	}
	t.noteLag(now)
	t.attempt = chess.NullMove
	h, refused := ksclient.ReadReply(r, t.variant)
	t.unknown = append(t.unknown, h.Unknown...)
	if refused {
		if t.wild() {
			t.refuse(m)
		} else {
			t.refuseAs(m, h.Verdict)
		}
		t.clock(r.Clock, now, false)
		return
	}
	v := t.view(h, true, m)
	t.heardMove(v, now)
	if r.GameOver || h.Ending != umpire.NotOver {
		t.end(h.Ending, h.Winner)
	}
	t.clock(r.Clock, now, true)
}

// heardMove hands a completed move to the player.
func (t *Tracker) heardMove(v umpire.View, now time.Time) {
	t.events = append(t.events, players.Event{Kind: players.Answer, View: v})
	t.plies++
	mover := chess.Color((t.plies - 1) % 2)
	if v.Own != (mover == t.us) {
		t.setDesync("ply %d: heard a move of the wrong side", t.plies)
	}
	t.refused = map[chess.Move]bool{}
	t.allowed = nil
	if v.Own {
		t.ourTurn = false
	} else {
		t.attempt, t.asking = chess.NullMove, false // nothing of ours can be outstanding now
		t.ourTurn, t.turnStart, t.canMove = true, now, true
	}
}

// view builds what we hear from h in the game's variant.
func (t *Tracker) view(h ksclient.Heard, own bool, m chess.Move) umpire.View {
	if t.wild() {
		return view(h, own, m)
	}
	return variantView(h, t.variant, own, m)
}

// variantView builds what we hear from h in variant vr (not wild 16), as
// the umpire tells it (umpire.Answer.For): the capture as vr announces
// it, the drop, rand's promotion, and the next mover's pawn news of vr's
// kind; on the move that ends the game, the capture and the ending.
func variantView(h ksclient.Heard, vr umpire.Variant, own bool, m chess.Move) umpire.View {
	v := umpire.View{Heard: true, Own: own, Checks: h.Checks, PawnTries: -1, Ending: h.Ending,
		Promotion: h.Promotion && vr.AnnouncePromotion}
	if vr.Drops {
		v.Drop = h.Drop
	}
	v.Capture, v.EnPassant = h.CaptureIn(vr)
	if own {
		v.Move = m
	}
	if h.Ending != umpire.NotOver {
		v.Result = resultOf(h.Winner)
		return v
	}
	v.PawnNews = vr.PawnNews
	switch vr.PawnNews {
	case umpire.PawnCount:
		v.PawnTries = h.Tries
	case umpire.PawnHas:
		v.HasPawnCapture = h.HasPawn
	case umpire.PawnSquares:
		v.TrySquares = h.TrySquares
	}
	return v
}

// view builds what we hear from h in wild 16.
func view(h ksclient.Heard, own bool, m chess.Move) umpire.View {
	v := umpire.View{Heard: true, Own: own, Capture: h.Capture, Checks: h.Checks, PawnTries: h.Tries, Ending: h.Ending}
	if own {
		v.Move = m
	}
	if h.Ending != umpire.NotOver {
		v.Result = resultOf(h.Winner)
		v.PawnTries = -1
	}
	return v
}

func resultOf(winner string) string {
	switch winner {
	case "white":
		return "1-0"
	case "black":
		return "0-1"
	}
	return "1/2-1/2"
}

func (t *Tracker) end(e umpire.Ending, winner string) {
	if t.over {
		return
	}
	t.over, t.ourTurn = true, false
	t.result = resultOf(winner)
	t.reason = e.String()
}

// plyInfo is one completed move of the scoresheet.
type plyInfo struct {
	mover chess.Color
	heard ksclient.Heard
	uci   string // ours only
}

// theirEvent is the opponent's public refusal or "Any?" answer, heard
// after the first `after` moves of the game.
type theirEvent struct {
	after int
	view  umpire.View
}

// sheet is a state's scoresheet, read.
type sheet struct {
	plies []plyInfo
	// views are the scoresheet as the player hears it (for Rebuild).
	views []umpire.View
	// current are our refused attempts of the turn in progress, and
	// currentAny our "Any?" answer in it (HasAny, NoAny; else MoveDone).
	current    []string
	currentAny umpire.Verdict
	// theirs are the opponent's public refusals and "Any?" answers (the
	// variants but wild 16), in order.
	theirs  []theirEvent
	unknown []string
}

// anyAnswer is the answer an ask-any entry gives: HasAny, else NoAny.
func anyAnswer(h ksclient.Heard) umpire.Verdict {
	if h.HasPawn {
		return umpire.HasAny
	}
	return umpire.NoAny
}

// timelineOf reads the scoresheet: the completed moves in order, our
// refused attempts of the turn in progress and, in the variants but wild
// 16, the "Any?" answers and the opponent's public refusals.
func (t *Tracker) timelineOf(s ksclient.Scoresheet) (sh sheet) {
	us, wild := t.us, t.wild()
	sh.currentAny = umpire.MoveDone
	last := -1 // index in views of the last completed move
	for _, turn := range s.Turns {
		for _, side := range []struct {
			c       chess.Color
			entries []ksclient.Entry
		}{{chess.White, turn.White}, {chess.Black, turn.Black}} {
			for _, e := range side.entries {
				h := ksclient.ParseTexts(e.Texts())
				sh.unknown = append(sh.unknown, h.Unknown...)
				own := e.Actor == "self" || e.Actor == "" && side.c == us
				uci := ""
				if e.MoveUCI != nil {
					uci = strings.ToLower(*e.MoveUCI)
				}
				askAny := e.Kind == "ask_any" || strings.EqualFold(e.QuestionType, "ASK_ANY")
				switch {
				case e.Kind == "status" && !wild:
					if n := len(sh.plies); n > 0 {
						p := &sh.plies[n-1]
						p.heard.Tries, p.heard.HasPawn, p.heard.TrySquares = h.Tries, h.HasPawn, h.TrySquares
						if sh.views[last].Ending == umpire.NotOver {
							sh.views[last] = t.view(p.heard, sh.views[last].Own, sh.views[last].Move)
						}
					}
				case e.Kind == "status":
					if n := len(sh.plies); n > 0 && h.Tries >= 0 {
						sh.plies[n-1].heard.Tries = h.Tries
						if sh.views[last].Ending == umpire.NotOver {
							sh.views[last].PawnTries = h.Tries
						}
					}
				case askAny && !wild:
					v := umpire.View{Heard: true, Own: own, Verdict: anyAnswer(h), PawnTries: -1}
					sh.views = append(sh.views, v)
					if own {
						sh.currentAny = v.Verdict
					} else {
						sh.theirs = append(sh.theirs, theirEvent{after: len(sh.plies), view: v})
					}
				case e.Kind == "illegal_move":
					if own {
						sh.current = append(sh.current, uci)
						m, _ := ksclient.ParseAttempt(uci)
						sh.views = append(sh.views, umpire.View{Heard: true, Own: true, Illegal: true, Move: m, PawnTries: -1})
					} else if !wild {
						v := umpire.View{Heard: true, Illegal: true, PawnTries: -1}
						sh.views = append(sh.views, v)
						sh.theirs = append(sh.theirs, theirEvent{after: len(sh.plies), view: v})
					}
				case e.Kind == "move" || e.Kind == "capture" || e.Kind == "":
					if h.Illegal {
						if own {
							sh.current = append(sh.current, uci)
						}
						continue
					}
					if askAny {
						continue
					}
					sh.plies = append(sh.plies, plyInfo{mover: side.c, heard: h, uci: uci})
					sh.current = sh.current[:0]
					sh.currentAny = umpire.MoveDone
					m, _ := ksclient.ParseAttempt(uci)
					sh.views = append(sh.views, t.view(h, own, m))
					last = len(sh.views) - 1
				case e.Kind == "ask_any":
				default:
					sh.unknown = append(sh.unknown, "scoresheet entry kind "+e.Kind)
				}
			}
		}
	}
	return sh
}

// hearTheirs hands the player the opponent's public refusals and "Any?"
// answers heard after at most `after` moves, that it has not heard yet.
func (t *Tracker) hearTheirs(theirs []theirEvent, after int) {
	for t.theirs < len(theirs) && theirs[t.theirs].after <= after {
		t.events = append(t.events, players.Event{Kind: players.Answer, View: theirs[t.theirs].view})
		t.theirs++
	}
}

// State applies a state fetched at now.
func (t *Tracker) State(s ksclient.State, now time.Time) {
	if s.YourColor != "" && s.YourColor != colorWord(t.us) {
		t.setDesync("the site says we play %s", s.YourColor)
		return
	}
	sh := t.timelineOf(s.Scoresheet)
	plies, current := sh.plies, sh.current
	t.unknown = append(t.unknown, sh.unknown...)
	t.timeline, t.theirsListed = sh.views, len(sh.theirs)
	sitePlies := s.MoveNumber - 1
	if s.MoveNumber == 0 { // not given: trust the scoresheet
		sitePlies = len(plies)
	}
	if len(plies) != sitePlies {
		t.setDesync("the scoresheet lists %d moves, move_number says %d", len(plies), sitePlies)
	}
	if sitePlies < t.plies {
		t.setDesync("the site counts %d moves, we heard %d", sitePlies, t.plies)
	}
	newPly := false
	for t.plies < sitePlies && !t.over {
		i := t.plies
		t.hearTheirs(sh.theirs, i)
		mover := chess.Color(i % 2)
		var h ksclient.Heard
		h.Tries = -1
		if i < len(plies) && plies[i].mover == mover {
			h = plies[i].heard
		}
		if mover == t.us {
			m := t.attempt
			if i < len(plies) && plies[i].uci != "" {
				if pm, err := ksclient.ParseAttempt(plies[i].uci); err == nil {
					if m != chess.NullMove && pm != m {
						t.setDesync("ply %d: the site played %v, our attempt was %v", i+1, pm, m)
					}
					m = pm
				}
			}
			if m == chess.NullMove {
				t.setDesync("ply %d: a move of ours we do not know", i+1)
				return
			}
			t.noteLag(now)
			t.attempt = chess.NullMove
			t.heardMove(t.view(h, true, m), now)
		} else {
			t.heardMove(t.view(h, false, chess.NullMove), now)
		}
		if h.Ending != umpire.NotOver {
			t.end(h.Ending, h.Winner)
		}
		newPly = true
	}
	if !t.over {
		t.hearTheirs(sh.theirs, t.plies) // the opponent's turn in progress
	}
	active := s.State == "active"
	mine := active && s.Turn != nil && *s.Turn == colorWord(t.us)
	if mine && !t.over {
		if !t.ourTurn {
			t.ourTurn, t.turnStart = true, now
			t.refused = map[chess.Move]bool{}
		}
		t.canMove = len(s.PossibleActions) == 0 || slices.Contains(s.PossibleActions, "move")
		// Our refused attempts of this turn, as the site lists them (after a
		// restart, or a lost reply).
		for _, u := range current {
			m, err := ksclient.ParseAttempt(u)
			if err != nil || t.refused[m] {
				continue
			}
			if m == t.attempt {
				t.noteLag(now)
				t.attempt = chess.NullMove
				t.refuse(m)
			} else {
				t.refused[m] = true
			}
		}
		t.allowed = map[chess.Move]bool{}
		for _, u := range s.AllowedMoves {
			if m, err := ksclient.ParseAttempt(u); err == nil {
				t.allowed[m] = true
			}
		}
		if len(s.AllowedMoves) == 0 {
			t.allowed = nil // not told: do not second-guess the site
		}
		if t.asking && sh.currentAny != umpire.MoveDone {
			// Our "Any?" was answered, its reply lost.
			t.noteLag(now)
			t.asking = false
			t.heardAny(sh.currentAny)
		} else if t.asking {
			t.resend = true // never reached the site
		}
		if a := t.attempt; a != chess.NullMove && t.wild() && t.allowed != nil && !t.allowed[a] {
			// Refused, its reply lost and the scoresheet silent about it.
			t.noteLag(now)
			t.attempt = chess.NullMove
			t.refuse(a)
		} else if a != chess.NullMove {
			// The attempt never reached the site (or, in the variants but
			// wild 16, was refused off the list, which the scoresheet never
			// shows): it is to be sent again (the player asked it, and the
			// record holds it, once).
			t.resend = true
		}
	} else if active {
		t.ourTurn = false
		if t.attempt != chess.NullMove || t.asking {
			t.setDesync("attempt %v outstanding, but the site says it is not our turn", t.attempt)
			t.attempt, t.asking = chess.NullMove, false
		}
	}
	if s.State == "completed" && !t.over {
		t.over, t.ourTurn = true, false
		t.result, t.reason = "*", "unknown"
		if s.Result != nil {
			w := ""
			if s.Result.Winner != nil {
				w = *s.Result.Winner
			}
			t.result, t.reason = resultOf(w), s.Result.Reason
			if t.reason == "" {
				t.reason = "unknown"
			}
		}
	}
	t.clock(s.Clock, now, newPly || !t.clockSeen)
}

// Timeline is the last state's scoresheet as views, for rebuilding the
// player after our view was lost.
func (t *Tracker) Timeline() []umpire.View { return slices.Clone(t.timeline) }

// Rebuilt tells the tracker that the player was rebuilt from Timeline.
func (t *Tracker) Rebuilt() {
	n := 0
	for _, v := range t.timeline {
		if players.Moved(v) {
			n++
		}
	}
	t.plies = n
	t.theirs = t.theirsListed
	t.events = nil
	t.attempt, t.asking = chess.NullMove, false
}

// Resigned notes our resignation.
func (t *Tracker) Resigned() {
	if t.over {
		return
	}
	w := "black"
	if t.us == chess.Black {
		w = "white"
	}
	t.over, t.ourTurn = true, false
	t.result, t.reason = resultOf(w), "resignation"
}

// Vanished ends a game the site no longer knows (404): it never finished
// as far as we can tell.
func (t *Tracker) Vanished(why string) {
	if t.over {
		return
	}
	t.over, t.ourTurn = true, false
	t.result, t.reason = "*", why
}

// clock applies a clock field; emit hands it to the player.
func (t *Tracker) clock(c *ksclient.Clock, now time.Time, emit bool) {
	if c == nil || c.WhiteRemaining == nil || c.BlackRemaining == nil {
		return
	}
	sec := func(f float64) time.Duration {
		f = math.Max(0, math.Min(f, 1e6))
		return time.Duration(f * float64(time.Second))
	}
	w, b := sec(*c.WhiteRemaining), sec(*c.BlackRemaining)
	running := -1
	if c.ActiveColor != nil {
		switch *c.ActiveColor {
		case "white":
			running = int(chess.White)
		case "black":
			running = int(chess.Black)
		}
	}
	// Clocks that disagree with ours (a jump, a clock running on the wrong
	// side) are taken as the site says: it decides flag falls.
	t.clocks = [2]time.Duration{w, b}
	t.running, t.clockAt, t.clockSeen = running, now, true
	if emit {
		t.events = append(t.events, players.Event{Kind: players.ClockUpdate,
			Clock: players.Clocks{Ours: t.Clock(t.us, now), Theirs: t.Clock(t.us.Other(), now)}})
	}
}

func colorWord(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

// ParseColor reads "white" or "black".
func ParseColor(s string) (chess.Color, bool) {
	switch s {
	case "white":
		return chess.White, true
	case "black":
		return chess.Black, true
	}
	return chess.White, false
}
