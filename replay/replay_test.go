package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/buildinfo"
	"kriegbot/opponent"
	"kriegbot/protocol"
	"kriegbot/record"
)

// playRecorded plays one game in-process, our mcts player against the
// heuristic one, the way the daemon does: the player hears exactly what the
// referee tells its side, and the daemon's own record writer
// (record.Writer) writes the record. It returns the record's path. Our
// player searches a fixed number of iterations, so the game is the same on
// every machine (how long it lasts, which plies it has); playOnClock gives
// a game searched on a clock.
func playRecorded(t *testing.T, us chess.Color, seed uint64, maxPlies int) string {
	t.Helper()
	return playGame(t, "mcts:approach=c,mem=8", us, seed, maxPlies, players.Budget{Nodes: 300}, nil)
}

// playOnClock is playRecorded with our player searching on a clock, as the
// daemon's does: its iteration counts are whatever the machine managed, and
// so are its choices and the game's length, and (boarditers=2: some hundreds
// of boards in 3 ms) the number of boards its root counts mates on.
func playOnClock(t *testing.T, us chess.Color, seed uint64, maxPlies int) string {
	t.Helper()
	return playGame(t, "mcts:approach=c,mem=8,boarditers=2", us, seed, maxPlies, players.Budget{Time: 3 * time.Millisecond}, nil)
}

