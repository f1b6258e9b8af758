package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/internal/retention"
	"kriegbot/record"
)

// Source says which game of a file to replay and, for a transcript with
// no record of its game, how to rebuild the player.
type Source struct {
	// Game is a transcript's game: the server's game number (0: the first
	// game we played).
	Game int
	// Record is the transcript's game's record ("": looked up in ../games
	// beside the transcripts folder).
	Record string
	// Player, Seed and Nodes stand in for a record: the player spec, the
	// game's seed and the iterations of every search.
	Player string
	Seed   uint64
	Nodes  int64
}

// Load reads the game to replay from br, the stream of file name: a
// per-game record, or a game of a session transcript with its record. Both
// are read as streams: a record line by line with bounded lines, a
// transcript entry by entry, keeping one game. note tells the person what
// was assumed or found on the way (the record used, a lost track).
func Load(br *bufio.Reader, name string, src Source, note func(format string, args ...any)) (*Record, error) {
	game, recordName, player, seed, nodes := src.Game, src.Record, src.Player, src.Seed, src.Nodes
	if isRecord(br) {
		return ReadRecord(br, name)
	}
	tg, err := ReadTranscript(br, name, TranscriptOptions{Game: game})
	if err != nil {
		return nil, err
	}
	if tg.Desync != "" {
		note("the daemon's tracker lost track of game %d: %s", tg.Record.Game.Number, tg.Desync)
	}
	if recordName == "" && player == "" {
		recordName = findRecord(name, tg.Record)
		if recordName == "" {
			return nil, fmt.Errorf("%s: no record of game %d found next to the transcript: give -record FILE, or -player SPEC and -seed N", name, tg.Record.Game.Number)
		}
		note("using the record %s", recordName)
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
	note("no record: every search runs %d iterations, so choices may differ from the live ones", nodes)
	return tg.Record, nil
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
