package kep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// wait bounds every wait for output that must come: long enough that only
// an engine that never answers fails it, even on a slow, loaded machine
// (a passing test never waits this long).
const wait = 60 * time.Second

// quitHash is the Hash (MB) of a search that a test quits or stops mid-way:
// its trees take far longer to fill than the test needs to send the next
// line (8 MB fill in 20-35 ms on a loaded 2-core machine, and a full tree
// ends the search, whose attempt would then precede the quit).
const quitHash = "256"

// proc is one engine run by Run over pipes, as a driver sees it.
type proc struct {
	t     *testing.T
	name  string
	in    *io.PipeWriter
	lines chan string // the engine's output lines
	done  chan error  // Run's result
	log   *lockedBuffer
	sent  []string // our lines, for failure messages
}

// lockedBuffer collects the engine's log.
type lockedBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

func startEngine(t *testing.T, name string, cfg Config) *proc {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &proc{t: t, name: name, in: inW, lines: make(chan string, 64), done: make(chan error, 1), log: &lockedBuffer{}}
	go func() {
		err := Run(context.Background(), inR, outW, p.log, cfg)
		outW.Close()
		p.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		inR.Close()
		if t.Failed() {
			t.Logf("%s: last lines sent: %q\n%s log:\n%s", name, p.sent[max(len(p.sent)-12, 0):], name, tail(p.log.String(), 3000))
		}
	})
	return p
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		p.sent = append(p.sent, l)
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatalf("%s: writing %q: %v", p.name, l, err)
		}
	}
}

// recv returns the engine's next output line.
func (p *proc) recv(timeout time.Duration) string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("%s: output closed", p.name)
		}
		return l
	case <-time.After(timeout):
		p.t.Fatalf("%s: no output within %v", p.name, timeout)
	}
	return ""
}

// attempt reads the answer to a go: info lines, then one attempt.
func (p *proc) attempt(timeout time.Duration) chess.Move {
	p.t.Helper()
	for {
		l := p.recv(timeout)
		if strings.HasPrefix(l, "info ") {
			continue
		}
		s, ok := strings.CutPrefix(l, "attempt ")
		if !ok {
			p.t.Fatalf("%s: %q where an attempt was due", p.name, l)
		}
		m, err := chess.ParseUCI(s)
		if err != nil {
			p.t.Fatalf("%s: %q: %v", p.name, l, err)
		}
		return m
	}
}

// sync waits until the engine has handled every line sent so far and checks
// that it printed nothing else meanwhile (but the progress lines of a
// search still running).
func (p *proc) sync() {
	p.t.Helper()
	p.send("isready")
	l := p.recv(wait)
	for strings.HasPrefix(l, "info ") {
		l = p.recv(wait)
	}
	if l != "readyok" {
		p.t.Fatalf("%s: %q where readyok was due", p.name, l)
	}
}

// hello runs the handshake and sets options.
func (p *proc) hello(opts ...string) {
	p.t.Helper()
	p.send("kep")
	var got []string
	for {
		l := p.recv(wait)
		if l == "kepok" {
			break
		}
		got = append(got, l)
	}
	if len(got) < 2 || got[0] != "id name kriegbot" || !strings.HasPrefix(got[1], "id author ") {
		p.t.Fatalf("%s: handshake %q", p.name, got)
	}
	for i := 0; i+1 < len(opts); i += 2 {
		p.send("setoption name " + opts[i] + " value " + opts[i+1])
	}
	p.sync()
	if strings.Contains(p.log.String(), "ignored") {
		p.t.Fatalf("%s: an option was refused:\n%s", p.name, p.log.String())
	}
}

// quit ends the engine and returns how long Run took to return. Run must
// return within wait: a quit that waited for a ten-minute search fails.
func (p *proc) quit() time.Duration {
	p.t.Helper()
	start := time.Now()
	p.send("quit")
	select {
	case err := <-p.done:
		if err != nil {
			p.t.Fatalf("%s: Run: %v", p.name, err)
		}
	case <-time.After(wait):
		p.t.Fatalf("%s: Run did not return within %v of quit", p.name, wait)
	}
	d := time.Since(start)
	for l := range p.lines {
		p.t.Errorf("%s: output %q after quit", p.name, l)
	}
	return d
}

