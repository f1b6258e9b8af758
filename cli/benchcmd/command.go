package benchcmd

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"kriegbot/bench"
	"kriegbot/internal/cmdflag"
)

// Command runs "kriegbot bench [-only NAME] [-min DURATION]".
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "run only the named figure")
	min := fs.Duration("min", time.Second, "least time spent on each figure (the work is repeated until then)")
	all := bench.All()
	var figures strings.Builder
	figures.WriteString("Prints one line per figure: <name> <value> <unit>. Figures:\n")
	for _, b := range all {
		fmt.Fprintf(&figures, "  %-20s %s\n", b.Name, b.Summary)
	}
	cmdflag.SetUsage(fs, "bench [-only NAME] [-min DURATION]", figures.String())
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return cmdflag.Fail(stderr, "bench", "unexpected argument %q", fs.Arg(0))
	}
	ran := false
	for _, b := range all {
		if *only != "" && b.Name != *only {
			continue
		}
		ran = true
		f, err := b.Run(*min)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot bench: %s: %v\n", b.Name, err)
			return cmdflag.Failure
		}
		fmt.Fprintf(stdout, "%s %.0f %s\n", f.Name, f.Value, f.Unit)
	}
	if !ran {
		names := make([]string, len(all))
		for i, b := range all {
			names[i] = b.Name
		}
		return cmdflag.Fail(stderr, "bench", "unknown figure %q (want one of %s)", *only, strings.Join(names, ", "))
	}
	return 0
}
