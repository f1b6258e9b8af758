package beliefcmd

import (
	"flag"
	"fmt"
	"io"
	"os"

	"kriegbot/engine/belief"
	"kriegbot/engine/belief/beliefcheck"
	"kriegbot/engine/oppmodel"
	"kriegbot/internal/cmdflag"
)

// Command runs "kriegbot belief SUBCOMMAND": today only "check".
func Command(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: kriegbot belief check [-v] [-keep N] [-model uniform|default|FILE] FILE...")
		if len(args) == 0 {
			return cmdflag.Usage
		}
		return cmdflag.OK
	}
	if args[0] != "check" {
		return cmdflag.Fail(stderr, "belief", "unknown subcommand %q (want check)", args[0])
	}
	return checkCommand(args[1:], stdout, stderr)
}

func checkCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("belief check", flag.ContinueOnError)
	keep := fs.Int("keep", 10, "how many soundness violations and bad lines to show")
	verbose := fs.Bool("v", false, "also break the legality figures down by kind of attempt")
	model := fs.String("model", "uniform", "opponent model driving the spread: uniform (no data), default (the embedded model) or a model FILE")
	cmdflag.SetUsage(fs, "belief check [-v] [-keep N] [-model uniform|default|FILE] FILE...",
		`Replays referee fixture files (JSON Lines, plain or gzip: wild 16's, or the
variant fixtures of engine/umpire/testdata/variants, each reported alone) from both
sides' points of view, each belief hearing only what its side hears, and prints
soundness violations and the log-loss of the predicted legality, capture and
check messages against the constant predictor. Exit 1 on any violation.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		return cmdflag.Fail(stderr, "belief check", "missing FILE")
	}
	prior, err := loadPrior(*model)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot belief check: %v\n", err)
		return cmdflag.Failure
	}
	var rep beliefcheck.Report
	opt := beliefcheck.Options{Keep: *keep, Prior: prior}
	if cmdflag.IsTerminal(stderr) {
		opt.Progress = func(games int) {
			if games%10 == 0 {
				fmt.Fprintf(stderr, "\r%d games", games)
			}
		}
	}
	failed, variants := false, false
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot belief check: %v\n", err)
			return cmdflag.Failure
		}
		in, variant, err := beliefcheck.IsVariantFile(f)
		if err == nil && variant {
			// A variant's figures stand alone: one report per file.
			variants = true
			var vrep beliefcheck.Report
			err = beliefcheck.RunVariants(in, opt, &vrep)
			f.Close()
			if opt.Progress != nil {
				fmt.Fprint(stderr, "\r")
			}
			fmt.Fprintf(stdout, "%s: %d games of %s\n", name, vrep.Games, vrep.Variant)
			if err != nil {
				fmt.Fprintf(stderr, "kriegbot belief check: %s: %v\n", name, err)
			}
			if *verbose {
				beliefcheck.PrintBreakdown(stdout, &vrep)
			}
			beliefcheck.Print(stdout, &vrep)
			failed = failed || err != nil || vrep.Violations > 0 || vrep.BadLines > 0
			continue
		}
		before := rep.Games
		if err == nil {
			err = beliefcheck.Run(in, opt, &rep)
		}
		f.Close()
		if opt.Progress != nil {
			fmt.Fprint(stderr, "\r")
		}
		fmt.Fprintf(stdout, "%s: %d games\n", name, rep.Games-before)
		if err != nil {
			// The figures so far still say something: print them, then fail.
			fmt.Fprintf(stderr, "kriegbot belief check: %s: %v\n", name, err)
			beliefcheck.Print(stdout, &rep)
			return cmdflag.Failure
		}
	}
	if rep.Games > 0 || !variants {
		if *verbose {
			beliefcheck.PrintBreakdown(stdout, &rep)
		}
		beliefcheck.Print(stdout, &rep)
	}
	if failed || rep.Violations > 0 || rep.BadLines > 0 {
		return cmdflag.Failure
	}
	return cmdflag.OK
}

// loadPrior returns the opponent model named on the command line.
func loadPrior(name string) (belief.Prior, error) {
	switch name {
	case "uniform":
		return belief.UniformPrior{}, nil
	case "default":
		m, err := oppmodel.Default()
		if err != nil {
			return nil, fmt.Errorf("default model: %w", err)
		}
		return m, nil
	}
	c, err := oppmodel.LoadCounts(name)
	if err != nil {
		return nil, err
	}
	return oppmodel.NewModel(c), nil
}
