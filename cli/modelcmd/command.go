package modelcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/internal/cmdflag"
	"kriegbot/opponent"
	"kriegbot/opponent/pgnread"
	"kriegbot/protocol/ksapi"
)

// DefaultModels is where `model build -games` writes a variant's model by
// default: engine.variant_models's default, where the daemon looks.
const DefaultModels = "data/models"

// Builder is written into every model this command builds.
const Builder = "kriegbot model build 1"

// Command runs `kriegbot model SUBCOMMAND`.
func Command(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return cmdflag.Fail(stderr, "model", "missing subcommand: fetch, build, show, eval or merge")
	}
	switch args[0] {
	case "fetch":
		return fetch(args[1:], stdout, stderr)
	case "build":
		return build(args[1:], stdout, stderr)
	case "show":
		return show(args[1:], stdout, stderr)
	case "eval":
		return eval(args[1:], stdout, stderr)
	case "merge":
		return merge(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stderr, usageText) // usage goes to stderr, as for every command
		return cmdflag.OK
	}
	return cmdflag.Fail(stderr, "model", "unknown subcommand %q: fetch, build, show, eval or merge", args[0])
}

const usageText = `usage: kriegbot model fetch [-config FILE] [-url URL] [-dir DIR] [-humans] [-since DATE] [-max N]
       kriegbot model build [-o FILE] [-source TEXT] [-horizon N] [-games DIR [-variant V] [-humans]] [PGN...]
       kriegbot model show [FILE]
       kriegbot model eval [-model FILE] [-games DIR [-variant V] [-humans] [-holdout N]] [PGN...]
       kriegbot model merge -o FILE [-source TEXT] MODEL...

fetch stores finished games from kriegspiel.org, politely, once each
(model fetch -h). build reads game records (PGN; "-" is standard input) and
the games fetch stored (-games), skips and counts broken games with the
reason, and writes an opponent model file (docs/opponent-model.md). show
prints a model's metadata, coverage and parameters (the embedded default
when FILE is omitted). eval scores a model (the default unless -model) on
held-out games: bits per unit to say where each unit stands, against a
uniform guess, by class and phase, and how well its trends agree with the
games'; with -games, also the log-loss of the belief's predicted legality
of each stored attempt, the model against the embedded default and no
model (with -humans, the attempts made against people). merge adds models built from disjoint sets of games (shards) into
the model of all of them, exactly.
`

func build(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model build", flag.ContinueOnError)
	out := fs.String("o", "", "write the model to this file (required, but with -games: "+opponent.ModelPath(DefaultModels, "VARIANT")+", where the daemon finds it)")
	source := fs.String("source", "", "what the games are, for the model's metadata (default: the PGN file names)")
	horizon := fs.Int("horizon", oppmodel.DefaultHorizon, "moves per game recorded in the occupancy tables")
	maxSkips := fs.Int("show-skips", 20, "skipped games listed one by one on stderr (the rest are counted)")
	games := fs.String("games", "", "also read the games `model fetch` stored in this folder")
	variant := fs.String("variant", "wild16", "with -games: the rule variant whose games are read")
	humans := fs.Bool("humans", false, "with -games: count only the moves of people, not of bots")
	holdout := fs.Int("holdout", 0, "with -games: leave out the held-out slice, one game in N (by id), for `model eval -holdout N`")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usageText); fs.PrintDefaults() }
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if *out == "" && *games != "" {
		*out = opponent.ModelPath(DefaultModels, *variant)
	}
	switch {
	case *out == "":
		return cmdflag.Fail(stderr, "model build", "-o FILE is required")
	case fs.NArg() == 0 && *games == "":
		return cmdflag.Fail(stderr, "model build", "no games given: PGN files or -games DIR")
	case !ksapi.IsRuleVariant(*variant):
		return cmdflag.Fail(stderr, "model build", "-variant %q: want one of %s", *variant, strings.Join(ksapi.RuleVariants(), ", "))
	case *horizon < 1 || *horizon > oppmodel.MaxHorizon:
		return cmdflag.Fail(stderr, "model build", "-horizon %d out of range 1..%d", *horizon, oppmodel.MaxHorizon)
	case *holdout < 0 || *holdout == 1:
		return cmdflag.Fail(stderr, "model build", "-holdout %d: want 0 (none) or at least 2", *holdout)
	case oppmodel.CheckMetaString(*source) != nil:
		return cmdflag.Fail(stderr, "model build", "-source: %v", oppmodel.CheckMetaString(*source))
	}
	b := newBuilder(*horizon, stderr, *maxSkips)
	for _, name := range fs.Args() {
		if err := b.readFile(name); err != nil {
			b.endProgress()
			fmt.Fprintf(stderr, "kriegbot model build: %v\n", err)
			return cmdflag.Failure
		}
	}
	var fetched string
	if *games != "" {
		var err error
		if fetched, err = b.readFetched(*games, *variant, *humans, heldOut{Every: *holdout}); err != nil {
			b.endProgress()
			fmt.Fprintf(stderr, "kriegbot model build: %v\n", err)
			return cmdflag.Failure
		}
	}
	b.endProgress()
	if b.used == 0 {
		fmt.Fprintf(stderr, "kriegbot model build: no usable games (%d skipped)\n", b.skipped)
		return cmdflag.Failure
	}
	src := *source
	if src == "" {
		var parts []string
		if fs.NArg() > 0 {
			parts = append(parts, "PGN: "+strings.Join(baseNames(fs.Args()), ", "))
		}
		if fetched != "" {
			parts = append(parts, fetched)
		}
		src = strings.Join(parts, "; ")
	}
	b.counts.Meta = oppmodel.Meta{Builder: Builder, Source: src}
	data := b.counts.AppendFile(nil)
	// Read the file back before writing it: what we write must load.
	back, err := oppmodel.DecodeCounts(data)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot model build: the model does not read back: %v\n", err)
		return cmdflag.Failure
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintf(stderr, "kriegbot model build: %v\n", err)
		return cmdflag.Failure
	}
	if err := opponent.WriteFileAtomic(*out, data); err != nil {
		fmt.Fprintf(stderr, "kriegbot model build: %v\n", err)
		return cmdflag.Failure
	}
	b.summary(stdout, oppmodel.NewModel(back))
	fmt.Fprintf(stdout, "wrote %s (%d bytes, format %d)\n", *out, len(data), oppmodel.FormatVersion)
	return cmdflag.OK
}