// playGame plays that game with our player spec searching budget ours; with
// counts, our player is given the per-opponent model blended from them and
// the record keeps them beside it, as the daemon does.
func playGame(t *testing.T, spec string, us chess.Color, seed uint64, maxPlies int, ours players.Budget, counts *oppmodel.Counts) string {
	t.Helper()
	mine, err := players.Parse(spec, players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := players.Parse("heuristic", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	var ps [2]players.Player
	ps[us], ps[1-us] = mine.New(), theirs.New()
	var kept []byte
	model := ""
	if counts != nil {
		def, err := oppmodel.DefaultCounts()
		if err != nil {
			t.Fatal(err)
		}
		ps[us].(players.PriorSetter).SetPrior(opponent.ModelFrom(def, counts))
		kept, model = counts.AppendFile(nil), "sparring.kbm (1 games)"
	}
	for c := range ps {
		if err := ps[c].NewGame(players.Game{Color: chess.Color(c), Rules: umpire.ICC(), Seed: seed + uint64(c)}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	g := protocol.MyGameStartedDG{Game: 7, White: "kriegbot", Black: "sparring", Wild: 16, WhiteInitial: 5, WhiteIncrement: 0, BlackInitial: 5, Played: true}
	if us == chess.Black {
		g.White, g.Black = g.Black, g.White
	}
	rec := record.CreateWith(dir, "kriegbot", record.GameLine{Game: g.Game, White: g.White, Black: g.Black, BaseMin: g.WhiteInitial,
		IncS: g.WhiteIncrement, Wild: g.Wild, Seed: record.Seed(seed + uint64(us)), Player: spec, Build: buildinfo.ID(),
		OpponentModel: model}, us, start, record.Models{Opponent: kept})
	u := umpire.New(umpire.ICC())
	u.Reset(chess.StartPosition())
	ctx := context.Background()
	var sans []string
	for u.Ending() == umpire.NotOver && u.Plies() < maxPlies {
		side := u.Side()
		budget := players.Budget{Nodes: 200}
		if side == us {
			budget = ours
		}
		m, err := ps[side].Attempt(ctx, budget)
		if err != nil {
			t.Fatal(err)
		}
		if side == us {
			var rep *players.SearchReport
			if in, ok := ps[us].(players.Inspector); ok {
				r := in.LastSearch()
				rep = &r
			}
			rec.Attempt(m, start, rep)
		}
		pos := u.Position()
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		if a.Legal {
			sans = append(sans, pos.SAN(m))
		}
		for c := range ps {
			e := players.AnswerEvent(&a, chess.Color(c))
			if e.View.Own && e.View.Illegal {
				e.View.Move = m // the daemon's tracker names the refused attempt
			}
			ps[c].Hear(e)
			if chess.Color(c) == us {
				rec.Event(e, start)
			}
		}
	}
	rec.Result(record.ResultLine{Result: u.Result(), Code: "Res", Reason: "ply cap", Plies: u.Plies()}, start)
	rec.Moves(sans)
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return rec.Path()
}

func readFile(t *testing.T, name string) *Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := ReadRecord(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestReplayAgrees: a game searched on a clock replays with the recorded
// iteration counts to the very same choices, from both colours. (How long
// the game lasts depends on the machine: every recorded attempt is re-run.)
func TestReplayAgrees(t *testing.T) {
	for _, us := range []chess.Color{chess.White, chess.Black} {
		name := playOnClock(t, us, 41, 40)
		rec := readFile(t, name)
		if rec.Moves == nil || rec.Result == nil {
			t.Fatalf("%s: no moves or result line", name)
		}
		recorded := 0
		for _, s := range rec.Steps {
			if s.Kind == StepAttempt {
				recorded++
			}
		}
		res, err := Run(context.Background(), rec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Attempts != recorded || recorded < 5 || res.Differing != 0 {
			t.Fatalf("colour %v: %s of %d recorded (first differing at line %d)", us, Summary(res), recorded, res.FirstDiffering)
		}
		var out bytes.Buffer
		if err := WriteText(&out, res, false); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		want := Summary(res) + "\n"
		if !strings.HasSuffix(text, want) {
			t.Fatalf("text does not end with %q", want)
		}
		for _, s := range []string{"their king", "their pawns", "their pieces", "candidate  visits", "their men in truth:", "heard: ["} {
			if !strings.Contains(text, s) {
				t.Fatalf("text lacks %q", s)
			}
		}
	}
}

// TestReplayCatchesADifferentChoice: a record whose attempt is not what the
// search chooses is reported, with its line, and the command exits 1.
func TestReplayCatchesADifferentChoice(t *testing.T) {
	name := playRecorded(t, chess.White, 5, 12)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	// Make the third attempt name another move than the one the search
	// chose (what a nondeterministic search, or a hand-edited record, looks
	// like). Changing the move itself, not the iteration count, keeps the
	// test certain: a search given other iterations may well choose the
	// same move again.
	n, at := 0, 0
	for i, l := range lines {
		if !strings.Contains(l, `"type":"attempt"`) {
			continue
		}
		if n++; n == 3 {
			_, rest, ok := strings.Cut(l, `"move":"`)
			if !ok {
				t.Fatalf("line %d has no move: %s", i+1, l)
			}
			recorded, _, _ := strings.Cut(rest, `"`)
			other := "a2a3"
			if recorded == other {
				other = "h2h3"
			}
			lines[i] = strings.Replace(l, `"move":"`+recorded+`"`, `"move":"`+other+`"`, 1)
			at = i + 1
		}
	}
	if at == 0 {
		t.Fatalf("the game has only %d attempts", n)
	}
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	os.WriteFile(changed, []byte(strings.Join(lines, "\n")), 0o644)
	rec := readFile(t, changed)
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The player follows the record from there (it hears the answers as
	// answers to a2a3), so later choices may differ too.
	if res.Differing < 1 || res.FirstDiffering != at {
		t.Fatalf("%s, first at line %d; the first changed line is %d", Summary(res), res.FirstDiffering, at)
	}
	var out bytes.Buffer
	if err := WriteText(&out, res, false); err != nil || !strings.Contains(out.String(), "DIFFERS") {
		t.Fatalf("the text does not mark the differing attempt: %v", err)
	}
}

// TestReplayFollowsTheRecord: where the re-run chooses another attempt, the
// player hears the referee's answers as answers to the recorded one: after
// the recorded e4e5 is refused it never asks e4e5 again. Before, the refusal
// struck the re-run's own choice, and a random player asked e4e5 again.
func TestReplayFollowsTheRecord(t *testing.T) {
	for seed := range uint64(100) {
		u := umpire.New(umpire.ICC())
		var steps []Step
		send := func(uci string, ours bool) {
			m, err := chess.ParseUCI(uci)
			if err != nil {
				t.Fatal(err)
			}
			if ours {
				steps = append(steps, Step{Kind: StepAttempt, Move: m})
			}
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if v := a.For(chess.White); v.Heard {
				steps = append(steps, Step{Kind: StepAnswer, Move: v.Move, View: v})
			}
		}
		send("e2e4", true)
		send("e7e5", false)
		send("e4e5", true) // refused: Black's pawn stands there
		next, _ := chess.ParseUCI("d2d4")
		steps = append(steps, Step{Kind: StepAttempt, Move: next})
		rec := &Record{Name: "test", Game: GameInfo{Us: chess.White, Player: "random", Seed: seed}, Steps: steps}
		res, err := Run(context.Background(), rec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := res.Frames[len(res.Frames)-1]
		if last.Replayed.String() == "e4e5" {
			t.Fatalf("seed %d: the replay asked e4e5 again after the recorded refusal", seed)
		}
	}
}

// TestCorruptRecordNamesTheLine: damage one line of a real record; loading
// it fails with file:line.
func TestCorruptRecordNamesTheLine(t *testing.T) {
	name := playRecorded(t, chess.White, 9, 8)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, c := range []struct {
		line int
		edit func(string) string
		want string
	}{
		{3, func(s string) string { return s[:len(s)/2] }, "not valid JSON"},
		{2, func(s string) string { return strings.Replace(s, `"move":"`, `"move":"z`, 1) }, "is not a UCI move"},
		{1, func(s string) string { return strings.Replace(s, `"us":"white"`, `"us":"green"`, 1) }, "neither white nor black"},
	} {
		bad := append([]string(nil), lines...)
		bad[c.line-1] = c.edit(bad[c.line-1])
		f := filepath.Join(t.TempDir(), "bad.jsonl")
		os.WriteFile(f, []byte(strings.Join(bad, "\n")), 0o644)
		_, _, err := loadFile(t, f, Source{})
		prefix := f + ":" + string(rune('0'+c.line)) + ": "
		if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("line %d: error %v, want %q and %q", c.line, err, prefix, c.want)
		}
		var le *LineError
		_, err = ReadRecord(strings.NewReader(strings.Join(bad, "\n")), "x")
		if !errors.As(err, &le) || le.Line != c.line {
			t.Fatalf("line %d: error %v", c.line, err)
		}
	}
}

// TestCutRecordReplays: a record cut mid-line (a crash while the daemon
// wrote a line) replays its complete lines, agreeing with the game, and
// says where it ends; a line cut the same way that is not the last one
// stays an error naming it.
func TestCutRecordReplays(t *testing.T) {
	name := playRecorded(t, chess.White, 9, 12)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 12 {
		t.Fatalf("a record of %d lines", len(lines))
	}
	cutAt := len(lines) / 2 // a line number from 1
	for _, c := range []struct {
		name string
		text string
		want string // the error, when the record cannot be read
		out  string // in the text, when the replay ran
	}{
		{"cut last line", strings.Join(lines[:cutAt-1], "") + lines[cutAt-1][:len(lines[cutAt-1])/2],
			"", fmt.Sprintf("record ends at line %d (cut mid-line)", cutAt)},
		{"cut line not the last", strings.Join(lines[:cutAt-1], "") + lines[cutAt-1][:len(lines[cutAt-1])/2] + "\n" + lines[cutAt],
			fmt.Sprintf(".jsonl:%d: not valid JSON", cutAt), ""},
	} {
		f := filepath.Join(t.TempDir(), "cut.jsonl")
		if err := os.WriteFile(f, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		rec, _, err := loadFile(t, f, Source{})
		if err == nil {
			var res *Result
			if res, err = Run(context.Background(), rec, Options{}); err == nil {
				err = WriteText(&out, res, false)
			}
		}
		if c.want != "" {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.want)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), c.out) {
			t.Errorf("%s: %v, text ending %q; want %q in it", c.name, err, tail(out.String()), c.out)
		}
		if !strings.Contains(out.String(), " 0 differing choices") {
			t.Errorf("%s: the complete lines do not replay the game: %q", c.name, tail(out.String()))
		}
	}
}

// TestFromTo: only attempts at plies From..To are shown; the replay stops
// after To; the earlier attempts are still re-run (and checked).
func TestFromTo(t *testing.T) {
	rec := readFile(t, playRecorded(t, chess.Black, 11, 30))
	calls, last, lastTotal := 0, 0, 0
	progress := func(done, total int) { calls, last, lastTotal = calls+1, done, total }
	all, err := Run(context.Background(), rec, Options{Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if calls != all.Attempts || last != all.Attempts || lastTotal != all.Attempts {
		t.Fatalf("progress: %d calls, last %d of %d; %d attempts", calls, last, lastTotal, all.Attempts)
	}
	// A slice in the middle of the game: attempts before it and after it.
	var plies []int
	for _, f := range all.Frames {
		if len(plies) == 0 || plies[len(plies)-1] != f.Ply {
			plies = append(plies, f.Ply)
		}
	}
	if len(plies) < 4 {
		t.Fatalf("the game has attempts at only %d plies", len(plies))
	}
	from, to := plies[1], plies[len(plies)-2]
	part, err := Run(context.Background(), rec, Options{From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Frames) == 0 || part.Differing != 0 {
		t.Fatalf("%s with %d frames", Summary(part), len(part.Frames))
	}
	for _, f := range part.Frames {
		if f.Ply < from || f.Ply > to {
			t.Fatalf("frame at ply %d, want %d..%d", f.Ply, from, to)
		}
	}
	first := part.Frames[0]
	if first.Attempt == 1 || part.Attempts >= all.Attempts || part.Attempts != part.Frames[len(part.Frames)-1].Attempt {
		t.Fatalf("attempts: part %d (frames %d..%d), all %d", part.Attempts, first.Attempt, part.Frames[len(part.Frames)-1].Attempt, all.Attempts)
	}
	// The same attempt shows the same belief and search either way.
	same := all.Frames[first.Attempt-1]
	if same.Heat != first.Heat || same.Replayed != first.Replayed || len(same.Search.Candidates) != len(first.Search.Candidates) {
		t.Fatal("a slice shows another state than the whole replay")
	}
}

// TestWhy: -why N explains the attempt with the candidates' shares, scores
// and predicted answers, and in words; a missing attempt is an error.
func TestWhy(t *testing.T) {
	rec := readFile(t, playRecorded(t, chess.White, 11, 20))
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteWhy(&b, res, 3); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Why ", "at attempt 3", "expected score", "refused", "In words:", "was expected to score", "their king"} {
		if !strings.Contains(out, want) {
			t.Errorf("why lacks %q:\n%s", want, out)
		}
	}
	if err := WriteWhy(&b, res, 10_000); err == nil {
		t.Error("no error for an attempt past the end")
	}
	var text strings.Builder
	if err := WriteText(&text, res, false); err != nil || !strings.Contains(text.String(), "legend:") {
		t.Errorf("the terminal view has no legend (%v)", err)
	}
	var page strings.Builder
	if err := WriteHTML(&page, res); err != nil || !strings.Contains(page.String(), `id="legend"`) {
		t.Errorf("the page has no legend (%v)", err)
	}
}

// TestWhyRootChances: the root's own chances are put into words, and a
// runner-up with a better value but a repetition or a mate against us is
// said to have lost for that.
func TestWhyRootChances(t *testing.T) {
	e2e4, _ := chess.ParseUCI("e2e4")
	d2d4, _ := chess.ParseUCI("d2d4")
	for _, c := range []struct {
		best, next players.Candidate
		want       []string
	}{
		{players.Candidate{Move: e2e4, Value: 3}, players.Candidate{Move: d2d4, Value: 4, PRepeat: 0.5},
			[]string{"d2d4 would have placed our men a third time", "draw by repetition 50%"}},
		{players.Candidate{Move: e2e4, Value: 3}, players.Candidate{Move: d2d4, Value: 4, PMated: 0.3},
			[]string{"safety: d2d4 left them a mate in one 30%"}},
		{players.Candidate{Move: e2e4, Value: 3, PMate: 0.4, PMated: 0.1, PRepeat: 0.2}, players.Candidate{Move: d2d4, Value: 3},
			[]string{"It mates at once on 40%", "mate in one 10%", "draw by repetition 20%", "its chance of mating at once (40%)"}},
	} {
		out := strings.Join(reasons(c.best, []players.Candidate{c.next}), "\n")
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("reasons lack %q:\n%s", w, out)
			}
		}
	}
}

// TestWhyNotTheMostVisited: when the search plays another attempt than
// the most visited, because that one repeats the position, -why explains
// the attempt played, with the most visited as the runner-up.
func TestWhyNotTheMostVisited(t *testing.T) {
	b1a3, _ := chess.ParseUCI("b1a3")
	g3g4, _ := chess.ParseUCI("g3g4")
	res := &Result{Attempts: 1, Frames: []Frame{{Attempt: 1, Line: 2, Recorded: g3g4, Replayed: g3g4,
		Search: players.SearchReport{Move: g3g4, Candidates: []players.Candidate{
			{Move: b1a3, Visits: 80, Value: 24.7, PRepeat: 0.91},
			{Move: g3g4, Visits: 19, Value: 36.4, PIllegal: 0.75},
		}}}}}
	var b strings.Builder
	if err := WriteWhy(&b, res, 1); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"on b1a3, but chose g3g4 (19%): the most visited would have repeated the position a third time (91%)",
		"- g3g4 was expected to score", "The runner-up b1a3", "draw by repetition 91%"} {
		if !strings.Contains(out, want) {
			t.Errorf("why lacks %q:\n%s", want, out)
		}
	}
}
