package match

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// statsFile is a match file of six games between heuristic (p1) and random:
//
//	0 (p1 White): 1. e4 d5 2. exd5, and Black, after a refused Qd4, takes
//	  back with Qxd5: p2 had one chance, for its queen, and took it.
//	1 (p1 Black): 1. e4 d5 2. exd5 Nf6: p1 had one chance, for its queen,
//	  and let it go, the pawn on d5 undefended.
//	2 (p1 White, from a position): Qf7 stalemates the king on h8.
//	3 (p1 Black): 1. e4, and White (p2) loses on time.
//	4 (p1 White, from a position): exd5, which the bishop on f3 defends,
//	  and Black takes back with cxd5 (Qxd5 too; the pawn is the safer
//	  taker), into the bishop.
//	5 (p1 White, the same position): exd5, and Black lets it go.
func statsFile(extra ...string) string {
	att := func(g, ply int, side, uci string, legal bool, us int) string {
		return fmt.Sprintf(`{"type":"attempt","game":%d,"ply":%d,"side":"%s","attempt":"%s","legal":%v,"think_us":%d}`, g, ply, side, uci, legal, us)
	}
	game := func(g int, white, black, p1, result, term string, score float64, fen string) string {
		f := ""
		if fen != "" {
			f = fmt.Sprintf(`,"fen":"%s"`, fen)
		}
		return fmt.Sprintf(`{"type":"game","game":%d,"seed":"1","white":"%s","black":"%s","p1":"%s","result":"%s","termination":"%s","plies":4,"attempts":5,"p1_score":%v%s}`,
			g, white, black, p1, result, term, score, f)
	}
	lines := []string{strings.Replace(header, `"games":4`, `"games":6`, 1),
		att(0, 0, "white", "e2e4", true, 1000), att(0, 1, "black", "d7d5", true, 0),
		att(0, 2, "white", "e4d5", true, 3000), att(0, 3, "black", "d8d4", false, 0), att(0, 3, "black", "d8d5", true, 0),
		game(0, "heuristic", "random", "white", "1/2-1/2", "ply cap", 0.5, ""),
		att(1, 0, "white", "e2e4", true, 0), att(1, 1, "black", "d7d5", true, 2000),
		att(1, 2, "white", "e4d5", true, 0), att(1, 3, "black", "g8f6", true, 2000),
		game(1, "random", "heuristic", "black", "1/2-1/2", "ply cap", 0.5, ""),
		att(2, 0, "white", "e7f7", true, 5000),
		game(2, "heuristic", "random", "white", "1/2-1/2", "stalemate", 0.5, "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"),
		att(3, 0, "white", "e2e4", true, 0),
		game(3, "random", "heuristic", "black", "0-1", "time", 1, ""),
		att(4, 0, "white", "e4d5", true, 0), att(4, 1, "black", "c6d5", true, 0),
		game(4, "heuristic", "random", "white", "1/2-1/2", "ply cap", 0.5, "3qk3/8/2p5/3p4/4P3/5B2/8/4K3 w - - 0 1"),
		att(5, 0, "white", "e4d5", true, 0), att(5, 1, "black", "e8e7", true, 0),
		game(5, "heuristic", "random", "white", "1/2-1/2", "ply cap", 0.5, "3qk3/8/2p5/3p4/4P3/5B2/8/4K3 w - - 0 1"),
	}
	return strings.Join(append(lines, extra...), "\n") + "\n"
}

