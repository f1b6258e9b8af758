package ksapi

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Text
		ok   bool
	}{
		{"Move complete", Text{Kind: TextMoveComplete}, true},
		{"Illegal move", Text{Kind: TextIllegal}, true},
		{"", Text{}, true},
		{"Promotion", Text{Kind: TextPromotion}, true},
		{"Pawn captured at E5", Text{Kind: TextCapture, Square: "e5", Piece: CapturedPawn}, true},
		{"Piece captured at d4.", Text{Kind: TextCapture, Square: "d4", Piece: CapturedPiece}, true},
		{"Capture done at H8", Text{Kind: TextCapture, Square: "h8"}, true},
		{"Piece at c3 captured", Text{Kind: TextCapture, Square: "c3", Piece: CapturedPiece}, true},
		{"En passant capture at E6", Text{Kind: TextEnPassant, Square: "e6"}, true},
		{"Check on file", Text{Kind: TextCheck, Check: CheckFile}, true},
		{"Long-diagonal  check", Text{Kind: TextCheck, Check: CheckLongDiagonal}, true},
		{"Double check", Text{Kind: TextDoubleCheck}, true},
		{"No pawn captures", Text{Kind: TextTries}, true},
		{"1 pawn try", Text{Kind: TextTries, Tries: 1}, true},
		{"3 pawn tries!", Text{Kind: TextTries, Tries: 3}, true},
		{"Has pawn captures", Text{Kind: TextHasPawnCapture}, true},
		{"Pawn tries from E4, G4", Text{Kind: TextTriesFrom, From: []string{"E4", "G4"}}, true},
		{"Pawn try from E4", Text{Kind: TextTriesFrom, From: []string{"E4"}}, true},
		{"Knight captured at E5", Text{Kind: TextCapture, Square: "e5", Piece: CapturedKnight}, true},
		{"Queen dropped", Text{Kind: TextDropped, Piece: CapturedQueen}, true},
		{"Piece dropped", Text{}, false},
		{"Checkmate — White wins", Text{Kind: TextEnd, Ending: Checkmate, Winner: White}, true},
		{"Stalemate", Text{Kind: TextEnd, Ending: Stalemate}, true},
		{"Draw by insufficient material", Text{Kind: TextDraw, Ending: Insufficient}, true},
		{"Draw by too many reversible moves", Text{Kind: TextDraw, Ending: TooManyReversible}, true},
		{"Draw by repetition", Text{Kind: TextDraw, Ending: Repetition}, true},
		{"Fog of war", Text{}, false},
		{"999 pawn tries", Text{}, false},
		{"Pawn captured at Z9", Text{}, false},
		{"Pawn at e9 captured", Text{}, false},
	} {
		got, ok := ParseText(tc.in)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v %v; want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTextString(t *testing.T) {
	for _, tc := range []struct {
		t    Text
		want string
	}{
		{Text{Kind: TextCapture, Square: "e5", Piece: CapturedPawn}, "Pawn captured at E5"},
		{Text{Kind: TextCapture, Square: "a1"}, "Capture done at A1"},
		{Text{Kind: TextCapture, Square: "a1", Piece: CapturedRook}, "Rook captured at A1"},
		{Text{Kind: TextDropped, Piece: CapturedBishop}, "Bishop dropped"},
		{Text{Kind: TextTriesFrom, From: []string{"D4"}}, "Pawn try from D4"},
		{Text{Kind: TextCheck, Check: CheckKnight}, "Check by knight"},
		{Text{Kind: TextTries}, "No pawn captures"},
		{Text{Kind: TextTries, Tries: 1}, "1 pawn try"},
		{Text{Kind: TextTries, Tries: 12}, "12 pawn tries"},
		{Text{Kind: TextEnd, Ending: Checkmate, Winner: Black}, "Checkmate — Black wins"},
		{Text{Kind: TextDraw, Ending: Stalemate}, "Draw by stalemate"},
		{Text{}, ""},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%+v: %q; want %q", tc.t, got, tc.want)
		}
	}
}

