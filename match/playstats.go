package match

import (
	"fmt"
	"io"
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
	// Recaptures counts the turns that began with the opponent just having
	// taken one of our men on a square we could legally take on; Recaptured
	// those whose legal move did.
	Recaptures, Recaptured int
	// Stalemates counts the games the player ended by stalemating the
	// opponent; Stalemated those it was stalemated in.
	Stalemates, Stalemated int
	// Forfeits counts the games it lost on time.
	Forfeits int
	// Think is the time of all its attempts, MaxThink the longest.
	Think, MaxThink time.Duration
}

// RecaptureRate is the share of recapture chances taken (NaN with none).
func (p *PlayStats) RecaptureRate() float64 {
	return float64(p.Recaptured) / float64(p.Recaptures)
}

// String is the player's line of kriegbot match stats.
func (p *PlayStats) String() string {
	refused := 0.0
	if p.Moves > 0 {
		refused = float64(p.Attempts-p.Moves) / float64(p.Moves)
	}
	s := fmt.Sprintf("%s: %d games, %d attempts for %d moves (%.2f refused a move), ",
		p.Player, p.Games, p.Attempts, p.Moves, refused)
	if p.Recaptures > 0 {
		s += fmt.Sprintf("recaptured %d of %d (%.1f %%)", p.Recaptured, p.Recaptures, 100*p.RecaptureRate())
	} else {
		s += "no recapture chances"
	}
	s += fmt.Sprintf(", stalemated the opponent %d, was stalemated %d, time forfeits %d", p.Stalemates, p.Stalemated, p.Forfeits)
	if p.Attempts > 0 {
		s += fmt.Sprintf(", think %v an attempt (longest %v)",
			(p.Think / time.Duration(p.Attempts)).Round(100*time.Microsecond), p.MaxThink.Round(time.Millisecond))
	}
	return s
}

// ReadPlayStats reads a match's JSON Lines file (name is for errors) and
// replays each game through the umpire: [0] is the first player's, [1] the
// second's. A game whose attempts the umpire does not accept as written
// (another side to move, legality other than recorded, attempts after the
// end) is an error naming its line.
func ReadPlayStats(name string, r io.Reader) ([2]PlayStats, error) {
	type attempt struct {
		game, line int
		side       string
		move       string
		legal      bool
		think      time.Duration
	}
	var atts []attempt
	sh, err := readLines(name, r, func(a *AttemptLine, line int) {
		atts = append(atts, attempt{a.Game, line, a.Side, a.Attempt, a.Legal, time.Duration(a.ThinkUs) * time.Microsecond})
	})
	var st [2]PlayStats
	if err != nil {
		return st, err
	}
	rules, err := umpire.ParseRules(sh.Header.Rules)
	if err != nil {
		return st, fmt.Errorf("%s: match line: %v", name, err)
	}
	st[0].Player, st[1].Player = sh.Header.P1, sh.Header.P2
	byGame := map[int][]attempt{}
	for _, a := range atts {
		byGame[a.game] = append(byGame[a.game], a)
	}
	u := umpire.New(rules)
	for i, gl := range sh.Games {
		fail := func(line int, format string, args ...any) error {
			return fmt.Errorf("%s:%d: game %d: %s", name, line, gl.Game, fmt.Sprintf(format, args...))
		}
		start := chess.StartPosition()
		if gl.FEN != "" {
			if start, err = chess.ParseFEN(gl.FEN); err != nil {
				return st, fail(sh.lines[i], "%v", err)
			}
		}
		u.Reset(start)
		// player maps a colour to its index: p1 or p2.
		player := func(c chess.Color) int {
			if (c == chess.White) == (gl.P1 == "white") {
				return 0
			}
			return 1
		}
		st[0].Games++
		st[1].Games++
		// taken is where the side to move just lost a man, while it could
		// take back there; looked is set once its turn's first attempt
		// has counted the chance.
		taken, looked := chess.NoSquare, false
		var lastMover chess.Color
		moved := false
		for _, a := range byGame[gl.Game] {
			if u.Ending() != umpire.NotOver {
				return st, fail(a.line, "attempt after the game ended")
			}
			m, err := chess.ParseUCI(a.move)
			if err != nil {
				return st, fail(a.line, "%v", err)
			}
			mover := u.Side()
			if a.side != mover.String() {
				return st, fail(a.line, "%s attempts, but %s is to move", a.side, mover)
			}
			p := &st[player(mover)]
			if !looked {
				looked = true
				if pos := u.Position(); taken != chess.NoSquare && canTake(&pos, taken) {
					p.Recaptures++
				} else {
					taken = chess.NoSquare
				}
			}
			ans, err := u.Attempt(m)
			if err != nil {
				return st, fail(a.line, "%v", err)
			}
			if ans.Legal != a.legal {
				return st, fail(a.line, "the umpire says legal=%v, the file %v", ans.Legal, a.legal)
			}
			p.Attempts++
			p.Think += a.think
			p.MaxThink = max(p.MaxThink, a.think)
			if !ans.Legal {
				continue
			}
			p.Moves++
			lastMover, moved = mover, true
			if taken != chess.NoSquare && m.To() == taken {
				p.Recaptured++
			}
			taken, looked = chess.NoSquare, false
			if ans.Capture.Kind != umpire.NoCapture {
				taken = ans.Capture.Square
			}
		}
		switch {
		case gl.Termination == TermStalemate && moved:
			st[player(lastMover)].Stalemates++
			st[player(lastMover.Other())].Stalemated++
		case gl.Termination == TermTime && gl.P1Score == 1:
			st[1].Forfeits++
		case gl.Termination == TermTime && gl.P1Score == 0:
			st[0].Forfeits++
		}
	}
	return st, nil
}

// canTake reports whether the side to move has a legal capture on sq.
func canTake(pos *chess.Position, sq chess.Square) bool {
	var l chess.MoveList
	pos.GenerateLegal(&l)
	for _, m := range l.Slice() {
		if m.To() == sq {
			return true
		}
	}
	return false
}
