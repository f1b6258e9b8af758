package kep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// helperEnv makes the test binary act as `kriegbot engine` (Run on the
// process's real standard streams, as cli/enginecmd does), so that a test
// can drive a real process without building the whole program.
const helperEnv = "KRIEGBOT_KEP_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		if err := Run(context.Background(), os.Stdin, os.Stdout, os.Stderr, Config{}); err != nil {
			fmt.Fprintf(os.Stderr, "kriegbot engine: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestProcess drives a real engine process through a complete game against
// the in-process heuristic player, refereed by the umpire, then quits it:
// the process must exit within wait of the quit (its exit time is logged). The process is this test binary in helper mode,
// or the program named by KRIEGBOT_ENGINE_BIN (run as BIN engine). With
// KRIEGBOT_ENGINE_TRANSCRIPT=FILE the session is written there (docs/kep.md
// shows one).
func TestProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var cmd *exec.Cmd
	if bin := os.Getenv("KRIEGBOT_ENGINE_BIN"); bin != "" {
		cmd = exec.CommandContext(ctx, bin, "engine")
	} else {
		exe, err := os.Executable()
		if err != nil {
			t.Skip(err)
		}
		cmd = exec.CommandContext(ctx, exe)
		// Under -race a process sleeps a second at exit unless told not to.
		cmd.Env = append(os.Environ(), helperEnv+"=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var transcript strings.Builder
	out := bufio.NewScanner(stdout)
	send := func(l string) {
		transcript.WriteString("> " + l + "\n")
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatalf("writing %q: %v\nstderr:\n%s", l, err, stderr.String())
		}
	}
	recv := func() string {
		if !out.Scan() {
			t.Fatalf("engine output ended: %v\nstderr:\n%s", out.Err(), stderr.String())
		}
		transcript.WriteString("< " + out.Text() + "\n")
		return out.Text()
	}
	send("kep")
	for recv() != "kepok" {
	}
	send("setoption name Seed value 1")
	send("isready")
	if l := recv(); l != "readyok" {
		t.Fatalf("%q", l)
	}
	send("newgame white")

	opp, err := players.Parse("heuristic", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	them := opp.New()
	if err := them.NewGame(players.Game{Color: chess.Black, Rules: umpire.ICC(), Seed: 2}); err != nil {
		t.Fatal(err)
	}
	rules := umpire.ICC()
	rules.MaxPlies = 300
	u := umpire.New(rules)
	clocks := [2]time.Duration{3 * time.Minute, 3 * time.Minute}
	for u.Ending() == umpire.NotOver {
		var m chess.Move
		if u.Side() == chess.White {
			send(fmt.Sprintf("go wtime %d btime %d winc 1000 binc 1000 nodes 200", clocks[0].Milliseconds(), clocks[1].Milliseconds()))
			start := time.Now()
			var l string
			for l = recv(); strings.HasPrefix(l, "info "); l = recv() {
			}
			clocks[0] -= time.Since(start)
			s, ok := strings.CutPrefix(l, "attempt ")
			if !ok {
				t.Fatalf("%q where an attempt was due", l)
			}
			if m, err = chess.ParseUCI(s); err != nil {
				t.Fatal(err)
			}
		} else if m, err = them.Attempt(ctx, players.Budget{}); err != nil {
			t.Fatal(err)
		}
		side := u.Side()
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		if v := a.For(chess.Black); v.Heard {
			them.Hear(players.Event{Kind: players.Answer, View: v})
		}
		switch {
		case !a.Legal && side == chess.White:
			send("illegal")
		case a.Legal && side == chess.White:
			clocks[0] += time.Second
			send(announce("legal", a.For(chess.White)))
		case a.Legal:
			clocks[1] += time.Second
			if a.Ending == umpire.NotOver {
				send(announce("opponent", a.For(chess.White)))
			}
		}
	}
	result := u.Result()
	if u.Ending() == umpire.PlyLimit {
		result = "1/2-1/2"
	}
	send("gameover " + result + " " + u.Ending().String())
	send("isready")
	if l := recv(); l != "readyok" {
		t.Fatalf("%q", l)
	}
	start := time.Now()
	send("quit")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("engine: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(wait):
		t.Fatalf("the process did not exit within %v of quit\nstderr:\n%s", wait, stderr.String())
	}
	exit := time.Since(start)
	t.Logf("%s (%s) after %d plies; the process exited %v after quit", result, u.Ending(), u.Plies(), exit)
	if stderr.Len() > 0 {
		t.Logf("stderr:\n%s", stderr.String())
	}
	if f := os.Getenv("KRIEGBOT_ENGINE_TRANSCRIPT"); f != "" {
		if err := os.WriteFile(f, []byte(transcript.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
