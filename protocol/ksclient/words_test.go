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

// TestReadReplyVariants reads the other variants' replies: refusals in
// their words, "Any?"'s answer, untyped, exact and en passant captures,
// drops, promotion and the next mover's pawn news, and CaptureIn gives
// each capture as the variant announces it.
func TestReadReplyVariants(t *testing.T) {
	s := func(v string) *string { return &v }
	b := func(v bool) *bool { return &v }
	variant := func(name string) umpire.Variant {
		v, err := umpire.ParseVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, variant string
		r             MoveResult
		refused       bool
		verdict       umpire.Verdict
		capture       umpire.Capture
		enPassant     bool
		drop          chess.PieceType
		promotion     bool
		has           bool
		squares       chess.Bitboard
		unknown       int
	}{
		{name: "impossible", variant: "berkeley", r: MoveResult{Announcement: "IMPOSSIBLE_TO_ASK"}, refused: true, verdict: umpire.ImpossibleToAsk},
		{name: "nonsense", variant: "cincinnati", r: MoveResult{Announcement: "NONSENSE"}, refused: true, verdict: umpire.NonsenseMove},
		{name: "illegal", variant: "english", r: MoveResult{Announcement: "ILLEGAL_MOVE"}, refused: true, verdict: umpire.IllegalMove},
		{name: "has any", variant: "berkeley_any", r: MoveResult{Announcement: "HAS_ANY", HasAny: b(true)}, refused: true, verdict: umpire.HasAny},
		{name: "no any", variant: "crazykrieg", r: MoveResult{Announcement: "NO_ANY", HasAny: b(false)}, refused: true, verdict: umpire.NoAny},
		{name: "untyped", variant: "berkeley", r: MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("d5")},
			capture: umpire.Capture{Square: sq("d5"), Kind: umpire.ManCaptured}},
		{name: "typed", variant: "cincinnati", r: MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("d5"), CapturedPiece: s("PIECE"),
			NextTurnHasPawnCapture: b(true)}, capture: umpire.Capture{Square: sq("d5"), Kind: umpire.PieceCaptured}, has: true},
		{name: "exact", variant: "crazykrieg", r: MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("d5"), CapturedPiece: s("KNIGHT")},
			capture: umpire.Capture{Square: sq("d5"), Kind: umpire.KnightCaptured}},
		{name: "en passant", variant: "english", r: MoveResult{MoveDone: true, Announcement: "CAPTURE_DONE", CaptureSquare: s("d6"), EnPassant: b(true)},
			capture: umpire.Capture{Square: sq("d6"), Kind: umpire.ManCaptured}, enPassant: true},
		{name: "drop", variant: "crazykrieg", r: MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", DroppedPiece: s("QUEEN")}, drop: chess.Queen},
		{name: "bad drop", variant: "crazykrieg", r: MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", DroppedPiece: s("KING")}, unknown: 1},
		{name: "promotion", variant: "rand", r: MoveResult{MoveDone: true, Announcement: "REGULAR_MOVE", Promotion: b(true),
			NextTurnPawnTrySquares: []string{"e4", "G4", "z9"}}, promotion: true, squares: sq("e4").Bit() | sq("g4").Bit(), unknown: 1},
	} {
		v := variant(tc.variant)
		h, refused := ReadReply(tc.r, v)
		c, ep := h.CaptureIn(v)
		if refused != tc.refused || refused && h.Verdict != tc.verdict || c != tc.capture || ep != tc.enPassant || h.Drop != tc.drop ||
			h.Promotion != tc.promotion || h.HasPawn != tc.has || h.TrySquares != tc.squares || len(h.Unknown) != tc.unknown {
			t.Errorf("%s: %+v, capture %+v %v, refused %v", tc.name, h, c, ep, refused)
		}
	}
	// The scoresheet's texts of the same.
	for _, tc := range []struct {
		variant string
		texts   []string
		capture umpire.Capture
		ep      bool
		drop    chess.PieceType
		has     bool
		squares chess.Bitboard
	}{
		{variant: "berkeley", texts: []string{"Capture done at E4"}, capture: umpire.Capture{Square: sq("e4"), Kind: umpire.ManCaptured}},
		{variant: "english", texts: []string{"En passant capture at D6"}, capture: umpire.Capture{Square: sq("d6"), Kind: umpire.ManCaptured}, ep: true},
		{variant: "berkeley", texts: []string{"En passant capture at D6"}, capture: umpire.Capture{Square: sq("d5"), Kind: umpire.ManCaptured}},
		{variant: "crazykrieg", texts: []string{"Rook captured at A8"}, capture: umpire.Capture{Square: sq("a8"), Kind: umpire.RookCaptured}},
		{variant: "crazykrieg", texts: []string{"Move complete", "Bishop dropped"}, drop: chess.Bishop},
		{variant: "cincinnati", texts: []string{"Has pawn capture"}, has: true},
		{variant: "rand", texts: []string{"Pawn tries from E4, G4"}, squares: sq("e4").Bit() | sq("g4").Bit()},
	} {
		v := variant(tc.variant)
		h := ParseTexts(tc.texts)
		c, ep := h.CaptureIn(v)
		if c != tc.capture || ep != tc.ep || h.Drop != tc.drop || h.HasPawn != tc.has || h.TrySquares != tc.squares || len(h.Unknown) != 0 {
			t.Errorf("%s %q: %+v, capture %+v %v", tc.variant, tc.texts, h, c, ep)
		}
	}
}

func TestParseAttempt(t *testing.T) {
	for _, tc := range []struct {
		s, want string
		ok      bool
	}{
		{"e2e4", "e2e4", true}, {"E7E8Q", "e7e8q", true}, {"N@e4", "N@e4", true}, {"p@A3", "P@a3", true},
		{"K@e4", "", false}, {"x@e4", "", false}, {"e2", "", false}, {"", "", false},
	} {
		m, err := ParseAttempt(tc.s)
		if (err == nil) != tc.ok || err == nil && AttemptText(m) != tc.want {
			t.Errorf("%q: %v %v", tc.s, AttemptText(m), err)
		}
	}
}

func FuzzParseAttempt(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "N@e4", "Q@h8", "@@@@", "e2e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseAttempt(s)
		if err != nil {
			return
		}
		if back, err := ParseAttempt(AttemptText(m)); err != nil || back != m {
			t.Fatalf("%q: %v does not read back (%v)", s, AttemptText(m), err)
		}
	})
}
