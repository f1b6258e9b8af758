package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/record"
)

// TestGameJSONLIsRefereeLines checks that a server's game record is the
// one referee-line schema: each attempt line reads back with
// record.ReadRefereeLine, carries the referee's answer as data that agrees
// with the umpire's, and the server's clocks and position.
func TestGameJSONLIsRefereeLines(t *testing.T) {
	u := umpire.New(umpire.ICC())
	u.Reset(chess.StartPosition())
	g := &Game{number: 7, names: [2]string{"alice", "bob"}, minutes: 2, inc: 12, result: "0-1", endCode: "Mat", description: "White checkmated"}
	// Fool's mate, with a refused attempt and a capture-free check.
	for i, uci := range []string{"f2f3", "e7e5", "e1e3", "g2g4", "d8h4"} {
		m, err := chess.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		pos := u.Position()
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		g.answers = append(g.answers, a)
		g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans), Side: a.Mover, Answer: a,
			At: time.Duration(i) * time.Second, ClockMs: [2]int64{120000 - int64(i), 119000 + int64(i)}})
		if a.Legal {
			g.sans = append(g.sans, pos.SAN(m))
		}
	}
	rows := bytes.Split(bytes.TrimSpace(gameJSONL(g)), []byte("\n"))
	if len(rows) != len(g.attempt)+1 {
		t.Fatalf("%d lines for %d attempts", len(rows), len(g.attempt))
	}
	leg := 0
	for i, r := range g.attempt {
		l, err := record.ReadRefereeLine(rows[i])
		if err != nil {
			t.Fatalf("line %d: %v\n%s", i+1, err, rows[i])
		}
		if strings.Contains(string(rows[i]), `"referee"`) {
			t.Errorf("line %d still holds the referee's words: %s", i+1, rows[i])
		}
		if err := l.CheckAnswer(r.Answer); err != nil {
			t.Errorf("line %d: %v", i+1, err)
		}
		if l.Game != 7 || l.Ply != r.Ply || l.Side != r.Side.String() || l.Attempt != r.Answer.Attempt.String() {
			t.Errorf("line %d: %+v, want attempt %v by %v at ply %d", i+1, l, r.Answer.Attempt, r.Side, r.Ply)
		}
		if l.ServerClock == nil || l.AtMs != r.At.Milliseconds() || l.WhiteMs != r.ClockMs[0] || l.BlackMs != r.ClockMs[1] {
			t.Fatalf("line %d: clocks %+v, want %v at %v", i+1, l.ServerClock, r.ClockMs, r.At)
		}
		if r.Answer.Legal {
			if l.SAN != g.sans[leg] || l.FENAfter == "" {
				t.Errorf("line %d: san %q fen_after %q, want %q and a position", i+1, l.SAN, l.FENAfter, g.sans[leg])
			}
			leg++
		} else if l.SAN != "" || l.FENAfter != "" || l.Result != "" {
			t.Errorf("line %d: a refused attempt with a move: %s", i+1, rows[i])
		}
	}
	last, _ := record.ReadRefereeLine(rows[len(g.attempt)-1])
	if last.Ending != umpire.Checkmate.String() || last.Result != "0-1" || len(last.Checks) != 1 {
		t.Errorf("mate line: ending %q result %q checks %v", last.Ending, last.Result, last.Checks)
	}
	var res jsonResult
	if err := json.Unmarshal(rows[len(rows)-1], &res); err != nil || res.Result != "0-1" || res.Attempts != 5 || res.Plies != 4 {
		t.Errorf("result line %s: %+v, %v", rows[len(rows)-1], res, err)
	}
}

// TestRecordsSurviveARestart plays a game on a server, restarts it on the
// same records folder and plays another: the second game's number follows
// the first's and both games keep their records (a restart used to start
// again at game 1 and replace game-1's files).
func TestRecordsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	play := func() int {
		srv, addr := startServer(t, Config{RecordDir: dir})
		w, b, _, _ := startRawGame(t, addr)
		w.Send("resign\r\n")
		b.Expect("resigns} 0-1", wait)
		srv.Close()
		fin := srv.Finished()
		if len(fin) != 1 {
			t.Fatalf("finished %+v", fin)
		}
		return fin[0].Number
	}
	first, second := play(), play()
	if second <= first {
		t.Errorf("after a restart the game is number %d, after game %d", second, first)
	}
	for _, n := range []int{first, second} {
		for _, ext := range []string{".pgn", ".jsonl"} {
			name := filepath.Join(dir, fmt.Sprintf("game-%d%s", n, ext))
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte("0-1")) {
				t.Errorf("%s holds no result:\n%s", name, b)
			}
		}
	}
}

// TestRecordsNeverOverwrite writes a game's records where files of its
// name already stand: they are kept, and the game goes under a new name.
func TestRecordsNeverOverwrite(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".pgn", ".jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, "game-3"+ext), []byte("earlier"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &Game{number: 3, names: [2]string{"alice", "bob"}, minutes: 2, result: "1-0", endCode: "Res", description: "Black resigns"}
	name, err := writeRecords(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".pgn", ".jsonl"} {
		if b, _ := os.ReadFile(filepath.Join(dir, "game-3"+ext)); string(b) != "earlier" {
			t.Errorf("game-3%s overwritten: %q", ext, b)
		}
		b, err := os.ReadFile(filepath.Join(dir, name+ext))
		if err != nil || !bytes.Contains(b, []byte("1-0")) {
			t.Errorf("%s%s: %q, %v", name, ext, b, err)
		}
	}
	if n, err := highestRecord(dir); n != 3 || err != nil {
		t.Errorf("highest record %d (%v), want 3", n, err)
	}
}