func TestPlayStats(t *testing.T) {
	st, err := ReadPlayStats("f.jsonl", strings.NewReader(statsFile()))
	if err != nil {
		t.Fatal(err)
	}
	want := [2]PlayStats{
		{Player: "heuristic", Games: 6, Moves: 7, Attempts: 7,
			ByTaker: [6]Recaptures{5: {Chances: 1, LetGoFree: 1}}, Stalemates: 1, Think: 13 * time.Millisecond, MaxThink: 5 * time.Millisecond},
		{Player: "random", Games: 6, Moves: 7, Attempts: 8,
			ByTaker: [6]Recaptures{1: {Chances: 2, Taken: 1, TakenDefended: 1}, 5: {Chances: 1, Taken: 1}}, Stalemated: 1, Forfeits: 1},
	}
	if st != want {
		t.Fatalf("stats\n%+v\nwant\n%+v", st, want)
	}
	line := st[0].String()
	for _, w := range []string{"heuristic: 6 games, 7 attempts for 7 moves (0.00 refused a move)", "recaptured 0 of 1 (0.0 %)", "stalemated the opponent 1", "think 1.86ms an attempt (longest 5ms)",
		"\n      let go, undefended          0      0      0      0      0      1"} {
		if !strings.Contains(line, w) {
			t.Errorf("line %q lacks %q", line, w)
		}
	}
	// The table under random's line: the pawn could take in games 4 and
	// 5, the queen in game 0.
	random := `
    recaptures, safest taker   king   pawn knight bishop   rook  queen
      chances                     0      2      0      0      0      1
      taken                       -   50 %      -      -      -  100 %
      taken, defended             0      1      0      0      0      0
      let go, undefended          0      0      0      0      0      0`
	if l := st[1].String(); !strings.Contains(l, "8 attempts for 7 moves (0.14 refused a move), recaptured 2 of 3 (66.7 %)") || !strings.Contains(l, "time forfeits 1") ||
		!strings.HasSuffix(l, random) {
		t.Errorf("line %q", l)
	}
}

// TestPlayStatsNoGames: a file cut before its first game ends still names
// its players.
func TestPlayStatsNoGames(t *testing.T) {
	st, err := ReadPlayStats("f.jsonl", strings.NewReader(header+"\n"))
	if err != nil || st[0].Player != "heuristic" || st[1].Player != "random" || st[0].Games != 0 {
		t.Fatalf("%+v, %v", st, err)
	}
}

func TestPlayStatsErrors(t *testing.T) {
	g := func(lines ...string) string {
		return header + "\n" + strings.Join(lines, "\n") + "\n" +
			`{"type":"game","game":0,"seed":"1","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":1,"attempts":1,"p1_score":1}` + "\n"
	}
	tests := []struct{ name, in, err string }{
		{"wrong side", g(`{"type":"attempt","game":0,"ply":0,"side":"black","attempt":"e7e5","legal":true,"think_us":0}`), "f.jsonl:2: black attempts, but white is to move"},
		{"legality", g(`{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e5","legal":true,"think_us":0}`), "f.jsonl:2: the umpire says legal=false, the file true"},
		{"bad move", g(`{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2","legal":true,"think_us":0}`), `f.jsonl:2: move "e2" is not a UCI move`},
		{"rules", strings.Replace(g(), `"rules":"icc"`, `"rules":"fide"`, 1), "f.jsonl:1: umpire: unknown rules"},
		{"fen", strings.Replace(g(), `"p1_score":1}`, `"p1_score":1,"fen":"8/8 w"}`, 1), "f.jsonl:3: chess: fen"},
		{"reader's own", "nothing\n", "f.jsonl:1: not a JSON object"},
	}
	for _, tc := range tests {
		_, err := ReadPlayStats("f.jsonl", strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
		}
	}
	after := statsFile(`{"type":"attempt","game":2,"ply":1,"side":"black","attempt":"h8g8","legal":true,"think_us":0}`)
	if _, err := ReadPlayStats("f.jsonl", strings.NewReader(after)); err == nil || !strings.Contains(err.Error(), "attempt after the game ended") {
		t.Errorf("attempt after the end: %v", err)
	}
}

func FuzzReadPlayStats(f *testing.F) {
	f.Add(statsFile())
	f.Add(header + "\n" + `{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e4","legal":true,"think_us":-5}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		st, err := ReadPlayStats("fuzz", strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, p := range st {
			if r := p.RecaptureTotals(); r.Taken > r.Chances || p.Moves > p.Attempts {
				t.Fatalf("impossible counts %+v", p)
			}
			_ = p.String()
		}
	})
}

func TestShort(t *testing.T) {
	for d, want := range map[time.Duration]string{
		4608512 * time.Microsecond:  "4.61s",
		25543210 * time.Microsecond: "25.5s",
		99512 * time.Microsecond:    "99.5ms",
		2612 * time.Microsecond:     "2.61ms",
		0:                           "0s",
	} {
		if got := short(d).String(); got != want {
			t.Errorf("short(%v) = %s, want %s", d, got, want)
		}
	}
}
