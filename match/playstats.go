package match

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// PlayStats is what a match file tells of one player's play beyond the
// results: refusals, recaptures, stalemates, thinking time. Issue 23 asked
// for recapture rates and stalemate counts before and after each change;
// kriegbot match stats prints them.
type PlayStats struct {
	// Player is the player's spec as the match line gives it.
	Player string
	// Games counts the games played; Moves the legal moves and Attempts
	// every attempt (so Attempts-Moves were refused).
	Games, Moves, Attempts int
	// ByTaker counts the recapture chances (turns that began with the
	// opponent just having taken one of our men on a square we could
	// legally take on) and those taken (the turn's legal move did), broken
	// down by the safest man that could take back (recapturers, in that
	// order): the chances, those taken, those taken where something
	// defended the capturer (our taker exposed), and those let go where
	// nothing did (material left on the board): the two mistakes, in
	// hindsight. A queen that takes back an unseen capturer
	// risks itself to an unseen defender, a pawn hardly anything, a king
	// nothing (it may take only where nothing defends): letting a queen's
	// recapture go is often the right choice, a pawn's rarely.
	ByTaker [len(recapturers)]Recaptures
	// Stalemates counts the games the player ended by stalemating the
	// opponent; Stalemated those it was stalemated in.
	Stalemates, Stalemated int
	// Forfeits counts the games it lost on time.
	Forfeits int
	// Think is the time of all its attempts, MaxThink the longest.
	Think, MaxThink time.Duration
}

// Recaptures counts one kind of recapture chance.
type Recaptures struct {
	Chances, Taken, TakenDefended, LetGoFree int
}

// RecaptureTotals sums ByTaker over the takers.
func (p *PlayStats) RecaptureTotals() Recaptures {
	var t Recaptures
	for _, n := range p.ByTaker {
		t.Chances += n.Chances
		t.Taken += n.Taken
		t.TakenDefended += n.TakenDefended
		t.LetGoFree += n.LetGoFree
	}
	return t
}

// RecaptureRate is the share of recapture chances taken (NaN with none).
func (p *PlayStats) RecaptureRate() float64 {
	t := p.RecaptureTotals()
	return float64(t.Taken) / float64(t.Chances)
}

// String is the player's lines of kriegbot match stats: the counts, and
// with recapture chances a table of them under it.
func (p *PlayStats) String() string {
	refused := 0.0
	if p.Moves > 0 {
		refused = float64(p.Attempts-p.Moves) / float64(p.Moves)
	}
	s := fmt.Sprintf("%s: %d games, %d attempts for %d moves (%.2f refused a move), ",
		p.Player, p.Games, p.Attempts, p.Moves, refused)
	total := p.RecaptureTotals()
	if total.Chances > 0 {
		s += fmt.Sprintf("recaptured %d of %d (%.1f %%)", total.Taken, total.Chances, 100*p.RecaptureRate())
	} else {
		s += "no recapture chances"
	}
	s += fmt.Sprintf(", stalemated the opponent %d, was stalemated %d, time forfeits %d", p.Stalemates, p.Stalemated, p.Forfeits)
	if p.Attempts > 0 {
		s += fmt.Sprintf(", think %v an attempt (longest %v)", short(p.Think/time.Duration(p.Attempts)), short(p.MaxThink))
	}
	if total.Chances > 0 {
		s += recaptureTable(&p.ByTaker)
	}
	return s
}

// recaptureTable is the recaptures broken down by the safest man able, a
// column each, under the player's line.
func recaptureTable(by *[len(recapturers)]Recaptures) string {
	rows := [5]string{"    recaptures, safest taker", "      chances               ", "      taken                 ",
		"      taken, defended       ", "      let go, undefended    "}
	for k, n := range by {
		rows[0] += fmt.Sprintf("%7s", recapturers[k])
		rows[1] += fmt.Sprintf("%7d", n.Chances)
		if n.Chances == 0 {
			rows[2] += fmt.Sprintf("%7s", "-")
		} else {
			rows[2] += fmt.Sprintf("%5.0f %%", 100*float64(n.Taken)/float64(n.Chances))
		}
		rows[3] += fmt.Sprintf("%7d", n.TakenDefended)
		rows[4] += fmt.Sprintf("%7d", n.LetGoFree)
	}
	return "\n" + strings.Join(rows[:], "\n")
}

