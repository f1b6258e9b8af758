package runcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kriegbot/bot"
	"kriegbot/config"
	"kriegbot/record"
)

// token is a kriegspiel.org token of the right form, never to be printed.
const token = "ksbot_00112233aabbccdd.SeCrEtSeCrEtSeCrEtSeCrEtSeCrEt12"

// TestKriegspielCheck: `run -check` validates a kriegspiel.org config and
// its token source without printing the token; a missing token is exit 2.
func TestKriegspielCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ks.toml")
	os.WriteFile(file, []byte("[server]\nprotocol = \"kriegspiel\"\nembedded = false\n[sparring]\nenabled = false\n[policy]\nchallenge = \"\"\n[account]\ntoken_file = \"\"\n"), 0o600)
	t.Setenv("KRIEGBOT_TOKEN", token)
	var out, errb bytes.Buffer
	if code := Command([]string{"-config", file, "-check"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String()+errb.String(), token) || !strings.Contains(out.String(), "# token: from $KRIEGBOT_TOKEN") ||
		!strings.Contains(out.String(), `protocol = "kriegspiel"`) {
		t.Errorf("-check output:\n%s", out.String())
	}
	t.Setenv("KRIEGBOT_TOKEN", "")
	out.Reset()
	errb.Reset()
	if code := Command([]string{"-config", file, "-check"}, &out, &errb); code != bot.ExitBadConfig || !strings.Contains(errb.String(), "token") {
		t.Errorf("no token: exit %d, %s", code, errb.String())
	}
	// The shipped example validates.
	if _, err := config.Load("../../examples/kriegspiel-local.toml"); err != nil {
		t.Errorf("examples/kriegspiel-local.toml: %v", err)
	}
}

// TestConnectRefusedForKriegspiel: -connect names an ICC-protocol server;
// with server.protocol = "kriegspiel" it is refused with a clear error
// (exit 2) instead of being ignored or half applied.
func TestConnectRefusedForKriegspiel(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "ks.toml")
	body := "[server]\nprotocol = \"kriegspiel\"\nembedded = true\n[logs]\ndir = \"" + filepath.ToSlash(dir) + "\"\n"
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Command([]string{"-config", conf, "-connect", "127.0.0.1:5000", "-check"}, &out, &errOut)
	if code != bot.ExitBadConfig || !strings.Contains(errOut.String(), `server.protocol is "kriegspiel"`) || !strings.Contains(errOut.String(), "server.url") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	// The same config without -connect is valid.
	out.Reset()
	errOut.Reset()
	if code := Command([]string{"-config", conf, "-check"}, &out, &errOut); code != bot.ExitDone {
		t.Fatalf("without -connect: exit %d, stderr %q", code, errOut.String())
	}
}

// `kriegbot run -check` prints the effective retention policy.
func TestCheckShowsRetention(t *testing.T) {
	file := filepath.Join(t.TempDir(), "k.toml")
	if err := os.WriteFile(file, []byte("[retention]\nmax_total_size = \"500MB\"\ncompress = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Command([]string{"-config", file, "-check"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{
		"\n[retention]\n# retention: the records in logs/{games,transcripts,server} of the last 3 days are kept whole; removed: older than 30d, and the oldest past 500MB in all\n",
		"\nmax_total_size = \"500MB\"\ncompress = false\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-check output lacks %q:\n%s", want, out.String())
		}
	}
}

