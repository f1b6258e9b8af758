package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/pgnread"
)

func spec(t testing.TB, s string, kinds ...players.Kind) players.Spec {
	t.Helper()
	sp, err := players.Parse(s, append(players.Kinds(), kinds...))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func config(t testing.TB, p1, p2 string, games int) Config {
	rules := umpire.ICC()
	rules.MaxPlies = DefaultMaxPlies
	return Config{
		P1: spec(t, p1), P2: spec(t, p2), Games: games, Concurrency: 4, Rules: rules,
		Seed: 42, Shards: 1, PGNHeader: PGNHeader{Event: "test", Site: "test", Date: "2026.01.01"},
	}
}

// run plays c and returns its summary, PGN and JSON Lines.
func run(t testing.TB, c Config) (Summary, string, string) {
	t.Helper()
	var pgn, jsonl bytes.Buffer
	c.PGN, c.JSONL = &pgn, &jsonl
	sum, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return sum, pgn.String(), jsonl.String()
}

// TestHeuristicBeatsRandom is the small CI match: 20 games must show the
// heuristic clearly stronger (it loses none and wins several).
func TestHeuristicBeatsRandom(t *testing.T) {
	c := config(t, "heuristic", "random", 20)
	c.Limits.Nodes = 1000
	sum, _, _ := run(t, c)
	if sum.Tally.N() != 20 {
		t.Fatalf("%d games played, want 20", sum.Tally.N())
	}
	if sum.Tally.L > 0 || sum.Tally.W < 5 {
		t.Fatalf("heuristic vs random: %s", sum.Line())
	}
}

// TestDeterministic: the same seed gives the same PGN and JSON Lines (apart
// from timings) whatever the concurrency; another seed other games.
func TestDeterministic(t *testing.T) {
	c := config(t, "heuristic", "random", 12)
	_, pgn1, _ := run(t, c)
	c.Concurrency = 1
	_, pgn2, _ := run(t, c)
	if pgn1 != pgn2 {
		t.Fatal("same seed, different PGN")
	}
	c.Seed++
	if _, pgn3, _ := run(t, c); pgn3 == pgn1 {
		t.Fatal("different seeds, same PGN")
	}
}

// TestShardsMerge: three shards' JSON Lines merge into the unsharded summary,
// and the games are the very same.
func TestShardsMerge(t *testing.T) {
	c := config(t, "heuristic", "random", 30)
	whole, wholePGN, _ := run(t, c)
	var shards []*Shard
	var pgns []string
	for i := range 3 {
		c.Shard, c.Shards = i, 3
		_, pgn, jsonl := run(t, c)
		pgns = append(pgns, pgn)
		sh, err := ReadShard(fmt.Sprintf("shard%d.jsonl", i), strings.NewReader(jsonl))
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, sh)
	}
	merged, err := Merge(shards, nil)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Line() != whole.Line() || fmt.Sprint(merged.Terminations) != fmt.Sprint(whole.Terminations) {
		t.Fatalf("merged %q %v, unsharded %q %v", merged.Line(), merged.Terminations, whole.Line(), whole.Terminations)
	}
	// Game 4 (Round 5) is in shard 1 and must read the same there.
	game := func(pgn string, round int) string {
		i := strings.Index(pgn, fmt.Sprintf("[Round \"%d\"]", round))
		j := strings.Index(pgn[i:], "\n\n[Event")
		if j < 0 {
			return pgn[i:]
		}
		return pgn[i : i+j]
	}
	if game(wholePGN, 5) != game(pgns[1], 5) {
		t.Fatal("game 4 differs between the sharded and the unsharded run")
	}
	if _, err := Merge([]*Shard{shards[0], shards[0]}, nil); err == nil || !strings.Contains(err.Error(), "already in shard0.jsonl") {
		t.Fatalf("merging a shard twice: %v", err)
	}
}

// TestPGNReadsBack parses the PGN with an independent library and checks each
// game's moves, result and ply count against the match's own record.
func TestPGNReadsBack(t *testing.T) {
	c := config(t, "heuristic", "random", 10)
	c.Limits.Control = clock.Control{Base: time.Minute, Increment: time.Second}
	_, pgn, jsonl := run(t, c)
	sh, err := ReadShard("test.jsonl", strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	// The legal moves of each game, from the JSON Lines.
	moves := map[int][]string{}
	for _, line := range strings.Split(jsonl, "\n") {
		var g int
		var m string
		if strings.Contains(line, `"legal":true`) {
			fmt.Sscanf(line[strings.Index(line, `"game":`):], `"game":%d`, &g)
			k := strings.Index(line, `"attempt":"`) + len(`"attempt":"`)
			m = line[k : k+strings.IndexByte(line[k:], '"')]
			moves[g] = append(moves[g], m)
		}
	}
	rd := pgnread.NewReader(strings.NewReader(pgn), "t.pgn", pgnread.Limits{SetUp: true})
	n := 0
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("game %d: %v", n, err)
		}
		want := sh.Games[n]
		if got := g.Result; got != want.Result {
			t.Errorf("game %d: Result %q, want %q", n, got, want.Result)
		}
		if got := g.Tags["Variant"]; got != "Kriegspiel" {
			t.Errorf("game %d: Variant %q", n, got)
		}
		var uci []string
		for _, m := range g.Moves {
			uci = append(uci, m.String())
		}
		if len(uci) != want.Plies || fmt.Sprint(uci) != fmt.Sprint(moves[n]) {
			t.Errorf("game %d: PGN has %d moves %v..., want %d %v...", n, len(uci), head(uci), want.Plies, head(moves[n]))
		}
		n++
	}
	if n != 10 {
		t.Fatalf("read %d games back, want 10", n)
	}
}

