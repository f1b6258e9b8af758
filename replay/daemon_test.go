package replay

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	"kriegbot/bot"
	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/opponent"
	"kriegbot/server"
	"kriegbot/server/telnetdoor"
)

// daemonGame plays one game between two real daemons over loopback on our
// own server: "kriegbot" plays spec and challenges "sparring", who plays
// random. It returns kriegbot's log folder (games/ and transcripts/).
//
// The server writes its own records into serverRecords, when not "".
func daemonGame(t *testing.T, spec string, base, inc int, timeout time.Duration, serverRecords string) (string, *syncBuffer) {
	t.Helper()
	return daemonGameWith(t, gameSetup{spec: spec, base: base, inc: inc, timeout: timeout, serverRecords: serverRecords, seed: 1234})
}

// gameSetup is one daemon game: kriegbot's player spec, the time control
// (minutes, seconds), a bound on the whole game, the server's records
// folder, kriegbot's seed and the server's ply cap (0: ICC's).
type gameSetup struct {
	spec          string
	base, inc     int
	timeout       time.Duration
	serverRecords string
	seed          uint64
	maxPlies      int
	// models is kriegbot's per-opponent model store ("": none), and
	// variantModels its folder of variant models ("": none).
	models        string
	variantModels string
	// opponent is the sparring partner's player ("random" when empty), and
	// opponentThink its least think per attempt outside an emergency (1 ms
	// when 0).
	opponent      string
	opponentThink time.Duration
}

func daemonGameWith(t *testing.T, gs gameSetup) (string, *syncBuffer) {
	t.Helper()
	spec, base, inc, timeout, serverRecords := gs.spec, gs.base, gs.inc, gs.timeout, gs.serverRecords
	rules := umpire.ICC()
	if gs.maxPlies > 0 {
		rules.MaxPlies = gs.maxPlies
	}
	pw := map[string]string{"kriegbot": "kb-test-pw-1", "sparring": "sp-test-pw-2"}
	acc, err := server.NewAccounts(pw, "C", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Rules: rules, Accounts: acc, RecordDir: serverRecords})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go telnetdoor.New(srv, telnetdoor.Config{}).Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()
	var log syncBuffer
	daemon := func(handle, player string) (*bot.Daemon, string) {
		c := config.Defaults()
		host, port, _ := net.SplitHostPort(addr)
		c.Server.Embedded, c.Server.Host = false, host
		fmt.Sscan(port, &c.Server.Port)
		c.Sparring.Enabled = false
		c.Engine.OpponentModels = ""
		if handle == "kriegbot" {
			c.Engine.OpponentModels = gs.models
			c.Engine.VariantModels = gs.variantModels
		}
		c.Account.Handle = handle
		c.Engine.Player = player
		c.Engine.MoveOverhead = config.Duration{Duration: 20 * time.Millisecond}
		c.Engine.MinThink = config.Duration{Duration: time.Millisecond}
		if handle == "sparring" && gs.opponentThink > 0 {
			c.Engine.MinThink = config.Duration{Duration: gs.opponentThink}
		}
		c.Policy.SeekBase, c.Policy.SeekIncrement = base, inc
		c.Policy.MinBase = min(c.Policy.MinBase, base)
		c.Policy.Greeting, c.Policy.Challenge = "", ""
		c.Connection.LinesPerSecond = 100
		if handle == "kriegbot" {
			c.Policy.Challenge, c.Policy.Games = "sparring", 1
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		sp, err := players.Parse(player, players.Kinds())
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if keep := os.Getenv("KRIEGBOT_REPLAY_KEEP"); keep != "" && handle == "kriegbot" {
			dir = keep // to look at a failing game's files
		}
		return bot.New(c, bot.Options{Name: handle, Password: pw[handle], Addr: addr, Spec: sp,
			Log: zerolog.New(&log).With().Str("bot", handle).Logger(), Dir: dir, Seed: gs.seed}), dir
	}
	a, dir := daemon("kriegbot", spec)
	opp := gs.opponent
	if opp == "" {
		opp = "random"
	}
	b, _ := daemon("sparring", opp)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	bdone := make(chan int, 1)
	go func() { bdone <- b.Run(ctx) }()
	if gs.maxPlies > 0 {
		// A game stopped at the ply cap is adjourned, not finished: leave
		// once the first game's record is complete (its PGN is written).
		go func() {
			for ctx.Err() == nil {
				if p, _ := filepath.Glob(filepath.Join(dir, "games", "*-g1-*.pgn")); len(p) > 0 {
					a.HardQuit()
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		a.Run(ctx)
	} else if code := a.Run(ctx); code != bot.ExitDone {
		t.Fatalf("daemon exit %d", code)
	}
	b.HardQuit()
	<-bdone
	// The PGN (and the record's moves line) follow the game's end.
	for i := 0; i < 50; i++ {
		if p, _ := filepath.Glob(filepath.Join(dir, "games", "*.pgn")); len(p) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return dir, &log
}

// syncBuffer collects the daemons' logs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func onlyFile(t *testing.T, pattern string) string {
	t.Helper()
	names, _ := filepath.Glob(pattern)
	if len(names) != 1 {
		t.Fatalf("%s: %d files", pattern, len(names))
	}
	return names[0]
}

// TestDaemonRecordAndTranscript: a game played by the daemon on our server
// replays from its record and from its raw transcript with 0 differing
// choices, and the transcript, re-fed through the protocol reader and the
// daemon's tracker, gives exactly the answers and attempts of the record.
func TestDaemonRecordAndTranscript(t *testing.T) {
	dir, log := daemonGame(t, "heuristic", 2, 1, 60*time.Second, "")
	checkDaemonGame(t, dir, log)
}

// TestDaemonMCTSGame: the same with the MCTS player on a clock, the real
// thing (30-60 s): KRIEGBOT_LONG=1.
func TestDaemonMCTSGame(t *testing.T) {
	if os.Getenv("KRIEGBOT_LONG") == "" {
		t.Skip("KRIEGBOT_LONG=1 plays a daemon game with the MCTS player")
	}
	dir, log := daemonGame(t, "mcts:approach=c", 1, 1, 5*time.Minute, "")
	checkDaemonGame(t, dir, log)
}

// TestDaemonClockReplays: short daemon games on the clock (0+1, 20 plies at
// most), with the mcts player's small pools (pruned in most searches) and
// two trees in one of them, under a busy goroutine, replay with 0 differing
// choices and searches of the same size; a resync fails the test.
func TestDaemonClockReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	busy(t, 1)
	for i, spec := range []string{"mcts:mem=2", "mcts:mem=2,threads=2", "mcts:mem=2"} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			dir, log := daemonGameWith(t, gameSetup{spec: spec, base: 0, inc: 1, timeout: 2 * time.Minute,
				seed: uint64(100 + i), maxPlies: 20})
			checkDaemonGame(t, dir, log)
		})
	}
	// An opponent that thinks: the daemon ponders (engine.ponder is on by
	// default) during its turns, and the record's ponders replay. The
	// opponent thinks 500 ms an attempt at least once its clock is out of
	// the emergency band (a few moves in): on a loaded machine its quick
	// turns ended every ponder before its first iteration, at 200 ms once
	// in a CI run beside the bot package's tests.
	t.Run("ponder", func(t *testing.T) {
		dir, log := daemonGameWith(t, gameSetup{spec: "mcts:mem=2", base: 0, inc: 1, timeout: 2 * time.Minute,
			seed: 104, maxPlies: 20, opponent: "mcts:mem=2", opponentThink: 500 * time.Millisecond})
		rec := readFile(t, onlyFile(t, filepath.Join(dir, "games", "*-g1-*.jsonl")))
		ponders := 0
		for _, s := range rec.Steps {
			if s.Kind == StepPonder {
				ponders++
			}
		}
		if ponders == 0 {
			t.Fatal("the daemon did not ponder during the opponent's turns")
		}
		checkDaemonGame(t, dir, log)
	})
}

