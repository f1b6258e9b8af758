package ksgame

import (
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksclient"
)

var fixedNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func mv(s string) chess.Move {
	m, err := chess.ParseUCI(s)
	if err != nil {
		panic(err)
	}
	return m
}

func strp(s string) *string { return &s }

func entry(kind, actor, uci string, texts ...string) ksclient.Entry {
	e := ksclient.Entry{Kind: kind, Actor: actor, Messages: texts, QuestionType: "COMMON"}
	if uci != "" {
		e.MoveUCI = strp(uci)
	}
	return e
}

func answers(ev []players.Event) (out []string) {
	for _, e := range ev {
		if e.Kind != players.Answer {
			continue
		}
		v := e.View
		s := "theirs"
		if v.Own {
			s = v.Move.String()
			if v.Illegal {
				s += "?"
			}
		}
		for _, w := range v.Words() {
			s += "/" + w
		}
		out = append(out, s)
	}
	return out
}

func eq(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTrackerBlack: as Black, the opponent's first move comes from the
// scoresheet with its pawn tries; our attempts are judged from the replies
// and allowed_moves.
func TestTrackerBlack(t *testing.T) {
	tr := NewTracker(chess.Black, fixedNow)
	if tr.Due() {
		t.Fatal("due before our turn")
	}
	st := ksclient.State{State: "active", Turn: strp("black"), MoveNumber: 2, YourColor: "black", AllowedMoves: []string{"e7e5", "d7d5"},
		PossibleActions: []string{"move"}, Scoresheet: ksclient.Scoresheet{Turns: []ksclient.Turn{{Turn: 1, White: []ksclient.Entry{
			entry("move", "opponent", "", "Move complete"), entry("status", "opponent", "", "1 pawn try")}}}}}
	tr.State(st, fixedNow)
	if got := answers(tr.TakeEvents()); !eq(got, []string{"theirs/1 pawn try"}) {
		t.Fatalf("heard %q", got)
	}
	if !tr.Due() {
		t.Fatal("not due on our turn")
	}
	// Outside allowed_moves: refused without asking.
	if ok, why := tr.Sendable(mv("a7a4")); ok || why != "not in allowed_moves" {
		t.Fatalf("a7a4 sendable: %v %s", ok, why)
	}
	tr.Refuse(mv("a7a4"))
	// Refused by the site: never again this turn.
	tr.Sent(mv("e7e5"), fixedNow)
	tr.Answer(mv("e7e5"), ksclient.MoveResult{Announcement: "ILLEGAL_MOVE"}, fixedNow)
	if ok, _ := tr.Sendable(mv("e7e5")); ok {
		t.Fatal("a refused attempt is sendable again")
	}
	tr.Sent(mv("d7d5"), fixedNow)
	tr.Answer(mv("d7d5"), ksclient.MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", NextTurnPawnTries: new(int)}, fixedNow)
	if got := answers(tr.TakeEvents()); !eq(got, []string{"a7a4?/Illegal move", "e7e5?/Illegal move", "d7d5/0 pawn tries"}) {
		t.Fatalf("heard %q", got)
	}
	if tr.Due() || tr.Plies() != 2 || tr.Illegal() != 2 {
		t.Fatalf("after our move: due %v, plies %d, illegal %d", tr.Due(), tr.Plies(), tr.Illegal())
	}
	// The same state again brings nothing new.
	tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 3, YourColor: "black"}, fixedNow)
	if ev := tr.TakeEvents(); len(answers(ev)) != 0 || tr.TakeDesync() == "" {
		// the scoresheet above lists no moves while move_number says 2
		t.Fatalf("repeat state: %v", answers(ev))
	}
}

// TestTrackerLostReply: a reply that never came is settled by the state.
func TestTrackerLostReply(t *testing.T) {
	base := func() *Tracker {
		tr := NewTracker(chess.White, fixedNow)
		tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 1, YourColor: "white", AllowedMoves: []string{"e2e4", "d2d4"}}, fixedNow)
		tr.Sent(mv("e2e4"), fixedNow)
		return tr
	}
	// Played: the scoresheet shows our move and the opponent's answer.
	tr := base()
	tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 3, YourColor: "white", AllowedMoves: []string{"d2d4"},
		Scoresheet: ksclient.Scoresheet{Turns: []ksclient.Turn{{Turn: 1, White: []ksclient.Entry{entry("move", "self", "e2e4", "Move complete")},
			Black: []ksclient.Entry{entry("capture", "opponent", "", "Pawn captured at E4", "Check on file")}}}}}, fixedNow)
	if got := answers(tr.TakeEvents()); !eq(got, []string{"e2e4", "theirs/Pawn at e4 captured/File check"}) || tr.Outstanding() != chess.NullMove {
		t.Fatalf("played: %q", got)
	}
	// Refused: listed as an illegal attempt.
	tr = base()
	tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 1, YourColor: "white", AllowedMoves: []string{"d2d4"},
		Scoresheet: ksclient.Scoresheet{Turns: []ksclient.Turn{{Turn: 1, White: []ksclient.Entry{entry("illegal_move", "self", "e2e4", "Illegal move")}}}}}, fixedNow)
	if got := answers(tr.TakeEvents()); !eq(got, []string{"e2e4?/Illegal move"}) {
		t.Fatalf("refused: %q", got)
	}
	if ok, _ := tr.Sendable(mv("e2e4")); ok {
		t.Fatal("refused attempt sendable")
	}
	// Never arrived: still allowed, nothing listed: it is sent again (the
	// same attempt: the player asked it once).
	tr = base()
	tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 1, YourColor: "white", AllowedMoves: []string{"d2d4", "e2e4"}}, fixedNow)
	if !tr.TakeResend() || tr.TakeResend() || tr.Outstanding() != mv("e2e4") || tr.Due() || len(tr.TakeEvents()) != 0 {
		t.Fatalf("lost attempt: outstanding %v, due %v", tr.Outstanding(), tr.Due())
	}
}

