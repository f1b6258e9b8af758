package players

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

// playBudget drives two players through the umpire with a node budget per
// attempt, calls each (if set) before every attempt, checks that no refused
// attempt is asked again, and returns the umpire at the end.
func playBudget(t *testing.T, white, black Player, seed uint64, maxPlies int, nodes int64, each func(u *umpire.Umpire)) *umpire.Umpire {
	t.Helper()
	rules := umpire.ICC()
	rules.MaxPlies = maxPlies
	u := umpire.New(rules)
	ps := [2]Player{white, black}
	for c, p := range ps {
		if err := p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	for attempts := 0; u.Ending() == umpire.NotOver; attempts++ {
		if attempts > 100000 {
			t.Fatal("game does not end")
		}
		if each != nil {
			each(u)
		}
		side := u.Side()
		m, err := ps[side].Attempt(context.Background(), Budget{Nodes: nodes})
		if err != nil {
			t.Fatalf("ply %d: %v", u.Plies(), err)
		}
		for _, r := range u.Refused() {
			if r == m {
				t.Fatalf("ply %d: %v proposed again after its refusal", u.Plies(), m)
			}
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		for c, p := range ps {
			p.Hear(AnswerEvent(&a, chess.Color(c)))
		}
	}
	for _, p := range ps {
		p.GameOver(Outcome{Result: u.Result(), Reason: u.Ending().String()})
	}
	return u
}

func TestMCTSDebugBare(t *testing.T) {
	if os.Getenv("KRIEGBOT_DEBUG") == "" {
		t.Skip("debug only")
	}
	for seed := uint64(1); seed < 40; seed++ {
		w := mustNew(t, "mcts").(*MCTS)
		t.Log("seed", seed)
		var prev string
		u := playBudget(t, w, mustNew(t, "heuristic"), seed, 400, 1000, func(u *umpire.Umpire) {
			pos := u.Position()
			if u.Side() != chess.White {
				return
			}
			mine := pos.ByColor(chess.White) &^ pos.Pieces(chess.White, chess.King)
			if mine.Count() <= 2 && !pos.ByColor(chess.Black).More() {
				var b strings.Builder
				fmt.Fprintf(&b, "ply %d %s units %d\n", u.Plies(), pos.FEN(), w.bel.Units())
				w.bel.Format(&b)
				w.search.WriteRoot(&b)
				prev = b.String()
			}
			if mine.Count() == 0 && prev != "" {
				t.Logf("lost the last man after:\n%s", prev)
				t.FailNow()
			}
		})
		pos := u.Position()
		mv := u.Moves()
		t.Log(seed, u.Ending(), u.Result(), u.Plies(), pos.FEN(), mv[max(len(mv)-8, 0):])
	}
}

// TestMCTSDebugReplay replays a recorded game (PGN movetext with the
// referee's comments) to a ply and shows the mcts player's decision there.
func TestMCTSDebugReplay(t *testing.T) {
	file, stop := os.Getenv("KRIEGBOT_REPLAY"), 0
	if file == "" {
		t.Skip("debug only")
	}
	fmt.Sscan(os.Getenv("KRIEGBOT_PLY"), &stop)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	type ply struct {
		illegal []string
		san     string
	}
	var plies []ply
	for len(text) > 0 {
		text = strings.TrimLeft(text, " \n")
		if text == "" {
			break
		}
		if text[0] == '{' {
			end := strings.IndexByte(text, '}')
			c := text[1:end]
			text = text[end+1:]
			for _, part := range strings.Split(c, ";") {
				part = strings.TrimSpace(part)
				if strings.HasPrefix(part, "Illegal:") && len(plies) > 0 {
					plies[len(plies)-1].illegal = strings.Fields(part[len("Illegal:"):])
				}
			}
			continue
		}
		sp := strings.IndexAny(text, " \n")
		if sp < 0 {
			sp = len(text)
		}
		tok := text[:sp]
		text = text[sp:]
		if strings.Contains(tok, ".") || strings.Contains(tok, "-") {
			continue
		}
		plies = append(plies, ply{san: tok})
	}
	w := mustNew(t, "mcts").(*MCTS)
	b := mustNew(t, "heuristic")
	ps := [2]Player{w, b}
	rules := umpire.ICC()
	u := umpire.New(rules)
	for c, p := range ps {
		p.NewGame(Game{Color: chess.Color(c), Rules: rules, Seed: 1})
	}
	for i, pl := range plies {
		side := u.Side()
		pos := u.Position()
		if i == stop && side == chess.White {
			w.know.Askable(&w.list)
			r := w.search.Search(context.Background(), &w.bel, w.list.Slice(), search.Limits{Nodes: 1000})
			t.Logf("ply %d %s: %+v", i, pos.FEN(), r)
			w.bel.Format(os.Stderr)
			w.search.WriteRoot(os.Stderr)
			return
		}
		mv, err := pos.ParseSAN(pl.san)
		if err != nil {
			t.Fatalf("ply %d %q: %v", i, pl.san, err)
		}
		var attempts []chess.Move
		for _, s := range pl.illegal {
			m, err := chess.ParseUCI(s)
			if err != nil {
				t.Fatal(err)
			}
			attempts = append(attempts, m)
		}
		attempts = append(attempts, mv)
		for _, m := range attempts {
			switch p := ps[side].(type) {
			case *MCTS:
				p.know.Asked(m)
			case *Heuristic:
				p.know.Asked(m)
			}
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			for c, p := range ps {
				p.Hear(AnswerEvent(&a, chess.Color(c)))
			}
		}
	}
}