// short rounds d to about three figures.
func short(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(10 * time.Microsecond)
}

// ReadPlayStats reads a match's JSON Lines file (name is for errors) and
// replays each game through the umpire (Game.Walk): [0] is the first
// player's, [1] the second's. A game whose attempts the umpire does not
// accept as written is an error naming its line.
func ReadPlayStats(name string, r io.Reader) ([2]PlayStats, error) {
	var st [2]PlayStats
	h, games, err := ReadGames(name, r)
	if err != nil {
		return st, err
	}
	st[0].Player, st[1].Player = h.P1, h.P2
	for _, g := range games {
		if err := addGame(&st, name, g); err != nil {
			return st, err
		}
	}
	return st, nil
}

// addGame counts game g into the players' stats.
func addGame(st *[2]PlayStats, name string, g *Game) error {
	// player maps a colour to its index: p1 or p2.
	player := func(c chess.Color) int {
		if (c == chess.White) == (g.Result.P1 == "white") {
			return 0
		}
		return 1
	}
	st[0].Games++
	st[1].Games++
	// taken is where the side to move just lost a man, while it could take
	// back there; looked is set once its turn's first attempt has counted
	// the chance.
	taken, looked := chess.NoSquare, false
	var by int    // the chance's safest taker (index in recapturers)
	var free bool // nothing defends its capturer
	var lastMover chess.Color
	moved := false
	err := g.Walk(name, func(i int, pos *chess.Position, m chess.Move, ans umpire.Answer) error {
		mover := pos.Side()
		p := &st[player(mover)]
		if !looked {
			looked = true
			if k, ok := safestTaker(pos, taken); ok {
				p.ByTaker[k].Chances++
				by, free = k, !pos.IsAttacked(taken, mover.Other())
			} else {
				taken = chess.NoSquare
			}
		}
		think := time.Duration(g.Attempts[i].ThinkUs) * time.Microsecond
		p.Attempts++
		p.Think += think
		p.MaxThink = max(p.MaxThink, think)
		if !ans.Legal {
			return nil
		}
		p.Moves++
		lastMover, moved = mover, true
		switch {
		case taken == chess.NoSquare:
		case m.To() == taken:
			p.ByTaker[by].Taken++
			if !free {
				p.ByTaker[by].TakenDefended++
			}
		case free:
			p.ByTaker[by].LetGoFree++
		}
		taken, looked = chess.NoSquare, false
		if ans.Capture.Kind != umpire.NoCapture {
			taken = ans.Capture.Square
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch gl := &g.Result; {
	case gl.Termination == TermStalemate && moved:
		st[player(lastMover)].Stalemates++
		st[player(lastMover.Other())].Stalemated++
	case gl.Termination == TermTime && gl.P1Score == 1:
		st[1].Forfeits++
	case gl.Termination == TermTime && gl.P1Score == 0:
		st[0].Forfeits++
	}
	return nil
}

// recapturers are the men that may take back, safest first.
var recapturers = [...]chess.PieceType{chess.King, chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen}

// safestTaker reports whether the side to move has a legal capture on sq
// (false for NoSquare) and the safest man that has one, as an index in
// recapturers.
func safestTaker(pos *chess.Position, sq chess.Square) (int, bool) {
	if sq == chess.NoSquare {
		return 0, false
	}
	var l chess.MoveList
	pos.GenerateLegal(&l)
	best := len(recapturers)
	for _, m := range l.Slice() {
		if m.To() != sq {
			continue
		}
		for k, pt := range recapturers[:best] {
			if pos.PieceAt(m.From()).Type() == pt {
				best = k
				break
			}
		}
	}
	return best, best < len(recapturers)
}
