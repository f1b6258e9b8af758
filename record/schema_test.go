package record

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// lineTypes maps each line type to its struct, for the docs check.
var lineTypes = map[string]any{
	TypeGame: GameLine{}, TypeAttempt: AttemptLine{}, TypeAnswer: AnswerLine{}, TypeClock: ClockLine{},
	TypeResync: ResyncLine{}, TypeResult: ResultLine{}, TypeMoves: MovesLine{}, TypePonder: PonderLine{},
}

// jsonFields lists the JSON names of a struct's fields, nested structs'
// fields included (as "search.top.move" is listed as "move").
func jsonFields(t reflect.Type, into map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" && f.Anonymous {
			jsonFields(f.Type, into) // an embedded struct's fields are the line's
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		into[name] = true
		jsonFields(f.Type, into)
	}
}

// TestDocsMatchSchema checks docs/records.md against the structs: every
// daemon-record example there decodes into its line type with no field the
// schema lacks, and every field of the schema is named in the document.
func TestDocsMatchSchema(t *testing.T) {
	doc, err := os.ReadFile("../docs/records.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## The daemon's per-game record")
	end := strings.Index(text, "## The daemon's PGN")
	if start < 0 || end < start {
		t.Fatal("docs/records.md: the daemon's record section is missing")
	}
	section := text[start:end]
	seen := map[string]bool{}
	for _, block := range strings.Split(section, "```json")[1:] {
		block, _, _ = strings.Cut(block, "```")
		// Examples may wrap an object over lines and elide values with "…".
		for _, obj := range splitObjects(block) {
			obj = strings.ReplaceAll(obj, "\"…\"", "\"\"")
			obj = strings.ReplaceAll(obj, ", …", "")
			var keys map[string]json.RawMessage
			if err := json.Unmarshal([]byte(obj), &keys); err != nil {
				t.Fatalf("docs example %q: %v", obj, err)
			}
			var typ string
			json.Unmarshal(keys["type"], &typ)
			proto, ok := lineTypes[typ]
			if !ok {
				t.Fatalf("docs example of unknown line type %q: %s", typ, obj)
			}
			seen[typ] = true
			fields := map[string]bool{}
			jsonFields(reflect.TypeOf(proto), fields)
			var all map[string]any
			json.Unmarshal([]byte(obj), &all)
			for _, k := range allKeys(all) {
				if !fields[k] {
					t.Errorf("docs example of %q names field %q, which the schema does not have", typ, k)
				}
			}
		}
	}
	for typ, proto := range lineTypes {
		if !strings.Contains(section, "`"+typ+"`") {
			t.Errorf("docs/records.md does not describe the %q line", typ)
		}
		fields := map[string]bool{}
		jsonFields(reflect.TypeOf(proto), fields)
		for f := range fields {
			if !strings.Contains(section, "`"+f+"`") && !strings.Contains(section, "\""+f+"\"") {
				t.Errorf("docs/records.md does not name field %q of the %q line", f, typ)
			}
		}
	}
	if len(seen) < 3 {
		t.Errorf("only %d line types have examples in docs/records.md", len(seen))
	}
}

// splitObjects cuts a code block into its top-level JSON objects.
func splitObjects(block string) []string {
	var out []string
	depth, from := 0, -1
	for i, c := range block {
		switch c {
		case '{':
			if depth == 0 {
				from = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 && from >= 0 {
				out = append(out, block[from:i+1])
			}
		}
	}
	return out
}

// allKeys lists the keys of a decoded JSON value at every depth.
func allKeys(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			out = append(out, k)
			out = append(out, allKeys(sub)...)
		}
	case []any:
		for _, sub := range x {
			out = append(out, allKeys(sub)...)
		}
	}
	sort.Strings(out)
	return out
}

// TestWriteRead writes a short game through the Writer and reads it back:
// every attempt, answer, clock and the result survive, and the PGN is made.
func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	w := Create(dir, "kb", GameLine{Game: 7, White: "kb", Black: "opp", BaseMin: 1, IncS: 1, Wild: 16,
		Seed: 1<<63 + 5, Player: "random", Build: "test"}, chess.White, t0)
	e2e4, _ := chess.ParseUCI("e2e4")
	e2e5, _ := chess.ParseUCI("e2e5")
	e4, _ := chess.ParseSquare("e4")
	w.Event(players.Event{Kind: players.ClockUpdate, Clock: players.Clocks{Ours: time.Minute, Theirs: time.Minute}}, t0)
	w.Attempt(e2e5, t0, &players.SearchReport{Iterations: 10, Nodes: 20, Value: 0.5, Critical: true,
		Candidates: []players.Candidate{{Move: e2e5, Visits: 9, Value: 0.5, PIllegal: 1}}})
	w.Event(players.Event{Kind: players.Answer, View: umpire.View{Heard: true, Own: true, Illegal: true, Move: e2e5, PawnTries: -1}}, t0)
	w.Attempt(e2e4, t0, nil)
	w.Event(players.Event{Kind: players.Answer, View: umpire.View{Heard: true, Own: true, Move: e2e4, PawnTries: 0}}, t0)
	w.Event(players.Event{Kind: players.Answer, View: umpire.View{Heard: true, PawnTries: 1,
		Capture: umpire.Capture{Square: e4, Kind: umpire.PawnCaptured}}}, t0)
	w.Result(ResultLine{Result: "0-1", Code: "Res", Reason: "White resigns", Plies: 2}, t0.Add(time.Second))
	if !w.Moves([]string{"e4", "d5"}) || w.Moves([]string{"e4"}) {
		t.Fatal("Moves: want true once, then false")
	}
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Read(bytes.NewReader(data), "r")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if rec.Game.Seed != 1<<63+5 || rec.Game.Number != 7 || rec.Game.Build != "test" || rec.Game.Us != chess.White {
		t.Errorf("game line read back as %+v", rec.Game)
	}
	if len(rec.Steps) != 6 {
		t.Fatalf("%d steps, want 6:\n%s", len(rec.Steps), data)
	}
	if s := rec.Steps[1]; s.Kind != StepAttempt || s.Move != e2e5 || s.Search == nil || s.Search.Iterations != 10 || len(s.Search.Top) != 1 || !s.Search.Critical {
		t.Errorf("attempt read back as %+v", s)
	}
	if s := rec.Steps[5]; s.Kind != StepAnswer || s.View.Own || s.View.Capture.Square != e4 || s.View.PawnTries != 1 {
		t.Errorf("opponent's answer read back as %+v", s)
	}
	if rec.Result == nil || rec.Result.Illegal != 1 || rec.Result.Result != "0-1" || len(rec.Moves) != 2 {
		t.Errorf("result %+v, moves %v", rec.Result, rec.Moves)
	}
	pgn, err := os.ReadFile(strings.TrimSuffix(w.Path(), ".jsonl") + ".pgn")
	if err != nil || !strings.Contains(string(pgn), "{Illegal: e2e5}") || !strings.Contains(string(pgn), "1. e4") {
		t.Errorf("PGN %q, %v", pgn, err)
	}
	if !strings.Contains(string(data), `"v":2`) {
		t.Errorf("game line without the schema version: %s", data)
	}
}

