package matchcmd

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/cmdflag"
	"kriegbot/match"
)

// Command runs "kriegbot match", "kriegbot match merge" and "kriegbot match
// stats".
func Command(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return mergeCommand(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "stats" {
		return statsCommand(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	p1 := fs.String("p1", "", "first player's spec (kind[:key=value,...]), required; movetime=D, tc=MIN+SEC or nodes=N in it give that player its own budget (time odds)")
	p2 := fs.String("p2", "", "second player's spec, required")
	games := fs.Int("games", 200, "games in the whole match (all shards); colours alternate, p1 White in even games")
	conc := fs.Int("concurrency", runtime.NumCPU(), "games played at once")
	moveTime := fs.Duration("movetime", 0, "thinking time per attempt (e.g. 100ms)")
	tc := fs.String("tc", "", "real-time clock per side, MIN+SEC as a server writes it (1+1: a minute and a second, as kriegbot tourney -tc) or with units (10s+0.1s); flag fall loses")
	nodes := fs.Int64("nodes", 0, fmt.Sprintf("search budget per attempt (reproducible); %d when neither -movetime nor -tc is given", match.DefaultNodes))
	overhead := fs.Duration("overhead", 10*time.Millisecond, "move overhead the time manager reserves per attempt under -tc")
	rulesName := fs.String("rules", "icc", "rule set: icc, olympiad (automatic 50-move and repetition draws) or ks (kriegspiel.org's 2,000 reversible half-move cap); or a Kriegspiel variant of kriegspiel.org, played under its rules (ks): "+strings.Join(umpire.VariantNames(), ", "))
	maxPlies := fs.Int("maxplies", match.DefaultMaxPlies, "ply cap: a game still on after this many moves ends unfinished (counted a draw); 0 for none")
	seed := fs.Uint64("seed", 1, "match seed; game g's seed derives from it and g, so shards reproduce")
	shard := fs.String("shard", "0/1", "play only shard I of N (games g with g mod N = I, I from 0)")
	sprt := fs.String("sprt", "", "stop early by SPRT between ELO0,ELO1 (logistic Elo), e.g. 0,50")
	alpha := fs.Float64("sprt-alpha", 0.05, "SPRT false-positive rate")
	beta := fs.Float64("sprt-beta", 0.05, "SPRT false-negative rate")
	pgnPath := fs.String("pgn", "", "write the games as PGN to this file")
	jsonlPath := fs.String("jsonl", "", "write every attempt and game result as JSON Lines to this file")
	recordsDir := fs.String("records", "", "write each side's record of each game, in the daemon's per-game record schema (docs/records.md), under DIR/games: kriegbot replay reads them")
	resume := fs.Bool("resume", false, "go on with the match cut short whose -jsonl file is given: the same flags and specs, its games kept (and those of its .held file), the rest played and appended")
	hiddenKing := fs.Bool("hidden-king", false, "with -positions: the players start not knowing where the opponent's king stands (as after a promotion)")
	positions := fs.String("positions", "", "start positions file (FEN or EPD per line, # comments): game g starts from position g/2 mod N, so each is played with both colour assignments")
	var kinds strings.Builder
	kinds.WriteString("Plays two players against each other through the in-process referee and prints\n" +
		"W-L-D, score, Elo difference with its 95 % interval and the terminations.\n\nPlayer kinds:\n")
	for _, k := range players.Kinds() {
		fmt.Fprintf(&kinds, "  %-10s %s\n", k.Name, k.Summary)
		for _, o := range k.Options {
			fmt.Fprintf(&kinds, "  %-10s   %s\n", "", o)
		}
	}
	cmdflag.SetUsage(fs, "match -p1 SPEC -p2 SPEC [flags]\n"+
		"       kriegbot match merge [-sprt ELO0,ELO1] FILE.jsonl...\n"+
		"       kriegbot match stats FILE.jsonl...", kinds.String())
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	fail := func(format string, a ...any) int { return cmdflag.Fail(stderr, "match", format, a...) }
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *p1 == "" || *p2 == "" {
		return fail("both -p1 and -p2 are required")
	}
	c := match.Config{Games: *games, Concurrency: *conc, Seed: *seed}
	var err error
	// A player's spec holds the match's keys too: ponder, and its own
	// budget (time odds).
	pl1, err := match.ParsePlayer(*p1, match.Limits{Overhead: *overhead})
	if err != nil {
		return fail("-p1: %v", err)
	}
	pl2, err := match.ParsePlayer(*p2, match.Limits{Overhead: *overhead})
	if err != nil {
		return fail("-p2: %v", err)
	}
	c.P1, c.P1Ponder, c.P1Limits = pl1.Spec, pl1.Ponder, pl1.Limits
	c.P2, c.P2Ponder, c.P2Limits = pl2.Spec, pl2.Ponder, pl2.Limits
	if *games < 1 || *conc < 1 {
		return fail("-games and -concurrency must be at least 1")
	}
	for _, f := range []struct {
		name     string
		negative bool
	}{{"movetime", *moveTime < 0}, {"nodes", *nodes < 0}, {"overhead", *overhead < 0}, {"maxplies", *maxPlies < 0}} {
		if f.negative {
			return fail("-%s %s: must not be negative", f.name, fs.Lookup(f.name).Value)
		}
	}
	c.Limits = match.Limits{MoveTime: *moveTime, Nodes: *nodes, Overhead: *overhead}
	// Without a budget a player answers at once (its emergency search):
	// a match of that measures nothing, so it gets a real one.
	defaulted := *moveTime == 0 && *nodes == 0 && *tc == ""
	if defaulted {
		c.Limits.Nodes = match.DefaultNodes
	}
	c.Records = *recordsDir
	if *tc != "" {
		if c.Limits.Control, err = clock.ParseTC(*tc); err != nil {
			return fail("-tc: %v", err)
		}
		if *moveTime > 0 {
			return fail("-tc and -movetime exclude each other")
		}
	}
	if c.Rules, err = parseRules(*rulesName); err != nil {
		return fail("-rules: %v", err)
	}
	c.Rules.MaxPlies = *maxPlies
	if c.Shard, c.Shards, err = parseShard(*shard); err != nil {
		return fail("-shard: %v", err)
	}
	if *sprt != "" {
		if c.SPRT, err = parseSPRT(*sprt, *alpha, *beta); err != nil {
			return fail("-sprt: %v", err)
		}
	}
	if *positions != "" {
		if c.Positions, err = match.ReadPositionsFile(*positions); err != nil {
			return fail("-positions: %v", err)
		}
	}
	if *hiddenKing {
		if *positions == "" {
			return fail("-hidden-king needs -positions")
		}
		c.HiddenKing = true
	}
	c.PGNHeader = match.PGNHeader{Event: match.EventName(c.Limits.Control, c.Rules.Variant.Name), Site: "kriegbot match", Date: time.Now().UTC().Format("2006.01.02")}

	var closers []func() error
	open := func(path string) (io.Writer, error) {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		return buffered(f, &closers), nil
	}
	if *pgnPath != "" {
		if c.PGN, err = open(*pgnPath); err != nil {
			fmt.Fprintf(stderr, "kriegbot match: %v\n", err)
			return cmdflag.Failure
		}
	}
	switch {
	case *resume && *jsonlPath == "":
		return fail("-resume needs the -jsonl file of the match to go on with")
	case *resume && *pgnPath != "":
		return fail("-resume cannot go on with a PGN file (the cut run's last game may be half written); leave -pgn out")
	case *resume:
		played, f, err := match.OpenResume(*jsonlPath, c.Header())
		if err == nil {
			c.Finished, err = match.ReadHeld(match.HeldPath(*jsonlPath), c.Header(), played)
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			return fail("-resume: %v", err)
		}
		c.Resume, c.Played = true, played
		c.JSONL = buffered(f, &closers)
	case *jsonlPath != "":
		if c.JSONL, err = open(*jsonlPath); err != nil {
			fmt.Fprintf(stderr, "kriegbot match: %v\n", err)
			return cmdflag.Failure
		}
	}
	var held *match.HeldWriter
	if *jsonlPath != "" {
		held = match.NewHeldWriter(match.HeldPath(*jsonlPath), c.Header(), c.Finished)
		c.Held = held
	}
	h := c.Header()
	budget := h.BudgetText()
	if defaulted && (pl1.Limits == nil || pl2.Limits == nil) {
		budget += " (the default: -nodes, -movetime or -tc sets another)"
	}
	rules := h.Rules + " rules"
	if h.Variant != "" {
		rules += ", variant " + h.Variant
	}
	fmt.Fprintf(stderr, "kriegbot match: %s vs %s, %d games (seed %d), budget %s; %s, ply cap %d\n",
		h.P1, h.P2, h.Games, h.Seed, budget, rules, h.MaxPlies)
	prog := newProgress(stderr)
	c.Progress, c.OnHeld = prog.update, prog.held

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, runErr := match.Run(ctx, c)
	prog.done()
	code := cmdflag.OK
	for _, cl := range closers {
		if err := cl(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if held != nil {
		// A stopped run keeps it for -resume while it holds games the match
		// file has not; otherwise it is needed no more.
		keep := runErr != nil && sum.Held > 0
		if err := held.Finish(keep); err != nil && runErr == nil {
			runErr = err
		}
		if keep {
			fmt.Fprintf(stderr, "kriegbot match: %d finished games not yet in %s are kept in %s; -resume writes them\n", sum.Held, *jsonlPath, held.Path())
		}
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "kriegbot match: %v\n", runErr)
		code = cmdflag.Failure
	}
	if err := sum.Write(stdout); err != nil {
		return cmdflag.Failure
	}
	return code
}

func mergeCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match merge", flag.ContinueOnError)
	sprt := fs.String("sprt", "", "also report the SPRT between ELO0,ELO1 over the merged games")
	alpha := fs.Float64("sprt-alpha", 0.05, "SPRT false-positive rate")
	beta := fs.Float64("sprt-beta", 0.05, "SPRT false-negative rate")
	cmdflag.SetUsage(fs, "match merge [-sprt ELO0,ELO1] FILE.jsonl...",
		`Combines the JSON Lines of a match's shards (-jsonl) into one summary.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		return cmdflag.Fail(stderr, "match merge", "no files to merge")
	}
	var s *match.SPRT
	if *sprt != "" {
		var err error
		if s, err = parseSPRT(*sprt, *alpha, *beta); err != nil {
			return cmdflag.Fail(stderr, "match merge", "-sprt: %v", err)
		}
	}
	var shards []*match.Shard
	err := eachFile(fs.Args(), func(path string, r io.Reader) error {
		sh, err := match.ReadShard(path, r)
		shards = append(shards, sh)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot match merge: %v\n", err)
		return cmdflag.Failure
	}
	sum, err := match.Merge(shards, s)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot match merge: %v\n", err)
		return cmdflag.Failure
	}
	if err := sum.Write(stdout); err != nil {
		return cmdflag.Failure
	}
	return cmdflag.OK
}

func statsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match stats", flag.ContinueOnError)
	cmdflag.SetUsage(fs, "match stats FILE.jsonl...",
		`Replays the games of match files (-jsonl) through the referee and prints, per file
and player: attempts and refusals, recaptures taken of those it could make (the
opponent just took a man on a square it could legally take on), stalemates given
and suffered, time forfeits and thinking time; then the recaptures by the safest man
that could take back (king, pawn, knight, bishop, rook, queen): taken, taken where
something defended the capturer, let go where nothing did.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		return cmdflag.Fail(stderr, "match stats", "no files")
	}
	err := eachFile(fs.Args(), func(path string, r io.Reader) error {
		st, err := match.ReadPlayStats(path, r)
		if err == nil {
			fmt.Fprintf(stdout, "%s\n  p1 %s\n  p2 %s\n", path, &st[0], &st[1])
		}
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot match stats: %v\n", err)
		return cmdflag.Failure
	}
	return cmdflag.OK
}

// eachFile opens each file in turn and hands it to read, buffered, stopping
// at the first error.
func eachFile(paths []string, read func(path string, r io.Reader) error) error {
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = read(path, bufio.NewReader(f))
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// buffered is f behind a write buffer; the closer it adds flushes and closes.
func buffered(f *os.File, closers *[]func() error) io.Writer {
	bw := bufio.NewWriterSize(f, 1<<16)
	*closers = append(*closers, func() error {
		if err := bw.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
	return bw
}

func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q is not I/N with 0 ≤ I < N", s)
	}
	return i, n, nil
}

func parseSPRT(s string, alpha, beta float64) (*match.SPRT, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return nil, fmt.Errorf("%q is not ELO0,ELO1", s)
	}
	e0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	e1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err0 != nil || err1 != nil || !(e0 < e1) || e0 < -1000 || e1 > 1000 {
		return nil, fmt.Errorf("%q is not ELO0,ELO1 with -1000 ≤ ELO0 < ELO1 ≤ 1000", s)
	}
	if !(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5) {
		return nil, fmt.Errorf("alpha and beta must lie in (0, 0.5)")
	}
	return &match.SPRT{Elo0: e0, Elo1: e1, Alpha: alpha, Beta: beta}, nil
}

// parseRules reads -rules: a rule set by name (its variant wild 16), or a
// variant of kriegspiel.org, played under the site's rules.
func parseRules(name string) (umpire.Rules, error) {
	r, err := umpire.ParseRules(name)
	if err == nil {
		return r, nil
	}
	v, verr := umpire.ParseVariant(name)
	if verr != nil {
		return r, fmt.Errorf("unknown rules %q (want %s, or a variant: %s)", name,
			strings.Join(umpire.RuleNames(), ", "), strings.Join(umpire.VariantNames(), ", "))
	}
	return umpire.Site(v), nil
}
