package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"kriegbot/internal/testenv"
	"kriegbot/record"
)

// The restart soak: see doc.go.

func TestRestartSoak(t *testing.T) {
	if os.Getenv("KRIEGBOT_RESTART_SOAK") != "1" {
		t.Skip("the restart soak is opt-in: KRIEGBOT_RESTART_SOAK=1 (internal/soak/doc.go)")
	}
	restarts := testenv.Count(t, "KRIEGBOT_RESTART_SOAK_N", 20)
	seed := testenv.Count(t, "KRIEGBOT_RESTART_SOAK_SEED", 1)
	work := os.Getenv("KRIEGBOT_RESTART_SOAK_DIR")
	if work == "" {
		work = t.TempDir()
	}
	work, _ = filepath.Abs(work)
	bin := filepath.Join(work, "kriegbot")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, part := range []struct {
		name string
		td   bool
	}{{"seeks", false}, {"td", true}} {
		t.Run(part.name, func(t *testing.T) {
			p := &soakPart{t: t, bin: bin, dir: filepath.Join(work, part.name), td: part.td,
				rng: rand.New(rand.NewPCG(uint64(seed), 0x50a6))}
			p.run(restarts)
		})
	}
}

// soakPart is one part of the soak: a server restarted under two daemons.
type soakPart struct {
	t       *testing.T
	bin     string
	dir     string
	td      bool
	rng     *rand.Rand
	addr    string
	server  *exec.Cmd
	daemons []*daemon
}

type daemon struct {
	name string
	dir  string
	cmd  *exec.Cmd
	done chan error
}

var handles = []string{"alpha", "bravo"}

func (p *soakPart) path(elem ...string) string {
	return filepath.Join(append([]string{p.dir}, elem...)...)
}

