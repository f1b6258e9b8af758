package turntext

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

func TestAnswer(t *testing.T) {
	for _, tc := range []struct {
		v    umpire.View
		want string
	}{
		{umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny}, "we asked Any?: has pawn captures"},
		{umpire.View{Heard: true, Verdict: umpire.NoAny}, "they asked Any?: no pawn captures"},
		{umpire.View{Heard: true, Illegal: true}, "they: an attempt refused"},
		{umpire.View{Heard: true, Own: true, Illegal: true}, ""}, // ours, worded by its move
		{umpire.View{Heard: true, PawnTries: 1}, ""},             // a move
		{umpire.View{Verdict: umpire.HasAny}, ""},                // not heard
	} {
		got, ok := Answer(tc.v)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Answer(%+v) = %q, %v; want %q", tc.v, got, ok, tc.want)
		}
	}
}

func TestPocket(t *testing.T) {
	var p [chess.King]uint8
	if got := Pocket(p); got != "empty" {
		t.Errorf("empty pocket: %q", got)
	}
	p[chess.Pawn], p[chess.Knight], p[chess.Queen] = 2, 1, 1
	if got := Pocket(p); got != "queen, knight, 2 pawns" {
		t.Errorf("pocket: %q", got)
	}
}

// TestLines: the obligation after our "has pawn captures" and its end,
// the opponent's last turn, rand's squares; wild 16 says nothing.
func TestLines(t *testing.T) {
	follow := func(name string, us chess.Color) *Follower {
		v, err := umpire.ParseVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		f := &Follower{}
		f.Start(players.Game{Color: us, Rules: umpire.Site(v)})
		return f
	}
	e2e4, _ := chess.ParseUCI("e2e4")
	f := follow("berkeley_any", chess.White)
	f.Asked(chess.NullMove)
	f.Hear(umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1})
	if l := strings.Join(f.Lines(), "|"); !strings.Contains(l, "we must try pawn captures until one is played") {
		t.Errorf("under the obligation: %q", l)
	}
	f.Hear(umpire.View{Heard: true, Own: true, Move: e2e4, PawnTries: -1})
	f.Hear(umpire.View{Heard: true, Illegal: true, PawnTries: -1})
	f.Hear(umpire.View{Heard: true, Illegal: true, PawnTries: -1})
	f.Hear(umpire.View{Heard: true, Verdict: umpire.NoAny, PawnTries: -1})
	f.Hear(umpire.View{Heard: true, PawnTries: -1})
	if l := strings.Join(f.Lines(), "|"); l != "their last turn: 2 attempts refused, asked Any?: no pawn captures" {
		t.Errorf("after their turn: %q", l)
	}
	f = follow("rand", chess.Black)
	e4, _ := chess.ParseSquare("e4")
	f.Hear(umpire.View{Heard: true, PawnTries: -1, PawnNews: umpire.PawnSquares, TrySquares: e4.Bit()})
	if l := strings.Join(f.Lines(), "|"); l != "our pawn news: pawn tries from e4" {
		t.Errorf("rand: %q", l)
	}
	f = follow("wild16", chess.White)
	f.Hear(umpire.View{Heard: true, Own: true, Illegal: true, Move: e2e4, PawnTries: -1})
	if l := f.Lines(); l != nil {
		t.Errorf("wild 16: %q", l)
	}
	if got := Rules(umpire.Variants()[5]); !strings.HasPrefix(got, "crazykrieg: Any? may be asked;") || !strings.HasSuffix(got, "may be dropped") {
		t.Errorf("Rules: %q", got)
	}
}
