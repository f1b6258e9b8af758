package telnet

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// What the telnet door draws for a player: the board, a clock, a move.

// Board draws own's men only, as a Kriegspiel player sees the board: one
// line per rank from own's side, then the files.
func Board(pos *chess.Position, own chess.Color) []string {
	lines := make([]string, 0, 10)
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	files := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if own == chess.Black {
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
		files = []int{7, 6, 5, 4, 3, 2, 1, 0}
	}
	for _, r := range ranks {
		row := []byte{byte('1' + r), ' ', ' '}
		for _, f := range files {
			sq := chess.NewSquare(f, r)
			p := pos.PieceAt(sq)
			ch := byte('.')
			if p != chess.NoPiece && p.Color() == own {
				ch = p.Letter()
			}
			row = append(row, ch, ' ')
		}
		lines = append(lines, string(bytes.TrimRight(row, " ")))
	}
	foot := []byte("   ")
	for _, f := range files {
		foot = append(foot, byte('a'+f), ' ')
	}
	return append(lines, string(bytes.TrimRight(foot, " ")))
}

// Clock shows a clock as minutes:seconds (0:00 once it has run out).
func Clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// MoveFields renders one legal move, answered a, for a viewer who asked
// for the fields mf: the full move (san and its coordinates) for its
// mover, or anyone once the game is over; "?" or "?x<sq>" for the
// opponent (hidden); then the seconds used and left.
func MoveFields(mf protocol.MoveFields, san string, a umpire.Answer, hidden bool, used, left time.Duration) []string {
	var f []string
	alg, smith := san, a.Attempt.String()
	if hidden {
		alg, smith = "?", HiddenMove(a)
	}
	if mf.Algebraic {
		f = append(f, alg)
	}
	if mf.Smith {
		f = append(f, smith)
	}
	if mf.Time {
		f = append(f, strconv.Itoa(int(used/time.Second)))
	}
	if mf.Clock {
		f = append(f, strconv.Itoa(int(left/time.Second)))
	}
	return f
}

// HiddenMove is what the opponent of the mover sees of legal move a: "?",
// or "?x<sq>" for a capture.
func HiddenMove(a umpire.Answer) string {
	if a.Capture.Kind != umpire.NoCapture {
		return "?x" + a.Capture.Square.String()
	}
	return "?"
}
