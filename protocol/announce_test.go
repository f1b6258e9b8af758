package protocol

import (
	"reflect"
	"strconv"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

func capAnn(kind umpire.CaptureKind, sq string) Announcement {
	s, ok := chess.ParseSquare(sq)
	if !ok {
		panic("bad square " + sq)
	}
	return Announcement{Kind: AnnCapture, Capture: umpire.Capture{Square: s, Kind: kind}}
}

func checkAnn(k chess.CheckKind) Announcement { return Announcement{Kind: AnnCheck, Check: k} }
func triesAnn(n int) Announcement             { return Announcement{Kind: AnnPawnTries, Tries: n} }

func withGame(g int, as ...Announcement) []Announcement {
	out := make([]Announcement, len(as))
	for i, a := range as {
		a.Game = g
		out[i] = a
	}
	return out
}

func TestParseAnnouncements(t *testing.T) {
	illegal := Announcement{Kind: AnnIllegal}
	white := Announcement{Kind: AnnWhiteToMove}
	black := Announcement{Kind: AnnBlackToMove}
	tests := []struct {
		line          string
		want          []Announcement
		referee, unkn bool
	}{
		// Single items, ICC wording.
		{"Pawn at d5 captured", []Announcement{capAnn(umpire.PawnCaptured, "d5")}, true, false},
		{"Piece at e4 captured", []Announcement{capAnn(umpire.PieceCaptured, "e4")}, true, false},
		{"Rank check", []Announcement{checkAnn(chess.CheckRank)}, true, false},
		{"File check", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"Long-diagonal check", []Announcement{checkAnn(chess.CheckLongDiagonal)}, true, false},
		{"Short-diagonal check", []Announcement{checkAnn(chess.CheckShortDiagonal)}, true, false},
		{"Knight check", []Announcement{checkAnn(chess.CheckKnight)}, true, false},
		{"1 pawn try", []Announcement{triesAnn(1)}, true, false},
		{"3 pawn tries", []Announcement{triesAnn(3)}, true, false},
		{"White's move", []Announcement{white}, true, false},
		{"Black's move", []Announcement{black}, true, false},
		{"Illegal move", []Announcement{illegal}, true, false},
		// Spelling variants.
		{"long diagonal check", []Announcement{checkAnn(chess.CheckLongDiagonal)}, true, false},
		{"Longdiagonal check", []Announcement{checkAnn(chess.CheckLongDiagonal)}, true, false},
		{"SHORT DIAGONAL CHECK", []Announcement{checkAnn(chess.CheckShortDiagonal)}, true, false},
		{"shortdiagonal check", []Announcement{checkAnn(chess.CheckShortDiagonal)}, true, false},
		{"Short diagonal check", []Announcement{checkAnn(chess.CheckShortDiagonal)}, true, false},
		{"1 pawn tries", []Announcement{triesAnn(1)}, true, false},
		{"2 pawn try", []Announcement{triesAnn(2)}, true, false},
		{"no pawn tries", []Announcement{triesAnn(0)}, true, false},
		{"No pawn try", []Announcement{triesAnn(0)}, true, false},
		{"0 pawn tries", []Announcement{triesAnn(0)}, true, false},
		{"16 pawn tries", []Announcement{triesAnn(16)}, true, false},
		{"PAWN AT E4 CAPTURED", []Announcement{capAnn(umpire.PawnCaptured, "e4")}, true, false},
		{"Piece at H8 captured", []Announcement{capAnn(umpire.PieceCaptured, "h8")}, true, false},
		{"white's MOVE.", []Announcement{white}, true, false},
		{"Blacks move", []Announcement{black}, true, false},
		// Illegal move with trailing text.
		{"Illegal move (e2e5).", []Announcement{illegal}, true, false},
		{"{Game 10 (bob vs. alice) Black checkmated} 1-0", nil, false, false},
		{"aics% {Game 7 (a vs. b) White checkmated} 0-1", nil, false, false},
		{"{Black checkmated} 1-0", nil, false, false}, // a move list's last line: once logged as not understood
		{"{White in check} *", nil, false, false},
		{"{Rank check}", nil, true, true},
		{"Illegal move: e2e5", []Announcement{illegal}, true, false},
		{"illegal move (e2e5; really). 2 pawn tries", []Announcement{illegal, triesAnn(2)}, true, false},
		{"Illegal move. Black's move", []Announcement{illegal, black}, true, false},
		// Prefixes, prompts, whitespace.
		{"Game 123: Rank check", withGame(123, checkAnn(chess.CheckRank)), true, false},
		{"Game 123 Rank check", withGame(123, checkAnn(chess.CheckRank)), true, false},
		{"game 7:Knight check.", withGame(7, checkAnn(chess.CheckKnight)), true, false},
		{"  \tFile check  \r", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"File check\x07", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"aics% File check", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"File check aics%", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"File checkaics%", []Announcement{checkAnn(chess.CheckFile)}, true, false},
		{"aics% Game 5: 1 pawn try aics% ", withGame(5, triesAnn(1)), true, false},
		// Several items per line.
		{"Pawn at e4 captured. Rank check. 2 pawn tries",
			[]Announcement{capAnn(umpire.PawnCaptured, "e4"), checkAnn(chess.CheckRank), triesAnn(2)}, true, false},
		{"Piece at c3 captured, Long-diagonal check, Knight check; no pawn tries",
			[]Announcement{capAnn(umpire.PieceCaptured, "c3"), checkAnn(chess.CheckLongDiagonal), checkAnn(chess.CheckKnight), triesAnn(0)}, true, false},
		{"Rank check File check 1 pawn try", []Announcement{checkAnn(chess.CheckRank), checkAnn(chess.CheckFile), triesAnn(1)}, true, false},
		{"Game 959: White's move. Pawn at a2 captured - 4 pawn tries",
			withGame(959, white, capAnn(umpire.PawnCaptured, "a2"), triesAnn(4)), true, false},
		// Negative: chat and other server text.
		{"", nil, false, false},
		{"   ", nil, false, false},
		{"aics%", nil, false, false},
		{"Fred tells you: hi", nil, false, false},
		{"Fred tells you: rank check", nil, false, false},
		{"Fred(C) says: Pawn at e4 captured", nil, false, false},
		{"Fred shouts: Illegal move", nil, false, false},
		{"Fred kibitzes: Knight check", nil, false, false},
		{"Fred whispers: 2 pawn tries", nil, false, false},
		{"Game 959 (relipse vs. TwoEqualsOne)", nil, false, false},
		{"Creating: relipse (1733) TwoEqualsOne (1373) rated Bullet 1 0", nil, false, false},
		{"Game 959", nil, false, false},
		{"White's move is e4", nil, false, false},
		// Referee-like words that do not parse: logged, not dropped.
		{"I gave him a rank check in the last game", nil, true, true},
		{"Rank check, lol", nil, true, true},
		{"Queen check", nil, true, true},
		{"Diagonal check", nil, true, true},
		{"Long check", nil, true, true},
		{"Pawn at e9 captured", nil, true, true},
		{"Pawn at i4 captured", nil, true, true},
		{"Pawn on e4 captured", nil, true, true},
		{"Pawn at e4", nil, false, false},
		{"pawn tries", nil, true, true},
		{"many pawn tries", nil, true, true},
		{"100 pawn tries", nil, true, true},
		{"Rank check (discovered)", nil, true, true},
		{"Rank check. Something else", nil, true, true},
		{"Illegal", nil, true, true},
		{"Illegal move (e2e5). Your king is in check", nil, true, true},
		{"Game x: Rank check", nil, true, true},
		{"Game 1234567890: Rank check", nil, true, true},
		{"Checkmate", nil, true, true},
		{"Rank check\xe9", nil, true, true},
	}
	for _, tc := range tests {
		got, ref, unk := ParseAnnouncements(nil, []byte(tc.line))
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, tc.want) || ref != tc.referee || unk != tc.unkn {
			t.Errorf("ParseAnnouncements(%q) = %+v, %v, %v; want %+v, %v, %v", tc.line, got, ref, unk, tc.want, tc.referee, tc.unkn)
		}
	}
}

