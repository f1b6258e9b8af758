package replaycmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"kriegbot/engine/chess"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/cmdflag"
	"kriegbot/internal/retention"
	"kriegbot/match"
	"kriegbot/record"
	"kriegbot/replay"
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
	rec, err := load(name, *side, replay.Source{Game: *game, Record: *recordName, Player: *player, Seed: *seed, Nodes: *nodes}, stderr)
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
	opt := replay.Options{From: *from, To: *to, Top: *top}
	if rec.Game.Build != "" {
		opt.Build = buildinfo.ID()
	}
	if t, ok := cmdflag.Terminal(stderr); ok {
		opt.Progress = func(done, total int) {
			if done%4 == 0 || done == total {
				fmt.Fprintf(t, "\rreplaying attempt %d of %d ", done, total)
			}
		}
	}
	res, err := replay.Run(context.Background(), rec, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
		return cmdflag.Failure
	}
	if *why > 0 {
		if err := replay.WriteWhy(stdout, res, *why); err != nil {
			fmt.Fprintf(stderr, "kriegbot replay: -why %d: %v\n", *why, err)
			return cmdflag.Failure
		}
		return 0
	}
	return finish(res, *htmlOut, *plain, stdout, stderr)
}

// load reads the game to replay from file name: a game of a match file
// (converted by match into the record of the player on side), or what
// replay.Load reads, a per-game record or a game of a transcript.
func load(name, side string, src replay.Source, stderr io.Writer) (*record.Record, error) {
	f, err := retention.Open(name) // a record may have been gzipped since
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if isMatch(br) {
		return loadMatch(br, name, side, src, stderr)
	}
	return replay.Load(br, name, src, func(format string, args ...any) {
		fmt.Fprintf(stderr, "kriegbot replay: "+format+"\n", args...)
	})
}

// loadMatch reads game src.Game of a match file as a record of the player
// on side.
func loadMatch(br *bufio.Reader, name, side string, src replay.Source, stderr io.Writer) (*record.Record, error) {
	g, err := match.ReadGame(name, br, src.Game)
	if err != nil {
		return nil, err
	}
	us := chess.White
	switch side {
	case "white":
	case "black":
		us = chess.Black
	case "":
		if g.Result.P1 == "black" {
			us = chess.Black
		}
	default:
		return nil, fmt.Errorf("-side %q: want white or black", side)
	}
	rec, err := g.SideRecord(name, us, src.Nodes)
	if err == nil && rec.Approximate {
		fmt.Fprintf(stderr, "kriegbot replay: the match ran on a clock and its file does not hold the searches' sizes: every search runs %d iterations, so choices may differ from the match's\n", src.Nodes)
	}
	return rec, err
}

// isMatch says whether the stream starts with a match file's first line.
func isMatch(br *bufio.Reader) bool {
	b, _ := br.Peek(64)
	return bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte(`{"type":"match"`))
}

// finish writes the replay: HTML if asked, then the step-through view on a
// terminal or the text of every attempt; exit 1 on differing choices.
func finish(res *replay.Result, htmlOut string, plain bool, stdout, stderr io.Writer) int {
	if htmlOut != "" {
		if err := writeHTMLFile(htmlOut, res); err != nil {
			fmt.Fprintf(stderr, "kriegbot replay: %v\n", err)
			return cmdflag.Failure
		}
	}
	var err error
	if t, ok := cmdflag.Terminal(stdout); ok && !plain {
		err = replay.Browse(os.Stdin, t, res)
	} else {
		err = replay.WriteText(stdout, res, false)
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

// writeHTMLFile writes the HTML page to name.
func writeHTMLFile(name string, res *replay.Result) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := replay.WriteHTML(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
