package bot

import (
	"testing"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/players"
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
