package modelcmd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/sitegames"
	"kriegbot/protocol/ksapi"
)

// storeRandomGames stores games of random askable attempts under the
// site's rules for variant, as model fetch would: the umpire's answers
// written as the site's transcript. White is a person, Black a bot.
func storeRandomGames(t *testing.T, dir, variant string, games int) {
	t.Helper()
	v, err := umpire.ParseVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	rules := umpire.Site(v)
	stream := umpire.RandomStreamFor(rules, 7, games, 80)
	rules.MaxPlies = 80
	u := umpire.New(rules)
	st, _, err := sitegames.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for n, game := range stream.Games {
		u.Reset(stream.Start)
		g := sitegames.Game{ID: fmt.Sprintf("%s%04d", variant, n), Variant: variant, Result: "*", PlayedAt: "2026-11-05T12:00:00Z",
			White: sitegames.Player{Name: "ann", Role: "user"}, Black: sitegames.Player{Name: "bot", Role: "bot", Bot: true}}
		for _, m := range game {
			side := u.Side()
			tm := ksapi.TranscriptMove{Ply: len(g.Moves) + 1, Color: strings.ToLower(side.String()), QuestionType: ksapi.QuestionCommon}
			var a umpire.Answer
			if m == chess.NullMove {
				a, err = u.AskAny()
				tm.QuestionType = ksapi.QuestionAskAny
			} else {
				a, err = u.Attempt(m)
				text := umpire.MoveText(m)
				tm.UCI = &text
			}
			if err != nil {
				t.Fatal(err)
			}
			tm.MoveDone = a.Legal
			word := "ILLEGAL_MOVE"
			if a.Legal {
				word = "REGULAR_MOVE"
			}
			tm.Answer = &ksapi.TranscriptAnswer{Main: word}
			g.Moves = append(g.Moves, tm)
			if a.Ending != umpire.NotOver {
				break
			}
		}
		if err := st.Add(g); err != nil {
			t.Fatal(err)
		}
	}
}

var legalityLine = regexp.MustCompile(`legality of the attempts, log-loss in nats \((\d+) attempts in (\d+) games, (\d+) skipped\)`)

// legalityFigures reads eval's legality block: attempts, games, skipped,
// and each row's log-loss by name.
func legalityFigures(t *testing.T, out string) (attempts, games, skipped int, rows map[string]float64) {
	t.Helper()
	m := legalityLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no legality figures in\n%s", out)
	}
	attempts, _ = strconv.Atoi(m[1])
	games, _ = strconv.Atoi(m[2])
	skipped, _ = strconv.Atoi(m[3])
	rows = map[string]float64{}
	block := out[strings.Index(out, m[0])+len(m[0]):]
	for _, line := range strings.Split(block, "\n")[1:] {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		i := strings.LastIndexByte(line, ' ')
		x, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		rows[strings.TrimSpace(line[:i])] = x
	}
	return attempts, games, skipped, rows
}

// TestEvalLegality: model eval -games scores the predicted legality of
// the stored attempts under each prior, beats the constant predictor with
// a belief, scores only the attempts made against people with -humans,
// and skips a game whose stored answers the referee does not give.
func TestEvalLegality(t *testing.T) {
	for _, variant := range []string{"wild16", "berkeley_any"} {
		t.Run(variant, func(t *testing.T) {
			dir := t.TempDir()
			storeRandomGames(t, dir, variant, 12)
			code, stdout, stderr := run("eval", "-games", dir, "-variant", variant)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			all, games, skipped, rows := legalityFigures(t, stdout)
			if games != 12 || skipped != 0 || all == 0 {
				t.Fatalf("%d attempts in %d games, %d skipped\n%s", all, games, skipped, stdout)
			}
			def, uni, cst := rows["embedded default"], rows["no model (uniform prior)"], rows["constant (the attempts' rate)"]
			if def == 0 || uni == 0 || cst == 0 || def >= cst || uni >= cst {
				t.Errorf("log-loss default %.4f, uniform %.4f, constant %.4f: a belief must beat the rate\n%s", def, uni, cst, stdout)
			}
			code, stdout, stderr = run("eval", "-games", dir, "-variant", variant, "-humans")
			if code != 0 {
				t.Fatalf("-humans: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if humans, _, _, _ := legalityFigures(t, stdout); humans == 0 || humans >= all {
				t.Errorf("-humans scored %d attempts of %d: want only Black's, made against the person", humans, all)
			}
		})
	}
	t.Run("mismatch", func(t *testing.T) {
		dir := t.TempDir()
		storeRandomGames(t, dir, "wild16", 3)
		st, _, _ := sitegames.Open(dir)
		var first sitegames.Game
		st.Read("wild16", func(g sitegames.Game) error {
			if first.ID == "" {
				first = g
			}
			return nil
		}, nil)
		first.ID = "flipped"
		first.Moves[0].MoveDone = !first.Moves[0].MoveDone
		if err := st.Add(first); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := run("eval", "-games", dir)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		if _, games, skipped, _ := legalityFigures(t, stdout); games != 3 || skipped != 1 || !strings.Contains(stderr, "game flipped: legality: skipped: attempts[0]") {
			t.Errorf("%d games, %d skipped; stderr:\n%s", games, skipped, stderr)
		}
	})
}