func TestSpecial(t *testing.T) {
	for _, tc := range []struct {
		code string
		want Special
		ok   bool
	}{
		{"", Special{}, true},
		{"CHECK_RANK", Special{Check: CheckRank}, true},
		{"check_long_diagonal", Special{Check: CheckLongDiagonal}, true},
		{"KNIGHT", Special{Check: CheckKnight}, true},
		{"Check on file", Special{Check: CheckFile}, true},
		{"CHECK_DOUBLE", Special{Double: true}, true},
		{"CHECKMATE_BLACK_WINS", Special{Ending: Checkmate, Winner: Black}, true},
		{"STALEMATE_WHITE_WINS", Special{Ending: Stalemate, Winner: White}, true},
		{"DRAW_STALEMATE", Special{Ending: Stalemate}, true},
		{"DRAW_TOOMANYREVERSIBLEMOVES", Special{Ending: TooManyReversible}, true},
		{"CHECK_FROM_SPACE", Special{}, false},
	} {
		got, ok := ParseSpecial(tc.code)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%q: %+v %v; want %+v %v", tc.code, got, ok, tc.want, tc.ok)
		}
	}
	if got := (Special{Ending: Insufficient}).Code(); got != "DRAW_INSUFFICIENT" {
		t.Errorf("insufficient: %q", got)
	}
	for _, a := range []string{"regular_move", "CAPTURE_DONE", "Invalid_UCI", "NO_ANY"} {
		if got, ok := ParseAnnouncement(a); !ok || got != strings.ToUpper(a) {
			t.Errorf("announcement %q: %q %v", a, got, ok)
		}
	}
	if _, ok := ParseAnnouncement("TELEPORTED"); ok {
		t.Error("TELEPORTED read as an announcement")
	}
}

// FuzzWords: the parsers never panic; every text, special and check the
// formatters can write parses back to itself.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"Pawn captured at E5", "Check on rank", "2 pawn tries", "Checkmate — White wins", "Pawn tries from a",
		"En passant capture at A3", "Knight captured at B2", "Queen dropped", "Pawn try from C3", "CHECK_DOUBLE", "DRAW_INSUFFICIENT", "rank", "\xff"} {
		f.Add(s, uint8(4), uint8(3), 7)
	}
	f.Fuzz(func(t *testing.T, s string, kind, sub uint8, n int) {
		ParseText(s)
		ParseSpecial(s)
		ParseCheckCode(s)
		if a, ok := ParseAnnouncement(s); ok && a != strings.ToUpper(s) {
			t.Fatalf("announcement %q read as %q", s, a)
		}

		check := Check(sub%5 + 1)
		if c, ok := ParseCheckCode(check.Code()); !ok || c != check {
			t.Fatalf("check code %q came back as %v", check.Code(), c)
		}
		if c, ok := ParseCheckCode(check.Text()); !ok || c != check {
			t.Fatalf("check text %q came back as %v", check.Text(), c)
		}
		winner := []string{"", White, Black}[int(sub)%3]
		square := string(rune('a'+int(sub)%8)) + string(rune('1'+int(kind)%8))
		var want Text
		switch TextKind(kind) % (TextDropped + 1) {
		case TextEmpty:
		case TextCapture:
			want = Text{Kind: TextCapture, Square: square, Piece: []string{"", CapturedPawn, CapturedPiece, CapturedKnight,
				CapturedBishop, CapturedRook, CapturedQueen}[int(sub)%7]}
		case TextDropped:
			want = Text{Kind: TextDropped, Piece: []string{CapturedPawn, CapturedKnight, CapturedBishop, CapturedRook, CapturedQueen}[int(sub)%5]}
		case TextHasAny: // the answer to Any? reads as its singular
			want = Text{Kind: TextHasPawnCapture}
		case TextEnPassant:
			want = Text{Kind: TextEnPassant, Square: square}
		case TextCheck:
			want = Text{Kind: TextCheck, Check: check}
		case TextTries:
			want = Text{Kind: TextTries, Tries: int(uint(n) % (MaxTries + 1))}
		case TextTriesFrom:
			want = Text{Kind: TextTriesFrom, From: []string{strings.ToUpper(square)}}
			if sub%2 == 1 {
				want.From = append(want.From, "H2")
			}
		case TextEnd:
			want = Text{Kind: TextEnd, Ending: []Ending{Checkmate, Stalemate}[sub%2], Winner: winner}
		case TextDraw:
			want = Text{Kind: TextDraw, Ending: []Ending{Stalemate, Insufficient, TooManyReversible, Repetition}[sub%4]}
		default:
			want = Text{Kind: TextKind(kind) % (TextDropped + 1)}
		}
		if got, ok := ParseText(want.String()); !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("text %+v written %q came back as %+v, %v", want, want.String(), got, ok)
		}
		specials := []Special{{}, {Check: check}, {Double: true}, {Ending: Checkmate, Winner: []string{White, Black}[sub%2]},
			{Ending: Stalemate, Winner: winner}, {Ending: Insufficient}, {Ending: TooManyReversible}, {Ending: Repetition}}
		sp := specials[int(kind)%len(specials)]
		if got, ok := ParseSpecial(sp.Code()); !ok || got != sp {
			t.Fatalf("special %+v written %q came back as %+v, %v", sp, sp.Code(), got, ok)
		}
	})
}