func newBuilder(horizon int, stderr io.Writer, maxSkips int) *builder {
	return &builder{
		counts:   oppmodel.NewCounts(horizon),
		stderr:   stderr,
		progress: cmdflag.IsTerminal(stderr),
		maxSkips: maxSkips,
		reasons:  map[string]int{},
	}
}

type builder struct {
	counts   *oppmodel.Counts
	stderr   io.Writer
	progress bool
	lastShow time.Time
	shown    bool
	maxSkips int
	used     int
	skipped  int
	listed   int
	reasons  map[string]int
}

func (b *builder) readFile(name string) error {
	var r io.Reader
	if name == "-" {
		r = os.Stdin
		name = "stdin"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	pr := pgnread.NewReader(r, name, pgnread.Limits{Workers: runtime.GOMAXPROCS(0)})
	defer pr.Close()
	for {
		g, err := pr.Next()
		var se *pgnread.SkipError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &se):
			b.skip(se.Error(), se.Reason)
		case err != nil:
			return err
		default:
			if err := b.counts.AddGame(g.Moves, [2]bool{true, true}); err != nil {
				b.skip(fmt.Sprintf("%s:%d: game skipped: %v", name, g.Line, err), "illegal move")
			} else {
				b.used++
			}
		}
		b.showProgress()
	}
}

func (b *builder) skip(msg, reason string) {
	b.skipped++
	b.reasons[reasonKind(reason)]++
	if b.listed < b.maxSkips {
		b.endProgress()
		fmt.Fprintln(b.stderr, msg)
		b.listed++
	}
}

// reasonKind groups skip reasons for the summary: the text before the first
// detail (a colon, a digit-bearing part or a parenthesis).
func reasonKind(reason string) string {
	switch {
	case strings.HasPrefix(reason, "PGN:"):
		return "PGN the library refused"
	case strings.Contains(reason, "longer than"):
		return "game too long (bytes)"
	case strings.Contains(reason, "plies, more than"):
		return "game too long (plies)"
	case strings.Contains(reason, "not legal"), reason == "illegal move":
		return "illegal move"
	case strings.Contains(reason, "did not finish"):
		return "PGN library stalled"
	}
	return reason
}

func (b *builder) showProgress() {
	if !b.progress || time.Since(b.lastShow) < 200*time.Millisecond {
		return
	}
	b.lastShow = time.Now()
	fmt.Fprintf(b.stderr, "\rmodel build: %d games used, %d skipped", b.used, b.skipped)
	b.shown = true
}

