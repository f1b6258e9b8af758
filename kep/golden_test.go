package kep

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

var update = flag.Bool("update", false, "rewrite the golden session of TestGoldenSession")

// infoTimes are the parts of an info line that depend on the machine: the
// time spent and the rate.
var infoTimes = regexp.MustCompile(`^(info time )\d+(.*?)(?: nps \d+)?( depth .*)?$`)

// TestGoldenSession plays a scripted KEP session at fixed node budgets (go
// nodes, with clocks, with movetime; refusals, announcements, an abandoned
// game) against the in-process heuristic player, refereed by the umpire,
// and compares every protocol line both ways, the info lines' time and rate
// left out, with testdata/golden-session.txt, recorded before KEP moved
// onto the game driver: the moves KEP plays at a fixed node budget must not
// change. `go test -run GoldenSession -update` rewrites it; do that only
// for a change meant to change play.
func TestGoldenSession(t *testing.T) {
	p := startEngine(t, "golden", Config{InfoEvery: -1})
	var tr strings.Builder
	send := func(ls ...string) {
		for _, l := range ls {
			tr.WriteString("> " + l + "\n")
		}
		p.send(ls...)
	}
	recv := func() string {
		l := p.recv(wait)
		if m := infoTimes.FindStringSubmatch(l); m != nil {
			l = m[1] + "T" + m[2] + m[3]
		}
		tr.WriteString("< " + l + "\n")
		return l
	}
	send("kep")
	for recv() != "kepok" {
	}
	send("setoption name Seed value 7", "setoption name Hash value 8", "isready")
	if l := recv(); l != "readyok" {
		t.Fatalf("%q where readyok was due", l)
	}
	goLines := []string{
		"go nodes 150",
		"go wtime 60000 btime 55000 winc 100 binc 100 nodes 150",
		"go movetime 60000 nodes 150",
	}
	for g, ours := range []chess.Color{chess.White, chess.Black} {
		opp, err := players.Parse("heuristic", players.Kinds())
		if err != nil {
			t.Fatal(err)
		}
		them := opp.New()
		if err := them.NewGame(players.Game{Color: ours.Other(), Rules: umpire.ICC(), Seed: uint64(2 + g)}); err != nil {
			t.Fatal(err)
		}
		rules := umpire.ICC()
		rules.MaxPlies = 80
		u := umpire.New(rules)
		send(fmt.Sprintf("newgame %v", ours))
		gos := 0
		for u.Ending() == umpire.NotOver {
			side := u.Side()
			var m chess.Move
			if side == ours {
				send(goLines[gos%len(goLines)])
				gos++
				l := recv()
				for strings.HasPrefix(l, "info ") {
					l = recv()
				}
				s, ok := strings.CutPrefix(l, "attempt ")
				if !ok {
					t.Fatalf("%q where an attempt was due", l)
				}
				if m, err = chess.ParseUCI(s); err != nil {
					t.Fatal(err)
				}
			} else if m, err = them.Attempt(t.Context(), players.Budget{}); err != nil {
				t.Fatal(err)
			}
			a, err := u.Attempt(m)
			if err != nil {
				t.Fatal(err)
			}
			if v := a.For(ours.Other()); v.Heard {
				them.Hear(players.Event{Kind: players.Answer, View: v})
			}
			switch {
			case !a.Legal && side == ours:
				send("illegal")
			case a.Legal && side == ours:
				send(announce("legal", a.For(ours)))
			case a.Legal && a.Ending == umpire.NotOver:
				send(announce("opponent", a.For(ours)))
			}
		}
		result := u.Result()
		if u.Ending() == umpire.PlyLimit {
			result = "1/2-1/2"
		}
		send("gameover "+result+" "+u.Ending().String(), "isready")
		if l := recv(); l != "readyok" {
			t.Fatalf("%q where readyok was due", l)
		}
	}
	// A game abandoned by a newgame, then a go in the new one.
	send("newgame white", "go nodes 100")
	for strings.HasPrefix(recv(), "info ") {
	}
	send("illegal", "newgame white", "go nodes 100")
	for strings.HasPrefix(recv(), "info ") {
	}
	send("isready")
	if l := recv(); l != "readyok" {
		t.Fatalf("%q where readyok was due", l)
	}
	p.quit()

	path := filepath.Join("testdata", "golden-session.txt")
	got := []byte(tr.String())
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s: line %d differs:\ngot:  %q\nwant: %q", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}
