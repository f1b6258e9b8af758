package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// TestSituationLimits: an attempt's own limits (a KEP go line) replace the
// game's: its ask (a movetime deadline less the overhead, which SetOverhead
// changes mid-game; clocks through the time manager, with the time spent
// this turn) and its node bound.
func TestSituationLimits(t *testing.T) {
	ms := time.Millisecond
	st := Settings{Overhead: 10 * ms, MinThink: clock.DefaultMinThink, Emergency: clock.DefaultEmergency, Nodes: 300}
	now := time.Now()
	turn := clock.NewTurn(st.Policy().Manager(0))
	b, hard := st.Plan(turn, clock.Control{}, now, Situation{Since: now, Ask: &clock.Ask{Deadline: 250 * ms}, Nodes: 40})
	if b.Time != 240*ms || hard != 240*ms || b.Nodes != 40 {
		t.Fatalf("deadline 250 ms, 40 nodes: %+v hard %v", b, hard)
	}
	b, hard = st.Plan(turn, clock.Control{}, now, Situation{Since: now, Ask: &clock.Ask{}})
	if b != (players.Budget{Nodes: 300}) || hard != clock.NoLimit {
		t.Fatalf("no limits asked: %+v hard %v; want the settings' nodes, no time limit", b, hard)
	}
	// The turn began a minute ago: a clock ask spends it, so the second
	// attempt of a long turn gets less than the first.
	ask := &clock.Ask{Clock: true, Remaining: 5 * time.Minute, MoveNumber: 10}
	first, _ := st.Plan(clock.NewTurn(clock.Manager{}), clock.Control{}, now, Situation{Since: now, Ask: ask})
	later, _ := st.Plan(turn, clock.Control{}, now.Add(time.Minute), Situation{Since: now, Ask: ask})
	if first.Time <= 0 || later.Time >= first.Time {
		t.Fatalf("clock ask: first attempt %v, a minute into the turn %v; want less", first.Time, later.Time)
	}

	g, err := New(Setup{Spec: spec(t, nil), Game: players.Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1}, Settings: st}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.SetOverhead(100 * ms)
	b, hard = g.setup.Settings.Plan(g.turn, clock.Control{}, now, Situation{Since: now, Ask: &clock.Ask{Deadline: 250 * ms}})
	if b.Time != 150*ms || hard != 150*ms {
		t.Fatalf("after SetOverhead(100 ms): %+v hard %v", b, hard)
	}
}

// TestThinkNodes: Think searches the situation's node bound, not the
// settings'.
func TestThinkNodes(t *testing.T) {
	sp, err := players.Parse("mcts:mem=4", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(Setup{Spec: sp, Game: players.Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1}, Settings: Settings{Nodes: 300, Untimed: &clock.Ask{}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if act := g.Think(t.Context(), now, Situation{Since: now, Nodes: 120}); act.Kind != Attempt || act.Iterations != 120 {
		t.Fatalf("Think with 120 nodes: %+v", act)
	}
}

// failing ponders by panicking.
type failing struct{ players.Player }

func (failing) Ponder(context.Context, int64) players.PonderReport { panic("ponder broke") }
func (failing) PonderTrees([]int64) players.PonderReport           { return players.PonderReport{} }

// TestPonderOnRequest: Ponder starts the player's ponder when the harness
// says (without Settings.Ponder), held to its node count; StopPonder ends
// it and records it; a player that fails while pondering is an error, not
// a panic; a player that cannot ponder starts none.
func TestPonderOnRequest(t *testing.T) {
	sp, err := players.Parse("mcts:mem=4", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	w := record.Create(t.TempDir(), "us", record.GameLine{Game: 1, White: "us", Black: "them", Player: sp.String()}, chess.Black, now)
	g, err := New(Setup{Spec: sp, Game: players.Game{Color: chess.Black, Rules: umpire.ICC(), Seed: 1}, Record: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Ponder(200) || !g.Pondering() {
		t.Fatal("Ponder(200) started no ponder")
	}
	if g.Ponder(200) {
		t.Fatal("a second Ponder started while one runs")
	}
	if err := g.StopPonder(now); err != nil || g.Pondering() {
		t.Fatalf("StopPonder: %v, pondering %v", err, g.Pondering())
	}
	if err := g.StopPonder(now); err != nil {
		t.Fatalf("StopPonder with none running: %v", err)
	}
	g.End(players.Outcome{Result: "*", Reason: "test"}, record.ResultLine{}, now)
	if g.Ponder(0) {
		t.Fatal("Ponder after the game's end")
	}
	w.Close()
	// The ponder was cut at once, perhaps before its first iteration: the
	// record holds it only when it searched.
	if types := lineTypes(t, w.Path()); types != "game result" && types != "game ponder result" {
		t.Fatalf("record lines %q", types)
	}

	bad, err := New(Setup{Player: failing{spec(t, nil).New()}, Game: players.Game{Color: chess.Black, Rules: umpire.ICC(), Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bad.Ponder(0) {
		t.Fatal("no ponder started")
	}
	if err := bad.StopPonder(now); err == nil || !strings.Contains(err.Error(), "ponder broke") {
		t.Fatalf("StopPonder of a failing player: %v, want its error", err)
	}
	if plain, _ := newGame(t, spec(t, nil), Settings{}); plain.Ponder(0) {
		t.Fatal("a player that cannot ponder started a ponder")
	}
}
