package tourneycmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kriegbot/cli/replaycmd"
	"kriegbot/internal/cmdflag"
)

// TestVariantTourney: a berkeley_any round robin is played in-process:
// every pairing is played and scored, the PGN holds each game with the
// event's round, the handles and the variant (never wild 16), each side's
// record names the variant and replays, and the crosstable is written.
func TestVariantTourney(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ev")
	var out, errs bytes.Buffer
	code := Command([]string{"-players", "heuristic,random,R2=random", "-rules", "berkeley_any", "-format", "rr", "-out", dir, "-name", "V1"}, &out, &errs)
	if code != cmdflag.OK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "tourney.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	games := strings.Count(string(pgn), "[Event \"V1\"]")
	if games != 3 || strings.Count(string(pgn), `[RuleVariant "berkeley_any"]`) != 3 {
		t.Fatalf("%d games in the PGN:\n%s", games, pgn)
	}
	for _, want := range []string{`[Round "1.1"]`, `[Round "3.1"]`, `[White "R2"]`, `[Black "R2"]`, `[White "heuristic"]`, "any: "} {
		if !strings.Contains(string(pgn), want) {
			t.Errorf("PGN lacks %s", want)
		}
	}
	if strings.Contains(string(pgn), "w16") || strings.Contains(string(pgn), "wild") {
		t.Errorf("the PGN says wild 16")
	}
	if !strings.Contains(out.String(), "in berkeley_any, played in-process") || !strings.Contains(out.String(), "Pts") {
		t.Errorf("output:\n%s", out.String())
	}
	for _, f := range []string{"tourney.txt", "tourney.html"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	records, err := filepath.Glob(filepath.Join(dir, "records", "*", "games", "*.jsonl"))
	if err != nil || len(records) != 6 {
		t.Fatalf("records %v (%v)", records, err)
	}
	b, err := os.ReadFile(records[0])
	if err != nil || !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], `"variant":"berkeley_any"`) {
		t.Fatalf("%s: %v\n%.300s", records[0], err, b)
	}
	var rout, rerr bytes.Buffer
	if code := replaycmd.Command([]string{"-plain", records[0]}, &rout, &rerr); code != 0 || !strings.Contains(rout.String(), " 0 differing choices") {
		t.Errorf("replay: exit %d: %s%s", code, rerr.String(), rout.String()[max(0, rout.Len()-200):])
	}
}

// TestVariantTourneyRefusesWait: outside players come over the telnet
// door, which plays wild 16 only.
func TestVariantTourneyRefusesWait(t *testing.T) {
	var out, errs bytes.Buffer
	code := Command([]string{"-players", "heuristic,random", "-rules", "rand", "-rounds", "2", "-wait", "1m", "-out", t.TempDir()}, &out, &errs)
	if code == cmdflag.OK || !strings.Contains(errs.String(), "wild 16 only") {
		t.Errorf("exit %d: %s", code, errs.String())
	}
	errs.Reset()
	if code := Command([]string{"-players", "heuristic,random", "-rules", "chess960"}, &out, &errs); code == cmdflag.OK || !strings.Contains(errs.String(), "berkeley_any") {
		t.Errorf("an unknown rule set: exit %d: %s", code, errs.String())
	}
}
