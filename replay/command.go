package replay

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"kriegbot/internal/cmdflag"
)

// Command is `kriegbot replay [flags] FILE`.
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	from := fs.Int("from", 0, "show attempts from this ply (legal moves played before the attempt)")
	to := fs.Int("to", 0, "show attempts up to this ply (0: to the end)")
	htmlOut := fs.String("html", "", "also write one self-contained HTML page with every shown attempt to this file")
	top := fs.Int("top", 5, "candidates shown per attempt")
	plain := fs.Bool("plain", false, "print every attempt even on a terminal (no step-through)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kriegbot replay [flags] FILE")
		fmt.Fprintln(stderr, "\nRe-runs a game from the daemon's per-game record (logs/games/*.jsonl): rebuilds")
		fmt.Fprintln(stderr, "the player from the recorded spec and seed, feeds it the recorded answers and")
		fmt.Fprintln(stderr, "re-runs every search with the recorded iterations. Shows per attempt our men,")
		fmt.Fprintln(stderr, "the belief's heat maps, the referee's answers, the candidates and the clocks;")
		fmt.Fprintln(stderr, "the last line counts the attempts where the re-run chose differently (exit 1).")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return cmdflag.Fail(stderr, "replay", "want one FILE, got %d arguments", fs.NArg())
	}
	if *from < 0 || *to < 0 || (*to > 0 && *to < *from) {
		return cmdflag.Fail(stderr, "replay", "-from %d -to %d is not a range of plies", *from, *to)
	}
	if *top < 1 || *top > maxTop {
		return cmdflag.Fail(stderr, "replay", "-top %d: want 1 to %d", *top, maxTop)
	}
	name := fs.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	defer f.Close()
	rec, err := ReadRecord(f, name)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	res, err := Run(context.Background(), rec, Options{From: *from, To: *to, Top: *top})
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	return finish(res, *htmlOut, *plain, stdout, stderr)
}

// finish writes the replay: HTML if asked, then the step-through view on a
// terminal or the text of every attempt; exit 1 on differing choices.
func finish(res *Result, htmlOut string, plain bool, stdout, stderr io.Writer) int {
	if htmlOut != "" {
		if err := writeHTMLFile(htmlOut, res); err != nil {
			fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
			return cmdflag.Failure
		}
	}
	var err error
	if t, ok := terminal(stdout); ok && !plain {
		err = Browse(os.Stdin, t, res)
	} else {
		err = WriteText(stdout, res, false)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	if res.Differing > 0 {
		fmt.Fprintf(stderr, "kriegbot replay: %d of %d attempts chose differently (first at %s:%d)\n",
			res.Differing, res.Attempts, res.Record.Name, res.FirstDiffering)
		return cmdflag.Failure
	}
	return cmdflag.OK
}

// terminal returns stdout as a terminal file, if it is one.
func terminal(w io.Writer) (*os.File, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return nil, false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil, false
	}
	return f, true
}
