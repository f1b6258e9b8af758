package beliefcheck

import (
	"fmt"
	"io"
)

// Print writes the report; its last line is
// "belief check: <G> games, <V> soundness violations, legal log-loss <x> (constant <y>)".
func Print(w io.Writer, rep *Report) {
	for _, e := range rep.FirstBad {
		fmt.Fprintf(w, "bad input: %v\n", e)
	}
	if rep.BadLines > len(rep.FirstBad) {
		fmt.Fprintf(w, "... %d more bad lines\n", rep.BadLines-len(rep.FirstBad))
	}
	for _, v := range rep.First {
		fmt.Fprintf(w, "violation: %s\n", v)
	}
	for _, v := range rep.FirstSurprises {
		fmt.Fprintf(w, "surprise: %s\n", v)
	}
	fmt.Fprintf(w, "attempts %d, belief states checked %d, surprises %d\n", rep.Attempts, rep.States, rep.Surprises)
	fmt.Fprintf(w, "legal   (all attempts, %d):            log-loss %.4f (constant %.4f)\n", rep.Legal.N, rep.Legal.LogLoss(), rep.Legal.Constant())
	fmt.Fprintf(w, "capture (legal moves, none/pawn/piece, %d): log-loss %.4f (constant %.4f)\n", rep.Capture.N, rep.Capture.LogLoss(), rep.Capture.Constant())
	fmt.Fprintf(w, "check   (legal moves not ending the game, %d): log-loss %.4f (constant %.4f)\n", rep.Check.N, rep.Check.LogLoss(), rep.Check.Constant())
	variant := ""
	if rep.Variant != "" {
		variant = " " + rep.Variant
	}
	fmt.Fprintf(w, "belief check:%s %d games, %d soundness violations, legal log-loss %.4f (constant %.4f)\n",
		variant, rep.Games, rep.Violations, rep.Legal.LogLoss(), rep.Legal.Constant())
}

// PrintBreakdown writes the legality figures by kind of attempt, out of check
// and in check.
func PrintBreakdown(w io.Writer, rep *Report) {
	fmt.Fprintln(w, "legality by kind of attempt:            n   legal  log-loss  constant")
	for c, state := range [2]string{"not in check", "in check"} {
		for k := range NumKinds {
			m := &rep.LegalBy[c][k]
			if m.N == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-12s %-14s %8d  %5.3f  %8.4f  %8.4f\n", state, KindNames[k], m.N, m.counts[1]/float64(m.N), m.LogLoss(), m.Constant())
		}
	}
}
