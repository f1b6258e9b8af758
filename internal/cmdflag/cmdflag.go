package cmdflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes shared by all subcommands.
const (
	OK      = 0
	Failure = 1
	Usage   = 2
)

// Parse parses args into fs. When it returns done, the caller returns code at
// once: 0 after -h (usage printed to stderr), 2 after a bad flag (one line
// printed to stderr). The flag set's Usage function is used for -h only.
func Parse(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, done bool) {
	// The flag package prints the usage on every error; keep it for -h only.
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	fs.Usage = usage
	switch {
	case err == nil:
		return OK, false
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(stderr, "usage of kriegbot %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		return OK, true
	}
	return Fail(stderr, fs.Name(), "%v", err), true
}

// Fail prints "kriegbot NAME: reason (run kriegbot NAME -h for help)" and returns 2.
func Fail(stderr io.Writer, name, format string, args ...any) int {
	fmt.Fprintf(stderr, "kriegbot %s: %s (kriegbot %s -h for help)\n", name, fmt.Sprintf(format, args...), name)
	return Usage
}
