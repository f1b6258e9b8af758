package bot

import (
	"strings"
	"testing"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/live"
)

// TestLiveCandidatesFollowThePosition: the page's candidates are those of
// the search in the position the game is in, labelled with its plies; once
// the attempt is played (f2f3 with f2 then empty) they are gone, not shown
// against the next position.
func TestLiveCandidatesFollowThePosition(t *testing.T) {
	f2f3, err := chess.ParseUCI("f2f3")
	if err != nil {
		t.Fatal(err)
	}
	sent := driver.Action{Kind: driver.Attempt, Move: f2f3, Candidates: []players.Candidate{{Move: f2f3, Visits: 90}}}
	var lg liveGame
	lg.searched([]driver.Action{sent}, 4)
	view := liveView{number: 1, opponent: "sparring", us: chess.White, plies: 4, drv: &driver.Game{}, lastAttempt: sent, live: &lg}
	got := liveGameOf(view)
	if len(got.Candidates) != 1 || got.Candidates[0].Move != "f2f3" || got.CandidatesPly != 4 {
		t.Fatalf("in the position searched: candidates %+v at ply %d, want f2f3 at ply 4", got.Candidates, got.CandidatesPly)
	}
	for _, plies := range []int{5, 6} { // f2f3 accepted; the opponent moved
		view.plies = plies
		if got := liveGameOf(view); len(got.Candidates) != 0 {
			t.Errorf("after ply %d the page still shows the search after ply 4: %+v", plies, got.Candidates)
		}
	}
}

// TestLiveVariantGame: the operator's page shows a berkeley_any game as a
// person must see it: the variant and what it announces, our "Any?" with
// its answer and the obligation it brings, the opponent's refused attempts
// (the site says only that one was refused) and its "Any?"; a wild 16
// game's part shows none of it.
func TestLiveVariantGame(t *testing.T) {
	v, err := umpire.ParseVariant("berkeley_any")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := players.Parse("heuristic", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	game := func(rules umpire.Rules) *driver.Game {
		drv, err := driver.New(driver.Setup{Spec: spec, Game: players.Game{Color: chess.White, Rules: rules, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return drv
	}
	d := &Daemon{opt: Options{Live: live.New(t.TempDir(), nil)}}
	e2e4, _ := chess.ParseUCI("e2e4")
	heard := func(vs ...umpire.View) []players.Event {
		var ev []players.Event
		for _, v := range vs {
			ev = append(ev, players.Event{Kind: players.Answer, View: v})
		}
		return ev
	}
	drv := game(umpire.Site(v))
	var lg liveGame
	d.liveHeard(&lg, drv, heard(
		umpire.View{Heard: true, Own: true, Move: e2e4, PawnTries: -1},
		umpire.View{Heard: true, Illegal: true, PawnTries: -1},
		umpire.View{Heard: true, Verdict: umpire.HasAny, PawnTries: -1},
		umpire.View{Heard: true, PawnTries: -1},
		umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1},
	))
	got := liveGameOf(liveView{number: 1, opponent: "sparring", us: chess.White, plies: 2, drv: drv, live: &lg})
	if !strings.HasPrefix(got.Rules, "berkeley_any: Any? may be asked") {
		t.Errorf("rules %q", got.Rules)
	}
	joined := strings.Join(got.Heard, " | ")
	for _, want := range []string{"they: an attempt refused", "they asked Any?: has pawn captures", "we asked Any?: has pawn captures"} {
		if !strings.Contains(joined, want) {
			t.Errorf("heard %q lacks %q", joined, want)
		}
	}
	turn := strings.Join(got.Turn, " | ")
	if !strings.Contains(turn, "obligation: we asked Any? and have pawn captures") || !strings.Contains(turn, "their last turn: 1 attempt refused, asked Any?: has pawn captures") {
		t.Errorf("turn %q", turn)
	}
	var w16 liveGame
	drv = game(umpire.ICC())
	d.liveHeard(&w16, drv, heard(umpire.View{Heard: true, Own: true, Move: e2e4, PawnTries: 0}))
	if got := liveGameOf(liveView{us: chess.White, drv: drv, live: &w16}); got.Rules != "" || got.Turn != nil || got.Pockets != "" || got.Heard[0] != "e2e4: 0 pawn tries" {
		t.Errorf("a wild 16 game: %+v", got)
	}
}
