package replay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/cmdflag"
	"kriegbot/internal/retention"
	"kriegbot/match"
	"kriegbot/record"
)

// Command is `kriegbot replay [flags] FILE`.
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	from := fs.Int("from", 0, "show attempts from this ply (legal moves played before the attempt)")
	to := fs.Int("to", 0, "show attempts up to this ply (0: to the end)")
	htmlOut := fs.String("html", "", "also write one self-contained HTML page with every shown attempt to this file")
	top := fs.Int("top", 5, "candidates shown per attempt")
	plain := fs.Bool("plain", false, "print every attempt even on a terminal (no step-through)")
	game := fs.Int("game", 0, "transcripts: the server's game number (0: the first game we played); match files: the game's index (from 0)")
	side := fs.String("side", "", "match files: the side to replay, white or black (default: the match's first player, -p1)")
	recordName := fs.String("record", "", "transcripts: the game's per-game record, for the player spec, seed and searches (default: looked up in ../games)")
	player := fs.String("player", "", "transcripts without a record: the player spec to run")
	seed := fs.Uint64("seed", 0, "transcripts without a record: the game's seed")
	why := fs.Int("why", 0, "explain attempt N (counted from 1): what was heard, what the belief made of it, and what decided between the top candidates")
	nodes := fs.Int64("nodes", 2000, "transcripts without a record, and match files played on a clock: iterations per search")
	cmdflag.SetUsage(fs, "replay [flags] RECORD.jsonl | TRANSCRIPT.txt | MATCH.jsonl",
		`Re-runs a game from the daemon's per-game record (logs/games/*.jsonl): rebuilds
the player from the recorded spec and seed, feeds it the recorded answers and
re-runs every search with the recorded iterations. Shows per attempt our men,
the belief's heat maps, the referee's answers, the candidates and the clocks;
the last line counts the attempts where the re-run chose differently (exit 1).
A raw session transcript (logs/transcripts/*.txt) is re-fed through the protocol
reader and the daemon's game tracking; its game's record supplies spec, seed and
searches. A match's JSON Lines file (kriegbot match -jsonl) replays game -game of
the player on -side, exactly when the match ran on -nodes. On a terminal,
Enter/n, p and q step through the attempts.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return cmdflag.Fail(stderr, "replay", "want one FILE, got %d arguments", fs.NArg())
	}
	if *from < 0 || *to < 0 || (*to > 0 && *to < *from) {
		return cmdflag.Fail(stderr, "replay", "-from %d -to %d is not a range of plies", *from, *to)
	}
	if *top < 1 || *top > record.MaxTop {
		return cmdflag.Fail(stderr, "replay", "-top %d: want 1 to %d", *top, record.MaxTop)
	}
	name := fs.Arg(0)
	rec, err := load(name, source{game: *game, side: *side, record: *recordName, player: *player, seed: *seed, nodes: *nodes}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	if rec.ResyncLine != 0 {
		fmt.Fprintf(stderr, "kriegbot replay: warning: the daemon resynced this game at %s:%d (%s); replaying the attempts before it\n", name, rec.ResyncLine, rec.ResyncWhy)
	}
	if *why < 0 {
		return cmdflag.Fail(stderr, "replay", "-why %d: want an attempt number from 1", *why)
	}
	opt := Options{From: *from, To: *to, Top: *top}
	if rec.Game.Build != "" {
		opt.Build = buildinfo.ID()
	}
	if t, ok := terminal(stderr); ok {
		opt.Progress = func(done, total int) {
			if done%4 == 0 || done == total {
				fmt.Fprintf(t, "\rreplaying attempt %d of %d ", done, total)
			}
		}
	}
	res, err := Run(context.Background(), rec, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	if *why > 0 {
		if err := WriteWhy(stdout, res, *why); err != nil {
			fmt.Fprintf(stderr, "kriegbot replay: -why %d: %v\n", *why, err)
			return cmdflag.Failure
		}
		return 0
	}
	return finish(res, *htmlOut, *plain, stdout, stderr)
}

// source is what the flags say of the file to replay.
type source struct {
	game   int
	side   string
	record string
	player string
	seed   uint64
	nodes  int64
}

// load reads a per-game record, a game of a match file, or a game of a
// transcript with its record. All are read as streams: records and match
// files line by line with bounded lines, a transcript entry by entry,
// keeping one game.
func load(name string, src source, stderr io.Writer) (*Record, error) {
	game, recordName, player, seed, nodes := src.game, src.record, src.player, src.seed, src.nodes
	f, err := retention.Open(name) // a record may have been gzipped since
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if isMatch(br) {
		return loadMatch(br, name, src, stderr)
	}
	if isRecord(br) {
		return ReadRecord(br, name)
	}
	tg, err := ReadTranscript(br, name, TranscriptOptions{Game: game})
	if err != nil {
		return nil, err
	}
	if tg.Desync != "" {
		fmt.Fprintf(stderr, "kriegbot replay: the daemon's tracker lost track of game %d: %s\n", tg.Record.Game.Number, tg.Desync)
	}
	if recordName == "" && player == "" {
		recordName = findRecord(name, tg.Record)
		if recordName == "" {
			return nil, fmt.Errorf("%s: no record of game %d found next to the transcript: give -record FILE, or -player SPEC and -seed N", name, tg.Record.Game.Number)
		}
		fmt.Fprintf(stderr, "kriegbot replay: using the record %s\n", recordName)
	}
	if recordName != "" {
		rf, err := retention.Open(recordName)
		if err != nil {
			return nil, err
		}
		defer rf.Close()
		rec, err := ReadRecord(rf, recordName)
		if err != nil {
			return nil, err
		}
		return tg.Record, tg.AttachRecord(rec)
	}
	if nodes < 1 {
		return nil, fmt.Errorf("-nodes %d: want at least 1", nodes)
	}
	tg.Record.Game.Player, tg.Record.Game.Seed = player, seed
	for i := range tg.Record.Steps {
		if tg.Record.Steps[i].Kind == StepAttempt {
			tg.Record.Steps[i].Search = &Search{Iterations: nodes}
		}
	}
	fmt.Fprintf(stderr, "kriegbot replay: no record: every search runs %d iterations, so choices may differ from the live ones\n", nodes)
	return tg.Record, nil
}

// loadMatch reads game src.game of a match file as a record of the player
// on src.side.
func loadMatch(br *bufio.Reader, name string, src source, stderr io.Writer) (*Record, error) {
	g, err := match.ReadGame(name, br, src.game)
	if err != nil {
		return nil, err
	}
	us := chess.White
	switch src.side {
	case "white":
	case "black":
		us = chess.Black
	case "":
		if g.Result.P1 == "black" {
			us = chess.Black
		}
	default:
		return nil, fmt.Errorf("-side %q: want white or black", src.side)
	}
	rec, err := FromMatch(g, name, us, src.nodes)
	if err == nil && rec.Approximate {
		fmt.Fprintf(stderr, "kriegbot replay: the match ran on a clock and its file does not hold the searches' sizes: every search runs %d iterations, so choices may differ from the match's\n", src.nodes)
	}
	return rec, err
}

// isMatch says whether the stream starts with a match file's first line.
func isMatch(br *bufio.Reader) bool {
	b, _ := br.Peek(64)
	return bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte(`{"type":"match"`))
}

// isRecord says whether the stream starts like JSON (a record) rather than
// a transcript's time stamp.
func isRecord(br *bufio.Reader) bool {
	for i := 1; i <= 64; i++ {
		b, err := br.Peek(i)
		if err != nil {
			return false
		}
		switch b[i-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// findRecord looks for the game's record where the daemon writes it: in
// games/ beside the transcripts folder, named ...-g<N>-..., with the same
// players and a start within a minute of the transcript's.
func findRecord(transcript string, g *Record) string {
	dir := filepath.Join(filepath.Dir(transcript), "..", "games")
	names, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("*-g%d-*.jsonl", g.Game.Number)))
	gzipped, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("*-g%d-*.jsonl.gz", g.Game.Number)))
	for _, n := range append(names, gzipped...) {
		f, err := retention.Open(n)
		if err != nil {
			continue
		}
		line, err := record.ReadLine(bufio.NewReader(f))
		f.Close()
		if err != nil {
			continue
		}
		r, err := ReadRecord(bytes.NewReader(line), n)
		if err != nil {
			continue
		}
		d := r.Game.Start.Sub(g.Game.Start)
		if r.Game.Number == g.Game.Number && strings.EqualFold(r.Game.White, g.Game.White) &&
			strings.EqualFold(r.Game.Black, g.Game.Black) && d < time.Minute && d > -time.Minute {
			return n
		}
	}
	return ""
}

// finish writes the replay: HTML if asked, then the step-through view on a
// terminal or the text of every attempt; exit 1 on differing choices.
func finish(res *Result, htmlOut string, plain bool, stdout, stderr io.Writer) int {
	if htmlOut != "" {
		if err := writeHTMLFile(htmlOut, res); err != nil {
			fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
			return cmdflag.Failure
		}
	}
	var err error
	if t, ok := terminal(stdout); ok && !plain {
		err = Browse(os.Stdin, t, res)
	} else {
		err = WriteText(stdout, res, false)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	if res.Differing > 0 {
		fmt.Fprintf(stderr, "kriegbot replay: %d of %d attempts chose differently (first at %s:%d)\n",
			res.Differing, res.Attempts, res.Record.Name, res.FirstDiffering)
		return cmdflag.Failure
	}
	if res.Resized > 0 {
		fmt.Fprintf(stderr, "kriegbot replay: %d of %d searches chose the recorded attempt but grew another tree (first at %s:%d): "+
			"the game was not repeated exactly\n", res.Resized, res.Attempts, res.Record.Name, res.FirstResized)
		return cmdflag.Failure
	}
	return cmdflag.OK
}

// terminal returns stdout as a terminal file, if it is one.
func terminal(w io.Writer) (*os.File, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return nil, false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil, false
	}
	return f, true
}
