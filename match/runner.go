package match

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// DefaultMaxPlies is the default ply cap: long enough for nearly every game
// between sensible players to end by the rules (wild 16 has no 50-move draw),
// short enough that random play does not run forever.
const DefaultMaxPlies = 600

// Config is one match (or one shard of it).
type Config struct {
	P1, P2 players.Spec
	// Games is the number of games of the whole match (all shards).
	Games int
	// Concurrency is the number of games played at once.
	Concurrency int
	Rules       umpire.Rules // MaxPlies is the ply cap
	// Limits is every player's budget, unless P1Limits or P2Limits gives a
	// player its own (time odds).
	Limits             Limits
	P1Limits, P2Limits *Limits
	// P1Ponder and P2Ponder let a player think during the opponent's turns
	// (spec key ponder=on; players.Ponderer).
	P1Ponder, P2Ponder bool
	Seed               uint64
	// Shard and Shards select games g with g % Shards == Shard (Shards ≥ 1).
	Shard, Shards int
	// SPRT, when set, stops the match once a hypothesis is accepted.
	SPRT *SPRT
	// PGN and JSONL receive each game in index order when not nil.
	PGN, JSONL io.Writer
	// Records, when not "", is the folder where each side's record of each
	// game is written as it is played, in the one record schema (package
	// record, under Records/games), for kriegbot replay.
	Records   string
	PGNHeader PGNHeader
	// Progress, when not nil, is called after each game in index order with
	// the summary so far and the game's line.
	Progress func(Summary, GameLine)
	// Positions, when not empty, are the start positions: game g starts from
	// Positions[(g/2) % len(Positions)], so each is played once with each
	// colour assignment. Empty means the standard start.
	Positions []chess.Position
	// HiddenKing starts every game with each player's belief not knowing
	// where the opponent's king stands (players.Game.HiddenKing): drills
	// from positions reached unseen. Only with Positions.
	HiddenKing bool
	// Resume says JSONL goes on with the file of a match cut short
	// (kriegbot match -resume), which has the match line and the games in
	// Played: those are counted first and not played again, and the match
	// line is not written again.
	Resume bool
	Played []GameLine
	// Held, when not nil, receives at once each finished game that has to
	// wait for an earlier one before it can go to JSONL (the held file,
	// held.go), and OnHeld, when not nil, is called then with the summary
	// so far, the game and the index of the game it waits for.
	Held   io.Writer
	OnHeld func(s Summary, g GameLine, waitsFor int)
	// Finished are games a cut run finished but had not written (its held
	// file): they are written in their turn, not played again. Only with
	// JSONL and without PGN.
	Finished []HeldGame
}

// CapLead is the material lead, in centipawns, that the summary counts in
// the games cut at the ply cap: a minor piece and more.
const CapLead = 300

// Summary is a match's outcome so far.
type Summary struct {
	P1, P2       string
	Tally        Tally
	Terminations map[string]int
	// CapLeads counts the games cut at the ply cap where the first [0] or
	// the second [1] player was ahead by at least CapLead in material.
	CapLeads [2]int
	// Planned is the number of games this run was to play, Resumed how many
	// of them a run cut short had played (Config.Played and Config.Finished).
	Planned, Resumed int
	// Held is the number of finished games waiting for an earlier one to
	// be written and counted (Config.Finished among them); when Run
	// returns, those it did not write.
	Held int
	// SPRT is the test, if any, and its decision (+1 H1, -1 H0, 0 open).
	SPRT     *SPRT
	Decision int
	Elapsed  time.Duration
	// Budget is what the players searched with (MatchLine.BudgetText).
	Budget string
}

// Add counts one game.
func (s *Summary) Add(g GameLine) {
	switch g.P1Score {
	case 1:
		s.Tally.W++
	case 0:
		s.Tally.L++
	default:
		s.Tally.D++
	}
	if s.Terminations == nil {
		s.Terminations = map[string]int{}
	}
	s.Terminations[g.Termination]++
	if g.Termination == TermPlyCap && g.P1Material != nil {
		switch {
		case *g.P1Material >= CapLead:
			s.CapLeads[0]++
		case *g.P1Material <= -CapLead:
			s.CapLeads[1]++
		}
	}
	if s.SPRT != nil {
		s.Decision = s.SPRT.Decide(s.Tally)
	}
}

