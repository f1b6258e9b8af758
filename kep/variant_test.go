package kep

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// variantAttempt reads the answer to a go in any variant: info lines, then
// one attempt: a move, a drop (N@e4) or "Any?" (any, returned as
// chess.NullMove, the players' convention).
func (p *proc) variantAttempt() chess.Move {
	p.t.Helper()
	for {
		l := p.recv(wait)
		if strings.HasPrefix(l, "info ") {
			continue
		}
		s, ok := strings.CutPrefix(l, "attempt ")
		if !ok {
			p.t.Fatalf("%s: %q where an attempt was due", p.name, l)
		}
		if s == "any" {
			return chess.NullMove
		}
		m, err := umpire.ParseMoveText(s)
		if err != nil {
			p.t.Fatalf("%s: %q: %v", p.name, l, err)
		}
		return m
	}
}

// askable reports whether the umpire lets the side to move ask m now:
// "Any?" (chess.NullMove), a drop or a board attempt of its lists.
func askable(u *umpire.Umpire, m chess.Move) bool {
	if m == chess.NullMove {
		return u.CanAskAny()
	}
	if umpire.IsDrop(m) {
		return slices.Contains(u.AskableDrops(nil), m)
	}
	var l chess.MoveList
	u.Askable(&l)
	return l.Contains(m)
}

