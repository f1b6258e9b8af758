package kep

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

func sq(s string) chess.Square {
	q, ok := chess.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}

func variant(name string) umpire.Variant {
	v, err := umpire.ParseVariant(name)
	if err != nil {
		panic(err)
	}
	return v
}

func TestParseLine(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		line string
		want Line
		err  string // a substring of the error, "" for none
	}{
		{line: "", want: Line{}},
		{line: "   \t ", want: Line{}},
		{line: "kep", want: Line{Kind: Hello}},
		{line: "kep\r\n", want: Line{Kind: Hello}},
		{line: "isready", want: Line{Kind: IsReady}},
		{line: "  stop  ", want: Line{Kind: Stop}},
		{line: "quit now", want: Line{Kind: Quit, Extra: []string{"now"}}},
		{line: "illegal", want: Line{Kind: Illegal}},
		{line: "newgame white", want: Line{Kind: NewGame, Color: chess.White}},
		{line: "newgame black", want: Line{Kind: NewGame, Color: chess.Black}},
		{line: "newgame black wild16", want: Line{Kind: NewGame, Color: chess.Black, Extra: []string{"wild16"}}},
		{line: "newgame", err: "needs white or black"},
		{line: "newgame red", err: `"red" is not white or black`},
		{line: "newgame White", err: "is not white or black"},
		{line: "go", want: Line{Kind: Go}},
		{line: "go wtime 180000 btime 178500 winc 1000 binc 2000", want: Line{Kind: Go, Go: GoLimits{
			Clock: [2]time.Duration{180000 * ms, 178500 * ms}, HasClock: [2]bool{true, true},
			Inc: [2]time.Duration{1000 * ms, 2000 * ms}}}},
		{line: "go btime 5", want: Line{Kind: Go, Go: GoLimits{Clock: [2]time.Duration{0, 5 * ms}, HasClock: [2]bool{false, true}}}},
		{line: "go wtime -300", want: Line{Kind: Go, Go: GoLimits{HasClock: [2]bool{true, false}}}},
		{line: "go movetime 250 nodes 1000", want: Line{Kind: Go, Go: GoLimits{MoveTime: 250 * ms, Nodes: 1000}}},
		{line: "go infinite nodes 7", want: Line{Kind: Go, Go: GoLimits{Nodes: 7}, Extra: []string{"infinite"}}},
		{line: "go nodes", err: "go nodes needs a number"},
		{line: "go nodes -1", err: "negative"},
		{line: "go nodes 1e3", err: "not an integer"},
		{line: "go wtime 1 wtime 2", err: "given twice"},
		{line: "go movetime 99999999999999999999", err: "not an integer"},
		{line: "go movetime 9999999999999", err: "out of range"},
		{line: "legal", want: Line{Kind: Legal}},
		{line: "legal tries 1", want: Line{Kind: Legal, Heard: Announcement{Tries: 1}}},
		{line: "opponent capture e4 pawn", want: Line{Kind: Opponent, Heard: Announcement{
			Capture: umpire.Capture{Square: sq("e4"), Kind: umpire.PawnCaptured}}}},
		{line: "legal capture d5 piece check file,knight tries 2", want: Line{Kind: Legal, Heard: Announcement{
			Capture: umpire.Capture{Square: sq("d5"), Kind: umpire.PieceCaptured},
			Checks:  [2]chess.CheckKind{chess.CheckFile, chess.CheckKnight}, Tries: 2}}},
		{line: "opponent tries 3 check long", want: Line{Kind: Opponent, Heard: Announcement{
			Checks: [2]chess.CheckKind{chess.CheckLongDiagonal}, Tries: 3}}},
		{line: "opponent check short", want: Line{Kind: Opponent, Heard: Announcement{
			Checks: [2]chess.CheckKind{chess.CheckShortDiagonal}}}},
		{line: "opponent check rank loudly", want: Line{Kind: Opponent, Heard: Announcement{
			Checks: [2]chess.CheckKind{chess.CheckRank}}, Extra: []string{"loudly"}}},
		{line: "legal capture", err: "capture needs a square"},
		{line: "legal capture e4", err: "capture needs a square"},
		{line: "legal capture z9 pawn", err: `"z9" is not a square`},
		{line: "legal capture E4 pawn", err: `"E4" is not a square`},
		{line: "legal capture e4 king", err: `"king" is not pawn, piece, man`},
		{line: "legal check", err: "check needs its kinds"},
		{line: "legal check diagonal", err: `"diagonal" is not rank`},
		{line: "legal check file,", err: `"" is not rank`},
		{line: "legal check rank,file,knight", err: "more than two kinds"},
		{line: "legal check long_diagonal", err: "is not rank"},
		{line: "legal tries", err: "tries needs a number"},
		{line: "legal tries -1", err: "not a number from 0 to 16"},
		{line: "legal tries 17", err: "not a number from 0 to 16"},
		{line: "legal tries 1 tries 2", err: "given twice"},
		// The variants' lines.
		{line: "newgame white variant berkeley_any", want: Line{Kind: NewGame, Color: chess.White, Variant: variant("berkeley_any")}},
		{line: "newgame black variant wild16", want: Line{Kind: NewGame, Color: chess.Black, Variant: umpire.Wild16()}},
		{line: "newgame black variant crazykrieg soon", want: Line{Kind: NewGame, Color: chess.Black, Variant: variant("crazykrieg"), Extra: []string{"soon"}}},
		{line: "newgame white variant", err: "variant needs a name (berkeley, "},
		{line: "newgame white variant chess960", err: `variant "chess960" is not one of berkeley, berkeley_any`},
		{line: "newgame white variant Berkeley", err: `variant "Berkeley" is not one of`},
		{line: "newgame white variant rand variant rand", err: "variant given twice"},
		{line: "illegal impossible", want: Line{Kind: Illegal, Verdict: umpire.ImpossibleToAsk}},
		{line: "illegal nonsense", want: Line{Kind: Illegal, Verdict: umpire.NonsenseMove}},
		{line: "illegal move", want: Line{Kind: Illegal, Extra: []string{"move"}}},
		{line: "illegal nonsense really", want: Line{Kind: Illegal, Verdict: umpire.NonsenseMove, Extra: []string{"really"}}},
		{line: "any yes", want: Line{Kind: Any, Verdict: umpire.HasAny}},
		{line: "any no", want: Line{Kind: Any, Verdict: umpire.NoAny}},
		{line: "any", err: "any needs yes or no"},
		{line: "any maybe", err: `any answer "maybe" is not yes or no`},
		{line: "opponent illegal", want: Line{Kind: OpponentIllegal}},
		{line: "opponent illegal nonsense", want: Line{Kind: OpponentIllegal, Extra: []string{"nonsense"}}},
		{line: "opponent any yes", want: Line{Kind: OpponentAny, Verdict: umpire.HasAny}},
		{line: "opponent any no", want: Line{Kind: OpponentAny, Verdict: umpire.NoAny}},
		{line: "opponent any", err: "opponent any needs yes or no"},
		{line: "opponent capture e5 man", want: Line{Kind: Opponent, Heard: Announcement{
			Capture: umpire.Capture{Square: sq("e5"), Kind: umpire.ManCaptured}}}},
		{line: "legal capture d6 man enpassant check short", want: Line{Kind: Legal, Heard: Announcement{
			Capture: umpire.Capture{Square: sq("d6"), Kind: umpire.ManCaptured}, EnPassant: true, Checks: [2]chess.CheckKind{chess.CheckShortDiagonal}}}},
		{line: "legal enpassant", err: "enpassant without a capture"},
		{line: "opponent capture c3 queen", want: Line{Kind: Opponent, Heard: Announcement{
			Capture: umpire.Capture{Square: sq("c3"), Kind: umpire.QueenCaptured}}}},
		{line: "legal promotion pawncapture", want: Line{Kind: Legal, Heard: Announcement{Promotion: true, PawnCapture: true}}},
		{line: "opponent drop knight check knight", want: Line{Kind: Opponent, Heard: Announcement{
			Drop: chess.Knight, Checks: [2]chess.CheckKind{chess.CheckKnight}}}},
		{line: "opponent drop king", err: `drop "king" is not pawn`},
		{line: "opponent drop", err: "drop needs pawn"},
		{line: "opponent trysquares e4,g4", want: Line{Kind: Opponent, Heard: Announcement{TrySquares: sq("e4").Bit() | sq("g4").Bit()}}},
		{line: "opponent trysquares e4,", err: `trysquares "" is not a square`},
		{line: "opponent trysquares", err: "trysquares needs squares"},
		{line: "legal pawncapture pawncapture", err: "given twice"},
		{line: "gameover 1-0 checkmate", want: Line{Kind: GameOver, Result: "1-0", Reason: "checkmate"}},
		{line: "gameover 1/2-1/2 insufficient material", want: Line{Kind: GameOver, Result: "1/2-1/2", Reason: "insufficient material"}},
		{line: "gameover 0-1", want: Line{Kind: GameOver, Result: "0-1"}},
		{line: "gameover", err: "needs a result"},
		{line: "gameover 2-0", err: "is not 1-0"},
		{line: "setoption name Threads value 4", want: Line{Kind: SetOption, Name: "Threads", Value: "4"}},
		{line: "setoption name ModelFile value /tmp/my  models/x.kbm ", want: Line{Kind: SetOption, Name: "ModelFile", Value: "/tmp/my  models/x.kbm"}},
		{line: "setoption name Move Overhead value 30", want: Line{Kind: SetOption, Name: "Move Overhead", Value: "30"}},
		{line: "setoption name Player", want: Line{Kind: SetOption, Name: "Player"}},
		{line: "setoption name Player value", want: Line{Kind: SetOption, Name: "Player"}},
		{line: "setoption name Seed value value", want: Line{Kind: SetOption, Name: "Seed", Value: "value"}},
		{line: "setoption\tname\tSeed\tvalue\t12", want: Line{Kind: SetOption, Name: "Seed", Value: "12"}},
		{line: "setoption", err: "setoption needs name"},
		{line: "setoption value 3", err: "setoption needs name"},
		{line: "setoption name value 3", err: "no option name"},
		{line: "bestmove e2e4", err: `unknown command "bestmove"`},
		{line: "KEP", err: "unknown command"},
		{line: "\x00\xff", err: "unknown command"},
		{line: strings.Repeat("x", 100), err: `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."`},
	}
	for _, tc := range tests {
		got, err := ParseLine(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseLine(%q) error = %v, want one containing %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLine(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseLine(%q) =\n %+v, want\n %+v", tc.line, got, tc.want)
		}
	}
}

