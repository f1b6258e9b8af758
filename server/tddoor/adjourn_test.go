package tddoor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/server"
	"kriegbot/server/td"
)

// TestTDAdjourn: Adjourn with round 1's games in progress lets them end
// and count, pairs no round 2 and keeps the event as adjourned on disk; a
// server started again on the folder goes on with round 2.
func TestTDAdjourn(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Charlie", "Delta"}
	strength := map[string]int{"Alpha": 4, "Bravo": 3, "Charlie": 2, "Delta": 1}
	dir := t.TempDir()
	cfg, tcfg := server.Config{Accounts: tdAccounts(t, names...)}, Config{Dir: dir, AbsentGrace: wait,
		Events: []td.EventSpec{mustSpec(t, "name=Later,rounds=2,tc=1+0,start=4")}}
	s1, addr1 := startTD(t, cfg, tcfg)
	bots := map[string]*tdBot{}
	for _, n := range names {
		bots[n] = newTDBot(t, addr1, n, strength)
		bots[n].set(func(b *tdBot) { b.hold = true })
		bots[n].Send("tell TD join")
	}
	for _, n := range names {
		bots[n].Expect("Creating: ")
	}
	s1.td.Adjourn()
	if st := tdSnap(t, s1, 1).Status; st != tdAdjourned {
		t.Fatalf("status %s after Adjourn, want %s", st, tdAdjourned)
	}
	for _, n := range names {
		bots[n].release()
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(5 * time.Millisecond) {
		if playing, _ := s1.GameCount(); playing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("round 1's games did not end")
		}
	}
	te := tdSnap(t, s1, 1)
	if te.Status != tdAdjourned || len(te.Event.Played) != 1 || playedGames(te.Event) != 2 || len(te.Boards) != 0 {
		t.Fatalf("adjourned event: %s, %d rounds, %d games played, %d boards open; want round 1's 2 games and no round 2",
			te.Status, len(te.Event.Played), playedGames(te.Event), len(te.Boards))
	}
	s1.Close()
	saved, err := os.ReadFile(filepath.Join(dir, "tourney-1.txt"))
	if err != nil || !strings.Contains(string(saved), "adjourned, 1+0, round 1 of 2") {
		t.Fatalf("crosstable on disk %q, %v: want it adjourned after round 1", saved, err)
	}
	s2, addr2 := startTD(t, cfg, tcfg)
	for _, n := range names {
		bots[n].connect(addr2)
	}
	te = waitStatus(t, s2, 1, tdDone)
	if len(te.Event.Played) != 2 || playedGames(te.Event) != 4 {
		t.Errorf("%d rounds, %d games played; want 2 and 4", len(te.Event.Played), playedGames(te.Event))
	}
	if _, finished := s2.GameCount(); finished != 2 {
		t.Errorf("the server started again played %d games, want round 2's 2", finished)
	}
}
