package iccgame

import (
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol"
)

// TestRouteUnprefixed: a referee line without "Game N" goes to the one game
// whose answer is pending; with two such games to none (ambiguous), never to
// every game in progress as the daemon once did.
func TestRouteUnprefixed(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := New(protocol.MyGameStartedDG{Game: 1, White: "bot", Black: "x", Wild: 16, Played: true}, chess.White, now)
	b := New(protocol.MyGameStartedDG{Game: 2, White: "bot", Black: "y", Wild: 16, Played: true}, chess.White, now)
	items := ann(t, "Illegal move.")
	if to, amb := Route(items, []*Tracker{a, b}); len(to) != 0 || amb {
		t.Fatalf("nothing pending: routed to %d games (ambiguous %v), want none", len(to), amb)
	}
	e2e5, _ := chess.ParseUCI("e2e5")
	b.Sent(e2e5, now)
	to, amb := Route(items, []*Tracker{a, b})
	if amb || len(to) != 1 || to[0] != b {
		t.Fatalf("one game waits: routed to %v (ambiguous %v), want game 2 alone", to, amb)
	}
	to[0].Announce(items, "Illegal move.", now)
	if ev := b.TakeEvents(); len(ev) != 1 || !ev[0].View.Illegal {
		t.Fatalf("game 2 heard %+v, want its refusal", ev)
	}
	if ev := a.TakeEvents(); len(ev) != 0 {
		t.Fatalf("game 1 heard %+v, want nothing", ev)
	}
	a.Sent(e2e5, now)
	b.Sent(e2e5, now)
	if to, amb := Route(items, []*Tracker{a, b}); len(to) != 0 || !amb {
		t.Fatalf("two games wait: routed to %d (ambiguous %v), want none and ambiguous", len(to), amb)
	}
	if to, _ := Route(ann(t, "Game 2: Illegal move."), []*Tracker{a, b}); len(to) != 1 || to[0] != b {
		t.Fatalf("a prefixed line goes to its game, got %v", to)
	}
	if to, _ := Route(items, []*Tracker{a}); len(to) != 1 {
		t.Fatalf("a single game takes every unprefixed line, got %v", to)
	}
}

// TestLongThinkIsRoutine: while the opponent's clock runs, silence is
// most likely a long think (the sparring daemon warned of a desync every
// 15 s while kriegbot thought at 2+12: 31 warnings in one game): a routine
// look; once their flag has fallen and nothing came, a real stall.
func TestLongThinkIsRoutine(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := New(protocol.MyGameStartedDG{Game: 3, White: "opp", Black: "bot", Wild: 16, WhiteInitial: 2, BlackInitial: 2, Played: true}, chess.Black, now)
	tr.Datagram(protocol.MsecDG{Game: 3, Color: chess.White, Msec: 60_000, Running: true}, now)
	if why, routine := tr.Stalled(now.Add(40*time.Second), 15*time.Second); why == "" || !routine {
		t.Fatalf("opponent thinking 40 s of its 60: stalled %q routine %v, want a routine look", why, routine)
	}
	if why, routine := tr.Stalled(now.Add(65*time.Second), 15*time.Second); why != "nothing heard for a while" || routine {
		t.Fatalf("5 s past the opponent's flag: stalled %q routine %v, want a real stall", why, routine)
	}
	quiet := New(protocol.MyGameStartedDG{Game: 4, White: "opp", Black: "bot", Wild: 16, Played: true}, chess.Black, now)
	if why, routine := quiet.Stalled(now.Add(20*time.Second), 15*time.Second); why == "" || routine {
		t.Fatalf("no clock known, 20 s of silence: stalled %q routine %v", why, routine)
	}
}
