package httpdoor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

const fetchRunEnv = "KRIEGBOT_FETCH_ACCEPTANCE"

// TestFetchAcceptance (opt-in: KRIEGBOT_FETCH_ACCEPTANCE=DIR; minutes) is
// issue 43's acceptance run. A server with both doors, as `kriegbot serve
// -http` composes it, is filled with finished games in two variants,
// wild16 and berkeley_any, between random HTTP bots and between telnet
// guests and HTTP bots (the guest tries random moves among its own men's,
// as a person at the board might). Then the real `kriegbot model fetch`, a
// separate process, fetches them with -pause 200ms; it is killed with
// SIGKILL part-way and run again. The test checks that every game is
// stored exactly once, that no transcript was asked for twice, and, from
// the server's access log, that the fetcher's requests never came closer
// than its pause; then it runs `model build` and `model eval` on the
// result. Everything it measured is written to DIR/report.txt.
func TestFetchAcceptance(t *testing.T) {
	dir := os.Getenv(fetchRunEnv)
	if dir == "" {
		t.Skip("set " + fetchRunEnv + " to a folder for the acceptance run of model fetch")
	}
	dir, _ = filepath.Abs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	say := func(format string, a ...any) {
		line := fmt.Sprintf(format, a...)
		t.Log(line)
		report.WriteString(line + "\n")
		os.WriteFile(filepath.Join(dir, "report.txt"), report.Bytes(), 0o644)
	}
	access, err := os.Create(filepath.Join(dir, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer access.Close()
	var accessMu sync.Mutex
	lw := &lockedWriter{w: access, mu: &accessMu}
	rules := umpire.ICC()
	rules.MaxPlies = 300
	h, telnet, base := startHTTP(t, server.Config{Rules: rules}, Config{Minutes: 5, Inc: 2, AccessLog: lw})

	const bots = 6
	var c [bots]*apiClient
	for i := range c {
		c[i] = newAPIClient(t, base)
		c[i].register(fmt.Sprintf("rnd%d", i))
		c[i].call("POST", "/bots/profile", map[string]any{"supported_rule_variants": []string{"wild16", "berkeley_any"}}, 200, nil)
	}
	httpGames := 300
	if n := os.Getenv(fetchRunEnv + "_GAMES"); n != "" {
		fmt.Sscan(n, &httpGames)
	}
	start := time.Now()
	// The bots' games, three pairs at a time; a game that outlasts the
	// player's patience is resigned (a real end too).
	var wg sync.WaitGroup
	jobs := make(chan int)
	var mu sync.Mutex
	ended := map[string]int{}
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				a, b := c[i%bots], c[(i+1+i/bots)%bots]
				if a == b {
					b = c[(i+2)%bots]
				}
				variant := "wild16"
				if i%2 == 1 {
					variant = "berkeley_any"
				}
				how := playVariantPair(a, b, variant, uint64(i))
				mu.Lock()
				ended[variant+" "+how]++
				mu.Unlock()
			}
		}()
	}
	// Meanwhile telnet guests play HTTP bots in wild16.
	guestGames := 0
	guestDone := make(chan struct{})
	go func() {
		defer close(guestDone)
		for i := range httpGames {
			jobs <- i
		}
		close(jobs)
	}()
	tc := wiretest.DialRaw(t, telnet)
	guest := tc.GuestHandle("")
	rng := rand.New(rand.NewPCG(43, 1))
	for g := 0; ; g++ {
		select {
		case <-guestDone:
		default:
			playGuestGame(t, h, tc, guest, c[g%bots], rng, uint64(g))
			guestGames++
			continue
		}
		break
	}
	wg.Wait()
	_, finished := h.GameCount()
	say("games: %d HTTP bot games (%v) and %d telnet guest games (%s) finished in %s; the server holds %d finished games",
		httpGames, ended, guestGames, guest, time.Since(start).Round(time.Second), finished)

	// The fetcher, the real command, in its own process.
	bin := filepath.Join(dir, "kriegbot")
	if out, err := exec.Command("go", "build", "-o", bin, "kriegbot").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	games := filepath.Join(dir, "games")
	os.RemoveAll(games)
	fetchStart := time.Now()
	markFetch := fetchStart.UTC().Format("2006-01-02T15:04:05.000000Z")
	fetch := func() *exec.Cmd {
		// No config.toml in dir: the built-in defaults, the token from
		// the environment.
		cmd := exec.Command(bin, "model", "fetch", "-url", base, "-dir", games, "-pause", "200ms")
		cmd.Env = append(os.Environ(), "KRIEGBOT_TOKEN="+c[0].token)
		cmd.Dir = dir
		return cmd
	}
	first := fetch()
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it with SIGKILL once about a third of the games are stored.
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	for storedLines(games) < finished/3 {
		select {
		case err := <-exited:
			t.Fatalf("the first fetch ended before the kill: %v\n%s", err, firstOut.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	atKill := storedLines(games)
	first.Process.Signal(syscall.SIGKILL)
	<-exited
	killedAt := time.Now()
	say("first fetch: killed with SIGKILL after %s with %d games stored", time.Since(fetchStart).Round(time.Second), atKill)
	second := fetch()
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("second fetch: %v\n%s", err, out)
	}
	say("second fetch (resumed): %s", strings.TrimSpace(lastLines(string(out), 2)))

	// Each game stored once.
	ids := map[string]int{}
	perVariant := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(games, "*.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if i := strings.Index(line, `"id":"`); i >= 0 {
				id := line[i+6:]
				id = id[:strings.IndexByte(id, '"')]
				ids[id]++
				perVariant[filepath.Base(f)]++
			}
		}
	}
	dups := 0
	for _, n := range ids {
		if n > 1 {
			dups++
		}
	}
	say("store: %d games (%v), %d stored more than once; the server finished %d", len(ids), perVariant, dups, finished)
	if dups > 0 || len(ids) != finished {
		t.Errorf("stored %d distinct games (%d twice), want each of %d once", len(ids), dups, finished)
	}

	// The server's side: the fetcher's requests in the access log.
	accessMu.Lock()
	logData, _ := os.ReadFile(access.Name())
	accessMu.Unlock()
	// Only the fetcher's routes count (a bot's last request of a game may
	// come after the mark), and each run apart: a process started after a
	// SIGKILL cannot know when its killed forerunner last asked.
	var runs [2][]time.Time
	moves := map[string]int{}
	for _, line := range strings.Split(string(logData), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] < markFetch {
			continue
		}
		path := f[2]
		if !(path == "/bots" || strings.HasPrefix(path, "/user/") || strings.HasSuffix(path, "/moves")) {
			continue
		}
		tm, err := time.Parse("2006-01-02T15:04:05.000000Z", f[0])
		if err != nil {
			continue
		}
		run := 0
		if tm.After(killedAt) {
			run = 1
		}
		runs[run] = append(runs[run], tm)
		if strings.HasSuffix(path, "/moves") {
			moves[path]++
		}
	}
	minGap, maxPerSecond, total := time.Hour, 0, 0
	for r, times := range runs {
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		gap, most := time.Hour, 0
		for i := range times {
			if i > 0 {
				gap = min(gap, times[i].Sub(times[i-1]))
			}
			n := 0
			for j := i; j < len(times) && times[j].Sub(times[i]) < time.Second; j++ {
				n++
			}
			most = max(most, n)
		}
		total += len(times)
		minGap, maxPerSecond = min(minGap, gap), max(maxPerSecond, most)
		if len(times) > 0 {
			say("server access log, fetch run %d: %d requests in %s, least gap between two %s, most in any one second %d",
				r+1, len(times), times[len(times)-1].Sub(times[0]).Round(time.Millisecond), gap, most)
		}
	}
	twice := 0
	for _, n := range moves {
		if n > 1 {
			twice++
		}
	}
	say("server access log: %d requests from the fetcher; least gap %s (pause 200ms), most in any one second %d; %d transcripts asked for, %d of them more than once",
		total, minGap, maxPerSecond, len(moves), twice)
	if minGap < 190*time.Millisecond || maxPerSecond > 5 {
		t.Errorf("the fetcher exceeded its rate: least gap %s, %d in a second", minGap, maxPerSecond)
	}
	if twice > 1 {
		t.Errorf("%d transcripts fetched more than once (at most the one in flight at the kill may be)", twice)
	}

	// Build and evaluate: a model per variant from all but a held-out
	// fifth, scored on that fifth against the embedded default and uniform.
	run := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("kriegbot %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, v := range []string{"wild16", "berkeley_any"} {
		for _, humans := range []bool{false, true} {
			if humans && v != "wild16" {
				continue
			}
			args := []string{"-games", games, "-variant", v, "-holdout", "5"}
			name := v
			if humans {
				args = append(args, "-humans")
				name += "-humans"
			}
			model := filepath.Join(dir, "models", name+".kbm")
			out := run(append([]string{"model", "build", "-o", model}, args...)...)
			say("$ kriegbot model build -o models/%s.kbm %s\n%s", name, strings.Join(args[2:], " "), lastLines(out, 3))
			out = run(append([]string{"model", "eval", "-model", model}, args...)...)
			say("$ kriegbot model eval -model models/%s.kbm %s\n%s", name, strings.Join(args[2:], " "), out)
			if !strings.Contains(out, "legality of the attempts, log-loss in nats") || strings.Contains(out, "legality: no attempt scored") {
				t.Errorf("model eval %s scored no attempt's legality", name)
			}
		}
	}
}

// lockedWriter serialises the access log's writes with the reader.
type lockedWriter struct {
	w  *os.File
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// storedLines counts the complete lines the fetcher stored so far.
func storedLines(dir string) int {
	n := 0
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		n += bytes.Count(b, []byte("\n"))
	}
	return n
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// playVariantPair plays one lobby game of variant between two bots and
// says how it ended; a game still going when a player gives up is
// resigned.
func playVariantPair(a, b *apiClient, variant string, seed uint64) string {
	var created struct {
		GameCode string `json:"game_code"`
	}
	a.call("POST", "/game/create", map[string]any{"rule_variant": variant, "play_as": "white", "time_control": "rapid", "opponent_type": "human"}, 201, &created)
	var joined struct {
		GameID string `json:"game_id"`
	}
	b.call("POST", "/game/join/"+created.GameCode, nil, 200, &joined)
	pa := &botPlayer{c: a, rng: rand.New(rand.NewPCG(seed, 1)), gameID: joined.GameID}
	pb := &botPlayer{c: b, rng: rand.New(rand.NewPCG(seed, 2)), gameID: joined.GameID}
	var wg sync.WaitGroup
	for _, p := range []*botPlayer{pa, pb} {
		wg.Add(1)
		go func() { defer wg.Done(); p.play() }()
	}
	wg.Wait()
	if pa.err != nil || pb.err != nil {
		a.do("POST", "/game/"+joined.GameID+"/resign", nil)
		return "resigned"
	}
	if r := pa.final.Result; r != nil {
		return r.Reason
	}
	return "?"
}

// playGuestGame has the telnet guest seek a wild16 game, bot join it, and
// the guest try random moves of its own men (the door's allowed moves for
// its colour) until the game ends; the bot plays at random over HTTP.
func playGuestGame(t *testing.T, h *house, tc *wiretest.RawClient, guest string, bot *apiClient, rng *rand.Rand, seed uint64) {
	t.Helper()
	colour := "white"
	if seed%2 == 1 {
		colour = "black"
	}
	tc.Send("seek 5 2 " + colour + "\r\n")
	tc.Expect("Your seek has been posted", wait)
	var open struct {
		Games []struct {
			Code      string `json:"game_code"`
			CreatedBy string `json:"created_by"`
		}
	}
	bot.call("GET", "/game/open", nil, 200, &open)
	code := ""
	for _, g := range open.Games {
		if g.CreatedBy == guest {
			code = g.Code
		}
	}
	var j struct {
		ID string `json:"game_id"`
	}
	bot.call("POST", "/game/join/"+code, nil, 200, &j)
	tc.Expect("Creating: ", wait)
	p := &botPlayer{c: bot, rng: rand.New(rand.NewPCG(seed, 3)), gameID: j.ID}
	done := make(chan struct{})
	go func() { defer close(done); p.play() }()
	us := chess.White
	if colour == "black" {
		us = chess.Black
	}
	var tried map[string]bool
	plies := -1
	for {
		h.Lock()
		_, g := h.FindKey(j.ID, false)
		over := g == nil || g.Result() != ""
		var moves []string
		if !over && g.Umpire().Side() == us {
			if g.Umpire().Plies() != plies {
				plies, tried = g.Umpire().Plies(), map[string]bool{}
			}
			for _, m := range allowedMoves(g) {
				if !tried[m] {
					moves = append(moves, m)
				}
			}
		}
		h.Unlock()
		if over {
			break
		}
		if len(moves) == 0 {
			time.Sleep(2 * time.Millisecond) // the bot's turn: it answers over HTTP
			continue
		}
		m := moves[rng.IntN(len(moves))]
		tried[m] = true
		tc.Send(m + "\r\n")
		tc.ExpectAny(wait, "you played", "Illegal move")
	}
	<-done
}