func TestParseAnnouncementsAppends(t *testing.T) {
	dst := []Announcement{triesAnn(5)}
	got, _, _ := ParseAnnouncements(dst, []byte("Rank check"))
	want := []Announcement{triesAnn(5), checkAnn(chess.CheckRank)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("append: got %+v, want %+v", got, want)
	}
	// A failed parse must leave dst's items and length untouched.
	got, _, unk := ParseAnnouncements(got, []byte("Rank check then nonsense"))
	if !unk || !reflect.DeepEqual(got, want) {
		t.Fatalf("failed parse changed dst: %+v unknown=%v", got, unk)
	}
}

// TestAnnouncementRoundTrip parses the wording our own referee emits.
func TestAnnouncementRoundTrip(t *testing.T) {
	var buf []Announcement
	parse := func(s string) Announcement {
		t.Helper()
		var ref, unk bool
		buf, ref, unk = ParseAnnouncements(buf[:0], []byte(s))
		if len(buf) != 1 || !ref || unk {
			t.Fatalf("%q: got %+v, refereeLike=%v unknown=%v", s, buf, ref, unk)
		}
		return buf[0]
	}
	for sq := chess.Square(0); sq < chess.NoSquare; sq++ {
		for _, k := range []umpire.CaptureKind{umpire.PawnCaptured, umpire.PieceCaptured} {
			word := "Piece at "
			if k == umpire.PawnCaptured {
				word = "Pawn at "
			}
			s := word + sq.String() + " captured"
			if got := parse(s); got.Kind != AnnCapture || got.Capture != (umpire.Capture{Square: sq, Kind: k}) {
				t.Errorf("%q -> %+v", s, got)
			}
		}
	}
	for k := chess.CheckRank; k <= chess.CheckKnight; k++ {
		s := umpire.CheckWords(k)
		if got := parse(s); got.Kind != AnnCheck || got.Check != k {
			t.Errorf("%q -> %+v, want check %v", s, got, k)
		}
	}
	for n := 0; n <= 8; n++ {
		s := umpire.TriesWords(n)
		if got := parse(s); got.Kind != AnnPawnTries || got.Tries != n {
			t.Errorf("%q -> %+v, want %d tries", s, got, n)
		}
	}
}