// TestAnnouncementRoundTrip writes every announcement a referee can make and
// reads it back.
func TestAnnouncementRoundTrip(t *testing.T) {
	caps := []umpire.Capture{{Square: chess.NoSquare}, {Square: sq("a1"), Kind: umpire.PawnCaptured}, {Square: sq("h8"), Kind: umpire.PieceCaptured}}
	kinds := []chess.CheckKind{chess.NoCheck, chess.CheckRank, chess.CheckFile, chess.CheckLongDiagonal, chess.CheckShortDiagonal, chess.CheckKnight}
	n := 0
	for _, c := range caps {
		for _, k1 := range kinds {
			for _, k2 := range kinds {
				if k1 == chess.NoCheck && k2 != chess.NoCheck {
					continue
				}
				for _, tries := range []int{0, 1, 16} {
					a := Announcement{Capture: c, Checks: [2]chess.CheckKind{k1, k2}, Tries: tries}
					if c.Kind == umpire.NoCapture {
						a.Capture = umpire.Capture{}
					}
					line := strings.TrimSpace("opponent " + a.String())
					got, err := ParseLine(line)
					if err != nil || got.Kind != Opponent || got.Heard != a || got.Extra != nil {
						t.Fatalf("%q: got %+v, %v; want %+v", line, got, err, a)
					}
					n++
				}
			}
		}
	}
	if n != 3*(1+5*6)*3 {
		t.Fatalf("%d announcements checked", n)
	}
}