// `kriegbot run -join N` adds N to tournament.join, checked like the file.
func TestTourneyJoinFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Command([]string{"-connect", "127.0.0.1:5000", "-guest", "-join", "4", "-check"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "\njoin = [4]\n") {
		t.Errorf("-check output:\n%s", out.String())
	}
	errb.Reset()
	if code := Command([]string{"-join", "0", "-check"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "tournament.join") {
		t.Errorf("-join 0: exit %d: %s", code, errb.String())
	}
}

// tournament.td not set trusts "TD" on our own server only (on ICC "TD"
// is whoever holds the handle): -check shows the list in effect.
func TestCheckTDDefault(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"127.0.0.1:5000", `td = ["TD"]`},
		{"chessclub.com:5000", `td = []`},
	} {
		var out, errb bytes.Buffer
		if code := Command([]string{"-connect", tc.addr, "-guest", "-check"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.addr, code, errb.String())
		}
		if !strings.Contains(out.String(), "\n"+tc.want+"\n") || !strings.Contains(out.String(), "# td is not set") {
			t.Errorf("%s: -check output lacks %q and its note:\n%s", tc.addr, tc.want, out.String())
		}
	}
}

// TestTwoDoors plays a whole game between two daemons through one server's
// two front doors, as the shipped example does (examples/kriegspiel-local.toml):
// kriegbot on the kriegspiel.org bot API (the HTTP door), its sparring
// partner on the ICC telnet door. Every answer kriegbot heard (its record)
// must equal what the umpire said (the server's record of the game): our
// attempts refused or accepted with the same words, the opponent's moves
// with the same words.
func TestTwoDoors(t *testing.T) {
	dir := t.TempDir()
	example, err := os.ReadFile("../../examples/kriegspiel-local.toml")
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
	if code := Command([]string{"-config", file, "-games", "1"}, &out, &errs); code != bot.ExitDone {
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
	// Both files spell the referee's answer with the one schema's fields
	// (record.Announced), so what we heard and what the umpire said compare
	// field for field.
	var umpire []*record.RefereeLine
	for i, line := range jsonLines(t, theirs[0]) {
		if !bytes.Contains(line, []byte(`"side"`)) {
			continue // the result line
		}
		l, err := record.ReadRefereeLine(line)
		if err != nil {
			t.Fatalf("%s:%d: %v", theirs[0], i+1, err)
		}
		if l.Side != us && !l.Legal {
			continue // the opponent's refusals are private
		}
		umpire = append(umpire, l)
	}
	type heardLine struct {
		Type  string `json:"type"`
		Own   bool   `json:"own"`
		Move  string `json:"move"`
		Legal *bool  `json:"legal"`
		record.Announced
	}
	i, answers := 0, 0
	for n, line := range jsonLines(t, ours[0]) {
		var h heardLine
		if err := json.Unmarshal(line, &h); err != nil {
			t.Fatalf("%s:%d: %v", ours[0], n+1, err)
		}
		if h.Type != "answer" {
			continue
		}
		answers++
		if i >= len(umpire) {
			t.Fatalf("record line %d: an answer the umpire never gave", n+1)
		}
		u := umpire[i]
		i++
		if h.Own != (u.Side == us) {
			t.Fatalf("record line %d: own %v, but the umpire's answer %d was to %s", n+1, h.Own, i, u.Side)
		}
		if h.Own && h.Move != u.Attempt {
			t.Fatalf("record line %d: our attempt %s, the umpire judged %s", n+1, h.Move, u.Attempt)
		}
		if h.Legal != nil && !*h.Legal {
			if u.Legal {
				t.Fatalf("record line %d: we heard %s refused, the umpire accepted it", n+1, h.Move)
			}
			continue
		}
		// On the move that ends the game the referee says only the capture
		// (umpire.View.Words), and each door reports the ending apart from
		// the answer: compare what was said.
		said := u.Announced
		said.Ending, h.Announced.Ending = "", ""
		if u.Ending != "" {
			said.Checks, said.Tries = nil, nil
		}
		if !reflect.DeepEqual(h.Announced, said) {
			t.Fatalf("record line %d: we heard %+v, the umpire said %+v", n+1, h.Announced, said)
		}
	}
	if i != len(umpire) || answers < 10 {
		t.Fatalf("we heard %d answers, the umpire gave %d", answers, len(umpire))
	}
}

// jsonLines reads a JSON Lines file's lines.
func jsonLines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}
