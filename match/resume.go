package match

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// OpenResume opens the JSON Lines file of a match cut short (a killed run,
// the end of a session) to go on with it: it returns the games the file
// holds and the file, opened for appending. What follows the last complete
// game line (the attempts of a game in progress, a line cut by the kill) is
// cut off first. The file's match line must be h: the same players, budgets,
// seed, games, shard and rules, so that every game is the one an uncut run
// would have played.
func OpenResume(path string, h MatchLine) ([]GameLine, *os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	played, end, err := readResume(path, f, h)
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return played, f, nil
}

// readResume reads a match file up to its last complete game line and
// returns its games and the byte offset just past that line (or past the
// match line when no game is complete).
func readResume(name string, r io.ReadSeeker, h MatchLine) ([]GameLine, int64, error) {
	end, err := resumeEnd(r)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v", name, err)
	}
	if end == 0 {
		return nil, 0, fmt.Errorf("%s: no match line", name)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	sh, err := ReadShard(name, io.LimitReader(r, end))
	if err != nil {
		return nil, 0, err
	}
	if !sameMatch(sh.Header, h) {
		return nil, 0, fmt.Errorf("%s is from another match: its match line is %s, this run's %s", name, describe(sh.Header), describe(h))
	}
	return sh.Games, end, nil
}

// resumeEnd returns the offset just past the last complete game line, or
// past the first line (the match line) when there is none. A line is
// complete when its newline was written.
func resumeEnd(r io.Reader) (int64, error) {
	br := bufio.NewReader(r)
	gameLine := []byte(`{"type":"game"`)
	var off, end int64
	for {
		chunk, err := br.ReadSlice('\n')
		// A line's first bytes tell its type (the field written first).
		isGame := bytes.HasPrefix(chunk, gameLine)
		n := int64(len(chunk))
		for errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = br.ReadSlice('\n')
			n += int64(len(chunk))
		}
		if errors.Is(err, io.EOF) {
			return end, nil // the end, or a line the kill cut (no newline)
		}
		if err != nil {
			return 0, err
		}
		off += n
		if end == 0 || isGame {
			end = off
		}
	}
}

// sameMatch reports whether two match lines describe the same match,
// comparing the players' own budgets by value.
func sameMatch(a, b MatchLine) bool {
	same := func(x, y *Budget) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	if !same(a.P1Budget, b.P1Budget) || !same(a.P2Budget, b.P2Budget) {
		return false
	}
	a.P1Budget, a.P2Budget, b.P1Budget, b.P2Budget = nil, nil, nil, nil
	return a == b
}

// describe is a match line as it reads in an error, budgets shown by value.
func describe(h MatchLine) string {
	b := func(x *Budget) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%+v", *x)
	}
	p1, p2 := b(h.P1Budget), b(h.P2Budget)
	h.P1Budget, h.P2Budget = nil, nil
	return fmt.Sprintf("%+v p1_budget %s p2_budget %s", h, p1, p2)
}
