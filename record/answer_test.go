package record

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

const gameLineV2 = `{"type":"game","v":2,"game":3,"white":"kriegbot","black":"x","us":"white","base_min":2,"inc_s":12,"seed":1,"player":"random","start":"2026-11-23T18:54:08.48Z"}`

// TestReadAnswersV2 reads version 2 answers: each gives exactly its view,
// and a malformed one is an error naming the line.
func TestReadAnswersV2(t *testing.T) {
	e2e4, _ := chess.ParseUCI("e2e4")
	d5 := chess.NewSquare(3, 4)
	for _, c := range []struct {
		name, line string
		want       umpire.View
		err        string
	}{
		{"refused", `{"type":"answer","own":true,"move":"e2e4","legal":false}`,
			umpire.View{Heard: true, Own: true, Illegal: true, Move: e2e4, PawnTries: -1}, ""},
		{"own legal", `{"type":"answer","own":true,"move":"e2e4","legal":true,"capture":"d5","captured":"piece","checks":["long_diagonal"],"tries":1}`,
			umpire.View{Heard: true, Own: true, Move: e2e4, Capture: umpire.Capture{Square: d5, Kind: umpire.PieceCaptured},
				Checks: [2]chess.CheckKind{chess.CheckLongDiagonal}, PawnTries: 1}, ""},
		{"theirs, double check", `{"type":"answer","own":false,"checks":["rank","knight"],"tries":0}`,
			umpire.View{Heard: true, Checks: [2]chess.CheckKind{chess.CheckRank, chess.CheckKnight}, PawnTries: 0}, ""},
		{"silent", `{"type":"answer","own":false}`, umpire.View{Heard: true, PawnTries: -1}, ""},
		{"mate", `{"type":"answer","own":false,"checks":["file"],"ending":"checkmate"}`,
			umpire.View{Heard: true, Checks: [2]chess.CheckKind{chess.CheckFile}, PawnTries: -1, Ending: umpire.Checkmate}, ""},
		{"words in v2", `{"type":"answer","own":false,"referee":["0 pawn tries"]}`, umpire.View{}, "f:2: answer: referee words in a version 2 record"},
		{"refusal announcing", `{"type":"answer","own":true,"move":"e2e4","legal":false,"tries":1}`, umpire.View{}, "f:2: answer: an attempt that played no move (legal: false) announces nothing"},
		{"capture alone", `{"type":"answer","own":false,"capture":"d5"}`, umpire.View{}, "f:2: answer: capture and captured go together"},
		{"bad square", `{"type":"answer","own":false,"capture":"z9","captured":"pawn"}`, umpire.View{}, `f:2: answer: capture "z9" is not a square`},
		{"bad captured", `{"type":"answer","own":false,"capture":"d5","captured":"king"}`, umpire.View{}, `f:2: answer: captured "king" is not pawn`},
		{"three checks", `{"type":"answer","own":false,"checks":["rank","file","knight"]}`, umpire.View{}, "f:2: answer: more than 2 checks"},
		{"bad check", `{"type":"answer","own":false,"checks":["Rank check"]}`, umpire.View{}, `f:2: answer: check "Rank check" is not`},
		{"bad tries", `{"type":"answer","own":false,"tries":-1}`, umpire.View{}, "f:2: answer: tries -1 is not"},
		{"bad ending", `{"type":"answer","own":false,"ending":"unknown"}`, umpire.View{}, `f:2: answer: ending "unknown" is not`},
		{"their move", `{"type":"answer","own":false,"move":"e2e4"}`, umpire.View{}, "f:2: answer: the opponent's move is never known"},
		{"any", `{"type":"answer","own":true,"move":"any","legal":false,"has_any":true}`,
			umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1}, ""},
		{"their any", `{"type":"answer","own":false,"legal":false,"has_any":false}`,
			umpire.View{Heard: true, Verdict: umpire.NoAny, PawnTries: -1}, ""},
		{"their refusal", `{"type":"answer","own":false,"legal":false}`, umpire.View{Heard: true, Illegal: true, PawnTries: -1}, ""},
		{"nonsense", `{"type":"answer","own":true,"move":"e2e4","legal":false,"refusal":"NONSENSE"}`,
			umpire.View{Heard: true, Own: true, Move: e2e4, Verdict: umpire.NonsenseMove, PawnTries: -1}, ""},
		{"drop", `{"type":"answer","own":true,"move":"N@d5","legal":true,"drop":"knight","has_pawn_capture":true}`,
			umpire.View{Heard: true, Own: true, Move: umpire.DropMove(chess.Knight, d5), Drop: chess.Knight, PawnTries: -1,
				PawnNews: umpire.PawnHas, HasPawnCapture: true}, ""},
		{"en passant, squares", `{"type":"answer","own":false,"capture":"d5","captured":"man","en_passant":true,"try_from":"d5 e2"}`,
			umpire.View{Heard: true, Capture: umpire.Capture{Square: d5, Kind: umpire.ManCaptured}, EnPassant: true, PawnTries: -1,
				PawnNews: umpire.PawnSquares, TrySquares: d5.Bit() | chess.NewSquare(4, 1).Bit()}, ""},
		{"any on a move", `{"type":"answer","own":true,"move":"e2e4","legal":true,"has_any":true}`, umpire.View{}, "f:2: answer: has_any or refusal on a legal move"},
		{"any answers a move", `{"type":"answer","own":true,"move":"e2e4","legal":false,"has_any":true}`, umpire.View{}, `f:2: answer: has_any answers "any"`},
		{"bad refusal", `{"type":"answer","own":true,"move":"e2e4","legal":false,"refusal":"NO"}`, umpire.View{}, `f:2: answer: refusal "NO" is not`},
		{"bad drop", `{"type":"answer","own":true,"move":"K@d5","legal":true}`, umpire.View{}, `f:2: answer: move "K@d5" is not a drop`},
		{"bad try_from", `{"type":"answer","own":false,"try_from":"d9"}`, umpire.View{}, `f:2: answer: try_from "d9" is not squares`},
	} {
		rec, err := Read(strings.NewReader(gameLineV2+"\n"+c.line), "f")
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if rec.Game.Version != 2 || len(rec.Steps) != 1 || rec.Steps[0].View != c.want {
			t.Errorf("%s: version %d, steps %+v; want the view %+v", c.name, rec.Game.Version, rec.Steps, c.want)
			continue
		}
		if w := rec.Steps[0].Words; strings.Join(w, "|") != strings.Join(c.want.Words(), "|") {
			t.Errorf("%s: words %q, want the view's %q", c.name, w, c.want.Words())
		}
	}
}

