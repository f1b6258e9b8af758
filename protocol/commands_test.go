package protocol

import (
	"errors"
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

func TestCommandLines(t *testing.T) {
	m, _ := chess.ParseUCI("e7e8q")
	for _, c := range []struct {
		got  func() (string, error)
		want string
	}{
		{func() (string, error) { return LoginLine("bot", "") }, "bot"},
		{func() (string, error) { return LoginLine("bot", "pw") }, "bot pw"},
		{func() (string, error) { return MoveLine(m, PromoteUCI) }, "e7e8q"},
		{func() (string, error) { return MoveLine(m, PromoteEquals) }, "e7e8=Q"},
		{func() (string, error) {
			return SeekLine(SeekParams{Minutes: 2, Increment: 12, Wild: 16, MinRating: 1200, MaxRating: 1800})
		}, "seek 2 12 u w16 a 1200-1800"},
		{func() (string, error) {
			return SeekLine(SeekParams{Minutes: 5, Rated: true, Color: "white", Manual: true, Formula: true})
		}, "seek 5 0 r white m f"},
		{func() (string, error) {
			return MatchLine(MatchParams{Opponent: "Fred", Minutes: 2, Increment: 12, Wild: 16})
		}, "match Fred 2 12 u w16"},
		{func() (string, error) { return AcceptLine("Fred") }, "accept Fred"},
		{func() (string, error) { return DeclineLine("Fred") }, "decline Fred"},
		{func() (string, error) { return TellLine("owner", "status:\n ok\x19;  quit") }, "tell owner status: ok , quit"},
		{func() (string, error) { return SayLine("  good game ") }, "say good game"},
		{func() (string, error) { return UnseekLine(0), nil }, "unseek"},
		{func() (string, error) { return UnseekLine(3), nil }, "unseek 3"},
		{func() (string, error) { return Level1Line(5), nil }, "level1=5"},
	} {
		got, err := c.got()
		if err != nil || got != c.want {
			t.Fatalf("got %q (%v), want %q", got, err, c.want)
		}
	}
	for _, bad := range []func() (string, error){
		func() (string, error) { return LoginLine("a b", "") },
		func() (string, error) { return LoginLine("bot", "pass word") },
		func() (string, error) { return MoveLine(chess.NullMove, PromoteUCI) },
		func() (string, error) { return TellLine("x;quit", "hi") },
		func() (string, error) { return TellLine("owner", "\n\n") },
		func() (string, error) { return MatchLine(MatchParams{Opponent: "", Minutes: 1}) },
		func() (string, error) { return MatchLine(MatchParams{Opponent: "f", Minutes: 1, Color: "red"}) },
		func() (string, error) { return SeekLine(SeekParams{Minutes: 1000}) },
		func() (string, error) { return SeekLine(SeekParams{Minutes: 1, MinRating: 1800, MaxRating: 1200}) },
	} {
		got, err := bad()
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Fatalf("accepted: %q", got)
		}
	}
	if len(CleanText(strings.Repeat("x", 1000))) != MaxTellText {
		t.Fatal("long text not cut")
	}
}