// variantGame plays one game of variant v between two engines over KEP,
// refereed by the umpire under the site's rules (umpire.Site, at most
// maxPlies plies), every line the driver sends made by DriverLine; each go
// asks for nodes iterations. Every attempt must be on the umpire's askable
// lists. It returns the umpire, the attempts and the views each side was
// given (the opponent hears the ending move too).
func variantGame(t *testing.T, white, black *proc, v umpire.Variant, maxPlies int, nodes int64) (*umpire.Umpire, []chess.Move, [2][]umpire.View) {
	t.Helper()
	rules := umpire.Site(v)
	rules.MaxPlies = maxPlies
	u := umpire.New(rules)
	ps := [2]*proc{white, black}
	white.send("newgame white variant " + v.Name)
	black.send("newgame black variant " + v.Name)
	var attempts []chess.Move
	var views [2][]umpire.View
	turn := 0
	for u.Ending() == umpire.NotOver {
		side := u.Side()
		p := ps[side]
		if turn++; turn > 2*chess.MaxMoves+5*64 {
			t.Fatalf("%s: %s: more than %d attempts in one turn", v.Name, p.name, turn-1)
		}
		p.send(fmt.Sprintf("go nodes %d", nodes))
		m := p.variantAttempt()
		if !askable(u, m) {
			t.Fatalf("%s: %s: attempt %s is not askable after %d plies", v.Name, p.name, umpire.MoveText(m), u.Plies())
		}
		attempts = append(attempts, m)
		var a umpire.Answer
		var err error
		if m == chess.NullMove {
			a, err = u.AskAny()
		} else {
			a, err = u.Attempt(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range [2]chess.Color{side.Other(), side} {
			if line := DriverLine(&a, c); line != "" {
				ps[c].send(line)
				views[c] = append(views[c], a.For(c))
			}
		}
		if a.Legal {
			turn = 0
		}
	}
	result := u.Result()
	if u.Ending() == umpire.PlyLimit {
		result = "1/2-1/2"
	}
	for _, p := range ps {
		p.send("gameover " + result + " " + u.Ending().String())
		p.sync()
	}
	return u, attempts, views
}

// heardOverKEP is view w as a player hears it over KEP: the ending move's
// view carries no ending (gameover does) and the variant's pawn news with
// nothing in it.
func heardOverKEP(w umpire.View, v umpire.Variant) umpire.View {
	if w.Ending == umpire.NotOver {
		return w
	}
	w.Ending, w.Result, w.PawnNews = umpire.NotOver, "", v.PawnNews
	if v.PawnNews == umpire.PawnCount {
		w.PawnTries = 0
	}
	return w
}

// TestVariantsOverKEP plays a game of each of kriegspiel.org's seven
// variants through KEP against the umpire, the heuristic player (which asks
// "Any?" and drops) against mcts at a fixed node budget, changing colours
// from one variant to the next. Every attempt must be askable, the game
// must end, no line may be refused by the engines (their logs stay free of
// warnings), and each player must hear exactly the views the umpire gives
// its side, as kriegbot match hands them over. The lines of every kind
// must have been sent at least once over the seven games.
func TestVariantsOverKEP(t *testing.T) {
	seen := map[string]int{}
	for i, v := range umpire.Variants() {
		var mu [2]sync.Mutex
		var heard [2][]umpire.View
		specs := [2]string{"heuristic", "mcts:threads=1,mem=8"}
		var ps [2]*proc
		for k := range ps {
			kinds := append(players.Kinds(), spyOf(specs[k], &mu[k], &heard[k]))
			ps[k] = startEngine(t, v.Name+" "+specs[k], Config{Kinds: kinds})
			ps[k].hello("Player", "spy", "Seed", fmt.Sprint(20+i+k))
		}
		white, black := ps[0], ps[1]
		if i%2 == 1 {
			white, black = black, white
		}
		u, attempts, views := variantGame(t, white, black, v, 240, 40)
		t.Logf("%s: %s (%s) after %d plies, %d attempts", v.Name, u.Result(), u.Ending(), u.Plies(), len(attempts))
		if u.Plies() < 10 {
			t.Errorf("%s: the game ended after %d plies", v.Name, u.Plies())
		}
		for k, p := range ps {
			c := chess.White
			if p == black {
				c = chess.Black
			}
			mu[k].Lock()
			got := heard[k]
			mu[k].Unlock()
			want := views[c]
			if len(got) != len(want) {
				t.Fatalf("%s: %s heard %d answers, the umpire gave %d", v.Name, p.name, len(got), len(want))
			}
			for j := range want {
				if w := heardOverKEP(want[j], v); got[j] != w {
					t.Fatalf("%s: %s: answer %d: heard %+v, umpire %+v", v.Name, p.name, j, got[j], w)
				}
				countKinds(seen, got[j])
			}
			if log := p.log.String(); strings.Contains(log, "WRN") || strings.Contains(log, "ERR") {
				t.Errorf("%s: %s logged a warning:\n%s", v.Name, p.name, tail(log, 2000))
			}
			p.quit()
		}
	}
	t.Logf("heard: %v", seen)
	// The players keep to the umpire's lists: TestVariantRefusals sends
	// the refusals off the list.
	for _, k := range []string{"any yes", "any no", "opponent any", "opponent illegal", "man", "exact",
		"drop", "pawncapture", "trysquares", "tries", "typed"} {
		if seen[k] == 0 {
			t.Errorf("no %s heard in the seven games: that translation went untested", k)
		}
	}
}

// countKinds tallies the kinds of line a heard view came from.
func countKinds(seen map[string]int, v umpire.View) {
	switch {
	case v.Own && (v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny):
		seen[map[bool]string{true: "any yes", false: "any no"}[v.Verdict == umpire.HasAny]]++
	case v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny:
		seen["opponent any"]++
	case v.Illegal && !v.Own:
		seen["opponent illegal"]++
	case v.Verdict == umpire.ImpossibleToAsk || v.Verdict == umpire.NonsenseMove:
		seen["off the list"]++
	}
	switch k := v.Capture.Kind; {
	case k == umpire.ManCaptured:
		seen["man"]++
	case k >= umpire.KnightCaptured:
		seen["exact"]++
	case k != umpire.NoCapture:
		seen["typed"]++
	}
	for name, on := range map[string]bool{"drop": v.Drop != chess.NoPieceType, "pawncapture": v.HasPawnCapture,
		"trysquares": v.TrySquares != 0, "tries": v.PawnTries > 0, "enpassant": v.EnPassant, "promotion": v.Promotion} {
		if on {
			seen[name]++
		}
	}
}

// TestVariantRefusals sends the lines a game between players that keep to
// the lists does not bring: refusals off the askable list in the variant's
// words, a refused "Any?", and lines the variant cannot produce, which are
// logged and not passed on (a refusal word the variant does not use is taken
// as "Illegal move").
func TestVariantRefusals(t *testing.T) {
	illegal := umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1}
	refused := func(w umpire.Verdict) umpire.View {
		return umpire.View{Heard: true, Own: true, Verdict: w, PawnTries: -1}
	}
	tests := []struct {
		name    string
		newgame string
		lines   []string // sent after the first go and its attempt
		want    []umpire.View
		log     string // a substring of the log, "" for none
	}{
		{name: "berkeley impossible", newgame: "newgame white variant berkeley", lines: []string{"illegal impossible"},
			want: []umpire.View{refused(umpire.ImpossibleToAsk)}},
		{name: "rand nonsense", newgame: "newgame white variant rand", lines: []string{"illegal nonsense"},
			want: []umpire.View{refused(umpire.NonsenseMove)}},
		{name: "english impossible (the obligation)", newgame: "newgame white variant english", lines: []string{"illegal impossible"},
			want: []umpire.View{refused(umpire.ImpossibleToAsk)}},
		{name: "english nonsense", newgame: "newgame white variant english", lines: []string{"illegal nonsense"},
			want: []umpire.View{illegal}, log: "illegal nonsense: not a word of english: taken as illegal"},
		{name: "wild16 impossible", newgame: "newgame white", lines: []string{"illegal impossible"},
			want: []umpire.View{illegal}, log: "illegal impossible: not a word of wild16: taken as illegal"},
		{name: "wild16 opponent illegal", newgame: "newgame black", lines: []string{"opponent illegal", "opponent any no", "opponent capture e2 man", "opponent drop pawn"},
			log: "opponent illegal: wild16 does not tell it: ignored"},
		{name: "wild16 opponent capture man", newgame: "newgame black", lines: []string{"opponent capture e2 man"},
			log: "capture man: not a word of wild16: ignored"},
		{name: "berkeley opponent any", newgame: "newgame black variant berkeley", lines: []string{"opponent any yes"},
			log: "opponent any: berkeley does not tell it: ignored"},
		{name: "cincinnati tries", newgame: "newgame black variant cincinnati", lines: []string{"opponent tries 2"},
			log: "tries: not a word of cincinnati: ignored"},
		{name: "crazykrieg typed capture", newgame: "newgame black variant crazykrieg", lines: []string{"opponent capture e2 piece"},
			log: "capture piece: not a word of crazykrieg: ignored"},
		{name: "crazykrieg exact capture of the wrong man", newgame: "newgame black variant crazykrieg", lines: []string{"opponent capture e7 knight"},
			log: "a knight captured on e7, where our man is a pawn: ignored"},
		{name: "any for a move", newgame: "newgame white variant berkeley_any", lines: []string{"any yes"},
			log: `any: our attempt was not "Any?": ignored`},
		{name: "unknown variant", newgame: "newgame white variant chess960", log: `newgame variant "chess960" is not one of`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var heard []umpire.View
			kinds := append(players.Kinds(), spyOf("heuristic", &mu, &heard))
			p := startEngine(t, tc.name, Config{Kinds: kinds})
			p.hello("Player", "spy")
			p.send(tc.newgame)
			if strings.HasPrefix(tc.newgame, "newgame white") && !strings.Contains(tc.log, "chess960") {
				// Up to the first attempt at a move ("Any?" answered no).
				for {
					p.send("go nodes 1")
					if p.variantAttempt() != chess.NullMove {
						break
					}
					p.send("any no")
				}
			}
			p.sync()
			mu.Lock()
			before := len(heard)
			mu.Unlock()
			p.send(tc.lines...)
			p.sync()
			mu.Lock()
			got := slices.Clone(heard[before:])
			mu.Unlock()
			if !slices.Equal(got, tc.want) {
				t.Errorf("heard %+v, want %+v", got, tc.want)
			}
			log := p.log.String()
			if tc.log == "" && strings.Contains(log, "WRN") || !strings.Contains(log, tc.log) {
				t.Errorf("log %q, want %q", log, tc.log)
			}
			p.quit()
		})
	}
}