// TestDaemonReplaysWithOpponentModel: a game played with a per-opponent
// model (the store already knows the sparring partner) keeps the counts
// beside its record, and replays with 0 differing choices and no warning;
// without that file the replay says so.
func TestDaemonReplaysWithOpponentModel(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	models := t.TempDir()
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	st, err := opponent.OpenStore(models, def.Horizon)
	if err != nil {
		t.Fatal(err)
	}
	pos := chess.StartPosition()
	var moves []chess.Move
	for _, s := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"} {
		m, err := pos.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(m)
		moves = append(moves, m)
	}
	if err := st.AddGame("sparring", chess.Black, moves); err != nil {
		t.Fatal(err)
	}
	dir, log := daemonGameWith(t, gameSetup{spec: "mcts:mem=2", base: 0, inc: 1, timeout: 2 * time.Minute,
		seed: 77, maxPlies: 20, models: models})
	checkDaemonGame(t, dir, log)
	recName := onlyFile(t, filepath.Join(dir, "games", "*-g1-*.jsonl"))
	rec := readFile(t, recName)
	if rec.Game.OpponentModel == "" || rec.Game.OpponentCounts == "" {
		t.Fatalf("the record names no per-opponent model: %+v", rec.Game)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "per-opponent") {
			t.Errorf("warning with the counts beside the record: %s", w)
		}
	}
	if err := os.Remove(rec.Game.OpponentCounts); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "per-opponent model") {
		t.Errorf("no warning once the counts file is gone: %q", res.Warnings)
	}
}

