package tourney

import (
	"strings"
	"testing"
)

// sixPlayerEvent is TestSwissHandExample6's event after three rounds.
func sixPlayerEvent(t *testing.T) *Event {
	e := field(t, Swiss, 6, 3)
	mustPair(t, e, "1-4 5-2 3-6")
	results(t, e, WhiteWins, BlackWins, Draw)
	mustPair(t, e, "2-1 4-3 6-5")
	results(t, e, WhiteWins, Draw, WhiteWins)
	mustPair(t, e, "6-2 1-3 5-4")
	results(t, e, BlackWins, WhiteWins, Draw)
	return e
}

// Tie-breaks of the six-player example, by hand (every game played):
//
//	player  opponents (their score)    pts  Buchholz  Cut-1  SB
//	2       5 (½) 1 (2) 6 (1½)          3    4         3½     ½+2+1½ = 4
//	1       4 (1) 2 (3) 3 (1)           2    5         4      1+1 = 2
//	6       3 (1) 5 (½) 2 (3)           1½   4½        4      ½·1 + ½ = 1
//	3       6 (1½) 4 (1) 1 (2)          1    4½        3½     ½·1½ + ½·1 = 1¼
//	4       1 (2) 3 (1) 5 (½)           1    3½        3      ½·1 + ½·½ = ¾
//	5       2 (3) 6 (1½) 4 (1)          ½    5½        4½     ½·1 = ½
//
// 3 and 4 tie on points; Cut-1 puts 3 first.
func TestTieBreaksHand(t *testing.T) {
	e := sixPlayerEvent(t)
	st := e.Standings(BuchholzCut1, Buchholz, SonnebornBerger)
	want := []struct {
		seed          int
		pts, c1, b, s float64
	}{
		{2, 3, 3.5, 4, 4},
		{1, 2, 4, 5, 2},
		{6, 1.5, 4, 4.5, 1},
		{3, 1, 3.5, 4.5, 1.25},
		{4, 1, 3, 3.5, 0.75},
		{5, 0.5, 4.5, 5.5, 0.5},
	}
	for i, w := range want {
		s := st[i]
		got := e.Players[s.Player].Seed
		if got != w.seed || s.Points != w.pts || s.Values[0] != w.c1 || s.Values[1] != w.b || s.Values[2] != w.s || s.Rank != i+1 || s.Shared {
			t.Errorf("row %d: got seed %d %+v, want %+v", i+1, got, s, w)
		}
	}
	// Direct encounter alone: 3 and 4 drew their game, so they share 4th.
	st = e.Standings(DirectEncounter)
	if st[3].Rank != 4 || st[4].Rank != 4 || !st[3].Shared || st[3].Values[0] != 0.5 {
		t.Errorf("direct encounter: %+v %+v", st[3], st[4])
	}
}

// Unplayed games, by hand: the five-player odd example after two rounds
// (R1: bye 5, 1-3 0-1, 4-2 draw; R2: bye 1, 3-4 1-0, 2-5 0-1).
//
// Scores: 3 2, 5 2, 1 1, 2 ½, 4 ½. As opponents, unplayed rounds count
// as draws: 5 counts ½ (bye) + 1 = 1½, 1 counts 0 + ½ = ½; 2, 3, 4 as is.
// Virtual opponents (n = 2 rounds): 5 in round 1 had 0 before, took the
// full point, so Svon = 0 + (1-1) + ½·(2-1) = ½; 1 in round 2 had 0
// before: Svon = 0 + 0 + 0 = 0.
//
//	player  Buchholz            SB
//	3       ½ (1) + ½ (4) = 1   ½ + ½ = 1
//	5       ½ (von) + ½ (2) = 1 1·½ + 1·½ = 1
//	1       2 (3) + 0 (von) = 2 0
//	2       ½ (4) + 1½ (5) = 2  ½·½ = ¼
//	4       ½ (2) + 2 (3) = 2½  ½·½ = ¼
func TestTieBreaksUnplayed(t *testing.T) {
	e := field(t, Swiss, 5, 3)
	mustPair(t, e, "1-3 4-2 bye:5(bye)")
	results(t, e, BlackWins, Draw)
	mustPair(t, e, "3-4 2-5 bye:1(bye)")
	results(t, e, WhiteWins, BlackWins)
	st := e.Standings(Buchholz, SonnebornBerger)
	want := map[int][3]float64{ // seed: points, Buchholz, SB
		3: {2, 1, 1},
		5: {2, 1, 1},
		1: {1, 2, 0},
		2: {0.5, 2, 0.25},
		4: {0.5, 2.5, 0.25},
	}
	for _, s := range st {
		seed := e.Players[s.Player].Seed
		w := want[seed]
		if s.Points != w[0] || s.Values[0] != w[1] || s.Values[1] != w[2] {
			t.Errorf("player %d: %v %v, want %v", seed, s.Points, s.Values, w)
		}
	}
	// 3 and 5 tie on everything: shared first place, 3 listed first.
	if st[0].Rank != 1 || st[1].Rank != 1 || !st[0].Shared || e.Players[st[0].Player].Seed != 3 {
		t.Errorf("top: %+v %+v", st[0], st[1])
	}
	// 4 before 2 on Buchholz.
	if e.Players[st[3].Player].Seed != 4 {
		t.Errorf("4th: %d", e.Players[st[3].Player].Seed)
	}
}

