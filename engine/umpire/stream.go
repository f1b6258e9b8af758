package umpire

import (
	"math/rand/v2"

	"kriegbot/engine/chess"
)

// Stream is a recorded sequence of attempts, game by game from the initial
// position, for benchmarks and regression tests: replaying it drives the
// umpire through every kind of answer without any other work. A NullMove
// in a game is the "Any?" question.
type Stream struct {
	Start chess.Position // every game starts here
	Games [][]chess.Move
}

// Attempts returns the total number of attempts in the stream (benchmarks
// and tests report it).
func (s *Stream) Attempts() int {
	n := 0
	for _, g := range s.Games {
		n += len(g)
	}
	return n
}

// RandomStream plays games in which each attempt is drawn uniformly from the
// mover's askable attempts (as the fixtures' "uniform" driver does), until the
// game ends or maxPlies legal moves were played. The same seed gives the same stream.
func RandomStream(seed uint64, games, maxPlies int) Stream {
	return RandomStreamFor(ICC(), seed, games, maxPlies)
}

// RandomStreamFor is RandomStream under rules: where the variant has the
// "Any?" question, it is asked at the start of a turn with p = 0.3. The
// wild 16 stream is RandomStream's, draw for draw.
func RandomStreamFor(rules Rules, seed uint64, games, maxPlies int) Stream {
	rng := rand.New(rand.NewPCG(seed, 0x756d70697265)) // "umpire"
	rules.MaxPlies = maxPlies
	u := New(rules)
	s := Stream{Start: chess.StartPosition()}
	var askable chess.MoveList
	var drops []chess.Move
	for range games {
		u.Reset(s.Start)
		var g []chess.Move
		fresh := true // a turn starts
		for u.Ending() == NotOver {
			if fresh && u.CanAskAny() && rng.IntN(10) < 3 {
				g = append(g, chess.NullMove)
				u.AskAny()
			}
			u.Askable(&askable)
			m := chess.NullMove
			if i := rng.IntN(u.AskableCount()); i < askable.N {
				m = askable.Moves[i]
			} else {
				drops = u.AskableDrops(drops[:0])
				m = drops[i-askable.N]
			}
			g = append(g, m)
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			fresh = a.Legal
		}
		s.Games = append(s.Games, g)
	}
	return s
}

// Replay feeds the stream through u (reset to the start position before each
// game) and returns the number of attempts judged and of legal moves played.
func (s *Stream) Replay(u *Umpire) (attempts, legal int) {
	for _, g := range s.Games {
		u.Reset(s.Start)
		for _, m := range g {
			if m == chess.NullMove {
				if _, err := u.AskAny(); err != nil {
					break
				}
				attempts++
				continue
			}
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			attempts++
			if a.Legal {
				legal++
			}
		}
	}
	return attempts, legal
}

// LegalGames returns each game's moves: its attempts replayed from the start,
// the legal ones kept (test data that exercises every kind of move).
func (s *Stream) LegalGames() [][]chess.Move {
	u := New(ICC())
	games := make([][]chess.Move, 0, len(s.Games))
	for _, g := range s.Games {
		u.Reset(s.Start)
		for _, m := range g {
			if m == chess.NullMove {
				continue // "Any?" plays no move
			}
			if _, err := u.Attempt(m); err != nil {
				break
			}
		}
		games = append(games, append([]chess.Move(nil), u.Moves()...))
	}
	return games
}