// announce writes a legal or opponent line.
func announce(word string, v umpire.View) string {
	if s := AnnouncementOf(v).String(); s != "" {
		return word + " " + s
	}
	return word
}

// noise is what a sloppy or hostile driver may send between commands: lines
// the engine must log and ignore without any effect on its play. Out-of-turn
// events are among them: noise is only sent when the engine is to move and
// idle.
var noise = []string{
	"",
	"   ",
	"hello engine",
	"bestmove e2e4",
	"go wtime soon",
	"go nodes -5",
	"legal capture z9 pawn",
	"legal check diagonal",
	"opponent tries many",
	"newgame purple",
	"gameover 3-0",
	"setoption name Nonsense value 1",
	"setoption name Threads value 999",
	"setoption name Approach value z",
	"setoption name Player value chess-master-3000",
	"setoption name ModelFile value /nonexistent/model.kbm",
	"setoption",
	"opponent",                 // not our opponent's turn: ignored
	"opponent capture e4 pawn", // idem
	"legal tries 2",            // no attempt pending: ignored
	"illegal",                  // idem
	"stop",                     // no search: ignored
	"any yes",                  // no "Any?" pending: ignored
	"opponent illegal",         // not the opponent's turn, nor a variant's game
	"opponent any no",          // idem
	"newgame white variant chess960",
	"legal capture e4 man drop queen",
	"\x00\xff\xfe\x01",
	"KEP",
	strings.Repeat("go ", 30000), // 90 KB: skipped unread
	strings.Repeat("x", MaxLine+1),
}

// referee plays one game between two engines, refereed by the umpire, and
// returns the umpire and the attempts made. goLine gives each go; when rng is
// set, every noise line is sent to each engine before its first go, and then
// noise lines (seeded) before some go lines: how many turns a game lasts
// may depend on the machine's speed (stop, clocks), so the random noise
// alone might miss a kind.
type gameOpts struct {
	maxPlies int
	goLine   func(side chess.Color, ply int) string
	rng      *rand.Rand
	// stopEvery sends a long go and a stop on every n-th turn of White.
	stopEvery int
	// views receives what each side should have heard, in order.
	views *[2][]umpire.View
	// finalOpponent tells the opponent of the game-ending move too (KEP
	// allows a driver to go straight to gameover).
	finalOpponent bool
}

func referee(t *testing.T, white, black *proc, o gameOpts) (*umpire.Umpire, []chess.Move) {
	t.Helper()
	rules := umpire.ICC()
	rules.MaxPlies = o.maxPlies
	u := umpire.New(rules)
	ps := [2]*proc{white, black}
	white.send("newgame white")
	black.send("newgame black")
	var attempts []chess.Move
	var noised [2]bool
	turn := 0
	for u.Ending() == umpire.NotOver {
		side := u.Side()
		p := ps[side]
		if turn++; turn > 2*chess.MaxMoves {
			t.Fatalf("%s: more than %d attempts in one turn", p.name, 2*chess.MaxMoves)
		}
		if o.rng != nil && !noised[side] {
			p.send(noise...)
			noised[side] = true
		}
		if o.rng != nil && o.rng.IntN(4) == 0 {
			p.send(noise[o.rng.IntN(len(noise))])
		}
		var m chess.Move
		if o.stopEvery > 0 && side == chess.White && u.Plies()%(2*o.stopEvery) == 0 && len(u.Refused()) == 0 {
			// A ten-minute search: only stop can bring its attempt
			// within wait. (If its tree fills first, the search ends by
			// itself and the stop is ignored: the attempt comes either way.)
			p.send("go movetime 600000")
			time.Sleep(5 * time.Millisecond)
			p.send("stop")
			m = p.attempt(wait)
		} else {
			p.send(o.goLine(side, u.Plies()))
			m = p.attempt(wait)
		}
		attempts = append(attempts, m)
		for _, r := range u.Refused() {
			if r == m {
				t.Fatalf("%s: attempt %v again after its refusal", p.name, m)
			}
		}
		a, err := u.Attempt(m)
		if err != nil {
			t.Fatal(err)
		}
		if o.views != nil {
			for c := range 2 {
				told := c == int(side) || a.Ending == umpire.NotOver || o.finalOpponent
				if v := a.For(chess.Color(c)); v.Heard && told {
					(*o.views)[c] = append((*o.views)[c], v)
				}
			}
		}
		if !a.Legal {
			p.send("illegal")
			continue
		}
		turn = 0
		p.send(announce("legal", a.For(side)))
		if a.Ending == umpire.NotOver || o.finalOpponent {
			ps[side.Other()].send(announce("opponent", a.For(side.Other())))
		}
	}
	result, reason := u.Result(), u.Ending().String()
	if u.Ending() == umpire.PlyLimit {
		result = "1/2-1/2"
	}
	for _, p := range ps {
		p.send("gameover " + result + " " + reason)
		p.sync()
	}
	return u, attempts
}