func (b *builder) endProgress() {
	if b.shown {
		fmt.Fprint(b.stderr, "\r\033[K")
		b.shown = false
	}
}

// Phases by full move number, for the coverage summary.
const (
	openingEnd = 12
	middleEnd  = 40
)

func (b *builder) summary(w io.Writer, m *oppmodel.Model) {
	c := b.counts
	fmt.Fprintf(w, "model build: %d games used, %d skipped, %d plies (white %d, black %d)\n",
		b.used, b.skipped, c.TotalPlies(), c.Plies[0], c.Plies[1])
	if b.skipped > 0 {
		kinds := make([]string, 0, len(b.reasons))
		for k := range b.reasons {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			fmt.Fprintf(w, "  skipped: %d %s\n", b.reasons[k], k)
		}
	}
	PrintCoverage(w, c)
	PrintModel(w, m)
}

// PrintCoverage prints plies per phase and how many games reach chosen move
// numbers.
func PrintCoverage(w io.Writer, c *oppmodel.Counts) {
	var opening, middle uint64
	for col := range 2 {
		cov := c.Coverage[col][oppmodel.King]
		for t := 1; t < len(cov); t++ {
			switch {
			case t <= openingEnd:
				opening += cov[t]
			case t <= middleEnd:
				middle += cov[t]
			}
		}
	}
	end := c.TotalPlies() - opening - middle
	fmt.Fprintf(w, "phases: opening (moves 1-%d) %d plies, middlegame (%d-%d) %d plies, endgame (%d+) %d plies\n",
		openingEnd, opening, openingEnd+1, middleEnd, middle, middleEnd+1, end)
	fmt.Fprint(w, "games reaching move (white/black):")
	for _, t := range []int{1, 10, 20, 40, 60, 80, 100, 150, 200} {
		if t > c.Horizon {
			break
		}
		fmt.Fprintf(w, " %d: %d/%d", t, c.Coverage[0][oppmodel.King][t], c.Coverage[1][oppmodel.King][t])
	}
	fmt.Fprintln(w)
}

// PrintModel prints what a model serves: horizons and fitted parameters.
func PrintModel(w io.Writer, m *oppmodel.Model) {
	horizon := func(c chess.Color) string {
		if h := m.Horizon(c); h >= 0 {
			return fmt.Sprintf("%d moves", h)
		}
		return "none"
	}
	fmt.Fprintf(w, "served horizon: white %s, black %s (a move is served while at least %d games reach it)\n",
		horizon(chess.White), horizon(chess.Black), oppmodel.MinServeGames)
	for _, f := range m.ParamsFit() {
		how := fmt.Sprintf("default (only %d trials, need %d)", f.Tally.Trials, oppmodel.MinParamTrials)
		if f.Fitted {
			how = fmt.Sprintf("fitted: %d of %d", f.Tally.Hits, f.Tally.Trials)
		}
		fmt.Fprintf(w, "param %-16s %.3f  %s\n", f.Event, f.Value, how)
	}
	mf := m.MaterialFit()
	how := fmt.Sprintf("default (only %d positions, need %d)", mf.Positions, oppmodel.MinParamTrials)
	if mf.Fitted {
		how = fmt.Sprintf("fitted: mean piece shares over %d positions", mf.Positions)
	}
	fmt.Fprintf(w, "param line/knight     %.3f/%.3f  %s\n", mf.LineFactor, mf.KnightFactor, how)
}

func show(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model show", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usageText) }
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	var c *oppmodel.Counts
	var err error
	name := "embedded default"
	switch fs.NArg() {
	case 0:
		c, err = oppmodel.DefaultCounts()
	case 1:
		name = fs.Arg(0)
		c, err = oppmodel.LoadCounts(name)
	default:
		return cmdflag.Fail(stderr, "model show", "one FILE at most")
	}
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot model show: %v\n", err)
		return cmdflag.Failure
	}
	m := oppmodel.NewModel(c)
	fmt.Fprintf(stdout, "model: %s\nbuilder: %s\nsource: %s\nhorizon: %d moves\ngames: white %d, black %d; plies %d\n",
		name, c.Meta.Builder, c.Meta.Source, c.Horizon, c.Games[0], c.Games[1], c.TotalPlies())
	PrintCoverage(stdout, c)
	PrintModel(stdout, m)
	return cmdflag.OK
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
		if p == "-" {
			out[i] = "standard input"
		}
	}
	return out
}
