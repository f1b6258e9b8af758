package enginecmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"kriegbot/internal/cmdflag"
	"kriegbot/kep"
)

// Command runs "kriegbot engine": KEP on standard input and output, the log
// on standard error.
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	cmdflag.SetUsage(fs, "engine",
		`Speaks KEP, the Kriegspiel engine protocol (docs/kep.md), on standard input and
output, so that a referee, GUI or tournament harness can drive the engine the way
UCI drives a chess engine. Options are set with setoption; kep lists them.
Diagnostics go to standard error; standard output carries protocol lines only.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return cmdflag.Fail(stderr, "engine", "unexpected argument %q", fs.Arg(0))
	}
	if err := kep.Run(context.Background(), os.Stdin, stdout, stderr, kep.Config{}); err != nil {
		fmt.Fprintf(stderr, "kriegbot engine: %v\n", err)
		return cmdflag.Failure
	}
	return cmdflag.OK
}
