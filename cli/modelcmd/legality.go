package modelcmd

import (
	"fmt"
	"io"

	"kriegbot/engine/belief"
	"kriegbot/engine/belief/beliefcheck"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/sitegames"
)

// scoredPrior is a prior to score and the name it is printed under.
type scoredPrior struct {
	name  string
	prior belief.Prior
}

// legalityRun is what the legality pass measured, one metric per prior.
type legalityRun struct {
	legal   []beliefcheck.Metric
	games   int
	skipped int
}

// legality replays the stored games of variant (the slice eval reads)
// through the site's referee and both sides' beliefs, once per prior, and
// scores each mover's predicted legality of its attempts against the
// referee's verdicts: the log-loss of the model as the daemon uses it,
// since what the belief thinks of the opponent's men is what makes our
// attempts legal or not. With humans, only the attempts made against a
// person are scored. Games the referee and the store disagree on are
// skipped with a line on stderr (at most maxSkips of them).
func legality(dir, variant string, humans bool, slice heldOut, priors []scoredPrior, stderr io.Writer, maxSkips int) (legalityRun, error) {
	var run legalityRun
	v, err := umpire.ParseVariant(variant)
	if err != nil {
		return run, err
	}
	st, _, err := sitegames.Open(dir) // its warnings were printed by the first pass
	if err != nil {
		return run, err
	}
	run.legal = make([]beliefcheck.Metric, len(priors))
	u := umpire.New(umpire.Site(v))
	skip := func(msg string) {
		run.skipped++
		if run.skipped <= maxSkips {
			fmt.Fprintln(stderr, msg)
		}
	}
	err = st.Read(variant, func(g sitegames.Game) error {
		if !slice.takes(g.ID) || (humans && !g.HasHuman()) {
			return nil
		}
		place := fmt.Sprintf("%s: game %s: legality", st.Path(variant), g.ID)
		stored, err := g.Attempts()
		if err != nil {
			skip(fmt.Sprintf("%s: skipped: %v", place, err))
			return nil
		}
		attempts := make([]beliefcheck.Attempt, len(stored))
		for i, a := range stored {
			attempts[i] = beliefcheck.Attempt{Move: a.Move, Text: a.Text, Moved: a.Done, Answer: a.Answer}
		}
		// Each prior's figures count only games every prior replays, so
		// that the rows compare the same attempts.
		reps := make([]beliefcheck.Report, len(priors))
		for i, p := range priors {
			opt := beliefcheck.Options{Prior: p.prior}
			if humans { // score the mover only where its opponent is a person
				opt.Unscored[chess.White] = g.Black.Bot
				opt.Unscored[chess.Black] = g.White.Bot
			}
			if err := beliefcheck.ReplayGame(u, chess.StartPosition(), g.ID, 0, attempts, opt, &reps[i]); err != nil {
				skip(fmt.Sprintf("%s: skipped: %v", place, err))
				return nil
			}
		}
		for i := range reps {
			run.legal[i].Merge(reps[i].Legal)
		}
		run.games++
		return nil
	}, func(string, error) {}) // unreadable lines were counted by the first pass
	return run, err
}

// printLegality prints the legality pass: attempts, then each prior's
// log-loss beside the constant predictor's.
func printLegality(w io.Writer, run legalityRun, priors []scoredPrior) {
	if run.games == 0 || run.legal[0].N == 0 {
		fmt.Fprintf(w, "legality: no attempt scored (%d games replayed, %d skipped)\n", run.games, run.skipped)
		return
	}
	first := &run.legal[0]
	fmt.Fprintf(w, "legality of the attempts, log-loss in nats (%d attempts in %d games, %d skipped):\n", first.N, run.games, run.skipped)
	for i, p := range priors {
		fmt.Fprintf(w, "  %-30s %.4f\n", p.name, run.legal[i].LogLoss())
	}
	fmt.Fprintf(w, "  %-30s %.4f\n", "constant (the attempts' rate)", first.Constant())
}