func nodesGo(n int) func(chess.Color, int) string {
	return func(chess.Color, int) string { return fmt.Sprintf("go nodes %d", n) }
}

// TestGamesBothColours plays two complete games over pipes, the MCTS engine
// once with each colour against a second engine running the heuristic
// player, with malformed lines, out-of-turn events, over-long lines and stop
// mixed in; then an early quit in the middle of a third game's search.
func TestGamesBothColours(t *testing.T) {
	a := startEngine(t, "mcts", Config{})
	b := startEngine(t, "heuristic", Config{})
	a.hello("Threads", "1", "Hash", "8", "Seed", "11", "Approach", "c")
	b.hello("Player", "heuristic", "Seed", "5")
	rng := rand.New(rand.NewPCG(1, 2))
	illegal := 0
	for g, o := range []gameOpts{
		{maxPlies: 400, goLine: nodesGo(60), rng: rng, stopEvery: 10, finalOpponent: true},
		{maxPlies: 400, goLine: func(side chess.Color, ply int) string {
			// Clocks as a harness sends them: the time manager budgets.
			return "go wtime 20000 btime 20000 winc 100 binc 100 nodes 60"
		}, rng: rng},
	} {
		white, black := a, b
		if g == 1 {
			white, black = b, a
		}
		u, attempts := referee(t, white, black, o)
		illegal += len(attempts) - u.Plies()
		t.Logf("game %d: %s (%s) after %d plies, %d attempts", g, u.Result(), u.Ending(), u.Plies(), len(attempts))
		if u.Plies() < 10 {
			t.Fatalf("game %d ended after %d plies", g, u.Plies())
		}
	}
	if illegal == 0 {
		t.Fatal("no illegal attempt in two games: the refusal path went untested")
	}
	for _, p := range []*proc{a, b} {
		log := p.log.String()
		for _, want := range []string{"unknown command", "ignored", "longer than 65536 bytes: skipped"} {
			if !strings.Contains(log, want) {
				t.Errorf("%s: the log never says %q", p.name, want)
			}
		}
	}
	// An early quit: a third game, quit in the middle of a ten-minute
	// search. readyok shows that the go was taken and the search runs; its
	// trees (quitHash, allocated by a first search) cannot fill before the
	// quit arrives, so no attempt may come. quit fails if Run does not
	// return within wait.
	a.send("setoption name Hash value "+quitHash, "newgame white", "go nodes 1")
	a.attempt(wait)
	a.send("illegal", "go movetime 600000")
	a.sync()
	d := a.quit()
	t.Logf("quit mid-search: %v; quit: %v", d, b.quit())
}

// TestNoiseHasNoEffect plays the same game twice with the same seeds and
// node budgets, once clean and once with noise before a quarter of the go
// lines: the attempts must be identical (determinism, and ignored lines are
// truly ignored).
func TestNoiseHasNoEffect(t *testing.T) {
	play := func(rng *rand.Rand) []chess.Move {
		a := startEngine(t, "mcts", Config{})
		b := startEngine(t, "heuristic", Config{})
		a.hello("Seed", "3")
		b.hello("Player", "heuristic", "Seed", "4")
		_, attempts := referee(t, b, a, gameOpts{maxPlies: 120, goLine: nodesGo(40), rng: rng})
		a.quit()
		b.quit()
		return attempts
	}
	clean := play(nil)
	noisy := play(rand.New(rand.NewPCG(9, 9)))
	if len(clean) != len(noisy) {
		t.Fatalf("%d attempts clean, %d with noise", len(clean), len(noisy))
	}
	for i := range clean {
		if clean[i] != noisy[i] {
			t.Fatalf("attempt %d: %v clean, %v with noise", i, clean[i], noisy[i])
		}
	}
	if len(clean) < 20 {
		t.Fatalf("only %d attempts", len(clean))
	}
}