func (p *soakPart) run(restarts int) {
	t := p.t
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p.accounts()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	ln.Close()
	t.Cleanup(p.killAll)
	p.startServer()
	for _, h := range handles {
		p.startDaemon(h)
	}
	began := time.Now()
	for i := 1; i <= restarts; i++ {
		p.waitForNewGame(i)
		if p.rng.IntN(3) == 0 {
			// Some games finish between kills: the server's records
			// and its numbering after a restart are tested too.
			p.waitForGameOver(i)
		}
		time.Sleep(time.Duration(500+p.rng.IntN(2500)) * time.Millisecond)
		p.server.Process.Kill() // SIGKILL: no goodbye to anyone
		p.server.Wait()
		time.Sleep(time.Duration(500+p.rng.IntN(1500)) * time.Millisecond)
		p.startServer()
	}
	p.waitForNewGame(restarts + 1) // and they play on after the last
	// Stop the daemons (each finishes its game), then the server.
	for _, d := range p.daemons {
		d.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, d := range p.daemons {
		select {
		case err := <-d.done:
			if err != nil {
				t.Errorf("%s: %v (exit after SIGTERM)", d.name, err)
			}
		case <-time.After(5 * time.Minute):
			t.Fatalf("%s did not stop within 5 minutes of SIGTERM", d.name)
		}
	}
	p.server.Process.Signal(syscall.SIGTERM)
	p.server.Wait()
	t.Logf("%d restarts in %v", restarts, time.Since(began).Round(time.Second))
	p.check()
}

// accounts writes the server's accounts file: each handle's password is
// "soak-<handle>".
func (p *soakPart) accounts() {
	var b strings.Builder
	for _, h := range handles {
		cmd := exec.Command(p.bin, "serve", "hash")
		cmd.Stdin = strings.NewReader("soak-" + h + "\n")
		out, err := cmd.Output()
		if err != nil {
			p.t.Fatalf("serve hash: %v", err)
		}
		fmt.Fprintf(&b, "%s %s C\n", h, strings.TrimSpace(string(out)))
	}
	if err := os.WriteFile(p.path("accounts"), []byte(b.String()), 0o600); err != nil {
		p.t.Fatal(err)
	}
}

func appendLog(t *testing.T, name string) *os.File {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func (p *soakPart) startServer() {
	t := p.t
	args := []string{"serve", "-addr", p.addr, "-rules", "olympiad", "-records", p.path("server"), "-accounts", p.path("accounts")}
	if p.td {
		args = append(args, "-td-dir", p.path("td"), "-tourney", "name=KR,system=drr,tc=1+0,start=2")
	}
	cmd := exec.Command(p.bin, args...)
	log := appendLog(t, p.path("server.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.server = cmd
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", p.addr); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server does not listen on %s", p.addr)
		}
	}
}

func (p *soakPart) startDaemon(h string) {
	t := p.t
	dir := p.path(h)
	host, port, _ := net.SplitHostPort(p.addr)
	seek := "true"
	tour := "auto_join = false"
	if p.td {
		seek, tour = "false", "auto_join = true"
	}
	cfg := fmt.Sprintf(`[server]
embedded = false
host = %q
port = %s
rules = "olympiad"
[account]
handle = %q
password_env = "KRIEGBOT_PASSWORD"
[engine]
player = "heuristic"
min_think = "5ms"
move_overhead = "100ms"
ponder = false
opponent_models = %q
[policy]
seek = %s
seek_base = 1
seek_increment = 0
seek_rated = false
challenge = ""
greeting = ""
[sparring]
enabled = false
[tournament]
%s
[connection]
reconnect_min = "200ms"
reconnect_max = "2s"
keep_alive = "5s"
dead_after = "20s"
[logs]
dir = %q
console = "json"
`, host, port, h, filepath.Join(dir, "opponents"), seek, tour, filepath.Join(dir, "logs"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(p.bin, "run", "-config", filepath.Join(dir, "config.toml"))
	cmd.Env = append(os.Environ(), "KRIEGBOT_PASSWORD=soak-"+h)
	log := appendLog(t, filepath.Join(dir, "console.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemon{name: h, dir: dir, cmd: cmd, done: make(chan error, 1)}
	go func() { d.done <- cmd.Wait() }()
	p.daemons = append(p.daemons, d)
}

// killAll ends what is still running of this part (a failed test).
func (p *soakPart) killAll() {
	for _, d := range p.daemons {
		if d.cmd.ProcessState == nil {
			d.cmd.Process.Kill()
		}
	}
	if p.server != nil && p.server.ProcessState == nil {
		p.server.Process.Kill()
		p.server.Wait()
	}
}

// logCount counts the daemon's log lines with the message msg.
func (d *daemon) logCount(msg string) int {
	b, _ := os.ReadFile(filepath.Join(d.dir, "logs", "kriegbot.log"))
	return bytes.Count(b, []byte(`"message":"`+msg+`"`))
}

func (p *soakPart) gamesStarted() int {
	n := 0
	for _, d := range p.daemons {
		n += d.logCount("game started")
	}
	return n
}

// waitForNewGame waits until a daemon starts a game after restart i-1:
// the daemons play on.
func (p *soakPart) waitForNewGame(i int) {
	before := p.gamesStarted()
	if i == 1 {
		before = 0
	}
	for deadline := time.Now().Add(3 * time.Minute); p.gamesStarted() <= before; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("no game started within 3 minutes after restart %d", i-1)
		}
		for _, d := range p.daemons {
			select {
			case err := <-d.done:
				p.t.Fatalf("%s stopped: %v", d.name, err)
			default:
			}
		}
	}
}

// waitForGameOver waits until a game of the daemons ends.
func (p *soakPart) waitForGameOver(i int) {
	over := func() int { // ended on the board, not written off ("*")
		n := 0
		for _, d := range p.daemons {
			b, _ := os.ReadFile(filepath.Join(d.dir, "logs", "kriegbot.log"))
			for _, l := range bytes.Split(b, []byte("\n")) {
				if bytes.Contains(l, []byte(`"message":"game over"`)) && !bytes.Contains(l, []byte(`"result":"*"`)) {
					n++
				}
			}
		}
		return n
	}
	before := over()
	for deadline := time.Now().Add(5 * time.Minute); over() <= before; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("no game ended within 5 minutes before kill %d", i)
		}
	}
}

// serverGame is a server record's last line.
type serverGame struct {
	Game                 int
	White, Black, Result string
}

func (p *soakPart) check() {
	t := p.t
	server := map[int]serverGame{}
	names, _ := filepath.Glob(p.path("server", "game-*.jsonl"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
		var g serverGame
		if err := json.Unmarshal(lines[len(lines)-1], &g); err != nil || g.Result == "" {
			t.Errorf("%s: no result line (%v)", n, err)
			continue
		}
		if _, dup := server[g.Game]; dup {
			t.Errorf("two server records of game %d", g.Game)
		}
		server[g.Game] = g
	}
	var summary []string
	for _, d := range p.daemons {
		started := d.logCount("game started")
		recs, _ := filepath.Glob(filepath.Join(d.dir, "logs", "games", "*.jsonl"))
		sort.Strings(recs)
		if len(recs) != started {
			t.Errorf("%s started %d games and has %d records", d.name, started, len(recs))
		}
		results := map[string]int{}
		replayed := 0
		for _, n := range recs {
			raw, _ := os.ReadFile(n)
			if c := bytes.Count(raw, []byte(`"type":"game"`)); c != 1 {
				t.Errorf("%s: %d game lines, want 1", n, c)
			}
			f, err := os.Open(n)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.Read(f, n)
			f.Close()
			if err != nil {
				t.Errorf("%s: %v", n, err)
				continue
			}
			if rec.Result == nil {
				t.Errorf("%s: no result line", n)
				continue
			}
			results[rec.Result.Result]++
			cmd := exec.CommandContext(context.Background(), p.bin, "replay", n)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Run(); err != nil {
				t.Errorf("kriegbot replay %s: %v\n%s", n, err, errb.String())
			} else {
				replayed++
			}
			switch r := rec.Result.Result; r {
			case "1-0", "0-1", "1/2-1/2":
				g, ok := server[rec.Game.Number]
				if !ok || g.Result != r || g.White != rec.Game.White || g.Black != rec.Game.Black {
					t.Errorf("%s: game %d %s-%s %s; the server's record: %+v (found %v)", n, rec.Game.Number, rec.Game.White, rec.Game.Black, r, g, ok)
				}
			}
		}
		summary = append(summary, fmt.Sprintf("%s: %d games started, %d records, results %v, %d replayed without error",
			d.name, started, len(recs), results, replayed))
	}
	summary = append(summary, fmt.Sprintf("server: %d game records", len(server)))
	for _, s := range summary {
		t.Log(s)
	}
	os.WriteFile(p.path("summary.txt"), []byte(strings.Join(summary, "\n")+"\n"), 0o644)
}
