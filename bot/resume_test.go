package bot

import (
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/protocol"
	"kriegbot/track/iccgame"
)

// TestSameGameAndContinues: a DG 15 with a held game's number gives it back
// only with the same players, colours and time control, and its move list
// must hold our accepted moves in order at our side's plies.
func TestSameGameAndContinues(t *testing.T) {
	start := protocol.MyGameStartedDG{Game: 1, White: "kriegbot", Black: "sparring", Wild: 16, WhiteInitial: 2, WhiteIncrement: 1,
		BlackInitial: 2, BlackIncrement: 1, Played: true}
	old := &gameRun{t: iccgame.New(start, chess.White, time.Time{})}
	for _, tc := range []struct {
		name string
		edit func(*protocol.MyGameStartedDG)
		us   chess.Color
		want bool
	}{
		{"same", func(*protocol.MyGameStartedDG) {}, chess.White, true},
		{"handle case", func(v *protocol.MyGameStartedDG) { v.Black = "Sparring" }, chess.White, true},
		{"colours swapped", func(v *protocol.MyGameStartedDG) { v.White, v.Black = v.Black, v.White }, chess.Black, false},
		{"another opponent", func(v *protocol.MyGameStartedDG) { v.Black = "stranger" }, chess.White, false},
		{"another base", func(v *protocol.MyGameStartedDG) { v.WhiteInitial, v.BlackInitial = 3, 3 }, chess.White, false},
		{"another increment", func(v *protocol.MyGameStartedDG) { v.WhiteIncrement, v.BlackIncrement = 0, 0 }, chess.White, false},
	} {
		v := start
		tc.edit(&v)
		if got := sameGame(old, v, tc.us); got != tc.want {
			t.Errorf("sameGame %s = %v, want %v", tc.name, got, tc.want)
		}
	}

	mv := func(smith string) protocol.MoveDG { return protocol.MoveDG{Smith: smith} }
	hidden := protocol.MoveDG{Hidden: true, CaptureSquare: chess.NoSquare}
	e4, err := chess.ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	d4, err := chess.ParseUCI("d2d4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		own   []chess.Move
		moves []protocol.MoveDG
		want  bool
	}{
		{"nothing heard, empty list", nil, nil, true},
		{"our moves in order", []chess.Move{e4, d4}, []protocol.MoveDG{mv("e2e4"), hidden, mv("d2d4"), hidden}, true},
		{"one of ours missed", []chess.Move{d4}, []protocol.MoveDG{mv("e2e4"), hidden, mv("d2d4")}, true},
		{"a new game", []chess.Move{e4, d4}, nil, false},
		{"another game", []chess.Move{e4, d4}, []protocol.MoveDG{mv("d2d4"), hidden, mv("e2e4"), hidden}, false},
		{"ours at their plies", []chess.Move{e4}, []protocol.MoveDG{hidden, mv("e2e4")}, false},
	} {
		old.own = tc.own
		if got := continues(old, protocol.MoveListDG{Game: 1, Moves: tc.moves}); got != tc.want {
			t.Errorf("continues %s = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestResumptionWaitsForItsList (issue 45's restart soak): a game given
// back under a held game's number neither moves nor takes a finished
// search until its move list says whether it is that game. Our first
// attempt in a new game under a dead game's number, as White, was
// written into the dead game's record (which then no longer replayed).
func TestResumptionWaitsForItsList(t *testing.T) {
	start := protocol.MyGameStartedDG{Game: 1, White: "kriegbot", Black: "sparring", Wild: 16, WhiteInitial: 2, WhiteIncrement: 1,
		BlackInitial: 2, BlackIncrement: 1, Played: true}
	old := &gameRun{t: iccgame.New(start, chess.White, time.Time{})}
	g := &gameRun{t: iccgame.New(start, chess.White, time.Now()), resumed: &resumption{old: old}}
	if g.mayAct() || g.wanted() {
		t.Errorf("a resumption before its move list: mayAct %v, wanted %v; want neither", g.mayAct(), g.wanted())
	}
	g.resumed = nil
	if !g.mayAct() {
		t.Error("a game settled by its move list may not act")
	}
}

// TestCrossedAnswersTakeTheGame (issue 45's restart soak): we answered
// bravo's seek and wait for the game; bravo's challenge (its answer to
// our seek, crossing ours) is that game, not a busy refusal, while
// another player's challenge still finds us busy. Both daemons used to
// decline each other as busy and idle for good.
func TestCrossedAnswersTakeTheGame(t *testing.T) {
	cfg := config.Defaults()
	cfg.Policy.MaxGames = 1
	d := New(cfg, Options{Name: "alpha"})
	d.policy.pending, d.policy.pendingAt = "bravo", time.Now()
	offer := func(from string) protocol.MatchDG {
		return protocol.MatchDG{Challenger: from, Receiver: "alpha", Wild: 16, ChallengerTime: 1, ReceiverTime: 1}
	}
	if why := d.challengeRefusal(offer("Bravo")); why != "" {
		t.Errorf("bravo's crossing challenge refused: %q", why)
	}
	if why := d.challengeRefusal(offer("charlie")); why != whyBusy {
		t.Errorf("charlie's challenge while we wait for bravo: %q, want %q", why, whyBusy)
	}
	if d.policy.pending != "bravo" {
		t.Errorf("pending %q after judging, want bravo", d.policy.pending)
	}
}
