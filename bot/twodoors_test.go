package bot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kriegbot/record"
)

// TestTwoDoors plays a whole game between two daemons through one server's
// two front doors, as the shipped example does (examples/kriegspiel-local.toml):
// kriegbot on the kriegspiel.org bot API (the HTTP door), its sparring
// partner on the ICC telnet door. Every answer kriegbot heard (its record)
// must equal what the umpire said (the server's record of the game): our
// attempts refused or accepted with the same words, the opponent's moves
// with the same words.
func TestTwoDoors(t *testing.T) {
	dir := t.TempDir()
	example, err := os.ReadFile("../examples/kriegspiel-local.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(example), `dir = "logs"`, `dir = "`+filepath.ToSlash(filepath.Join(dir, "logs"))+`"`, 1)
	cfg += "\n[engine]\nplayer = \"heuristic\"\nopponent_models = \"\"\n"
	if !strings.Contains(cfg, filepath.ToSlash(dir)) {
		t.Fatal("the example's logs.dir line changed: this test cannot point it at a temporary folder")
	}
	file := filepath.Join(dir, "two-doors.toml")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := Command(testParts())([]string{"-config", file, "-games", "1"}, &out, &errs); code != ExitDone {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "1 game finished") {
		t.Fatalf("stdout:\n%s", out.String())
	}
	ours, _ := filepath.Glob(filepath.Join(dir, "logs", "games", "*.jsonl"))
	theirs, _ := filepath.Glob(filepath.Join(dir, "logs", "server", "game-*.jsonl"))
	if len(ours) != 1 || len(theirs) != 1 {
		t.Fatalf("records: ours %v, the server's %v", ours, theirs)
	}
	f, err := os.Open(ours[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f, ours[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "olympiad"; rec.Game.Rules.Name != want || !rec.Game.Rules.DeadMaterial {
		t.Errorf("record rules %+v, want the embedded server's (%s, dead material)", rec.Game.Rules, want)
	}
	us := "white"
	if rec.Game.Us == 1 {
		us = "black"
	}
	type serverLine struct {
		Side    string   `json:"side"`
		Attempt string   `json:"attempt"`
		Legal   *bool    `json:"legal"`
		Referee []string `json:"referee"`
	}
	var umpire []serverLine
	sf, err := os.Open(theirs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	sc := bufio.NewScanner(sf)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l serverLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Side == "" {
			continue // the result line
		}
		if l.Side != us && (l.Legal == nil || !*l.Legal) {
			continue // the opponent's refusals are private
		}
		umpire = append(umpire, l)
	}
	i, answers := 0, 0
	for _, s := range rec.Steps {
		if s.Kind != record.StepAnswer {
			continue
		}
		answers++
		if i >= len(umpire) {
			t.Fatalf("record line %d: an answer the umpire never gave", s.Line)
		}
		u := umpire[i]
		i++
		if s.View.Own != (u.Side == us) {
			t.Fatalf("record line %d: own %v, but the umpire's answer %d was to %s", s.Line, s.View.Own, i, u.Side)
		}
		if s.View.Own && s.Move.String() != u.Attempt {
			t.Fatalf("record line %d: our attempt %v, the umpire judged %s", s.Line, s.Move, u.Attempt)
		}
		if s.View.Illegal {
			if u.Legal == nil || *u.Legal {
				t.Fatalf("record line %d: we heard %v refused, the umpire accepted it", s.Line, s.Move)
			}
			continue
		}
		if strings.Join(s.Words, "|") != strings.Join(u.Referee, "|") {
			t.Fatalf("record line %d: we heard %q, the umpire said %q", s.Line, s.Words, u.Referee)
		}
	}
	if i != len(umpire) || answers < 10 {
		t.Fatalf("we heard %d answers, the umpire gave %d", answers, len(umpire))
	}
}