// spy wraps a real player and records what it hears, so that a test can
// compare the engine's translation of KEP lines with the umpire's views.
type spy struct {
	players.Player
	mu    *sync.Mutex
	heard *[]umpire.View
}

func (s spy) Hear(e players.Event) {
	if e.Kind == players.Answer {
		s.mu.Lock()
		*s.heard = append(*s.heard, e.View)
		s.mu.Unlock()
	}
	s.Player.Hear(e)
}

func spyKind(mu *sync.Mutex, heard *[]umpire.View) players.Kind {
	return spyOf("heuristic", mu, heard)
}

// spyOf is the player of spec, recording what it hears.
func spyOf(spec string, mu *sync.Mutex, heard *[]umpire.View) players.Kind {
	return players.Kind{Name: "spy", Summary: "a player, recording what it hears", Build: func(o *players.Options) (func() players.Player, error) {
		inner, err := players.Parse(spec, players.Kinds())
		if err != nil {
			return nil, err
		}
		return func() players.Player { return spy{Player: inner.New(), mu: mu, heard: heard} }, o.Err()
	}}
}

// TestTranslationExact checks that every legal, opponent and illegal line
// reaches the player as exactly the view the umpire gives that side (our own
// accepted move included; the game's ending travels in gameover instead).
func TestTranslationExact(t *testing.T) {
	for _, color := range []chess.Color{chess.White, chess.Black} {
		// Games until every kind of answer was heard (the opponent's
		// strength decides how long games last), at most maxGames.
		const maxGames = 4
		seen := map[string]int{}
		for g := 0; g < maxGames && len(seen) < 4; g++ {
			var mu sync.Mutex
			var heard []umpire.View
			kinds := append(players.Kinds(), spyKind(&mu, &heard))
			s := startEngine(t, "spy", Config{Kinds: kinds})
			o := startEngine(t, "mcts", Config{})
			s.hello("Player", "spy", "Seed", fmt.Sprint(g))
			o.hello("Seed", fmt.Sprint(8+g))
			var views [2][]umpire.View
			white, black := s, o
			if color == chess.Black {
				white, black = o, s
			}
			u, _ := referee(t, white, black, gameOpts{maxPlies: 300, goLine: nodesGo(30), views: &views, finalOpponent: (g+int(color))%2 == 1})
			want := views[color]
			for i := range want {
				if want[i].Ending != umpire.NotOver {
					want[i].Ending, want[i].Result, want[i].PawnTries = umpire.NotOver, "", 0
				}
			}
			mu.Lock()
			got := heard
			mu.Unlock()
			if len(got) != len(want) {
				t.Fatalf("%v: the player heard %d answers, the umpire gave %d", color, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%v: answer %d: heard %+v, umpire %+v", color, i, got[i], want[i])
				}
				switch {
				case want[i].Illegal:
					seen["illegal"]++
				case want[i].Capture.Kind != umpire.NoCapture:
					seen["capture"]++
				}
				if want[i].Checks[0] != chess.NoCheck {
					seen["check"]++
				}
				if want[i].PawnTries > 0 {
					seen["tries"]++
				}
			}
			t.Logf("%v, game %d: %d answers, %s after %d plies", color, g, len(want), u.Ending(), u.Plies())
			s.quit()
			o.quit()
		}
		t.Logf("%v: %v", color, seen)
		for _, k := range []string{"illegal", "capture", "check", "tries"} {
			if seen[k] == 0 {
				t.Errorf("%v: no %s announced in %d games: that translation went untested", color, k, maxGames)
			}
		}
	}
}

