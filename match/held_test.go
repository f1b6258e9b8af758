package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
)

// gatedKind is "gated": a random player that, in games from the standard
// start position, makes no attempt until gate is closed. With the other games from a
// set-up position, those finish first and must wait to be written.
func gatedKind(gate <-chan struct{}) players.Kind {
	return players.Kind{
		Name: "gated",
		Build: func(*players.Options) (func() players.Player, error) {
			return func() players.Player { return &gated{gate: gate} }, nil
		},
	}
}

type gated struct {
	players.Random
	gate <-chan struct{}
	wait bool
}

func (g *gated) NewGame(gm players.Game) error {
	start := chess.StartPosition()
	g.wait = gm.Start != nil && gm.Start.FEN() == start.FEN()
	return g.Random.NewGame(gm)
}

func (g *gated) Attempt(ctx context.Context, b players.Budget) (chess.Move, error) {
	if g.wait {
		select {
		case <-g.gate:
		case <-ctx.Done():
			return chess.NullMove, ctx.Err()
		}
	}
	return g.Random.Attempt(ctx, b)
}

// heldConfig is four games of gated against random: games 0 and 1 from the
// standard start (held at the gate), 2 and 3 from a set-up position.
func heldConfig(t *testing.T, gate <-chan struct{}) Config {
	c := config(t, "random", "random", 4)
	c.P1 = spec(t, "gated", gatedKind(gate))
	c.Rules.MaxPlies = 80
	pos, err := ParsePositions("test", strings.NewReader("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.Positions = pos
	return c
}

// TestHeldGames: games 2 and 3 finish while game 0 cannot; each is written
// to the held file at once, the match file waits for game 0, and once all
// are in it the file is the one an unhindered run writes.
func TestHeldGames(t *testing.T) {
	dir := t.TempDir()
	open := make(chan struct{})
	close(open)
	want := heldRun(t, heldConfig(t, open), filepath.Join(dir, "free.jsonl"), nil)

	gate := make(chan struct{})
	path := filepath.Join(dir, "m.jsonl")
	var held []int
	var once sync.Once
	got := heldRun(t, heldConfig(t, gate), path, func(s Summary, g GameLine, waitsFor int) {
		held = append(held, g.Game)
		if waitsFor != 0 || s.Held != len(held) || s.Tally.N() != 0 {
			t.Errorf("game %d held waiting for %d with %d held, %d counted; want 0, %d, 0", g.Game, waitsFor, s.Held, s.Tally.N(), len(held))
		}
		b, err := os.ReadFile(HeldPath(path))
		if err != nil || len(gameLines(t, b)) != len(held) {
			t.Errorf("held file after game %d: %v\n%s", g.Game, err, b)
		}
		if len(held) == 2 {
			once.Do(func() { close(gate) })
		}
	})
	// Game 1 may finish before game 0 too, once the gate opens.
	if len(held) < 2 || held[0] < 2 || held[1] < 2 {
		t.Fatalf("held games %v, want 2 and 3 first", held)
	}
	if !bytes.Equal(gameLinesBytes(t, got), gameLinesBytes(t, want)) {
		t.Fatalf("match file's games\n%s\nwant\n%s", gameLinesBytes(t, got), gameLinesBytes(t, want))
	}
	if _, err := os.Stat(HeldPath(path)); !os.IsNotExist(err) {
		t.Fatalf("held file left after a finished run: %v", err)
	}
}

// heldRun runs c writing path and its held file as the command does, and
// returns the match file.
func heldRun(t *testing.T, c Config, path string, onHeld func(Summary, GameLine, int)) []byte {
	t.Helper()
	var buf bytes.Buffer
	h := NewHeldWriter(HeldPath(path), c.Header(), c.Finished)
	c.JSONL, c.Held, c.OnHeld = &buf, h, onHeld
	_, err := Run(context.Background(), c)
	if ferr := h.Finish(err != nil); err == nil {
		err = ferr
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHeldResume: a run stopped while games 2 and 3 wait for game 0 keeps
// them in its held file (a game half written after them, as a kill leaves
// it); -resume writes them in their turn, as they were, and plays only
// games 0 and 1.
func TestHeldResume(t *testing.T) {
	dir := t.TempDir()
	open := make(chan struct{})
	close(open)
	want := heldRun(t, heldConfig(t, open), filepath.Join(dir, "free.jsonl"), nil)

	path := filepath.Join(dir, "m.jsonl")
	c := heldConfig(t, make(chan struct{})) // never opened
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var main bytes.Buffer
	h := NewHeldWriter(HeldPath(path), c.Header(), nil)
	c.JSONL, c.Held = &main, h
	c.OnHeld = func(s Summary, _ GameLine, _ int) {
		if s.Held == 2 {
			stop()
		}
	}
	sum, err := Run(ctx, c)
	if err == nil || sum.Held != 2 {
		t.Fatalf("stopped run: %v, %d held; want an error and 2", err, sum.Held)
	}
	if err := h.Finish(true); err != nil {
		t.Fatal(err)
	}
	if n := len(gameLines(t, main.Bytes())); n != 0 {
		t.Fatalf("stopped run wrote %d games to the match file, want 0", n)
	}
	b, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	// Mark game 2's first attempt, to tell the written game from a replay,
	// and cut a third game's lines as a kill would.
	i := bytes.Index(b, []byte(`{"type":"attempt","game":2,`))
	j := i + bytes.Index(b[i:], []byte(`"think_us":`)) + len(`"think_us":`)
	k := j + bytes.IndexAny(b[j:], ",}")
	b = append(append(append([]byte{}, b[:j]...), "987654321"...), b[k:]...)
	b = append(b, `{"type":"attempt","game":1,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3}`+"\n"+`{"type":"game","ga`...)
	if err := os.WriteFile(h.path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	fin, err := ReadHeld(h.path, c.Header(), nil)
	if err != nil || len(fin) != 2 {
		t.Fatalf("ReadHeld: %d games, %v; want 2", len(fin), err)
	}
	// A played game is not taken from the held file again.
	if fin, err := ReadHeld(h.path, c.Header(), []GameLine{{Game: 3}}); err != nil || len(fin) != 1 || fin[0].Line.Game != 2 {
		t.Fatalf("ReadHeld with game 3 played: %+v, %v", fin, err)
	}
	// A resumed run's held file starts with the games it took over, so a
	// second kill loses none of them.
	again := NewHeldWriter(filepath.Join(dir, "again.held"), c.Header(), fin)
	if _, err := again.Write([]byte("next\n")); err != nil {
		t.Fatal(err)
	}
	if err := again.Finish(true); err != nil {
		t.Fatal(err)
	}
	wantAgain := string(appendJSON(nil, c.Header())) + string(fin[0].lines) + string(fin[1].lines) + "next\n"
	if b, err := os.ReadFile(again.path); err != nil || string(b) != wantAgain {
		t.Fatalf("resumed run's held file: %v\n%s\nwant\n%s", err, b, wantAgain)
	}

	r := heldConfig(t, open)
	r.Resume, r.Finished = true, fin
	resumed := heldRun(t, r, path, nil)
	got := append(main.Bytes(), resumed...)
	if !bytes.Equal(gameLinesBytes(t, got), gameLinesBytes(t, want)) {
		t.Fatalf("resumed file's games\n%s\nwant\n%s", gameLinesBytes(t, got), gameLinesBytes(t, want))
	}
	if !bytes.Contains(got, []byte(`"think_us":987654321`)) {
		t.Fatal("game 2 was played again, not written from the held file")
	}
	if bytes.Count(got, []byte(`{"type":"attempt"`)) != bytes.Count(want, []byte(`{"type":"attempt"`)) {
		t.Fatal("resumed file's attempts are not the unhindered run's")
	}
	if _, err := ReadShard("resumed", bytes.NewReader(got)); err != nil {
		t.Fatal(err)
	}
	// The resumed run ended: its held file is gone, and none is none.
	if fin, err := ReadHeld(h.path, c.Header(), nil); err != nil || fin != nil {
		t.Fatalf("held file after the resumed run: %+v, %v", fin, err)
	}
}

func TestReadHeldErrors(t *testing.T) {
	game := func(g int) string {
		return `{"type":"game","game":` + string(rune('0'+g)) + `,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":1,"p1_score":1}` + "\n"
	}
	attempt := func(g int) string {
		return `{"type":"attempt","game":` + string(rune('0'+g)) + `,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3}` + "\n"
	}
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	tests := []struct {
		name  string
		in    string
		games []int
		err   string
	}{
		{"two games", header + "\n" + attempt(2) + game(2) + attempt(0) + game(0), []int{2, 0}, ""},
		{"cut", header + "\n" + attempt(2) + game(2) + attempt(3) + game(3)[:30], []int{2}, ""},
		{"header only", header + "\n", nil, ""},
		{"empty", "", nil, "h.held: no match line"},
		{"mixed", header + "\n" + attempt(2) + attempt(3) + game(2), nil, "h.held:3: a line of game 3 among game 2's"},
		{"twice", header + "\n" + game(2) + game(2), nil, "h.held:3: game 2 twice"},
		{"bad line", header + "\n" + "{}\n" + game(2), nil, "h.held:2:"},
		{"other match", strings.Replace(header, `"seed":"1"`, `"seed":"2"`, 1) + "\n" + game(2), nil, "from another match"},
	}
	for _, tc := range tests {
		got, err := readHeld("h.held", []byte(tc.in), h, nil)
		var games []int
		for _, g := range got {
			games = append(games, g.Line.Game)
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
			}
		case err != nil || !slices.Equal(games, tc.games):
			t.Errorf("%s: games %v, %v; want %v", tc.name, games, err, tc.games)
		}
	}
}

func FuzzReadHeld(f *testing.F) {
	g2 := `{"type":"game","game":2,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":1,"p1_score":1}` + "\n"
	a2 := `{"type":"attempt","game":2,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3}` + "\n"
	f.Add(header + "\n" + a2 + g2)
	f.Add(header + "\n" + a2 + g2 + a2[:20])
	f.Add(header + "\n\n" + g2 + "\x00")
	h := MatchLine{Type: "match", P1: "heuristic", P2: "random", Games: 4, Seed: 1, Shards: 1, Rules: "icc", MaxPlies: 600, TimeControl: "-"}
	f.Fuzz(func(t *testing.T, in string) {
		games, err := readHeld("fuzz", []byte(in), h, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, g := range games {
			// Each game's lines read back as a match file of that game.
			sh, err := ReadShard("fuzz", strings.NewReader(header+"\n"+string(g.lines)))
			if err != nil || len(sh.Games) != 1 || sh.Games[0] != g.Line {
				t.Fatalf("game %d's lines do not read back as it: %v\n%s", g.Line.Game, err, g.lines)
			}
		}
	})
}