// TestNewerVersionRefused: a record of a newer schema is not misread.
func TestNewerVersionRefused(t *testing.T) {
	in := `{"type":"game","v":99,"game":1,"us":"white","seed":1,"player":"random"}` + "\n"
	if _, err := Read(strings.NewReader(in), "f"); err == nil || !strings.Contains(err.Error(), "f:1: record version 99") {
		t.Fatalf("error %v, want the version named", err)
	}
}

// TestAgrees: a move list completes a record only if it can be that game
// (after a server restart, another game has the same number and players).
func TestAgrees(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	w := Create(t.TempDir(), "kb", GameLine{Game: 1, White: "kb", Black: "opp", BaseMin: 1, Wild: 16}, chess.White, t0)
	heard := func(own bool, uci string) {
		v := umpire.View{Heard: true, Own: own, PawnTries: -1}
		if own {
			v.Move, _ = chess.ParseUCI(uci)
		}
		w.Event(players.Event{Kind: players.Answer, View: v}, t0)
	}
	heard(true, "e2e4")
	heard(false, "")
	e2e5, _ := chess.ParseUCI("e2e5")
	w.Event(players.Event{Kind: players.Answer, View: umpire.View{Heard: true, Own: true, Illegal: true, Move: e2e5, PawnTries: -1}}, t0) // refused: not a ply
	heard(true, "g1f3")
	heard(false, "")
	for _, c := range []struct {
		sans []string
		want bool
	}{
		{[]string{"e4", "e5", "Nf3", "Nc6"}, true},
		{[]string{"e4", "e5", "Nf3", "Nc6", "Bb5"}, true},
		{[]string{"e4", "e5", "Nc3", "Nc6", "Nf3", "a6"}, true}, // a move we missed
		{[]string{"e4", "e5", "Nf3"}, false},                    // fewer moves than we heard
		{[]string{"d4", "d5", "Nf3", "Nf6"}, false},             // another game
		{[]string{"Nf3", "e5", "e4", "Nc6"}, false},             // our moves out of order
		{[]string{"e4", "e5", "Nf3", "Zz9"}, false},             // not a move
	} {
		if got := w.Agrees(c.sans); got != c.want {
			t.Errorf("Agrees(%v) = %v, want %v", c.sans, got, c.want)
		}
	}
	w.Resync(6, "test", t0)
	if w.Agrees([]string{"e4", "e5", "Nf3", "Nc6"}) {
		t.Error("a list shorter than the server's count at a resync agrees")
	}
}

// TestCreateNeverOverwrites: two games of the same second, number and
// opponent (a server restarted within the second numbers from 1 again)
// get two records, and each keeps its own result and models.
func TestCreateNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	g := GameLine{Game: 1, White: "kb", Black: "opp", BaseMin: 1, Wild: 16, Player: "random"}
	var paths []string
	for i, res := range []string{"1-0", "0-1", "1/2-1/2"} {
		w := CreateWith(dir, "kb", g, chess.White, t0, Models{Opponent: []byte{byte(i)}})
		w.Result(ResultLine{Result: res, Code: "Res", Reason: "a result"}, t0)
		w.Close()
		if w.Err() != nil {
			t.Fatal(w.Err())
		}
		paths = append(paths, w.Path())
	}
	if paths[0] == paths[1] || paths[1] == paths[2] || !strings.HasSuffix(paths[1], "-2.jsonl") || !strings.HasSuffix(paths[2], "-3.jsonl") {
		t.Fatalf("records %v", paths)
	}
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Read(f, p)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"1-0", "0-1", "1/2-1/2"}[i]; rec.Result == nil || rec.Result.Result != want {
			t.Errorf("%s: result %+v, want %s", p, rec.Result, want)
		}
		kbm, err := os.ReadFile(strings.TrimSuffix(p, ".jsonl") + ".kbm")
		if err != nil || len(kbm) != 1 || kbm[0] != byte(i) {
			t.Errorf("%s: its model %v, %v", p, kbm, err)
		}
	}
}