// Write prints the summary; its last line is Line.
func (s *Summary) Write(w io.Writer) error {
	var b strings.Builder
	t := s.Tally
	fmt.Fprintf(&b, "games: %d of %d", t.N(), s.Planned)
	if s.Elapsed > 0 {
		fmt.Fprintf(&b, " in %v (%.1f games/s)", s.Elapsed.Round(time.Millisecond), float64(t.N()-s.Resumed)/s.Elapsed.Seconds())
	}
	if s.Resumed > 0 {
		fmt.Fprintf(&b, ", %d of them played before the resume", s.Resumed)
	}
	if s.Budget != "" {
		fmt.Fprintf(&b, "\nbudget: %s", s.Budget)
	}
	b.WriteString("\nterminations:")
	for _, name := range Terminations() {
		if n := s.Terminations[name]; n > 0 {
			fmt.Fprintf(&b, " %s %d,", name, n)
		}
	}
	out := strings.TrimSuffix(b.String(), ",")
	b.Reset()
	b.WriteString(out)
	b.WriteByte('\n')
	if l := s.CapLeads; l[0]+l[1] > 0 {
		fmt.Fprintf(&b, "ply cap games a side led by %d pawns or more in material: p1 %d, p2 %d\n", CapLead/100, l[0], l[1])
	}
	if s.SPRT != nil {
		lo, hi := s.SPRT.Bounds()
		verdict := "no decision yet"
		switch s.Decision {
		case 1:
			verdict = "H1 accepted"
		case -1:
			verdict = "H0 accepted"
		}
		fmt.Fprintf(&b, "SPRT: elo0 %g elo1 %g alpha %g beta %g: LLR %.3f [%.3f, %.3f], %s\n",
			s.SPRT.Elo0, s.SPRT.Elo1, s.SPRT.Alpha, s.SPRT.Beta, s.SPRT.LLR(t), lo, hi, verdict)
	}
	b.WriteString(s.Line())
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// Line returns "<p1> vs <p2>: +W -L =D, score X%, Elo E ± C" (the Elo
// part in one of the forms of Tally.EloText).
func (s *Summary) Line() string {
	t := s.Tally
	score := 100 * t.Score()
	if t.N() == 0 {
		score = 0
	}
	return fmt.Sprintf("%s vs %s: +%d -%d =%d, score %.1f%%, %s", s.P1, s.P2, t.W, t.L, t.D, score, t.EloText())
}

// Header returns the JSON Lines match line for the config.
func (c *Config) Header() MatchLine {
	return MatchLine{
		Type: "match", P1: c.P1.String(), P2: c.P2.String(), Games: c.Games, Seed: c.Seed,
		Shard: c.Shard, Shards: c.Shards, Rules: c.Rules.Name, Variant: c.Rules.Variant.Name, MaxPlies: c.Rules.MaxPlies,
		TimeControl: c.Limits.Control.String(), MoveTimeMs: c.Limits.MoveTime.Milliseconds(), Nodes: c.Limits.Nodes,
		P1Budget: c.budgetOf(1), P2Budget: c.budgetOf(2), P1Ponder: c.P1Ponder, P2Ponder: c.P2Ponder,
		Positions: len(c.Positions), HiddenKing: c.HiddenKing,
	}
}

// Run plays the match (this shard's games) and returns its summary. Games are
// played Concurrency at a time, written and counted in index order, so the
// output does not depend on scheduling; an SPRT decision stops the match after
// the deciding game, counting no later one.
func Run(ctx context.Context, c Config) (Summary, error) {
	start := time.Now()
	sum := Summary{P1: c.label(1), P2: c.label(2), SPRT: c.SPRT, Budget: c.Header().BudgetText()}
	if len(c.Finished) > 0 && (c.JSONL == nil || c.PGN != nil) {
		return sum, fmt.Errorf("match: finished games from a held file go to JSON Lines only")
	}
	played := map[int]bool{}
	for _, g := range c.Played {
		played[g.Game] = true
		sum.Add(g)
	}
	finished := map[int]*HeldGame{}
	for k := range c.Finished {
		finished[c.Finished[k].Line.Game] = &c.Finished[k]
	}
	// games are this run's games in index order, toPlay the positions in
	// games of those to play (the others were finished by a cut run).
	var games, toPlay []int
	priorLeft := 0 // of c.Finished, those this run has still to write
	for g := c.Shard; g < c.Games; g += max(c.Shards, 1) {
		switch {
		case played[g]:
			continue
		case finished[g] == nil:
			toPlay = append(toPlay, len(games))
		default:
			priorLeft++
		}
		games = append(games, g)
	}
	sum.Planned, sum.Resumed = len(games)+len(c.Played), len(c.Played)+priorLeft
	if c.JSONL != nil && !c.Resume {
		if _, err := c.JSONL.Write(appendJSON(nil, c.Header())); err != nil {
			return sum, err
		}
	}
	if sum.Decision != 0 || len(games) == 0 {
		return sum, nil // nothing to play, or the games before decided the match
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		i   int // position in games
		rec *Record
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(min(c.Concurrency, len(toPlay)), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p1, p2 := c.P1.New(), c.P2.New()
			t := &table{ump: umpire.New(c.Rules), policy: clock.NewPolicy(c.Limits.Overhead), records: c.Records}
			for i := range jobs {
				rec := newRecord(&c, games[i])
				ps := [2]players.Player{p1, p2}
				if !rec.P1White {
					ps = [2]players.Player{p2, p1}
				}
				lims := [2]Limits{c.limitsOf(1), c.limitsOf(2)}
				lims[0].Ponder, lims[1].Ponder = c.P1Ponder, c.P2Ponder
				if !rec.P1White {
					lims = [2]Limits{lims[1], lims[0]}
				}
				err := t.play(ctx, rec, ps, c.Rules, lims)
				results <- result{i: i, rec: rec, err: err}
			}
		}()
	}
	// window bounds the games dispatched but not yet written, so one slow
	// game holds back a bounded number of finished records.
	window := make(chan struct{}, 4*c.Concurrency+16)
	go func() {
		defer close(jobs)
		for _, i := range toPlay {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	// Write and count in index order: a game of this run or one finished
	// before (c.Finished).
	pending := map[int]*Record{}
	next := 0
	var firstFail error
	flush := func() {
		for next < len(games) && firstFail == nil {
			g := games[next]
			rec, held := pending[next], finished[g]
			var line GameLine
			switch {
			case rec != nil:
				delete(pending, next)
				<-window
				firstFail = writeGame(&c, rec)
				line = rec.gameLine()
			case held != nil:
				_, firstFail = c.JSONL.Write(held.lines)
				if firstFail == nil {
					firstFail = flushWriters(c.JSONL)
				}
				if firstFail == nil {
					priorLeft--
				}
				line = held.Line
			default:
				return
			}
			if firstFail != nil {
				cancel()
				return
			}
			next++
			sum.Add(line)
			sum.Held = len(pending) + priorLeft
			sum.Elapsed = time.Since(start)
			if c.Progress != nil {
				c.Progress(sum, line)
			}
			if sum.Decision != 0 {
				cancel()
				return
			}
		}
	}
	flush()
	for r := range results {
		if r.err != nil {
			if r.err != errAborted && firstFail == nil {
				firstFail = r.err
				cancel()
			}
			continue
		}
		if firstFail != nil || sum.Decision != 0 || ctx.Err() != nil {
			continue
		}
		pending[r.i] = r.rec
		flush()
		if pending[r.i] == nil || firstFail != nil || sum.Decision != 0 {
			continue
		}
		// It waits for games[next]: keep it in the held file meanwhile.
		sum.Held = len(pending) + priorLeft
		sum.Elapsed = time.Since(start)
		if c.Held != nil {
			err := r.rec.WriteJSONL(c.Held)
			if err == nil {
				err = flushWriters(c.Held)
			}
			if err != nil {
				firstFail = err
				cancel()
				continue
			}
		}
		if c.OnHeld != nil {
			c.OnHeld(sum, r.rec.gameLine(), games[next])
		}
	}
	sum.Elapsed = time.Since(start)
	sum.Held = len(pending) + priorLeft
	if firstFail != nil {
		return sum, firstFail
	}
	if sum.Decision == 0 && next < len(games) {
		if err := ctx.Err(); err != nil {
			return sum, fmt.Errorf("stopped after %d of %d games: %w", next, len(games), err)
		}
	}
	return sum, nil
}

func newRecord(c *Config, g int) *Record {
	rec := &Record{Game: g, Seed: GameSeed(c.Seed, g), P1White: g%2 == 0, Control: c.Limits.Control, Variant: c.Rules.Variant.Name}
	if len(c.Positions) > 0 {
		rec.Start = &c.Positions[(g/2)%len(c.Positions)]
		rec.HiddenKing = c.HiddenKing
	}
	rec.White, rec.Black = c.P1.String(), c.P2.String()
	if !rec.P1White {
		rec.White, rec.Black = rec.Black, rec.White
	}
	return rec
}

// writeGame writes a finished game and flushes the writers that buffer, so
// that a match killed loses only its games in progress (kriegbot match
// -resume goes on from the file).
func writeGame(c *Config, rec *Record) error {
	if c.PGN != nil {
		if err := rec.WritePGN(c.PGN, c.PGNHeader); err != nil {
			return err
		}
	}
	if c.JSONL != nil {
		if err := rec.WriteJSONL(c.JSONL); err != nil {
			return err
		}
	}
	return flushWriters(c.PGN, c.JSONL)
}

// flushWriters flushes those of ws that buffer.
func flushWriters(ws ...io.Writer) error {
	type flusher interface{ Flush() error }
	for _, w := range ws {
		if f, ok := w.(flusher); ok {
			if err := f.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Merge combines shards' JSON Lines into one summary. The shards must come
// from the same match (players, seed, rules, limits) and hold no game twice.
func Merge(shards []*Shard, sprt *SPRT) (Summary, error) {
	if len(shards) == 0 {
		return Summary{}, fmt.Errorf("match: nothing to merge")
	}
	h0 := shards[0].Header
	sum := Summary{P1: h0.P1, P2: h0.P2, SPRT: sprt, Budget: h0.BudgetText()}
	type where struct {
		name string
		line int
	}
	seen := map[int]where{}
	var games []GameLine
	for _, sh := range shards {
		h := sh.Header
		h.Shard, h0.Shard = 0, 0
		if d := matchDiff(h, h0); d != "" {
			return sum, fmt.Errorf("match: %s is from another match than %s: %s (the first's against the second's)", sh.Name, shards[0].Name, d)
		}
		for i, g := range sh.Games {
			if w, dup := seen[g.Game]; dup {
				return sum, fmt.Errorf("match: %s:%d: game %d already in %s:%d", sh.Name, sh.lines[i], g.Game, w.name, w.line)
			}
			seen[g.Game] = where{sh.Name, sh.lines[i]}
			games = append(games, g)
		}
	}
	// Count in index order, as an unsharded run does.
	slices.SortFunc(games, func(a, b GameLine) int { return cmp.Compare(a.Game, b.Game) })
	sum.Planned = h0.Games
	for _, g := range games {
		sum.Add(g)
	}
	return sum, nil
}

// limitsOf returns player n's budget (1 for P1, 2 for P2).
func (c *Config) limitsOf(n int) Limits {
	own := c.P1Limits
	if n == 2 {
		own = c.P2Limits
	}
	if own != nil {
		return *own
	}
	return c.Limits
}

// budgetOf is player n's own budget for the match file, or nil.
func (c *Config) budgetOf(n int) *Budget {
	own := c.P1Limits
	if n == 2 {
		own = c.P2Limits
	}
	if own == nil {
		return nil
	}
	return &Budget{TimeControl: own.Control.String(), MoveTimeMs: own.MoveTime.Milliseconds(), Nodes: own.Nodes}
}

// label names player n in summaries: its spec, and its own budget when it
// has one ("mcts [movetime 400ms]").
func (c *Config) label(n int) string {
	spec, own, ponder := c.P1.String(), c.P1Limits, c.P1Ponder
	if n == 2 {
		spec, own, ponder = c.P2.String(), c.P2Limits, c.P2Ponder
	}
	var parts []string
	if ponder {
		parts = append(parts, "ponder")
	}
	if own == nil {
		own = &Limits{}
	}
	if own.MoveTime > 0 {
		parts = append(parts, "movetime "+own.MoveTime.String())
	}
	if own.Control.Timed() {
		parts = append(parts, "tc "+own.Control.Text())
	}
	if own.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", own.Nodes))
	}
	if len(parts) == 0 {
		return spec
	}
	return spec + " [" + strings.Join(parts, ", ") + "]"
}
