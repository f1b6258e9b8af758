package record

import (
	"os"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
)

// writeGame writes a record through w: each view heard (an own one after
// the attempt in sent, when set), then the result and the moves; it
// returns the game line and the PGN.
func writeGame(t *testing.T, w *Writer, sent []string, views []umpire.View, sans []string) (string, string) {
	t.Helper()
	t0 := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for i, v := range views {
		if sent[i] != "" {
			m, err := umpire.ParseMoveText(sent[i])
			if sent[i] == AskAny {
				m, err = chess.NullMove, nil
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Attempt(m, t0, nil)
		}
		w.Event(players.Event{Kind: players.Answer, View: v}, t0)
	}
	w.Result(ResultLine{Result: "1-0", Reason: "Black resigns", Plies: len(sans)}, t0)
	if !w.Moves(sans) || w.Err() != nil {
		t.Fatalf("Moves: %v", w.Err())
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	pgn, err := os.ReadFile(strings.TrimSuffix(w.Path(), ".jsonl") + ".pgn")
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitN(string(data), "\n", 2)[0], string(pgn)
}

func uci(t *testing.T, s string) chess.Move {
	t.Helper()
	m, err := umpire.ParseMoveText(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWild16PGNNamesNoAsk: a wild 16 game has no "Any?": a refusal whose
// view names no attempt (a match's umpire gives such views) is written as
// the writer always wrote it, never as "any" (the variants' writer once did).
func TestWild16PGNNamesNoAsk(t *testing.T) {
	w := Create(t.TempDir(), "kb", GameLine{White: "kb", Black: "opp", Wild: 16}, chess.White, time.Now())
	refused := umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1}
	line, pgn := writeGame(t, w, []string{"e2e5", "e2e4", ""},
		[]umpire.View{refused, {Heard: true, Own: true, Move: uci(t, "e2e4"), PawnTries: 0}, {Heard: true, PawnTries: 0}},
		[]string{"e4", "e5"})
	if strings.Contains(pgn, "any") || !strings.Contains(pgn, "{Illegal: 0000} 1. e4") {
		t.Errorf("wild 16 PGN:\n%s", pgn)
	}
	if !strings.Contains(pgn, `[Event "kriegbot wild 16"]`) || strings.Contains(pgn, pgnout.RuleVariantTag) || !strings.Contains(line, `"wild":16`) {
		t.Errorf("wild 16 tags or game line:\n%s\n%s", line, pgn)
	}
}

// TestVariantPGN: a variant game's PGN names its variant, not wild 16;
// our "Any?" with its answer, our refused attempts by their word and the
// opponent's public refusals and "Any?" are comments before the move of
// their turn; from the first drop on the game is in one comment, so the
// movetext stays ordinary PGN.
func TestVariantPGN(t *testing.T) {
	v, err := umpire.ParseVariant("crazykrieg")
	if err != nil {
		t.Fatal(err)
	}
	g := GameLine{White: "kb", Black: "opp", Wild: 16} // as a backend fills it
	g.SetRules(umpire.Site(v))
	w := Create(t.TempDir(), "kb", g, chess.White, time.Now())
	own := func(m string, v umpire.View) umpire.View {
		v.Heard, v.Own, v.PawnTries = true, true, -1
		v.Move = uci(t, m)
		return v
	}
	theirs := func(v umpire.View) umpire.View { v.Heard, v.PawnTries = true, -1; return v }
	line, pgn := writeGame(t, w,
		[]string{AskAny, "e4d5", "a2a5", "e2e4", "", "", "", "N@e5", ""},
		[]umpire.View{
			{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1},
			{Heard: true, Own: true, Illegal: true, PawnTries: -1}, // a match's umpire names no attempt
			{Heard: true, Own: true, Illegal: true, PawnTries: -1},
			own("e2e4", umpire.View{}),
			theirs(umpire.View{Illegal: true}),
			theirs(umpire.View{Verdict: umpire.NoAny}),
			theirs(umpire.View{}),
			own("N@e5", umpire.View{Drop: chess.Knight}),
			theirs(umpire.View{}),
		},
		[]string{"e4", "e5", "N@e5", "d6"})
	if strings.Contains(line, `"wild"`) || !strings.Contains(line, `"variant":"crazykrieg"`) {
		t.Errorf("game line claims wild 16 or misses the variant: %s", line)
	}
	for _, want := range []string{
		`[Event "kriegbot crazykrieg"]`, `[Variant "Kriegspiel"]`, `[RuleVariant "crazykrieg"]`,
		"{any: Has pawn captures; Illegal: e4d5 a2a5} 1. e4",
		"{Opponent: 1 attempt refused; any: No pawn captures} 1... e5",
		"{" + DropsNote,
		"2. N@e5 (Drop of a knight) 2... d6} {Black resigns} 1-0",
	} {
		if !strings.Contains(strings.Join(strings.Fields(pgn), " "), want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
	if strings.Contains(pgn, "wild") || strings.Contains(pgn, "w16") {
		t.Errorf("a crazykrieg PGN says wild 16:\n%s", pgn)
	}
}