// TestTrackerEnd: the end from a reply, from the state, and clocks.
func TestTrackerEnd(t *testing.T) {
	tr := NewTracker(chess.White, fixedNow)
	w, b := 1400.0, 1300.5
	tr.State(ksclient.State{State: "active", Turn: strp("white"), MoveNumber: 1, YourColor: "white",
		Clock: &ksclient.Clock{WhiteRemaining: &w, BlackRemaining: &b, ActiveColor: strp("white")}}, fixedNow)
	ev := tr.TakeEvents()
	if len(ev) != 1 || ev[0].Kind != players.ClockUpdate || ev[0].Clock.Ours != 1400*time.Second || ev[0].Clock.Theirs != 1300500*time.Millisecond {
		t.Fatalf("clock events %+v", ev)
	}
	if c := tr.Clock(chess.White, fixedNow.Add(10*time.Second)); c != 1390*time.Second {
		t.Fatalf("running clock %v", c)
	}
	tr.Sent(mv("f2f3"), fixedNow)
	tr.Answer(mv("f2f3"), ksclient.MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", SpecialAnnouncement: strp("CHECKMATE_WHITE_WINS"), GameOver: true}, fixedNow)
	if res, _, reason, over := tr.Over(); !over || res != "1-0" || reason != "checkmate" {
		t.Fatalf("over %v %s %s", over, res, reason)
	}
	tr = NewTracker(chess.Black, fixedNow)
	tr.State(ksclient.State{State: "completed", MoveNumber: 1, YourColor: "black", Result: &ksclient.Result{Winner: strp("white"), Reason: "timeout"}}, fixedNow)
	if res, _, reason, over := tr.Over(); !over || res != "1-0" || reason != "timeout" {
		t.Fatalf("timeout: %v %s %s", over, res, reason)
	}
	tr = NewTracker(chess.Black, fixedNow)
	tr.State(ksclient.State{State: "completed", MoveNumber: 1, YourColor: "black", Result: &ksclient.Result{Reason: "stalemate"}}, fixedNow)
	if res, _, _, _ := tr.Over(); res != "1/2-1/2" {
		t.Fatalf("draw: %s", res)
	}
	tr = NewTracker(chess.Black, fixedNow)
	tr.Vanished("gone")
	if res, _, _, over := tr.Over(); !over || res != "*" {
		t.Fatalf("vanished: %s", res)
	}
}

// FuzzTrackerState: no state the client accepts, however odd, panics the
// tracker (the fuzz of ksclient's parsers fed it before the move).
func FuzzTrackerState(f *testing.F) {
	for _, s := range []string{
		`{"game_id":"0123456789abcdef01234567","state":"active","turn":"white","move_number":3,"your_color":"white",` +
			`"allowed_moves":["e2e4"],"possible_actions":["move"],"scoresheet":{"viewer_color":"white","last_move_number":2,"turns":[` +
			`{"turn":1,"white":[{"kind":"move","actor":"self","messages":["Move complete"],"move_uci":"e2e4"}],` +
			`"black":[{"kind":"capture","actor":"opponent","messages":["Pawn captured at E4"],"move_uci":null}]}]},` +
			`"clock":{"white_remaining":1490.5,"black_remaining":1500.0,"active_color":"white"}}`,
		`{"game_id":"0123456789abcdef01234567","state":"completed","move_number":1,"your_color":"black","result":{"winner":"white","reason":"timeout"}}`,
		`{"scoresheet":{"turns":[{"white":["a",1]}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ksclient.ParseState(b)
		if err != nil {
			return
		}
		for _, us := range []chess.Color{chess.White, chess.Black} {
			for _, v := range []umpire.Variant{umpire.Wild16(), umpire.Variants()[2], umpire.Variants()[5]} {
				tr := NewVariantTracker(us, v, fixedNow)
				tr.State(s, fixedNow)
				tr.State(s, fixedNow.Add(time.Second))
			}
		}
	})
}

func variantOf(t *testing.T, name string) umpire.Variant {
	t.Helper()
	v, err := umpire.ParseVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTrackerVariant: in english, as Black, the opponent's public
// refusal and "Any?" come before its move, in the scoresheet's order, and
// once only; its en passant is heard on the destination square; our
// "Any?" is an attempt whose reply says has_any, and a lost reply is
// settled by the scoresheet; our refusal off the list is the site's word,
// and an attempt outside allowed_moves is still sent (the list changes
// within a turn).
func TestTrackerVariant(t *testing.T) {
	tr := NewVariantTracker(chess.Black, variantOf(t, "english"), fixedNow)
	opening := []ksclient.Entry{entry("illegal_move", "opponent", "", "Illegal move"),
		{Kind: "ask_any", Actor: "opponent", Messages: []string{"No pawn captures"}, QuestionType: "ASK_ANY"},
		entry("move", "opponent", "", "Move complete")}
	st := ksclient.State{State: "active", Turn: strp("black"), MoveNumber: 2, YourColor: "black", AllowedMoves: []string{"e7e5"},
		PossibleActions: []string{"move", "ask_any"}, Scoresheet: ksclient.Scoresheet{Turns: []ksclient.Turn{{Turn: 1, White: opening}}}}
	tr.State(st, fixedNow)
	tr.State(st, fixedNow)
	ev := tr.TakeEvents()
	var heard []umpire.View
	for _, e := range ev {
		if e.Kind == players.Answer {
			heard = append(heard, e.View)
		}
	}
	if len(heard) != 3 || !heard[0].Illegal || heard[0].Own || heard[1].Verdict != umpire.NoAny || !players.Moved(heard[2]) ||
		heard[2].PawnNews != umpire.PawnNothing || heard[2].PawnTries != -1 {
		t.Fatalf("heard %+v", heard)
	}
	// Our "Any?", answered.
	tr.SentAny(fixedNow)
	if tr.Due() || !tr.Asking() {
		t.Fatal("due while asking")
	}
	tr.AnswerAny(ksclient.MoveResult{Announcement: "HAS_ANY", HasAny: new(true)}, fixedNow)
	// Off the list (not in allowed_moves): sent; the site's word comes back.
	if ok, why := tr.Sendable(mv("a7a6")); !ok {
		t.Fatalf("a7a6 not sendable: %s", why)
	}
	tr.Sent(mv("a7a6"), fixedNow)
	tr.Answer(mv("a7a6"), ksclient.MoveResult{Announcement: "IMPOSSIBLE_TO_ASK"}, fixedNow)
	ev = tr.TakeEvents()
	if len(ev) != 2 || ev[0].View.Verdict != umpire.HasAny || !ev[0].View.Own || ev[1].View.Verdict != umpire.ImpossibleToAsk || ev[1].View.Illegal {
		t.Fatalf("heard %+v", ev)
	}
	// A lost reply to "Any?" on the next turn, settled by the scoresheet;
	// the opponent's en passant before it.
	tr.Sent(mv("d7d5"), fixedNow)
	tr.Answer(mv("d7d5"), ksclient.MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE"}, fixedNow)
	tr.TakeEvents()
	st.MoveNumber, st.Scoresheet.Turns = 4, []ksclient.Turn{{Turn: 1, White: opening, Black: []ksclient.Entry{entry("move", "self", "d7d5", "Move complete")}},
		{Turn: 2, White: []ksclient.Entry{entry("capture", "opponent", "", "En passant capture at D6")},
			Black: []ksclient.Entry{{Kind: "ask_any", Actor: "self", Messages: []string{"Has pawn captures"}, QuestionType: "ASK_ANY"}}}}
	tr.State(st, fixedNow)
	tr.SentAny(fixedNow) // sent before the state was read; its reply lost
	tr.State(st, fixedNow)
	ev = tr.TakeEvents()
	var got []umpire.View
	for _, e := range ev {
		if e.Kind == players.Answer {
			got = append(got, e.View)
		}
	}
	if len(got) != 2 || got[0].Capture != (umpire.Capture{Square: sq(t, "d6"), Kind: umpire.ManCaptured}) || !got[0].EnPassant ||
		got[1].Verdict != umpire.HasAny || !got[1].Own || tr.Asking() {
		t.Fatalf("heard %+v", got)
	}
	if d := tr.TakeDesync(); d != "" {
		t.Fatalf("desync: %s", d)
	}
}

func sq(t *testing.T, s string) chess.Square {
	t.Helper()
	q, ok := chess.ParseSquare(s)
	if !ok {
		t.Fatalf("square %q", s)
	}
	return q
}
