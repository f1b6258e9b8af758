package modelcmd

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"kriegbot/engine/oppmodel"
	"kriegbot/internal/cmdflag"
	"kriegbot/opponent"
)

// merge adds model files together: counts are exact integer sums, so
// models built from shards of a set of games merge into the model of the
// whole set, byte for byte.
func merge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model merge", flag.ContinueOnError)
	out := fs.String("o", "", "write the merged model to this file (required)")
	source := fs.String("source", "", "what the merged games are (default: the sources joined with \" + \")")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usageText); fs.PrintDefaults() }
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	switch {
	case *out == "":
		return cmdflag.Fail(stderr, "model merge", "-o FILE is required")
	case fs.NArg() < 2:
		return cmdflag.Fail(stderr, "model merge", "give at least two model files")
	}
	var total *oppmodel.Counts
	var sources []string
	for _, name := range fs.Args() {
		c, err := oppmodel.LoadCounts(name)
		if err != nil {
			fmt.Fprintf(stderr, "kriegbot model merge: %v\n", err)
			return cmdflag.Failure
		}
		sources = append(sources, c.Meta.Source)
		if total == nil {
			total = c
			continue
		}
		if err := total.Add(c); err != nil {
			fmt.Fprintf(stderr, "kriegbot model merge: %s: %v\n", name, err)
			return cmdflag.Failure
		}
	}
	src := *source
	if src == "" {
		src = strings.Join(sources, " + ")
	}
	if err := oppmodel.CheckMetaString(src); err != nil {
		return cmdflag.Fail(stderr, "model merge", "source: %v (give a shorter -source)", err)
	}
	total.Meta = oppmodel.Meta{Builder: Builder, Source: src}
	data := total.AppendFile(nil)
	if _, err := oppmodel.DecodeCounts(data); err != nil {
		fmt.Fprintf(stderr, "kriegbot model merge: the merged model does not read back: %v\n", err)
		return cmdflag.Failure
	}
	if err := opponent.WriteFileAtomic(*out, data); err != nil {
		fmt.Fprintf(stderr, "kriegbot model merge: %v\n", err)
		return cmdflag.Failure
	}
	fmt.Fprintf(stdout, "model merge: %d files; games white %d, black %d; %d plies; wrote %s (%d bytes)\n",
		fs.NArg(), total.Games[0], total.Games[1], total.TotalPlies(), *out, len(data))
	return cmdflag.OK
}
