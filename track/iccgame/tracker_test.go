package iccgame

import (
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

func ann(t *testing.T, line string) []protocol.Announcement {
	t.Helper()
	items, _, unknown := protocol.ParseAnnouncements(nil, []byte(line))
	if unknown {
		t.Fatalf("unparsed %q", line)
	}
	return items
}

func TestTrackerAssemblesAnswers(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := protocol.MyGameStartedDG{Game: 7, White: "bot", Black: "opp", Wild: 16, WhiteInitial: 5, BlackInitial: 5, Played: true}
	tr := newTracker(g, chess.White, now)
	if !tr.ourTurn {
		t.Fatal("White starts")
	}
	e2e5, _ := chess.ParseUCI("e2e5")
	e2e4, _ := chess.ParseUCI("e2e4")
	tr.sent(e2e5, now)
	tr.illegal(now.Add(10*time.Millisecond), true, "e2e5")
	tr.illegal(now.Add(11*time.Millisecond), true, "e2e5") // a repeated refusal: counted once
	tr.announce(ann(t, "Illegal move (e2e5)."), "Illegal move (e2e5).", now)
	tr.sent(e2e4, now)
	tr.move(protocol.MoveDG{Game: 7, SAN: "e4", Smith: "e2e4", CaptureSquare: chess.NoSquare, Clock: 299}, now.Add(50*time.Millisecond))
	tr.announce(ann(t, "Game 7: 0 pawn tries"), "Game 7: 0 pawn tries", now)
	if tr.ourTurn || tr.pending == nil {
		t.Fatal("after our move: not our turn, answer open")
	}
	// The opponent captures on e4 with a pawn, gives a check; 1 pawn try for us.
	tr.move(protocol.MoveDG{Game: 7, SAN: "?", Smith: "?xe4", Hidden: true, CaptureSquare: sq("e4"), Clock: 298}, now.Add(time.Second))
	tr.announce(ann(t, "Game 7: Pawn at e4 captured"), "Game 7: Pawn at e4 captured", now)
	tr.announce(ann(t, "Game 7: Short-diagonal check"), "Game 7: Short-diagonal check", now)
	tr.announce(ann(t, "Game 99: Rank check"), "Game 99: Rank check", now) // another game's line
	tr.announce(ann(t, "Game 7: 1 pawn try"), "Game 7: 1 pawn try", now)
	tr.myTurn(now.Add(time.Second))
	ev := tr.takeEvents()
	want := []umpire.View{
		{Heard: true, Own: true, Illegal: true, Move: e2e5, PawnTries: -1},
		{Heard: true, Own: true, Move: e2e4, PawnTries: 0},
		{Heard: true, Capture: umpire.Capture{Square: sq("e4"), Kind: umpire.PawnCaptured},
			Checks: [2]chess.CheckKind{chess.CheckShortDiagonal}, PawnTries: 1},
	}
	if len(ev) != len(want) {
		t.Fatalf("%d events: %+v", len(ev), ev)
	}
	for i := range want {
		if ev[i].Kind != players.Answer || ev[i].View != want[i] {
			t.Fatalf("event %d: %+v, want %+v", i, ev[i].View, want[i])
		}
	}
	if !tr.ourTurn || tr.refused != 0 || tr.plies != 2 || tr.desync != "" {
		t.Fatalf("turn %v refused %d plies %d desync %q", tr.ourTurn, tr.refused, tr.plies, tr.desync)
	}
	if tr.lag <= 0 {
		t.Fatal("no lag measured")
	}
}

func TestTrackerSettlesAndNoticesDesync(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := protocol.MyGameStartedDG{Game: 3, White: "opp", Black: "bot", Wild: 16, WhiteInitial: 1, BlackInitial: 1, Played: true}
	tr := newTracker(g, chess.Black, now)
	tr.move(protocol.MoveDG{Game: 3, SAN: "?", Smith: "?", Hidden: true, CaptureSquare: chess.NoSquare}, now)
	tr.settle(now.Add(Settle / 2))
	if len(tr.events) != 0 {
		t.Fatal("closed too early")
	}
	tr.settle(now.Add(Settle))
	if len(tr.takeEvents()) != 1 || !tr.ourTurn {
		t.Fatal("quiet answer not closed")
	}
	// The server shows a move of ours we never sent.
	tr.move(protocol.MoveDG{Game: 3, SAN: "e5", Smith: "e7e5", CaptureSquare: chess.NoSquare}, now)
	if tr.desync == "" {
		t.Fatal("desync not noticed")
	}
	tr.msec(protocol.MsecDG{Game: 3, Color: chess.Black, Msec: 42000, Running: true}, now)
	if c := tr.clock(chess.Black, now.Add(2*time.Second)); c != 40*time.Second {
		t.Fatalf("clock %v", c)
	}
	tr.end(protocol.MyGameResultDG{Game: 3, Code: "Res", Score: "1-0", Description: "bot resigns"})
	if !tr.over || tr.result != "1-0" {
		t.Fatal("end")
	}
}

func sq(s string) chess.Square {
	q, ok := chess.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}

// TestTrackerIgnoresLateIllegalEcho: the server sends DG 42 and then the text
// "Illegal move (a1a7)."; the player may have sent its next attempt before
// the text is read. The echo must not refuse the new attempt.
func TestTrackerIgnoresLateIllegalEcho(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := protocol.MyGameStartedDG{Game: 1, White: "bot", Black: "opp", Wild: 16, WhiteInitial: 5, BlackInitial: 5, Played: true}
	for _, textFirst := range []bool{false, true} {
		tr := newTracker(g, chess.White, now)
		a1a7, _ := chess.ParseUCI("a1a7")
		a1a5, _ := chess.ParseUCI("a1a5")
		tr.sent(a1a7, now)
		if textFirst { // a server without DG 42, or the text before the DG
			tr.announce(ann(t, "Illegal move (a1a7)."), "Illegal move (a1a7).", now)
			tr.sent(a1a5, now)
			tr.illegal(now, true, "a1a7") // the DG, late: names the old move
		} else {
			tr.illegal(now, true, "a1a7")
			tr.sent(a1a5, now)
			tr.announce(ann(t, "Illegal move (a1a7)."), "Illegal move (a1a7).", now)
		}
		ev := tr.takeEvents()
		if len(ev) != 1 || ev[0].View.Move != a1a7 || tr.attempt != a1a5 {
			t.Fatalf("textFirst=%v: %d refusals (%+v), outstanding %v", textFirst, len(ev), ev, tr.attempt)
		}
	}
	if m := refusedMove("Game 3: Illegal move (e7e8=Q)."); m != "e7e8q" {
		t.Fatalf("refusedMove %q", m)
	}
	if m := refusedMove("Illegal move"); m != "" {
		t.Fatalf("refusedMove %q", m)
	}
}