// TestStopAndQuitTiming checks that stop gets its attempt and quit ends Run
// while a search that would run for ten minutes is under way, and logs how
// long each took. Only a stop or quit that waits for the search fails (after
// wait): a speed bound would fail on a slow or loaded machine, and speed
// targets are not unit tests.
func TestStopAndQuitTiming(t *testing.T) {
	p := startEngine(t, "mcts", Config{})
	// quitHash: the trees cannot fill (which ends a search by itself)
	// before the stop or the quit arrives.
	p.hello("Threads", "2", "Hash", quitHash)
	p.send("newgame white")
	var worst time.Duration
	for i := range 5 {
		p.send("go movetime 600000")
		p.sync() // the search runs
		time.Sleep(time.Duration(10+10*i) * time.Millisecond)
		start := time.Now()
		p.send("stop")
		m := p.attempt(wait)
		worst = max(worst, time.Since(start))
		p.send("illegal") // keeps the turn going: five different attempts
		if m == chess.NullMove {
			t.Fatal("null attempt")
		}
	}
	// A clock-budgeted search may legitimately end within milliseconds (the
	// search stops early when its trees are full or the choice is settled),
	// and its attempt would then precede quit; movetime keeps one running,
	// and readyok shows it runs.
	p.send("go movetime 600000")
	p.sync()
	d := p.quit()
	t.Logf("stop: %v at worst of 5; quit mid-search: %v", worst, d)
}

// TestOddDrivers covers drivers that break the rules of the conversation.
func TestOddDrivers(t *testing.T) {
	p := startEngine(t, "heuristic", Config{})
	p.hello("Player", "heuristic")
	// go with no game: logged, no attempt.
	p.send("go nodes 10")
	p.sync()
	if !strings.Contains(p.log.String(), "go with no game") {
		t.Errorf("go with no game not logged:\n%s", p.log.String())
	}
	// Two go without an answer between: each gets exactly one attempt.
	p.send("newgame white", "go", "go")
	p.attempt(wait)
	p.attempt(wait)
	p.sync()
	// legal, then a go out of turn (the opponent's move was not told).
	p.send("legal", "go")
	p.attempt(wait)
	p.sync()
	if !strings.Contains(p.log.String(), "go in the opponent's turn: answering anyway") {
		t.Errorf("out-of-turn go not logged:\n%s", p.log.String())
	}
	// Lines sent during a search wait for it (a node budget is kept whole);
	// stop ends it at once even with lines waiting. (quitHash: the search
	// cannot end by itself, a full tree, before the stop.) The last line,
	// unknown, is logged as it is read, not queued: once it is, every line
	// before it was read and had its chance to answer.
	p.send("illegal", "setoption name Player value mcts", "setoption name Hash value "+quitHash, "newgame black", "opponent", "go movetime 600000", "gameover 1-0 resign", "newgame white", "go nodes 5", "isready", "allread")
	for deadline := time.Now().Add(wait); !strings.Contains(p.log.String(), `unknown command "allread"`); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the last line was never read:\n%s", p.log.String())
		}
	}
	select {
	case l := <-p.lines:
		t.Fatalf("%q before stop: the waiting lines did not wait", l)
	default:
	}
	p.send("stop")
	p.attempt(wait) // the stopped search
	p.attempt(wait) // go nodes 5, from the queue
	if l := p.recv(wait); l != "readyok" {
		t.Fatalf("%q where readyok was due", l)
	}
	if !strings.Contains(p.log.String(), "gameover waits for the search to end") {
		t.Errorf("waiting lines not logged:\n%s", p.log.String())
	}
	// CR LF line ends and tabs.
	p.send("isready\r")
	if l := p.recv(wait); l != "readyok" {
		t.Fatalf("%q", l)
	}
	p.quit()

	// The end of input with a go pending: the attempt comes, then Run ends.
	q := startEngine(t, "eof", Config{})
	q.send("setoption name Player value heuristic", "newgame white", "go")
	q.in.Close()
	q.attempt(wait)
	select {
	case err := <-q.done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not end at the end of input")
	}
}

// TestDriverGone checks that Run returns an error, not hangs, when its
// output fails.
func TestDriverGone(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	outR.Close()
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), inR, outW, io.Discard, Config{}) }()
	go io.WriteString(inW, "isready\n")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "writing to the driver") {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return")
	}
	inW.Close()
}

