package ksclient

import (
	"reflect"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

func sq(s string) chess.Square {
	q, _ := chess.ParseSquare(s)
	return q
}

func TestParseTexts(t *testing.T) {
	for _, tc := range []struct {
		texts   []string
		capture umpire.Capture
		checks  [2]chess.CheckKind
		tries   int
		ending  umpire.Ending
		winner  string
		illegal bool
		unknown int
	}{
		{texts: []string{"Move complete"}, tries: -1},
		{texts: []string{"Illegal move"}, tries: -1, illegal: true},
		{texts: []string{"Pawn captured at E5", "Check on rank"}, capture: umpire.Capture{Square: sq("e5"), Kind: umpire.PawnCaptured}, checks: [2]chess.CheckKind{chess.CheckRank}, tries: -1},
		{texts: []string{"Capture done at D4", "Piece captured at D4"}, capture: umpire.Capture{Square: sq("d4"), Kind: umpire.PieceCaptured}, tries: -1},
		{texts: []string{"Pawn captured at D4", "Capture done at D4"}, capture: umpire.Capture{Square: sq("d4"), Kind: umpire.PawnCaptured}, tries: -1},
		{texts: []string{"Capture done at H8"}, capture: umpire.Capture{Square: sq("h8"), Kind: umpire.PieceCaptured}, tries: -1},
		{texts: []string{"En passant capture at E6"}, capture: umpire.Capture{Square: sq("e5"), Kind: umpire.PawnCaptured}, tries: -1},
		{texts: []string{"Check on file", "Check by knight"}, checks: [2]chess.CheckKind{chess.CheckFile, chess.CheckKnight}, tries: -1},
		{texts: []string{"Check on long diagonal", "check on short diagonal."}, checks: [2]chess.CheckKind{chess.CheckLongDiagonal, chess.CheckShortDiagonal}, tries: -1},
		{texts: []string{"Long-diagonal check", "Piece at c3 captured"}, checks: [2]chess.CheckKind{chess.CheckLongDiagonal}, capture: umpire.Capture{Square: sq("c3"), Kind: umpire.PieceCaptured}, tries: -1},
		{texts: []string{"No pawn captures"}, tries: 0},
		{texts: []string{"1 pawn try"}, tries: 1},
		{texts: []string{"3 pawn tries"}, tries: 3},
		{texts: []string{"Pawn tries from E4, G4"}, tries: 2},
		{texts: []string{"Checkmate — White wins"}, ending: umpire.Checkmate, winner: "white", tries: -1},
		{texts: []string{"Draw by insufficient material"}, ending: umpire.InsufficientMaterial, tries: -1},
		{texts: []string{"Draw by too many reversible moves"}, ending: umpire.TooManyReversible, tries: -1},
		{texts: []string{"Fog of war", "999 pawn tries", "Pawn captured at Z9", ""}, tries: -1, unknown: 3},
		{texts: []string{strings.Repeat("x", 300)}, tries: -1, unknown: 1},
	} {
		h := ParseTexts(tc.texts)
		if h.Capture != tc.capture || h.Checks != tc.checks || h.Tries != tc.tries || h.Ending != tc.ending ||
			h.Winner != tc.winner || h.Illegal != tc.illegal || len(h.Unknown) != tc.unknown {
			t.Errorf("%q: %+v", tc.texts, h)
		}
	}
}

func TestReadMoveResult(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		name    string
		r       MoveResult
		refused bool
		want    Heard
		unknown int
	}{
		{"illegal", MoveResult{Announcement: "ILLEGAL_MOVE"}, true, Heard{Illegal: true, Tries: -1}, 0},
		{"regular", MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", NextTurnPawnTries: n(0)}, false, Heard{Tries: 0}, 0},
		{"capture with check", MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("E5"), CapturedPiece: s("PAWN"),
			SpecialAnnouncement: s("CHECK_FILE"), Checks: []string{"CHECK_FILE"}, NextTurnPawnTries: n(2)}, false,
			Heard{Capture: umpire.Capture{Square: sq("e5"), Kind: umpire.PawnCaptured}, captureTyped: true, Checks: [2]chess.CheckKind{chess.CheckFile}, Tries: 2,
				Piece: "PAWN"}, 0},
		{"double check", MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", SpecialAnnouncement: s("CHECK_DOUBLE"), Checks: []string{"RANK", "check_knight"}}, false,
			Heard{Checks: [2]chess.CheckKind{chess.CheckRank, chess.CheckKnight}, Double: true, Tries: -1}, 0},
		{"mate", MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", SpecialAnnouncement: s("CHECKMATE_BLACK_WINS"), GameOver: true}, false,
			Heard{Ending: umpire.Checkmate, Winner: "black", Tries: -1}, 0},
		{"untyped capture", MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("a1")}, false,
			Heard{Capture: umpire.Capture{Square: sq("a1"), Kind: umpire.PieceCaptured}, captureTyped: true, Tries: -1}, 1},
		{"unknown words", MoveResult{MoveDone: true, Announcement: "TELEPORTED", SpecialAnnouncement: s("CHECK_FROM_SPACE"), Checks: []string{"??"}}, false,
			Heard{Tries: -1}, 3},
		{"invalid uci", MoveResult{Announcement: "INVALID_UCI"}, true, Heard{Illegal: true, Tries: -1, Verdict: umpire.NonsenseMove}, 0},
	} {
		h, refused := ReadMoveResult(tc.r)
		u := len(h.Unknown)
		h.Unknown = nil
		if refused != tc.refused || !reflect.DeepEqual(h, tc.want) || u != tc.unknown {
			t.Errorf("%s: %+v (%d unknown), refused %v", tc.name, h, u, refused)
		}
	}
}

func FuzzParseTexts(f *testing.F) {
	for _, s := range []string{"Pawn captured at E5", "Check on rank", "2 pawn tries", "Checkmate — White wins", "Pawn tries from a", "En passant capture at A3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := ParseTexts(strings.Split(s, "|"))
		if h.Tries < -1 || h.Tries > 64 && !strings.Contains(strings.ToLower(s), "pawn tries from") {
			t.Fatalf("tries %d from %q", h.Tries, s)
		}
		if h.Capture.Kind != umpire.NoCapture && h.Capture.Square >= chess.NoSquare {
			t.Fatalf("capture %+v from %q", h.Capture, s)
		}
	})
}