func head(s []string) []string { return s[:min(len(s), 6)] }

// TestSPRTStops: an SPRT that heuristic-vs-random settles quickly stops the
// match long before its 400 games, deterministically.
func TestSPRTStops(t *testing.T) {
	c := config(t, "heuristic", "random", 400)
	c.SPRT = &SPRT{Elo0: -20, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	a, _, _ := run(t, c)
	if a.Decision != 1 || a.Tally.N() >= 400 {
		t.Fatalf("SPRT: decision %d after %d games (%s)", a.Decision, a.Tally.N(), a.Line())
	}
	c.Concurrency = 1
	if b, _, _ := run(t, c); b.Tally != a.Tally {
		t.Fatalf("SPRT stop depends on concurrency: %v vs %v", a.Tally, b.Tally)
	}
}

// sleeper is a real player (random) that takes a fixed time per attempt, to
// drive the clock.
type sleeper struct {
	players.Random
	d time.Duration
}

func (s *sleeper) Attempt(ctx context.Context, b players.Budget) (chess.Move, error) {
	time.Sleep(s.d)
	return s.Random.Attempt(ctx, b)
}

// TestFlagFall: a player slower than its clock loses on time, recorded as
// such; the ordinary players under the same clock never flag.
func TestFlagFall(t *testing.T) {
	slow := players.Kind{Name: "slow", Build: func(*players.Options) (func() players.Player, error) {
		return func() players.Player { return &sleeper{d: 300 * time.Millisecond} }, nil
	}}
	// The slow side needs more than its whole clock for its first attempt,
	// so it flags at once whatever the machine's speed; the heuristic side
	// makes at most one attempt against 250 ms (a clock of a few attempts
	// could run out on a stalled machine).
	c := config(t, "heuristic", "random", 2)
	c.P2 = spec(t, "slow", slow)
	c.Limits.Control = clock.Control{Base: 250 * time.Millisecond}
	sum, pgn, _ := run(t, c)
	if sum.Terminations[TermTime] != 2 || sum.Tally.W != 2 {
		t.Fatalf("slow player: %s, terminations %v", sum.Line(), sum.Terminations)
	}
	if !strings.Contains(pgn, `[Termination "time forfeit"]`) || !strings.Contains(pgn, "flag fell") ||
		!strings.Contains(pgn, `[ICCResult "Black forfeits on time"]`) || !strings.Contains(pgn, `[ICCResult "White forfeits on time"]`) {
		t.Fatal("PGN does not record the time forfeit")
	}
	c = config(t, "heuristic", "random", 4)
	// Instant players never flag: a generous clock costs no time.
	c.Limits.Control = clock.Control{Base: 30 * time.Second, Increment: 10 * time.Millisecond}
	if sum, _, _ := run(t, c); sum.Terminations[TermTime] != 0 {
		t.Fatalf("instant players flagged: %v", sum.Terminations)
	}
}

func TestSummaryLine(t *testing.T) {
	s := Summary{P1: "heuristic", P2: "random", Tally: Tally{W: 30, L: 10, D: 10}}
	if got, want := s.Line(), "heuristic vs random: +30 -10 =10, score 70.0%, Elo +147.2 ± 95.1"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
	s.Tally = Tally{W: 3}
	if got, want := s.Line(), "heuristic vs random: +3 -0 =0, score 100.0%, Elo > -153.5 (no losses)"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
}

// The summary counts the games cut at the ply cap by who led in material,
// from each game line's p1_material, and says so above the score line.
func TestSummaryCapLeads(t *testing.T) {
	var s Summary
	lead := func(v int32) *int32 { return &v }
	for _, g := range []GameLine{
		{Termination: TermPlyCap, P1Score: 0.5, P1Material: lead(300)},
		{Termination: TermPlyCap, P1Score: 0.5, P1Material: lead(299)},
		{Termination: TermPlyCap, P1Score: 0.5, P1Material: lead(-900)},
		{Termination: TermPlyCap, P1Score: 0.5},
		{Termination: TermCheckmate, P1Score: 1, P1Material: lead(900)},
	} {
		s.Add(g)
	}
	if s.CapLeads != [2]int{1, 1} {
		t.Fatalf("cap leads %v, want [1 1]", s.CapLeads)
	}
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "ply cap games a side led by 3 pawns or more in material: p1 1, p2 1\n") {
		t.Fatalf("summary:\n%s", b.String())
	}
}