// TestHello checks the handshake's options line by line.
func TestHello(t *testing.T) {
	p := startEngine(t, "hello", Config{})
	p.send("kep")
	want := []string{
		"id name kriegbot",
		"id author " + Author,
		"option name Threads type spin default 1 min 1 max 64",
		"option name Hash type spin default 32 min 1 max 65536",
		"option name Seed type spin default 0 min 0 max 18446744073709551615",
		"option name Approach type string default auto",
		"option name Player type string default <empty>",
		"option name MoveOverhead type spin default 10 min 0 max 5000",
		"option name ModelFile type string default <empty>",
		"kepok",
	}
	for _, w := range want {
		if l := p.recv(wait); l != w {
			t.Fatalf("got %q, want %q", l, w)
		}
	}
	p.quit()
}

// TestModelFile loads a real model file, refuses a corrupt one with an error
// naming the file, and plays a game with the model set.
func TestModelFile(t *testing.T) {
	dir := t.TempDir()
	c, err := oppmodel.DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.kbm")
	if err := os.WriteFile(good, c.AppendFile(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.kbm")
	if err := os.WriteFile(bad, []byte("not a model\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startEngine(t, "model", Config{})
	p.send("setoption name ModelFile value " + bad)
	p.sync()
	if log := p.log.String(); !strings.Contains(log, "option ModelFile: ") || !strings.Contains(log, "bad.kbm") {
		t.Fatalf("a corrupt model file gave no error naming it:\n%s", log)
	}
	before := p.log.String()
	p.send("setoption name ModelFile value "+good, "newgame white", "go nodes 50")
	p.attempt(wait)
	p.sync()
	if strings.Contains(strings.TrimPrefix(p.log.String(), before), "option ModelFile") {
		t.Fatalf("the good model file was refused:\n%s", p.log.String())
	}
	p.quit()
}

// broken is a player that fails, to check that a go still gets its attempt.
type broken struct{ players.Player }

func (broken) Attempt(context.Context, players.Budget) (chess.Move, error) {
	panic("broken player")
}

// TestFailingPlayer checks that a go is answered with an askable attempt
// even when the player panics, and that the failure is logged.
func TestFailingPlayer(t *testing.T) {
	kind := players.Kind{Name: "broken", Build: func(o *players.Options) (func() players.Player, error) {
		h, err := players.Parse("heuristic", players.Kinds())
		if err != nil {
			return nil, err
		}
		return func() players.Player { return broken{h.New()} }, o.Err()
	}}
	p := startEngine(t, "broken", Config{Kinds: append(players.Kinds(), kind)})
	p.hello("Player", "broken")
	p.send("newgame white", "go")
	m := p.attempt(wait)
	var list chess.MoveList
	u := umpire.New(umpire.ICC())
	u.Askable(&list)
	if !list.Contains(m) {
		t.Fatalf("attempt %v is not askable", m)
	}
	p.send("illegal", "go")
	if m2 := p.attempt(wait); m2 == m {
		t.Fatalf("the refused attempt %v came again", m)
	}
	p.sync()
	if !strings.Contains(p.log.String(), "player panicked: broken player") {
		t.Fatalf("the failure was not logged:\n%s", p.log.String())
	}
	p.quit()
}

// TestScriptedDriver sends a whole script at once, as `kriegbot engine <
// file` does: lines behind a go wait for its search, so the node budgets are
// kept whole and the attempts equal those of a driver that waits for each.
func TestScriptedDriver(t *testing.T) {
	script := []string{"setoption name Seed value 21", "newgame white", "go nodes 300", "illegal", "go nodes 300", "legal", "opponent tries 1", "go nodes 300", "isready"}
	var want []string
	w := startEngine(t, "waiting", Config{})
	for _, l := range script {
		w.send(l)
		if strings.HasPrefix(l, "go") {
			want = append(want, w.attempt(wait).String())
		}
	}
	w.recv(wait) // readyok
	w.quit()
	s := startEngine(t, "scripted", Config{})
	s.send(script...)
	// isready acts at once when nothing waits before it, so readyok comes
	// after the last go was taken, and so after every attempt but the
	// last: that search may still run when isready arrives (as when the
	// driver's lines come slowly, on a loaded machine).
	got, ready := 0, false
	for got < len(want) || !ready {
		l := s.recv(wait)
		switch {
		case strings.HasPrefix(l, "info "):
		case l == "readyok" && !ready && got >= len(want)-1:
			ready = true
		case strings.HasPrefix(l, "attempt ") && got < len(want):
			if m := strings.TrimPrefix(l, "attempt "); m != want[got] {
				t.Fatalf("attempt %d: %s scripted, %s waiting", got, m, want[got])
			}
			got++
		default:
			t.Fatalf("%q after %d attempts of %d (readyok seen: %v)", l, got, len(want), ready)
		}
	}
	s.quit()
}

// TestRandomDriver feeds long seeded streams of valid, malformed and
// out-of-order lines: the engine must never fail, must print only protocol
// lines, and must answer every go that finds a game with exactly one
// attempt.
func TestRandomDriver(t *testing.T) {
	words := []string{
		"kep", "isready", "stop", "illegal", "legal", "opponent", "go", "newgame white", "newgame black",
		"gameover 1-0", "gameover 1/2-1/2 stalemate", "go nodes 20", "go movetime 2", "go wtime 500 btime 500",
		"go wtime 0 btime 0", "legal capture e4 pawn", "opponent capture d2 pawn tries 1", "legal check file,knight",
		"opponent check long", "opponent capture e1 piece", "legal tries 16", "setoption name Player value heuristic",
		"setoption name Player value mcts:threads=2", "setoption name Threads value 2", "setoption name Approach value b",
		"setoption name Approach value a", "setoption name Seed value 7", "setoption name Hash value 1",
		"go nodes", "legal capture", "opponent check", "newgame", "gameover", "frob", "\x00", "",
		"opponent check short,short", "opponent check knight,knight tries 16", "legal check rank,file tries 3",
		"opponent capture e2 pawn check short", "opponent capture b1 piece check knight", "legal capture e3 pawn",
		"legal capture d3 pawn", "legal capture f6 piece check long,knight", "opponent check rank,file",
	}
	seeds := uint64(3)
	if os.Getenv("KRIEGBOT_LONG") != "" {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 77))
		p := startEngine(t, fmt.Sprintf("random%d", seed), Config{})
		var script []string
		want, game := 0, false
		for range 1500 {
			l := words[rng.IntN(len(words))]
			script = append(script, l)
			c, err := ParseLine(l)
			if err != nil {
				continue
			}
			switch c.Kind {
			case NewGame:
				game = true
			case GameOver:
				game = false
			case Go:
				if game {
					want++
				}
			}
		}
		got := 0
		errc := make(chan error, 1)
		go func() {
			// readyok means every line before it took effect: the last
			// go's search may still run, its attempt still to come.
			ready := false
			for l := range p.lines {
				switch {
				case l == "readyok":
					ready = true
				case strings.HasPrefix(l, "attempt "):
					if _, err := chess.ParseUCI(l[len("attempt "):]); err != nil {
						errc <- fmt.Errorf("%q: %v", l, err)
						return
					}
					got++
				case strings.HasPrefix(l, "info "), strings.HasPrefix(l, "id "), strings.HasPrefix(l, "option "), l == "kepok":
				default:
					errc <- fmt.Errorf("line %q is not a protocol line", l)
					return
				}
				if ready && got >= want {
					errc <- nil
					return
				}
			}
			errc <- fmt.Errorf("output closed")
		}()
		// isready lines inside the script are answered too: count them out.
		for _, l := range script {
			if l == "isready" {
				l = "kep" // keep the last readyok the only one
			}
			io.WriteString(p.in, l+"\n")
		}
		p.send("isready")
		select {
		case err := <-errc:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(wait):
			t.Fatalf("seed %d: no readyok, or fewer attempts than the %d go lines with a game", seed, want)
		}
		if got != want {
			t.Fatalf("seed %d: %d attempts for %d go lines with a game", seed, got, want)
		}
		p.quit()
		log := p.log.String()
		for _, bad := range []string{"the player failed", "player panicked"} {
			if i := strings.Index(log, bad); i >= 0 {
				t.Errorf("seed %d: %s", seed, log[i:min(len(log), i+300)])
			}
		}
		t.Logf("seed %d: %d attempts, %d log lines", seed, got, strings.Count(log, "\n"))
	}
}