// TestAnnouncementOfUmpire checks the translation both ways on real answers:
// the view rebuilt from the line an umpire answer gives is the umpire's own
// view (but for the game ending, which KEP's gameover line carries).
func TestAnnouncementOfUmpire(t *testing.T) {
	s := umpire.RandomStream(7, 20, 300)
	u := umpire.New(umpire.ICC())
	checked := 0
	for _, g := range s.Games {
		u.Reset(s.Start)
		for _, m := range g {
			mover := u.Side()
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if !a.Legal {
				continue
			}
			for _, c := range []chess.Color{chess.White, chess.Black} {
				want := a.For(c)
				line := "opponent"
				if c == mover {
					line = "legal"
				}
				if words := AnnouncementOf(want).String(); words != "" {
					line += " " + words
				}
				l, err := ParseLine(line)
				if err != nil {
					t.Fatalf("%s: %q: %v", a.String(), line, err)
				}
				got := l.Heard.View(umpire.Variant{}, c == mover, m)
				if want.Ending != umpire.NotOver {
					want.Ending, want.Result, want.PawnTries = umpire.NotOver, "", 0
				}
				if got != want {
					t.Fatalf("%s: %q gives %+v, want %+v", a.String(), line, got, want)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d answers checked", checked)
	}
}

// BenchmarkParseLine parses the lines of a typical turn.
func BenchmarkParseLine(b *testing.B) {
	lines := []string{"go wtime 179000 btime 178500 winc 1000 binc 1000", "illegal", "legal capture d5 piece check file tries 1", "opponent capture e4 pawn"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseLine(lines[i%len(lines)]); err != nil {
			b.Fatal(err)
		}
	}
}