// TestAnswerRoundTrip writes every kind of heard view as a version 2
// answer line, and as version 1's words, and reads it back: the view is
// the one written.
func TestAnswerRoundTrip(t *testing.T) {
	e2e4, _ := chess.ParseUCI("e2e4")
	e4 := chess.NewSquare(4, 3)
	captures := []umpire.Capture{{}, {Square: e4, Kind: umpire.PawnCaptured}, {Square: e4, Kind: umpire.PieceCaptured}}
	checks := [][2]chess.CheckKind{{}, {chess.CheckRank}, {chess.CheckShortDiagonal, chess.CheckKnight}}
	endings := []umpire.Ending{umpire.NotOver, umpire.Checkmate, umpire.Stalemate, umpire.DeadMaterial}
	var views []umpire.View
	views = append(views, umpire.View{Heard: true, Own: true, Illegal: true, Move: e2e4, PawnTries: -1})
	for _, own := range []bool{false, true} {
		for _, cp := range captures {
			for _, ck := range checks {
				for _, tries := range []int{-1, 0, 3} {
					for _, end := range endings {
						v := umpire.View{Heard: true, Own: own, Capture: cp, Checks: ck, PawnTries: tries, Ending: end}
						if own {
							v.Move = e2e4
						}
						views = append(views, v)
					}
				}
			}
		}
	}
	for _, v := range views {
		own := v.Own
		l := AnswerLine{Type: TypeAnswer, Own: &own}
		if v.Own {
			legal := !v.Illegal
			l.Move, l.Legal = v.Move.String(), &legal
		}
		l.setView(v)
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Read(strings.NewReader(gameLineV2+"\n"+string(b)), "f")
		if err != nil {
			t.Fatalf("%+v as %s: %v", v, b, err)
		}
		if got := rec.Steps[0].View; got != v {
			t.Fatalf("%+v as %s read back as %+v", v, b, got)
		}
		if v.Ending != umpire.NotOver {
			continue // version 1 words did not say the ending (nor checks and tries with it)
		}
		// The same view as a version 1 record's words.
		l = AnswerLine{Type: TypeAnswer, Own: &own, Move: l.Move, Legal: l.Legal, Referee: v.Words()}
		if b, err = json.Marshal(l); err != nil {
			t.Fatal(err)
		}
		if rec, err = Read(strings.NewReader(gameLine+"\n"+string(b)), "f"); err != nil {
			t.Fatalf("%+v as %s: %v", v, b, err)
		}
		if got := rec.Steps[0].View; got != v {
			t.Fatalf("%+v as version 1 %s read back as %+v", v, b, got)
		}
	}
}

// FuzzAnswerV2: any answer line gives a view or an error; a view read back
// writes the same announcement fields again (the encoding round-trips).
func FuzzAnswerV2(f *testing.F) {
	for _, s := range []string{
		`{"type":"answer","own":true,"move":"e2e4","legal":false}`,
		`{"type":"answer","own":true,"move":"e2e4","legal":true,"capture":"d5","captured":"piece","checks":["long_diagonal"],"tries":1}`,
		`{"type":"answer","own":false,"checks":["rank","knight"],"tries":0,"ending":"checkmate"}`,
		`{"type":"answer","own":false,"capture":"a1","captured":"pawn","checks":["file","file"]}`,
		`{"type":"answer","own":false,"referee":["0 pawn tries"]}`,
		`{"type":"answer","own":false,"tries":99}`,
		`{"type":"answer","own":true,"move":"any","legal":false,"has_any":true}`,
		`{"type":"answer","own":false,"legal":false,"has_any":false}`,
		`{"type":"answer","own":true,"move":"e2e4","legal":false,"refusal":"IMPOSSIBLE_TO_ASK"}`,
		`{"type":"answer","own":true,"move":"Q@h5","legal":true,"drop":"queen","promotion":true,"try_from":""}`,
		`{"type":"answer","own":false,"capture":"c6","captured":"man","en_passant":true,"has_pawn_capture":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var raw AnswerLine
		if json.Unmarshal(line, &raw) != nil {
			return
		}
		s, err := answerStep(&raw, 2, umpire.Wild16())
		if err != nil {
			return
		}
		var again AnswerLine
		again.setView(s.View)
		got := [5]any{again.Capture, again.Captured, again.Checks, again.Tries, again.Ending}
		want := [5]any{raw.Capture, raw.Captured, raw.Checks, raw.Tries, raw.Ending}
		if len(raw.Checks) == 0 {
			want[2] = []string(nil)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s read as %+v writes %+v", line, s.View, again)
		}
	})
}
