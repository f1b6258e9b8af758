package telnet

import (
	"slices"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

func TestBoard(t *testing.T) {
	pos := chess.StartPosition()
	white := []string{
		"8  . . . . . . . .",
		"7  . . . . . . . .",
		"6  . . . . . . . .",
		"5  . . . . . . . .",
		"4  . . . . . . . .",
		"3  . . . . . . . .",
		"2  P P P P P P P P",
		"1  R N B Q K B N R",
		"   a b c d e f g h",
	}
	if got := Board(&pos, chess.White); !slices.Equal(got, white) {
		t.Errorf("White's board:\n%q\nwant\n%q", got, white)
	}
	black := Board(&pos, chess.Black)
	if black[0] != "1  . . . . . . . ." || black[7] != "8  r n b k q b n r" || black[8] != "   h g f e d c b a" {
		t.Errorf("Black's board (from its side, its men only): %q", black)
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", -time.Second: "0:00", 59*time.Second + 999*time.Millisecond: "0:59",
		2*time.Minute + 5*time.Second: "2:05", 125 * time.Minute: "125:00",
	} {
		if got := Clock(d); got != want {
			t.Errorf("Clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestMoveFields(t *testing.T) {
	e4 := umpire.Answer{Legal: true, Attempt: chess.NewMove(chess.NewSquare(4, 1), chess.NewSquare(4, 3), chess.NoPieceType)}
	takes := e4
	takes.Capture = umpire.Capture{Square: chess.NewSquare(4, 3), Kind: umpire.PawnCaptured}
	all := protocol.MoveFields{Algebraic: true, Smith: true, Time: true, Clock: true}
	tests := []struct {
		mf     protocol.MoveFields
		a      umpire.Answer
		hidden bool
		want   []string
	}{
		{all, e4, false, []string{"e4", "e2e4", "3", "117"}},
		{all, e4, true, []string{"?", "?", "3", "117"}},
		{all, takes, true, []string{"?", "?xe4", "3", "117"}},
		{protocol.MoveFields{Smith: true}, takes, false, []string{"e2e4"}},
		{protocol.MoveFields{}, e4, false, nil},
	}
	for _, tc := range tests {
		got := MoveFields(tc.mf, "e4", tc.a, tc.hidden, 3500*time.Millisecond, 117*time.Second)
		if !slices.Equal(got, tc.want) {
			t.Errorf("MoveFields(%+v, hidden %v) = %q, want %q", tc.mf, tc.hidden, got, tc.want)
		}
	}
}
