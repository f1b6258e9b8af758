package modelcmd

import (
	"flag"
	"fmt"
	"io"

	"kriegbot/engine/belief"
	"kriegbot/engine/oppmodel"
	"kriegbot/internal/cmdflag"
	"kriegbot/opponent"
)

func eval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model eval", flag.ContinueOnError)
	modelFile := fs.String("model", "", "model file to score (default: the embedded default)")
	games := fs.String("games", "", "score on the games `model fetch` stored in this folder")
	variant := fs.String("variant", "wild16", "with -games: the rule variant whose games are read")
	humans := fs.Bool("humans", false, "with -games: score only the moves of people")
	holdout := fs.Int("holdout", 0, "with -games: score only the held-out slice, one game in N (by id), that `model build -holdout N` left out")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usageText); fs.PrintDefaults() }
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	switch {
	case fs.NArg() == 0 && *games == "":
		return cmdflag.Fail(stderr, "model eval", "no games given: PGN files or -games DIR")
	case *holdout < 0 || *holdout == 1:
		return cmdflag.Fail(stderr, "model eval", "-holdout %d: want 0 (all) or at least 2", *holdout)
	}
	var def *oppmodel.Counts
	var err error
	name := "embedded default"
	if *modelFile == "" {
		def, err = oppmodel.DefaultCounts()
	} else {
		name = *modelFile
		def, err = oppmodel.LoadCounts(*modelFile)
	}
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot model eval: %v\n", err)
		return cmdflag.Failure
	}
	b := newBuilder(def.Horizon, stderr, 0)
	for _, f := range fs.Args() {
		if err := b.readFile(f); err != nil {
			b.endProgress()
			fmt.Fprintf(stderr, "kriegbot model eval: %v\n", err)
			return cmdflag.Failure
		}
	}
	if *games != "" {
		if _, err := b.readFetched(*games, *variant, *humans, heldOut{Every: *holdout, Only: true}); err != nil {
			b.endProgress()
			fmt.Fprintf(stderr, "kriegbot model eval: %v\n", err)
			return cmdflag.Failure
		}
	}
	b.endProgress()
	if b.used == 0 {
		fmt.Fprintf(stderr, "kriegbot model eval: no usable games (%d skipped)\n", b.skipped)
		return cmdflag.Failure
	}
	model := oppmodel.NewModel(def)
	scores := opponent.Evaluate(model, b.counts)
	fmt.Fprintf(stdout, "model eval: %s on %d games (%d skipped); bits per unit, model vs uniform\n", name, b.used, b.skipped)
	fmt.Fprintf(stdout, "%-6s %14s %14s %14s\n", "class", "opening 1-12", "middle 13-40", fmt.Sprintf("late 41-%d", def.Horizon))
	var all [3]float64
	for cls := range oppmodel.NumClasses {
		fmt.Fprintf(stdout, "%-6s", cls)
		var cells [3]opponent.MoveScore
		for col := range 2 {
			for t, s := range scores[col][cls] {
				if t == 0 {
					continue // the start position is not a prediction
				}
				p := 2
				switch {
				case t <= openingEnd:
					p = 0
				case t <= middleEnd:
					p = 1
				}
				cells[p].Games += s.Games
				cells[p].Bits += s.Bits
				cells[p].Uniform += s.Uniform
				cells[p].Floored += s.Floored
			}
		}
		for _, c := range cells {
			all[0] += c.Bits
			all[1] += c.Uniform
			all[2] += c.Floored
			if c.Games == 0 {
				fmt.Fprintf(stdout, " %14s", "-")
				continue
			}
			fmt.Fprintf(stdout, " %6.2f / %5.2f", c.Bits/c.Games, c.Uniform/c.Games)
		}
		fmt.Fprintln(stdout)
	}
	defaultModel := model // the embedded default unless -model
	if *modelFile != "" {
		dc, err := oppmodel.DefaultCounts()
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot model eval: %v\n", err)
			return cmdflag.Failure
		}
		defaultModel = oppmodel.NewModel(dc)
	}
	scoredAny := all[1] > 0
	if !scoredAny {
		fmt.Fprintln(stderr, "kriegbot model eval: no unit scored: the model serves no move these games reach")
	} else {
		printBitsSummary(stdout, name, *modelFile != "", model, defaultModel, b, scores, all, def.Horizon)
	}
	if *games != "" {
		// The belief moves the units by the paper's rule, as the players'
		// beliefs do (belief.WithMovers).
		priors := []scoredPrior{{name, belief.PaperMovers{Prior: model}}}
		if *modelFile != "" {
			priors = append(priors, scoredPrior{"embedded default", belief.PaperMovers{Prior: defaultModel}})
		}
		priors = append(priors, scoredPrior{"no model (uniform prior)", belief.UniformPrior{}})
		run, err := legality(*games, *variant, *humans, heldOut{Every: *holdout, Only: true}, priors, stderr, 5)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot model eval: %v\n", err)
			return cmdflag.Failure
		}
		printLegality(stdout, run, priors)
		scoredAny = scoredAny || (run.games > 0 && run.legal[0].N > 0)
	}
	if !scoredAny {
		fmt.Fprintln(stderr, "kriegbot model eval: nothing scored")
		return cmdflag.Failure
	}
	return cmdflag.OK
}

// printBitsSummary prints the rest of the occupancy figures: the units on
// squares the model all but rules out, the trends' agreement, and the bits
// against uniform and, for a model file, against the embedded default, the
// model a variant falls back to: is the built model worth using?
func printBitsSummary(stdout io.Writer, name string, isFile bool, model, defaultModel *oppmodel.Model, b *builder, scores [2][oppmodel.NumClasses][]opponent.MoveScore, all [3]float64, horizon int) {
	scored, _ := totals(scores)
	fmt.Fprintf(stdout, "units on squares the model gives < %g: %.4f%%\n", opponent.EvalFloor, 100*all[2]/scored)
	agree := opponent.TrendAgreement(model, b.counts)
	fmt.Fprint(stdout, "trend agreement with the held-out games (cosine, white/black):")
	for cls := range oppmodel.NumClasses {
		fmt.Fprintf(stdout, " %s %.3f/%.3f", cls, agree[0][cls], agree[1][cls])
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "model eval: %.1f%% fewer bits than uniform\n", 100*(1-all[0]/all[1]))
	if isFile {
		_, d := totals(opponent.Evaluate(defaultModel, b.counts))
		fmt.Fprintf(stdout, "bits per unit over moves 1-%d: %s %.4f, embedded default %.4f, uniform %.4f\n",
			horizon, name, all[0]/scored, d/scored, all[1]/scored)
	}
}

// totals adds up a model's scores over every move but the start: the
// games scored and their bits.
func totals(scores [2][oppmodel.NumClasses][]opponent.MoveScore) (games, bits float64) {
	for col := range scores {
		for cls := range scores[col] {
			for t, s := range scores[col][cls] {
				if t > 0 {
					games += s.Games
					bits += s.Bits
				}
			}
		}
	}
	return games, bits
}
