package driver

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// TestPonder: with Settings.Ponder the mcts player ponders from our accepted
// move until the next event, which ends it before the player hears it; the
// record holds the ponder's size before the opponent's answer, and a replay
// of it through PonderTrees records the same. Without the setting nothing
// ponders.
func TestPonder(t *testing.T) {
	sp, err := players.Parse("mcts:mem=4", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		dir := t.TempDir()
		now := time.Now()
		w := record.Create(dir, "us", record.GameLine{Game: 1, White: "us", Black: "them", Player: sp.String()}, chess.White, now)
		done := make(chan Thought, 1)
		g, err := New(Setup{Spec: sp, Game: players.Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1}, Settings: Settings{Ponder: on}, Record: w}, done)
		if err != nil {
			t.Fatal(err)
		}
		m, err := g.Decide(now, func(p players.Player) (chess.Move, error) {
			return p.Attempt(t.Context(), players.Budget{Nodes: 500})
		})
		if err != nil {
			t.Fatal(err)
		}
		ours := umpire.View{Heard: true, Own: true, Move: m, PawnTries: 0}
		g.Hear([]players.Event{{Kind: players.Answer, View: ours}}, now)
		if g.Pondering() != on {
			t.Fatalf("ponder %v: pondering %v after our accepted move", on, g.Pondering())
		}
		time.Sleep(20 * time.Millisecond) // the opponent thinks
		g.Hear([]players.Event{{Kind: players.Answer, View: umpire.View{Heard: true, PawnTries: 0}}}, now)
		if g.Pondering() {
			t.Fatal("still pondering after the opponent's move")
		}
		g.End(players.Outcome{Result: "*", Reason: "test"}, record.ResultLine{}, now)
		w.Close()
		types := lineTypes(t, w.Path())
		want := "game attempt answer answer result"
		if on {
			want = "game attempt answer ponder answer result"
		}
		if types != want {
			t.Fatalf("ponder %v: record lines %q, want %q", on, types, want)
		}
	}
}

// lineTypes lists the types of a record's lines.
func lineTypes(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var types []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		_, rest, _ := strings.Cut(sc.Text(), `"type":"`)
		typ, _, _ := strings.Cut(rest, `"`)
		types = append(types, typ)
	}
	return strings.Join(types, " ")
}

// TestNoPonderAfterAny: an answer to our "Any?" is not a move: the turn
// goes on (the turn counts it beside the refusals) and nothing ponders;
// the opponent's public refusal does not end a ponder's turn either.
func TestNoPonderAfterAny(t *testing.T) {
	sp, err := players.Parse("mcts:mem=4", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	v, err := umpire.ParseVariant("berkeley_any")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	g, err := New(Setup{Spec: sp, Game: players.Game{Color: chess.White, Rules: umpire.Site(v), Seed: 1}, Settings: Settings{Ponder: true}}, make(chan Thought, 1))
	if err != nil {
		t.Fatal(err)
	}
	ask := umpire.View{Heard: true, Own: true, Verdict: umpire.NoAny, PawnTries: -1}
	g.Hear([]players.Event{{Kind: players.Answer, View: ask}}, now)
	if g.Pondering() || g.turn.Retries() != 1 {
		t.Fatalf("after our Any?: pondering %v, %d retries; want no ponder, 1", g.Pondering(), g.turn.Retries())
	}
	m, err := g.Decide(now, func(p players.Player) (chess.Move, error) {
		return p.Attempt(t.Context(), players.Budget{Nodes: 50})
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Hear([]players.Event{{Kind: players.Answer, View: umpire.View{Heard: true, Own: true, Move: m, PawnTries: -1}}}, now)
	if !g.Pondering() {
		t.Fatal("not pondering after our move")
	}
	g.Hear([]players.Event{{Kind: players.Answer, View: umpire.View{Heard: true, Illegal: true, PawnTries: -1}}}, now)
	if !g.theirTurn {
		t.Fatal("the opponent's public refusal ended its turn")
	}
	g.End(players.Outcome{Result: "*", Reason: "test"}, record.ResultLine{}, now)
}
