package protocol

import "testing"

func TestLevel2Settings(t *testing.T) {
	for _, c := range []struct {
		dgs  []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "1"},
		{[]int{3}, "0001"},
		{[]int{0, 2, 5}, "101001"},
		{[]int{5, 0, 2, 2}, "101001"},
		{[]int{1, -4}, "01"},
	} {
		if got := Level2Settings(c.dgs...); got != c.want {
			t.Errorf("Level2Settings(%v) = %q, want %q", c.dgs, got, c.want)
		}
	}
}

func TestBotDatagramsSettings(t *testing.T) {
	s := Level2Settings(BotDatagrams...)
	on := map[int]bool{}
	hi := 0
	for _, d := range BotDatagrams {
		on[d] = true
		hi = max(hi, d)
	}
	if len(s) != hi+1 {
		t.Fatalf("len = %d, want %d", len(s), hi+1)
	}
	for i := range len(s) {
		if (s[i] == '1') != on[i] || (s[i] != '0' && s[i] != '1') {
			t.Errorf("position %d = %c, enabled=%v", i, s[i], on[i])
		}
	}
	// Cross-check against the string printed in docs/icc-protocol.md (b), plus
	// DG 25 (the move list).
	const notes = "10000000000000011100010010000111011110100011000000000000100001100000010000000100000000000000000000000100000000000000000000001000000000000001000000000000001"
	want := []byte(notes)
	want[DGMoveList] = '1'
	if s != string(want) {
		t.Errorf("BotDatagrams settings\n got %s\nwant %s", s, want)
	}
}

func TestMoveFieldsFor(t *testing.T) {
	if MoveFieldsFor(BotDatagrams) != BotMoveFields {
		t.Fatalf("bot datagrams give %+v", MoveFieldsFor(BotDatagrams))
	}
	if mf := MoveFieldsFor([]int{DGMoveSmith, DGMoveClock}); mf != (MoveFields{Smith: true, Clock: true}) {
		t.Fatalf("got %+v", mf)
	}
}