func checkDaemonGame(t *testing.T, dir string, log *syncBuffer) {
	recName := onlyFile(t, filepath.Join(dir, "games", "*-g1-*.jsonl"))
	trName := onlyFile(t, filepath.Join(dir, "transcripts", "*.txt"))
	rec := readFile(t, recName)
	if rec.Result == nil {
		t.Fatalf("%s: no result line", recName)
	}
	f, err := os.Open(trName)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tg, err := ReadTranscript(f, trName, TranscriptOptions{Game: rec.Game.Number})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, `"bot":"kriegbot"`) && strings.Contains(line, "sync") {
			// The daemon lost track of the game and rebuilt its player
			// from the server's move list ("desync", "resyncing"): its
			// record cannot replay past that point, which is a failure.
			t.Fatalf("the daemon lost track of the game, its record cannot replay past that point: %s", line)
		}
	}
	if tg.Desync != "" {
		t.Fatalf("the transcript confused the tracker: %s", tg.Desync)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts == 0 || res.Differing != 0 || res.Resized != 0 {
		t.Fatalf("record %s: %s, first differing at line %d", recName, Summary(res), res.FirstDiffering)
	}
	// Same answers (as the player heard them) and attempts, in order.
	pick := func(steps []Step) (out []Step) {
		for _, s := range steps {
			if s.Kind != StepClock && s.Kind != StepPonder { // the transcript has neither
				out = append(out, s)
			}
		}
		return out
	}
	a, b := pick(rec.Steps), pick(tg.Record.Steps)
	if len(a) != len(b) {
		t.Fatalf("record has %d answers and attempts, transcript %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Move != b[i].Move || a[i].View != b[i].View {
			t.Fatalf("step %d: record line %d %+v, transcript line %d %+v", i, a[i].Line, a[i], b[i].Line, b[i])
		}
	}
	// The move list may come after the daemon has quit; when both have it,
	// it is the same.
	if tg.Record.Moves != nil && rec.Moves != nil && strings.Join(tg.Record.Moves, " ") != strings.Join(rec.Moves, " ") ||
		tg.Record.Result == nil || tg.Record.Result.Result != rec.Result.Result {
		t.Fatalf("transcript moves/result %v %v, record %v %v", tg.Record.Moves, tg.Record.Result, rec.Moves, rec.Result)
	}
	// Load finds the record beside the transcript, and the game replays
	// as from the record.
	found, notes, err := loadFile(t, trName, Source{})
	if err != nil {
		t.Fatalf("loading the transcript: %v", err)
	}
	if len(notes) != 1 || notes[0] != "using the record "+recName {
		t.Fatalf("notes %q, want that the record %s is used", notes, recName)
	}
	again, err := Run(context.Background(), found, Options{})
	if err != nil || Summary(again) != Summary(res) {
		t.Fatalf("replay of the transcript: %v, %q; from the record: %q", err, Summary(again), Summary(res))
	}
}

// TestDaemonReplaysWithVariantModel: a game of a variant whose model was
// built into engine.variant_models (a fetched model) is played with it; the
// record names it and keeps the file, and replays with 0 differing choices
// and no warning; without that file the replay says so.
func TestDaemonReplaysWithVariantModel(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	c := oppmodel.NewCounts(def.Horizon)
	c.Meta = oppmodel.Meta{Builder: "test", Source: "two short games"}
	for _, game := range [][]string{{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}, {"d4", "d5", "c4", "e6", "Nc3", "Nf6"}} {
		pos := chess.StartPosition()
		var moves []chess.Move
		for _, s := range game {
			m, err := pos.ParseSAN(s)
			if err != nil {
				t.Fatal(err)
			}
			pos.Make(m)
			moves = append(moves, m)
		}
		if err := c.AddGame(moves, [2]bool{true, true}); err != nil {
			t.Fatal(err)
		}
	}
	variants := t.TempDir()
	if err := os.WriteFile(opponent.ModelPath(variants, "wild16"), c.AppendFile(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, log := daemonGameWith(t, gameSetup{spec: "mcts:mem=2", base: 0, inc: 1, timeout: 2 * time.Minute,
		seed: 78, maxPlies: 20, variantModels: variants})
	checkDaemonGame(t, dir, log)
	recName := onlyFile(t, filepath.Join(dir, "games", "*-g1-*.jsonl"))
	rec := readFile(t, recName)
	if !strings.Contains(rec.Game.BaseModel, "two short games") || rec.Game.BaseCounts == "" || rec.Game.OpponentModel != "" {
		t.Fatalf("the record names no variant model: %+v", rec.Game)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Differing != 0 || len(res.Warnings) != 0 {
		t.Errorf("replay with the model beside the record: %d differing, warnings %q", res.Differing, res.Warnings)
	}
	if err := os.Remove(rec.Game.BaseCounts); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "the variant's model") {
		t.Errorf("no warning once the model file is gone: %q", res.Warnings)
	}
}