// A round robin: direct encounter, then SB, then wins.
//
//	   1  2  3  4   pts
//	1  .  1  0  1   2
//	2  0  .  1  1   2
//	3  1  0  .  ½   1½
//	4  0  0  ½  .   ½
//
// 1 and 2 tie on 2 points; 1 beat 2: 1 first.
func TestRoundRobinStandings(t *testing.T) {
	e := field(t, RoundRobin, 4, 0)
	mustPair(t, e, "1-4 2-3")
	results(t, e, WhiteWins, WhiteWins)
	mustPair(t, e, "4-3 1-2")
	results(t, e, Draw, WhiteWins)
	mustPair(t, e, "2-4 3-1")
	results(t, e, WhiteWins, WhiteWins)
	st := e.Standings(DefaultTieBreaks(RoundRobin)...)
	order := []int{}
	for _, s := range st {
		order = append(order, e.Players[s.Player].Seed)
	}
	if order[0] != 1 || order[1] != 2 || order[2] != 3 || order[3] != 4 {
		t.Fatalf("order %v", order)
	}
	if st[0].Values[0] != 1 || st[1].Values[0] != 0 {
		t.Errorf("direct encounter values %v %v", st[0].Values, st[1].Values)
	}
	// SB of 1: beat 2 (2) + beat 4 (½) = 2½
	if st[0].Values[1] != 2.5 {
		t.Errorf("SB of 1: %v", st[0].Values[1])
	}
}

func TestTextOutput(t *testing.T) {
	e := sixPlayerEvent(t)
	var b strings.Builder
	if err := e.WriteStandings(&b, BuchholzCut1, Buchholz, SonnebornBerger); err != nil {
		t.Fatal(err)
	}
	want := `Rk  Player   Rtg  Pts  Gms  BuC1  Buch    SB
 1  p2      1980    3    3   3.5     4     4
 2  p1      1990    2    3     4     5     2
 3  p6      1940  1.5    3     4   4.5     1
 4  p3      1970    1    3   3.5   4.5  1.25
 5  p4      1960    1    3     3   3.5  0.75
 6  p5      1950  0.5    3   4.5   5.5   0.5
`
	if b.String() != want {
		t.Errorf("standings:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := e.WriteCrosstable(&b); err != nil {
		t.Fatal(err)
	}
	// rows in standings order: 2, 1, 6, 3, 4, 5 (no tie-breaks: 3 before 4 by seed)
	want = `No  Player   Rtg   R1   R2   R3  Pts
 1  p2      1980  6b1  2w1  3b1    3
 2  p1      1990  5w1  1b0  4w1    2
 3  p6      1940  4b=  6w1  1w0  1.5
 4  p3      1970  3w=  5b=  2b0    1
 5  p4      1960  2b0  4w=  6b=    1
 6  p5      1950  1w0  3b0  5w=  0.5
`
	if b.String() != want {
		t.Errorf("crosstable:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestHTMLOutput(t *testing.T) {
	e := New(`Kriegspiel <Open> & "friends"`, Swiss, 2)
	_ = e.AddPlayer("<script>alert(1)</script>", 1500)
	_ = e.AddPlayer("bob&co", 1400)
	_ = e.AddPlayer("carol", 1300)
	_ = e.Start()
	_, _ = e.PairNext()
	_ = e.SetResult(1, 1, Draw)
	var b strings.Builder
	if err := e.WriteHTML(&b, DefaultTieBreaks(Swiss)...); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "<Open>", "bob&co"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	for _, good := range []string{"<!DOCTYPE html>", "<style>", "&lt;script&gt;", "bob&amp;co", "Kriegspiel &lt;Open&gt; &amp; &#34;friends&#34;", "bye+", "</html>"} {
		if !strings.Contains(page, good) {
			t.Errorf("page lacks %q", good)
		}
	}
}

func TestPGNTags(t *testing.T) {
	e := sixPlayerEvent(t)
	e.Name = `Kriegspiel "Blitz"`
	e.Site = "kriegbot serve"
	tags, err := e.PGNTags(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := `[Event "Kriegspiel \"Blitz\""]
[Site "kriegbot serve"]
[Date "????.??.??"]
[Round "2"]
[White "p2"]
[Black "p1"]
[Result "1-0"]
[Board "1"]
[WhiteElo "1980"]
[BlackElo "1990"]
`
	if got := FormatTags(tags); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	all, err := e.RoundTags(3)
	if err != nil || len(all) != 3 || all[2][4].Value != "p5" || all[2][6].Value != "1/2-1/2" {
		t.Errorf("round 3 tags: %v %v", all, err)
	}
	if _, err := e.PGNTags(4, 1); err == nil {
		t.Error("round 4 accepted")
	}
	if _, err := e.PGNTags(1, 9); err == nil {
		t.Error("board 9 accepted")
	}
}
