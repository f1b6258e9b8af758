package replay

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/record"
)

// WriteWhy explains attempt n (counted from 1 over the game): what we had
// heard this turn, what the belief made of the opponent, and the few facts
// that decided between the top candidates, in words.
func WriteWhy(w io.Writer, res *Result, n int) error {
	var f *Frame
	for i := range res.Frames {
		if res.Frames[i].Attempt == n {
			f = &res.Frames[i]
		}
	}
	if f == nil {
		return fmt.Errorf("attempt %d is not in the replay (it has %d attempts)", n, res.Attempts)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Why %s at attempt %d (move %d, record line %d)?\n\n", record.MoveText(f.Recorded), f.Attempt, f.Ply/2+1, f.Line)
	// This turn's answers so far: the refusals that ruled attempts out.
	var refused []string
	for i := f.Heard - 1; i >= 0; i-- {
		h := res.Heard[i]
		if !h.Own || len(h.Words) == 0 || h.Words[0] != "Illegal move" {
			break
		}
		refused = append(refused, record.MoveText(h.Move))
	}
	if len(refused) > 0 {
		fmt.Fprintf(&sb, "- The referee had already refused %s this turn: those are no longer asked.\n", strings.Join(refused, ", "))
	}
	if f.Heard > 0 && len(refused) == 0 {
		fmt.Fprintf(&sb, "- The last answer heard: %s.\n", heardText(res.Heard[f.Heard-1]))
	}
	if f.HasHeat {
		fmt.Fprintf(&sb, "- Where the belief puts their king: %s.\n", topSquares(&f.Heat[oppmodel.King], 3))
		fmt.Fprintf(&sb, "- Their pawns most likely on %s; other pieces on %s.\n",
			topSquares(&f.Heat[oppmodel.Pawn], 4), topSquares(&f.Heat[oppmodel.Piece], 4))
	}
	cands := f.Search.Candidates
	if len(cands) == 0 {
		sb.WriteString("- This player keeps no search to explain (it is not a searching player).\n")
		_, err := io.WriteString(w, sb.String())
		return err
	}
	var total int64
	for _, c := range cands {
		total += c.Visits
	}
	// The choice is the most visited attempt, unless that one repeats the
	// position and the root values another above it (search's
	// notRepeating): explain the attempt the re-run chose.
	best, rest := cands[0], cands[1:]
	if i := slices.IndexFunc(cands, func(c players.Candidate) bool { return c.Move == f.Replayed }); i > 0 {
		best, rest = cands[i], slices.Concat(cands[:i], cands[i+1:])
	}
	if best.Move == cands[0].Move {
		fmt.Fprintf(&sb, "- The search spent %d%% of its look at the top %d attempts on %s, and chose the most visited.\n",
			pct(best.Visits, total), len(cands), best.Move)
	} else {
		fmt.Fprintf(&sb, "- The search spent %d%% of its look at the top %d attempts on %s, but chose %s (%d%%)",
			pct(cands[0].Visits, total), len(cands), cands[0].Move, best.Move, pct(best.Visits, total))
		if cands[0].PRepeat >= players.RepeatGivesWay {
			fmt.Fprintf(&sb, ": the most visited would have repeated the position a third time (%.0f%%), and the root valued %s above it", 100*cands[0].PRepeat, best.Move)
		}
		sb.WriteString(".\n")
	}
	sb.WriteString("\n  attempt   share  expected score (pawns)   refused  captures  checks  mates  mated  repeats\n")
	for _, c := range cands {
		mark := " "
		if c.Move == f.Replayed {
			mark = "*"
		}
		fmt.Fprintf(&sb, "%s %-8s %5d%%   %+6.3f (%+6.2f)       %5.0f%%    %5.0f%%   %5.0f%%  %4.0f%%  %4.0f%%    %4.0f%%\n", mark, c.Move,
			pct(c.Visits, total), players.Score(c.Value), c.Value, 100*c.PIllegal, 100*c.PCapture, 100*c.PCheck,
			100*c.PMate, 100*c.PMated, 100*c.PRepeat)
	}
	sb.WriteString("\nIn words:\n")
	for _, line := range reasons(best, rest) {
		fmt.Fprintf(&sb, "- %s\n", line)
	}
	if f.Differs {
		fmt.Fprintf(&sb, "- Note: the re-run chose %s, not %s as recorded: the facts above are the re-run's.\n", f.Replayed, f.Recorded)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// reasons compares the chosen candidate with the runners-up in words.
func reasons(best players.Candidate, rest []players.Candidate) []string {
	var out []string
	out = append(out, fmt.Sprintf("%s was expected to score %+.2f (from -1 lost to +1 won; %+.1f pawns).",
		best.Move, players.Score(best.Value), best.Value))
	switch {
	case best.PIllegal >= 0.5:
		out = append(out, fmt.Sprintf("It was more likely refused than not (%.0f%%), but a refusal costs only time and tells us where their men are.", 100*best.PIllegal))
	case best.PIllegal >= 0.005:
		out = append(out, fmt.Sprintf("The belief gave it a %.0f%% chance of being refused.", 100*best.PIllegal))
	default:
		out = append(out, "The belief was sure it is legal.")
	}
	if best.PCapture > 0.2 {
		out = append(out, fmt.Sprintf("It captures something %.0f%% of the time.", 100*best.PCapture))
	}
	if best.PCheck > 0.2 {
		out = append(out, fmt.Sprintf("It gives check %.0f%% of the time.", 100*best.PCheck))
	}
	if best.PMate >= 0.05 {
		out = append(out, fmt.Sprintf("It mates at once on %.0f%% of the boards the belief allows.", 100*best.PMate))
	}
	if best.PMated >= 0.05 {
		out = append(out, fmt.Sprintf("It leaves them a mate in one %.0f%% of the time, a risk the search took.", 100*best.PMated))
	}
	if best.PRepeat >= 0.05 {
		out = append(out, fmt.Sprintf("It may repeat the position a third time, a draw by repetition %.0f%% of the time.", 100*best.PRepeat))
	}
	if len(rest) > 0 {
		r := rest[0]
		gap := players.Score(best.Value) - players.Score(r.Value)
		why := "a better expected score"
		switch {
		case r.PMated >= best.PMated+0.05:
			why = fmt.Sprintf("safety: %s left them a mate in one %.0f%% of the time", r.Move, 100*r.PMated)
		case r.PRepeat >= best.PRepeat+0.05:
			why = fmt.Sprintf("the lead: %s would have placed our men a third time as they stood twice before, a draw by repetition %.0f%% of the time", r.Move, 100*r.PRepeat)
		case best.PMate >= r.PMate+0.05:
			why = fmt.Sprintf("its chance of mating at once (%.0f%%)", 100*best.PMate)
		case gap < 0.01 && best.PIllegal < r.PIllegal:
			why = "about the same score, and less chance of a refusal"
		case gap < 0.01:
			why = "about the same score; the search looked at it more"
		case best.PCapture > r.PCapture+0.1:
			why = "a better expected score, mostly from its capture chances"
		}
		out = append(out, fmt.Sprintf("The runner-up %s scored %+.2f: %s chose %s for %s (%+.2f).",
			r.Move, players.Score(r.Value), "the search", best.Move, why, gap))
	}
	return out
}

func pct(n, total int64) int64 {
	if total == 0 {
		return 0
	}
	return 100 * n / total
}

// topSquares names the k likeliest squares of a heat map with their chances.
func topSquares(heat *[64]float32, k int) string {
	idx := make([]int, 64)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return heat[idx[a]] > heat[idx[b]] })
	var parts []string
	for _, i := range idx[:k] {
		if heat[i] < 0.005 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", chess.Square(i), 100*heat[i]))
	}
	if len(parts) == 0 {
		return "nowhere in particular"
	}
	return strings.Join(parts, ", ")
}
