package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
		after := u.Position()
		g.attempt = append(g.attempt, attemptRecord{Ply: len(g.sans), Side: a.Mover, Answer: a,
			At: time.Duration(i) * time.Second, ClockMs: [2]int64{120000 - int64(i), 119000 + int64(i)}})
		if a.Legal {
			g.attempt[len(g.attempt)-1].FEN = after.FEN()
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

// botSeat is an HTTP bot as the table sees it; botDoor its door.
type botSeat string

func (b botSeat) Name() string   { return string(b) }
func (b botSeat) Handle() string { return string(b) }

type botDoor struct{}

func (botDoor) FindBot(string) Bot                { return nil }
func (botDoor) Unavailable(Bot, time.Time) string { return "" }
func (botDoor) IdleGame() time.Duration           { return time.Hour }

// TestVariantRecords: a crazykrieg lobby game's records name the variant
// on the result line, keep "Any?" as an attempt line "any" with has_any,
// a drop as "P@e4", and nothing of a refusal off the list; every attempt
// line reads back as a referee line.
func TestVariantRecords(t *testing.T) {
	dir := t.TempDir()
	srv, err := New(Config{RecordDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetBots(botDoor{})
	v, err := umpire.ParseVariant("crazykrieg")
	if err != nil {
		t.Fatal(err)
	}
	srv.Lock()
	ev := srv.NewEvents()
	sk := srv.PostBotSeek(ev, botSeat("ann"), 25, 10, "white", v)
	g := srv.TakeSeek(ev, sk, botSeat("bob"))
	for _, s := range []string{"e2e4", "d7d5", "any", "g1f3", "e4d5", "d8d5", "P@e4"} {
		col := g.ump.Side()
		if s == "any" {
			if a, out := srv.AskAnyIn(ev, g, col); out != AttemptJudged || a.Verdict != umpire.HasAny {
				t.Fatalf("any: %v %v", a, out)
			}
			continue
		}
		m, err := umpire.ParseMoveText(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, out := srv.Attempt(ev, g, col, m, s); out != AttemptJudged {
			t.Fatalf("%s: %v", s, out)
		}
	}
	srv.Resign(ev, g, chess.Black)
	ev.Flush()
	srv.Unlock()
	b, err := os.ReadFile(filepath.Join(dir, "game-1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	var attempts []string
	for _, row := range rows[:len(rows)-1] {
		l, err := record.ReadRefereeLine([]byte(row))
		if err != nil {
			t.Fatalf("%v: %s", err, row)
		}
		attempts = append(attempts, l.Attempt)
	}
	if want := []string{"e2e4", "d7d5", "any", "e4d5", "d8d5", "P@e4"}; !slices.Equal(attempts, want) {
		t.Errorf("attempts %v, want %v", attempts, want)
	}
	if !strings.Contains(rows[2], `"has_any":true`) || !strings.Contains(rows[5], `"san":"P@e4"`) {
		t.Errorf("ask-any line %s\ndrop line %s", rows[2], rows[5])
	}
	var res jsonResult
	if err := json.Unmarshal([]byte(rows[len(rows)-1]), &res); err != nil || res.RuleVariant != "crazykrieg" || res.Attempts != 6 || res.Plies != 5 {
		t.Errorf("result line %s: %+v, %v", rows[len(rows)-1], res, err)
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "game-1.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	// The variant's PGN as match and the daemon write it: its name in the
	// Event, "Any?" in the move's comment, the drops inside one comment.
	text := strings.Join(strings.Fields(string(pgn)), " ")
	for _, want := range []string{`[Event "kriegbot serve crazykrieg 25 10"]`, `[RuleVariant "crazykrieg"]`,
		"2. exd5 {any: Has pawn captures; Pawn at d5 captured} 2... Qxd5",
		"{" + record.DropsNote + " 3. P@e4 (Drop of a pawn)} {bob resigns} 1-0"} {
		if !strings.Contains(text, want) {
			t.Errorf("pgn lacks %q:\n%s", want, pgn)
		}
	}
}
