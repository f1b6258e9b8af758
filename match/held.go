package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The held file. A match writes its games to the -jsonl file in index order,
// so that the file does not depend on scheduling, and a game that finishes
// while an earlier one is still in play waits for it. At a long control one
// game can hold the others back for an hour (in a 10+5 run a 600-ply game
// kept ten finished games out of the file), and a kill lost them all. So a
// game that has to wait is also written at once to the held file, FILE.held
// beside FILE: a match file of its own (the match line, then each waiting
// game's lines as the match file will have them), which -resume reads, so
// that those games are written in their turn instead of played again. A run
// that ends (every game, or an SPRT decision) removes it.

// HeldPath is the held file of match file jsonl.
func HeldPath(jsonl string) string { return jsonl + ".held" }

// HeldGame is a finished game read from a held file: its game line, and its
// lines (attempts, then the game line) as they were written.
type HeldGame struct {
	Line  GameLine
	lines []byte
}

// ReadHeld returns the complete games of the held file of match h at path,
// less those in played (the match file has them already). A missing file
// holds none; a game the kill cut is dropped, as -resume drops it from the
// match file.
func ReadHeld(path string, h MatchLine, played []GameLine) ([]HeldGame, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	skip := map[int]bool{}
	for _, g := range played {
		skip[g.Game] = true
	}
	return readHeld(path, b, h, skip)
}

// readHeld splits held file b (name is for errors) into its games: each
// game's lines are one block, its attempts followed by its game line.
func readHeld(name string, b []byte, h MatchLine, skip map[int]bool) ([]HeldGame, error) {
	end, err := resumeEnd(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	b = b[:end]
	sh, err := ReadShard(name, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	if d := matchDiff(sh.Header, h); d != "" {
		return nil, fmt.Errorf("%s is from another match: %s (the file's against this run's)", name, d)
	}
	// ReadShard checked every line; what is left is which game each is of.
	var out []HeldGame
	seen := map[int]bool{}
	start, game, k := 0, -1, 0
	for off, line := 0, 1; off < len(b); line++ {
		n := bytes.IndexByte(b[off:], '\n') + 1 // resumeEnd ends b with a newline
		var l struct {
			Type string `json:"type"`
			Game int    `json:"game"`
		}
		if len(bytes.TrimSpace(b[off:off+n])) > 0 {
			if err := json.Unmarshal(b[off:off+n], &l); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, err)
			}
		}
		off += n
		switch l.Type {
		case "match":
			start = off
		case "attempt", "game":
			if game >= 0 && l.Game != game {
				return nil, fmt.Errorf("%s:%d: a line of game %d among game %d's", name, line, l.Game, game)
			}
			game = l.Game
		}
		if l.Type != "game" {
			continue
		}
		if seen[game] {
			return nil, fmt.Errorf("%s:%d: game %d twice", name, line, game)
		}
		seen[game] = true
		if !skip[game] {
			out = append(out, HeldGame{Line: sh.Games[k], lines: b[start:off:off]})
		}
		start, game = off, -1
		k++
	}
	return out, nil
}

// HeldWriter writes a match's held file (Config.Held), creating it at the
// first game held: a run with nothing to hold leaves no file. The file starts with
// the match line and the games a resumed run took over from the held file
// before it (still to be written to the match file in their turn); it is
// made under a temporary name and renamed, so that a kill in between
// leaves the old one whole.
type HeldWriter struct {
	path   string
	header MatchLine
	prior  []HeldGame
	f      *os.File
	w      *bufio.Writer
}

// NewHeldWriter returns the writer of the held file at path (HeldPath of
// the match file) for the match whose line is header; prior are the games
// a resumed run took over from the held file before it (ReadHeld).
func NewHeldWriter(path string, header MatchLine, prior []HeldGame) *HeldWriter {
	return &HeldWriter{path: path, header: header, prior: prior}
}

// Path is the held file's name.
func (h *HeldWriter) Path() string { return h.path }

func (h *HeldWriter) Write(p []byte) (int, error) {
	if h.f == nil {
		if err := h.create(); err != nil {
			return 0, err
		}
	}
	return h.w.Write(p)
}

func (h *HeldWriter) create() error {
	tmp := h.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(appendJSON(nil, h.header))
	for _, g := range h.prior {
		w.Write(g.lines)
	}
	if err = w.Flush(); err == nil {
		err = os.Rename(tmp, h.path)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	h.f, h.w = f, w
	return nil
}

// Flush writes what is buffered (writeGame flushes after each game).
func (h *HeldWriter) Flush() error {
	if h.w == nil {
		return nil
	}
	return h.w.Flush()
}

// Finish closes the file and, unless keep, removes it.
func (h *HeldWriter) Finish(keep bool) error {
	var err error
	if h.f != nil {
		err = h.w.Flush()
		if cerr := h.f.Close(); err == nil {
			err = cerr
		}
	}
	if keep {
		return err
	}
	if rerr := os.Remove(h.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

var _ io.Writer = (*HeldWriter)(nil)
