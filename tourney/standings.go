package tourney

import (
	"fmt"
	"sort"
)

// TieBreak is a tie-break criterion, applied after the points.
type TieBreak int

const (
	// Buchholz: the sum of the opponents' scores.
	Buchholz TieBreak = iota + 1
	// BuchholzCut1: Buchholz without the lowest contribution.
	BuchholzCut1
	// SonnebornBerger: the scores of the opponents beaten plus half the
	// scores of the opponents drawn.
	SonnebornBerger
	// DirectEncounter: the points scored against the other players still
	// tied, used only when all of them met each other.
	DirectEncounter
	// Wins: the number of games won (on the board or by forfeit).
	Wins
)

func (t TieBreak) String() string {
	switch t {
	case Buchholz:
		return "Buchholz"
	case BuchholzCut1:
		return "Buchholz Cut-1"
	case SonnebornBerger:
		return "Sonneborn-Berger"
	case DirectEncounter:
		return "Direct encounter"
	case Wins:
		return "Wins"
	}
	return fmt.Sprintf("TieBreak(%d)", int(t))
}

// Short is the column heading for the tie-break.
func (t TieBreak) Short() string {
	switch t {
	case Buchholz:
		return "Buch"
	case BuchholzCut1:
		return "BuC1"
	case SonnebornBerger:
		return "SB"
	case DirectEncounter:
		return "DE"
	case Wins:
		return "Wins"
	}
	return "?"
}

// DefaultTieBreaks returns the tie-breaks FIDE recommends for the system
// (C.02 annex): for a Swiss Buchholz Cut-1, Buchholz, direct encounter,
// Sonneborn-Berger; for round robins direct encounter, Sonneborn-Berger,
// wins.
func DefaultTieBreaks(s System) []TieBreak {
	if s == Swiss {
		return []TieBreak{BuchholzCut1, Buchholz, DirectEncounter, SonnebornBerger}
	}
	return []TieBreak{DirectEncounter, SonnebornBerger, Wins}
}

// Standing is one row of the standings.
type Standing struct {
	Rank   int // 1-based; players tied on everything share the rank
	Shared bool
	Player int // index in Event.Players
	Points float64
	Played int       // games played on the board
	Values []float64 // the tie-break values, in the order asked for
}

// cell is what a player did in one round, for tie-breaks and crosstables.
type cell struct {
	opp    int // -1 when there was no opponent
	colour Colour
	pts2   int
	played bool // on the board
	bye    ByeKind
	paired bool // false: not in the round at all (not joined, withdrawn)
	result Result
}

// cells returns cells[player][round-1] over the rounds paired so far; a
// pending game counts as paired with no points.
func (e *Event) cells() [][]cell {
	out := make([][]cell, len(e.Players))
	for i := range out {
		out[i] = make([]cell, len(e.Played))
		for r := range out[i] {
			out[i][r] = cell{opp: -1}
		}
	}
	for r, rd := range e.Played {
		for _, g := range rd.Games {
			pw, pb := g.Result.Points2()
			out[g.White][r] = cell{opp: g.Black, colour: White, pts2: pw, played: g.Result.Played(), paired: true, result: g.Result}
			out[g.Black][r] = cell{opp: g.White, colour: Black, pts2: pb, played: g.Result.Played(), paired: true, result: g.Result}
		}
		for _, b := range rd.Byes {
			out[b.Player][r] = cell{opp: -1, pts2: b.Kind.Points2(), bye: b.Kind, paired: true}
		}
	}
	return out
}

