package replay

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kriegbot/record"
)

// badGame is a game line for the bad-record tests: a cheap player, so that a
// replay re-runs its searches at once.
const badGame = `{"type":"game","v":2,"game":1,"white":"kriegbot","black":"x","us":"white","base_min":1,"inc_s":0,"seed":1,"player":"PLAYER","start":"2026-12-04T10:00:00Z"}`

// replayText reads and replays a record given as text, recovering a panic
// as a test failure.
func replayText(t *testing.T, player, text string) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("replay panicked: %v\nrecord:\n%s", p, text)
		}
	}()
	rec, err := record.Read(strings.NewReader(strings.ReplaceAll(text, "PLAYER", player)), "bad.jsonl")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Run(ctx, rec, Options{})
	return err
}

// TestReplayBadRecords: a record whose answers cannot be one game (our king
// taken, a capture where we have no man, our move from an empty square: as
// when two games were written into one record) is refused with an error
// naming its line, never a panic (index out of range [64] in KingAttacks,
// issue 45 item 2).
func TestReplayBadRecords(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		line        int
	}{
		{"our king taken", `{"type":"answer","own":false,"capture":"e1","captured":"piece"}` + "\n" +
			`{"type":"attempt","move":"d2d4"}`, 2},
		{"capture on an empty square", `{"type":"answer","own":false,"capture":"e4","captured":"pawn"}` + "\n" +
			`{"type":"attempt","move":"d2d4"}`, 2},
		{"our move from an empty square", `{"type":"attempt","move":"e4e5"}` + "\n" +
			`{"type":"answer","own":true,"move":"e4e5","legal":true}`, 3},
		{"our move onto our own man", `{"type":"attempt","move":"d1d2"}` + "\n" +
			`{"type":"answer","own":true,"move":"d1d2","legal":true}`, 3},
	} {
		for _, player := range []string{"random", "heuristic", "mcts:approach=c"} {
			err := replayText(t, player, badGame+"\n"+tc.lines+"\n")
			var le *LineError
			if !errors.As(err, &le) || le.Line != tc.line {
				t.Errorf("%s (%s): error %v, want one naming line %d", tc.name, player, err, tc.line)
			}
		}
	}
}

// FuzzReplayRecord: any record that reads is replayed to a result or an
// error naming the file, never a panic. Only cheap players and small
// searches are re-run (the fuzzer would otherwise ask for hours of search).
func FuzzReplayRecord(f *testing.F) {
	game := strings.ReplaceAll(badGame, "PLAYER", "heuristic")
	for _, s := range []string{
		game + "\n" + `{"type":"attempt","move":"e2e4"}` + "\n" + `{"type":"answer","own":true,"move":"e2e4","legal":true,"tries":0}` + "\n" +
			`{"type":"answer","own":false,"tries":0}` + "\n" + `{"type":"attempt","move":"d1h5"}`,
		game + "\n" + `{"type":"answer","own":false,"capture":"e1","captured":"piece"}` + "\n" + `{"type":"attempt","move":"d2d4"}`,
		game + "\n" + `{"type":"answer","own":false,"capture":"e2","captured":"pawn","checks":["rank"]}` + "\n" + `{"type":"attempt","move":"e1e2"}`,
		game + "\n" + `{"type":"attempt","move":"e4e5"}` + "\n" + `{"type":"answer","own":true,"move":"e4e5","legal":true}`,
		game + "\n" + `{"type":"attempt","move":"e2e5"}` + "\n" + `{"type":"answer","own":true,"move":"e2e5","legal":false}` + "\n" + `{"type":"attempt","move":"e2e4"}`,
		strings.ReplaceAll(badGame, "PLAYER", "mcts:approach=c") + "\n" + `{"type":"attempt","move":"e2e4","search":{"iterations":5,"top":[{"move":"e2e4","visits":5}]}}`,
		strings.ReplaceAll(badGame, "PLAYER", "random") + "\n" + `{"type":"answer","own":false,"capture":"a2","captured":"pawn"}` + "\n" + `{"type":"attempt","move":"b1a3"}`,
	} {
		f.Add([]byte(s + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := record.Read(strings.NewReader(string(data)), "f.jsonl")
		if err != nil || !cheap(rec) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := Run(ctx, rec, Options{}); err != nil && !strings.HasPrefix(err.Error(), "f.jsonl") && ctx.Err() == nil {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}

// cheap says a record's replay re-runs only small searches of a cheap player.
func cheap(rec *Record) bool {
	kind, _, _ := strings.Cut(rec.Game.Player, ":")
	if kind != "random" && kind != "heuristic" && kind != "mcts" {
		return false
	}
	for _, s := range rec.Steps {
		if s.Search == nil {
			continue
		}
		if s.Search.Iterations > 50 || len(s.Search.Trees) > 2 || s.Search.Boards > 200 {
			return false
		}
		for _, n := range s.Search.Trees {
			if n > 50 {
				return false
			}
		}
	}
	return true
}