// TestAnyExchange asks "Any?" by hand: a player that asks it (heuristic, in
// berkeley_any with a pawn try to make) gets attempt any, hears the answer
// and goes on with its turn; "Any?" refused is impossible to ask.
func TestAnyExchange(t *testing.T) {
	var mu sync.Mutex
	var heard []umpire.View
	kinds := append(players.Kinds(), spyOf("heuristic", &mu, &heard))
	p := startEngine(t, "any", Config{Kinds: kinds})
	p.hello("Player", "spy")
	// Whatever White's first move, a pawn of its own has a diagonal step
	// to try in its second turn: heuristic asks "Any?" about it.
	p.send("newgame white variant berkeley_any", "go nodes 1")
	for p.variantAttempt() == chess.NullMove {
		p.send("any no", "go nodes 1")
	}
	p.send("legal", "opponent", "go nodes 1")
	if m := p.variantAttempt(); m != chess.NullMove {
		t.Fatalf("heuristic attempted %s, not \"Any?\", with a pawn try to make", umpire.MoveText(m))
	}
	p.send("illegal", "go nodes 1") // "Any?" refused: impossible to ask
	if p.variantAttempt() == chess.NullMove {
		t.Fatal("\"Any?\" again after its refusal")
	}
	p.sync()
	mu.Lock()
	last := heard[len(heard)-1]
	mu.Unlock()
	if want := (umpire.View{Heard: true, Own: true, Verdict: umpire.ImpossibleToAsk, PawnTries: -1}); last != want {
		t.Errorf("\"Any?\" refused heard as %+v, want %+v", last, want)
	}
	p.quit()
}

// TestExactPawnOnLastRank: crazykrieg names a promoted man a pawn when it is
// taken, so a pawn may be taken on a last rank there; in wild 16 that
// announcement is impossible. (Before the fix KEP refused the line in
// crazykrieg, and the engine lost track of the game.)
func TestExactPawnOnLastRank(t *testing.T) {
	pos, err := chess.ParseFEN("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		variant string
		ok      bool
	}{{"crazykrieg", true}, {"wild16", false}} {
		e := &engine{variant: variant(tc.variant), pending: chess.NewMove(sq("d1"), sq("d8"), chess.NoPieceType)}
		e.know.ResetFrom(chess.White, &pos)
		err := e.plausibleOurs(Announcement{Capture: umpire.Capture{Square: sq("d8"), Kind: umpire.PawnCaptured}})
		if (err == nil) != tc.ok {
			t.Errorf("%s: a pawn taken on d8: %v", tc.variant, err)
		}
	}
}