func TestParseAnnouncementsNoAlloc(t *testing.T) {
	lines := [][]byte{
		[]byte("Game 959: Pawn at e4 captured. Long-diagonal check, Knight check; 2 pawn tries aics%"),
		[]byte("Illegal move (e2e5)."),
		[]byte("Fred tells you: rank check"),
		[]byte("I gave him a rank check"),
		[]byte("White's move"),
	}
	dst := make([]Announcement, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range lines {
			dst, _, _ = ParseAnnouncements(dst[:0], l)
		}
	})
	if allocs != 0 {
		t.Fatalf("ParseAnnouncements allocates %v times per run", allocs)
	}
}

func TestParseAnnouncementsLongLine(t *testing.T) {
	// Many items and a long unparsable line must both be handled quickly.
	var line []byte
	for i := 0; i < 10000; i++ {
		line = append(line, "Rank check. "...)
	}
	got, ref, unk := ParseAnnouncements(nil, line)
	if len(got) != 10000 || !ref || unk {
		t.Fatalf("got %d items, %v %v", len(got), ref, unk)
	}
	line = append(line, "("...)
	got, ref, unk = ParseAnnouncements(nil, line)
	if len(got) != 0 || !ref || !unk {
		t.Fatalf("got %d items, %v %v", len(got), ref, unk)
	}
}

