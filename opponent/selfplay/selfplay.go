package selfplay

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// MaxPlies caps a generated game; longer games end unfinished ("*").
const MaxPlies = 300

// Game is one generated game.
type Game struct {
	Moves    []chess.Move
	Result   string
	Ending   umpire.Ending
	Attempts int // attempts asked, illegal ones included
}

// Play plays one game between two copies of policy through the umpire
// under the 2006 Computer Olympiad rules (automatic 50-move and repetition
// draws, which keep aimless games finite) and MaxPlies. Each side sees its
// own men and what the referee tells it. The same seed gives the same game.
func Play(policy Policy, seed uint64) Game {
	rng := rand.New(rand.NewPCG(seed, 0x6b72696567)) // "krieg"
	rules := umpire.Olympiad()
	rules.MaxPlies = MaxPlies
	u := umpire.New(rules)
	var heard [2]Heard
	for c := range heard {
		heard[c] = Heard{Lost: chess.NoSquare, Took: chess.NoSquare, LastFrom: chess.NoSquare, LastTo: chess.NoSquare}
	}
	heard[chess.White].Tries = u.PawnTries()
	var askable chess.MoveList
	weights := make([]float64, chess.MaxMoves)
	attempts := 0
	for u.Ending() == umpire.NotOver {
		side := u.Side()
		pos := u.Position()
		u.Askable(&askable)
		if askable.N == 0 {
			break // cannot happen while the game is on; never loop
		}
		m := policy.Pick(rng, &pos, side, &heard[side], &askable, weights)
		a, err := u.Attempt(m)
		attempts++
		if err != nil {
			break
		}
		if !a.Legal {
			continue
		}
		heardFrom(&heard[side], &a, side)
		heardFrom(&heard[side.Other()], &a, side.Other())
	}
	result := u.Result()
	if result == "" {
		result = "*"
	}
	return Game{Moves: append([]chess.Move(nil), u.Moves()...), Result: result, Ending: u.Ending(), Attempts: attempts}
}

// Stats sums up generated games.
type Stats struct {
	Games, Plies, Attempts int
	Endings                map[umpire.Ending]int
}

// WritePGN plays games games with seeds seed, seed+1, ... and writes them to
// w as PGN (SAN movetext, standard start, ICC-like tags). progress, if not
// nil, is called after each game.
func WritePGN(w io.Writer, policy Policy, seed uint64, games int, progress func(done int)) (Stats, error) {
	bw := bufio.NewWriter(w)
	st := Stats{Endings: map[umpire.Ending]int{}}
	var line []byte
	for i := range games {
		g := Play(policy, seed+uint64(i))
		st.Games++
		st.Plies += len(g.Moves)
		st.Attempts += g.Attempts
		st.Endings[g.Ending]++
		termination := g.Ending.String()
		if termination == "" {
			termination = "unterminated"
		}
		fmt.Fprintf(bw, "[Event \"kriegbot selfplay (Kriegspiel policy, noise %g)\"]\n[Site \"kriegbot\"]\n[Round \"%d\"]\n"+
			"[White \"selfplay-policy\"]\n[Black \"selfplay-policy\"]\n[Result \"%s\"]\n[Seed \"%d\"]\n[Termination \"%s\"]\n\n",
			policy.Noise, i+1, g.Result, seed+uint64(i), termination)
		pos := chess.StartPosition()
		line = line[:0]
		for k, m := range g.Moves {
			start := len(line)
			if k%2 == 0 {
				line = strconv.AppendInt(line, int64(k/2+1), 10)
				line = append(line, '.', ' ')
			}
			line = pos.AppendSAN(line, m)
			line = append(line, ' ')
			pos.Make(m)
			if len(line) > 79 {
				bw.Write(line[:start])
				bw.WriteByte('\n')
				line = append(line[:0], line[start:]...)
			}
		}
		line = append(line, g.Result...)
		bw.Write(line)
		bw.WriteString("\n\n")
		if progress != nil {
			progress(i + 1)
		}
	}
	return st, bw.Flush()
}