// Standings ranks the players by points, then by the tie-breaks in order,
// then by pairing number (players equal on points and every tie-break
// share a rank).
//
// Unplayed games (forfeits, byes other than a round robin's rest, rounds
// missed by a late joiner or after a withdrawal) follow the FIDE rules in
// force from 2009 to 2023 (tie-break regulations, "unplayed games"):
//   - a player's own unplayed round counts, for Buchholz and
//     Sonneborn-Berger, as a game against a virtual opponent who had the
//     player's score before that round, got the other side of the result
//     there, and drew every later round: Svon = SPR + (1 - SfPR) + 0.5 (n - R);
//   - an opponent's score enters Buchholz and Sonneborn-Berger with every
//     round the opponent did not play on the board counted as a draw.
//
// A round robin's rest rounds (RestBye) are left out of all tie-breaks.
// Pending games count as nothing.
func (e *Event) Standings(tbs ...TieBreak) []Standing {
	cells := e.cells()
	pts := e.Points2()
	n := len(e.Played)
	// adjusted score (half-points) of each player as an opponent
	adj := make([]int, len(e.Players))
	for i := range e.Players {
		for r := 0; r < n; r++ {
			c := cells[i][r]
			switch {
			case c.played:
				adj[i] += c.pts2
			case c.bye == RestBye:
			default:
				adj[i]++
			}
		}
	}
	// contributions (half-points) to Buchholz and SB (quarter points for SB)
	buch := make([][]int, len(e.Players))
	sb4 := make([]int, len(e.Players))
	wins := make([]int, len(e.Players))
	played := make([]int, len(e.Players))
	for i := range e.Players {
		before := 0
		for r := 0; r < n; r++ {
			c := cells[i][r]
			if c.pts2 == 2 && c.opp >= 0 {
				wins[i]++
			}
			switch {
			case c.played:
				played[i]++
				buch[i] = append(buch[i], adj[c.opp])
				sb4[i] += c.pts2 * adj[c.opp]
			case c.bye == RestBye:
			case c.paired && !c.result.Done() && c.opp >= 0:
				// pending: no contribution yet
			default:
				von := before + (2 - c.pts2) + (n - (r + 1))
				buch[i] = append(buch[i], von)
				sb4[i] += c.pts2 * von
			}
			before += c.pts2
		}
	}
	rows := make([]Standing, len(e.Players))
	for i := range rows {
		rows[i] = Standing{Player: i, Points: float64(pts[i]) / 2, Played: played[i], Values: make([]float64, len(tbs))}
	}
	// Tie-break values that do not depend on the group.
	for i := range rows {
		for k, tb := range tbs {
			switch tb {
			case Buchholz:
				rows[i].Values[k] = float64(sum(buch[i])) / 2
			case BuchholzCut1:
				v := sum(buch[i])
				if len(buch[i]) > 0 {
					v -= minOf(buch[i])
				}
				rows[i].Values[k] = float64(v) / 2
			case SonnebornBerger:
				rows[i].Values[k] = float64(sb4[i]) / 4
			case Wins:
				rows[i].Values[k] = float64(wins[i])
			}
		}
	}
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Points != rows[b].Points {
			return rows[a].Points > rows[b].Points
		}
		return e.Players[rows[a].Player].Seed < e.Players[rows[b].Player].Seed
	})
	// Refine the tied groups criterion by criterion.
	groups := splitBy(rows, func(s Standing) float64 { return s.Points })
	for k, tb := range tbs {
		var next [][]Standing
		for _, g := range groups {
			if len(g) > 1 {
				if tb == DirectEncounter {
					e.directEncounter(g, k, cells)
				}
				sort.SliceStable(g, func(a, b int) bool { return g[a].Values[k] > g[b].Values[k] })
			}
			next = append(next, splitBy(g, func(s Standing) float64 { return s.Values[k] })...)
		}
		groups = next
	}
	var out []Standing
	for _, g := range groups {
		rank := len(out) + 1
		for _, s := range g {
			s.Rank = rank
			s.Shared = len(g) > 1
			out = append(out, s)
		}
	}
	return out
}

// directEncounter sets Values[k] of a tied group to the points each scored
// against the others, if every pair of them met; otherwise to 0.
func (e *Event) directEncounter(g []Standing, k int, cells [][]cell) {
	in := map[int]bool{}
	for _, s := range g {
		in[s.Player] = true
	}
	for i := range g {
		g[i].Values[k] = 0
	}
	pts := make([]int, len(g))
	for i, s := range g {
		met := map[int]bool{}
		for _, c := range cells[s.Player] {
			if c.opp >= 0 && in[c.opp] && c.result.Done() {
				met[c.opp] = true
				pts[i] += c.pts2
			}
		}
		if len(met) != len(g)-1 {
			return
		}
	}
	for i := range g {
		g[i].Values[k] = float64(pts[i]) / 2
	}
}

func splitBy(rows []Standing, key func(Standing) float64) [][]Standing {
	var out [][]Standing
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && key(rows[j]) == key(rows[i]) {
			j++
		}
		out = append(out, rows[i:j])
		i = j
	}
	return out
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func minOf(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}