func TestAnnouncementKindString(t *testing.T) {
	for k, want := range map[AnnouncementKind]string{AnnIllegal: "illegal", AnnCapture: "capture", AnnCheck: "check",
		AnnPawnTries: "pawn_tries", AnnWhiteToMove: "white_to_move", AnnBlackToMove: "black_to_move", 0: "none", 200: "unknown"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
}

func FuzzParseAnnouncements(f *testing.F) {
	for _, s := range []string{
		"Pawn at e4 captured. Rank check. 2 pawn tries",
		"Game 123: Long-diagonal check",
		"Illegal move (e2e5).",
		"no pawn tries aics%",
		"Fred tells you: rank check",
		"White's move",
		"Longdiagonal check; Piece at H8 captured",
		"Game 99999999999 Rank check",
		"illegal move ((((",
		"",
		"\x19(24 959 e4 e2e4 23 37\x19)",
	} {
		f.Add([]byte(s))
	}
	for n := 0; n <= 8; n++ {
		f.Add([]byte(umpire.TriesWords(n)))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		orig := string(line)
		prefix := []Announcement{triesAnn(42)}
		a, ref1, unk1 := ParseAnnouncements(prefix, line)
		if string(line) != orig {
			t.Fatalf("input modified")
		}
		if len(a) < 1 || a[0] != triesAnn(42) {
			t.Fatalf("dst prefix lost: %+v", a)
		}
		if unk1 && !ref1 {
			t.Fatalf("unknown without refereeLike")
		}
		if unk1 && len(a) != 1 {
			t.Fatalf("unknown but items returned: %+v", a)
		}
		if len(a) > 1 && !ref1 {
			t.Fatalf("items but not refereeLike")
		}
		for _, x := range a[1:] {
			if x.Kind < AnnIllegal || x.Kind > AnnBlackToMove || x.Tries < 0 || x.Tries > maxTries || x.Game < 0 ||
				x.Check > chess.CheckKnight || (x.Kind == AnnCapture && x.Capture.Square >= chess.NoSquare) {
				t.Fatalf("bad item %+v", x)
			}
		}
		b, ref2, unk2 := ParseAnnouncements(nil, line)
		if !reflect.DeepEqual(a[1:], b[:len(b):len(b)]) && !(len(a) == 1 && len(b) == 0) || ref1 != ref2 || unk1 != unk2 {
			t.Fatalf("not deterministic: %+v %v %v vs %+v %v %v", a[1:], ref1, unk1, b, ref2, unk2)
		}
		// Re-rendering in canonical words must parse back to the same items.
		if len(b) > 0 && !unk2 {
			var canon []byte
			for _, x := range b {
				canon = appendCanonical(canon, x)
			}
			c, _, unk3 := ParseAnnouncements(nil, canon)
			if unk3 || !reflect.DeepEqual(dropGame(b), dropGame(c)) {
				t.Fatalf("canonical %q: %+v vs %+v", canon, b, c)
			}
		}
	})
}

func dropGame(as []Announcement) []Announcement {
	out := make([]Announcement, len(as))
	for i, a := range as {
		a.Game = 0
		out[i] = a
	}
	return out
}

func appendCanonical(b []byte, a Announcement) []byte {
	switch a.Kind {
	case AnnIllegal:
		b = append(b, "Illegal move"...)
	case AnnCapture:
		if a.Capture.Kind == umpire.PawnCaptured {
			b = append(b, "Pawn at "...)
		} else {
			b = append(b, "Piece at "...)
		}
		b = append(b, a.Capture.Square.String()+" captured"...)
	case AnnCheck:
		b = append(b, umpire.CheckWords(a.Check)...)
	case AnnPawnTries:
		b = append(b, strconv.Itoa(a.Tries)+" pawn tries"...)
	case AnnWhiteToMove:
		b = append(b, "White's move"...)
	case AnnBlackToMove:
		b = append(b, "Black's move"...)
	}
	return append(b, ". "...)
}

// FuzzRefereeLinesReadBack: every answer the umpire gives in a game of
// random attempts (the seed's), written as our server writes it
// (RefereeLines, IllegalLine), is read back by ParseAnnouncements as
// exactly that answer: the capture, the checks and the pawn tries, under
// the game's number.
func FuzzRefereeLinesReadBack(f *testing.F) {
	for seed := range uint64(4) {
		f.Add(seed, 12)
	}
	f.Fuzz(func(t *testing.T, seed uint64, game int) {
		if game < 0 {
			return
		}
		stream := umpire.RandomStream(seed, 1, 300)
		u := umpire.New(umpire.ICC())
		u.Reset(stream.Start)
		for _, m := range stream.Games[0] {
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if !a.Legal {
				got, _, unk := ParseAnnouncements(nil, []byte(IllegalLine(m.String())))
				if unk || len(got) != 1 || got[0].Kind != AnnIllegal {
					t.Fatalf("%q read back as %+v", IllegalLine(m.String()), got)
				}
				continue
			}
			var want []Announcement
			if a.Capture.Kind != umpire.NoCapture {
				want = append(want, capAnn(a.Capture.Kind, a.Capture.Square.String()))
			}
			if a.Ending == umpire.NotOver {
				for _, k := range a.Checks {
					if k != chess.NoCheck {
						want = append(want, checkAnn(k))
					}
				}
				want = append(want, triesAnn(a.PawnTries))
			}
			var got []Announcement
			lines := RefereeLines(game, a)
			for _, l := range lines {
				var unk bool
				if got, _, unk = ParseAnnouncements(got, []byte(l)); unk {
					t.Fatalf("%q not read", l)
				}
			}
			if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, withGame(game, want...)) {
				t.Fatalf("%v: lines %q read back as %+v, want %+v", a, lines, got, withGame(game, want...))
			}
			if a.Ending != umpire.NotOver {
				break
			}
		}
	})
}
