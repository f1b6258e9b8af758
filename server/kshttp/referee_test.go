package kshttp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestScoresheetTexts: the scoresheet and referee log of a short game,
// word for word as ks-backend's projection writes them, for each side.
func TestScoresheetTexts(t *testing.T) {
	u := umpire.New(umpire.ICC())
	var answers []umpire.Answer
	for _, uci := range []string{"e2e4", "d7d5", "e4d5", "d8d4", "d8d5", "b1c3", "d5e5"} {
		a, err := u.Attempt(mustUCI(t, uci))
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	want := map[chess.Color][]string{
		chess.White: {
			"1 Move attempt — Move complete", "2 No pawn captures", "2 Opponent move — Move complete",
			"3 1 pawn try", "3 Move attempt — Pawn captured at D5", "4 No pawn captures",
			"4 Opponent move — Pawn captured at D5", "5 No pawn captures", "5 Move attempt — Move complete",
			"6 No pawn captures", "6 Opponent move — Move complete · Check on file", "7 No pawn captures",
		},
		chess.Black: {
			"1 Opponent move — Move complete", "2 No pawn captures", "2 Move attempt — Move complete",
			"3 1 pawn try", "3 Opponent move — Pawn captured at D5", "4 No pawn captures",
			"4 Move attempt — Illegal move", "4 Move attempt — Pawn captured at D5", "5 No pawn captures",
			"5 Opponent move — Move complete", "6 No pawn captures", "6 Move attempt — Move complete · Check on file",
			"7 No pawn captures",
		},
	}
	for col, lines := range want {
		turns, logs := Scoresheet(answers, col)
		var got []string
		for _, l := range logs {
			got = append(got, fmt.Sprintf("%d %s", l.Ply, l.Announcement))
		}
		if !slices.Equal(got, lines) {
			t.Errorf("%v's referee log:\n%s\nwant:\n%s", col, strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
		if len(turns) != 4 || turns[1].White[0].Kind != "status" || turns[1].White[0].Prompt != "" {
			t.Errorf("%v's turns: %+v", col, turns)
		}
	}
	turns, _ := Scoresheet(answers, chess.Black)
	if e := turns[1].Black[1]; e.Kind != "illegal_move" || e.Actor != "self" || e.MoveUCI == nil || *e.MoveUCI != "d8d4" {
		t.Errorf("black's illegal attempt: %+v", e)
	}
	turns, _ = Scoresheet(answers, chess.White)
	if e := turns[0].Black[1]; e.Actor != "opponent" || e.MoveUCI != nil || e.Kind != "move" {
		t.Errorf("white sees black's move as %+v", e)
	}
}

func mustUCI(t *testing.T, s string) chess.Move {
	t.Helper()
	m, err := chess.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
